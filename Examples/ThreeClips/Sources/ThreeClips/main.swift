import Foundation
import Segue

// Joins three clips (videos or photos) with a crossfade and a push, at 1280x720 (or WIDTHxHEIGHT) and 30 fps, with the first clip's
// audio, and renders them to an MP4, printing progress. Ctrl-C stops it cleanly: the handlers installed below remove
// the temporary file (cancelling the render's task does the same, for programs that handle signals themselves).
let arguments = CommandLine.arguments.dropFirst()
let paths = Array(arguments)
let size = paths.count == 5 ? paths[4].split(separator: "x").compactMap { Int($0) } : [1280, 720]
guard paths.count == 4 || paths.count == 5, size.count == 2, size.allSatisfy({ $0 > 0 && $0 % 2 == 0 }) else {
    print("usage: ThreeClips CLIP CLIP CLIP OUT.mp4 [WIDTHxHEIGHT, even numbers; default 1280x720]")
    exit(2)
}
SignalCleanup.installHandlers()

var edit = Edit(clips: [
    ClipSpec(path: paths[0]),
    ClipSpec(path: paths[1], transition: Transition(kind: .crossfade, duration: MediaTime(seconds: 0.5))),
    ClipSpec(path: paths[2], transition: Transition(kind: .push, duration: MediaTime(seconds: 0.5), direction: .left)),
])
edit.renderSize = PixelSize(width: size[0], height: size[1])
edit.frameRate = FrameRate(30)
edit.output.crf = 20

do {
    let timeline = try await resolve(edit)
    print(TimelineReport(timeline).text, terminator: "")

    var options = ExportOptions()
    options.log = { print($0) }
    let session = ExportSession(edit: edit, outputPath: paths[3], options: options)
    async let exported = session.export()
    for await p in session.progress {   // at most four a second, then "done"
        print(String(format: "frame %lld/%lld, %.1f frames/s", p.frame, p.total, p.fps))
    }
    let result = try await exported
    print("wrote \(result.path): \(result.frames) frames, rendered by \(result.renderer)")
} catch let error as SegueError {
    print("ThreeClips: \(error)")
    exit(error.exitStatus)
}
