import Foundation
import Segue

// segue-exit-check: a library program that renders one clip on the GPU and exits at once, however the render ended
// (issue 22 #11: a process exiting right after a render error died of SIGSEGV inside libEGL about once in 75 runs).
// Usage: segue-exit-check CLIP OUTPUT. Exit status 0 rendered, 3 the render failed; a crash is a signal.
let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write(Data("usage: segue-exit-check CLIP OUTPUT\n".utf8))
    exit(2)
}
var options = ExportOptions()
options.backend = .gpu
options.audio = false
do {
    try await ExportSession(edit: Edit(clips: [ClipSpec(path: args[1])]), outputPath: args[2], options: options).export()
    exit(0)
} catch {
    FileHandle.standardError.write(Data("render failed: \(error)\n".utf8))
    exit(3)
}
