import Foundation
import Segue

// Joins three clips (videos or photos) with a crossfade and a push, at 1280x720 and 30 fps, with the first clip's
// audio, and renders them to an MP4, printing progress. Ctrl-C stops it cleanly: the handlers installed below remove
// the temporary file (cancelling the render's task does the same, for programs that handle signals themselves).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 4 else {
    print("usage: ThreeClips CLIP CLIP CLIP OUT.mp4")
    exit(2)
}
let paths = Array(arguments)
SignalCleanup.installHandlers()

var edit = Edit(clips: [
    ClipSpec(path: paths[0]),
    ClipSpec(path: paths[1], transition: Transition(kind: .crossfade, duration: MediaTime(seconds: 0.5))),
    ClipSpec(path: paths[2], transition: Transition(kind: .push, duration: MediaTime(seconds: 0.5), direction: .left)),
])
edit.renderSize = PixelSize(width: 1280, height: 720)
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
