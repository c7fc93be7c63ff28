import Foundation
import Segue
import SeguePipeline
import SegueMedia
import SegueFarm

// segue: a thin command line: a client of the Segue library (render, probe, frame, plan) and of SegueFarm (chunks).
// Exit status: 0 success, 1 a render (or comparison) failed, 2 invalid edit or command line (or stitch refused),
// 3 (`farm status` only) the farm's work is still queued or running, 75 a chunk render failed in a way worth retrying (GPU/EGL start-up, output I/O).

var args = Array(CommandLine.arguments.dropFirst())
guard let name = args.first else { print(Help.overview); exit(ExitStatus.invalid) }
args.removeFirst()
guard let spec = CommandTable.named(name), let run = spec.run else {
    say("segue: \(CommandTable.unknown(name))\n(`segue help` lists the commands)")
    exit(ExitStatus.invalid)
}
let command = spec.name
SignalCleanup.installHandlers()
// Each segue process renders once: its heap is fresh, and zero-filling every allocation would only cost memory.
HeapPolicy.zeroFilledAllocations = false
var chunkRender = false
let ffmpegLines = FFmpegLog.Once()
do {
    let arguments = try Arguments(args, command: command)
    chunkRender = command == "render" && (arguments.plan != nil || arguments.chunk != nil)
    // A command with subcommands (farm) checks its options once it knows which.
    if spec.subcommands.isEmpty { try OptionTable.check(arguments.given, scope: command) }
    try OptionTable.checkRepeats(arguments.given)
    // FFmpeg's own lines (a corrupt packet, a deprecated option) only with --verbose, naming the file: each line once,
    // as it first comes; how often the repeated ones came is said at the end.
    if arguments.options.verbose {
        let once = ffmpegLines
        FFmpegLog.setHandler { if once.first($0) { say("ffmpeg: \($0)") } }
    }
    try run(arguments)
    OpenDocuments.shared.closeAll()
    sayRepeatedFFmpegLines()
} catch {
    OpenDocuments.shared.closeAll()
    sayRepeatedFFmpegLines()
    exit(report(error, command: command, chunkRender: chunkRender))
}

/// "ffmpeg: LINE (came 90 times; shown once)" for each FFmpeg line `--verbose` showed once but that came again.
func sayRepeatedFFmpegLines() {
    for r in ffmpegLines.repeats() { say("ffmpeg: \(r.line) (came \(r.count) times; shown once)") }
}

/// The one place an error becomes a message on standard error and an exit status: the status is the error's own
/// (`SegueError.exitStatus`; 1 for errors that are not Segue's), or 75 for a chunk render's retryable failure.
func report(_ error: Error, command: String, chunkRender: Bool) -> Int32 {
    let retry = chunkRender && ((error as? SegueError)?.isRetryable ?? false)
    switch error {
    case let h as HelpRequested:
        do { print(try Help.text(command: command, arguments: h.positional)); return 0 } catch { return report(error, command: command, chunkRender: false) }
    case _ where retry: say("segue: \(command) failed (transient, worth a retry): \(error)")
    case let e as UsageError: say("segue: \(e)\n(`segue help \(command)` lists its options)")
    case let e as EditError: say("segue: invalid edit: \(e)")
    case let e as InputRefused: say("segue: refused: \(e)")
    case let e as LimitExceeded: say("segue: refused: \(e)")
    case let e as StitchRefused: say("segue: stitch refused: \(e)")
    case let e as GPUError: say("segue: GPU \(command) failed: \(e)")
    case let e as PlanMismatch: say("segue: \(e)")
    case let e as StaleResolvedEdit: say("segue: refused: \(e)")
    case let e as ComparisonFailed: say("segue: \(e.message)")
    case let e as MissingMedia: say("segue: \(command) failed: \(e)")
    case let e as RenderStopped: say("segue: \(e)")
    default: say("segue: \(command) failed: \(error)")
    }
    return retry ? ExitStatus.retry : (error as? SegueError)?.exitStatus ?? ExitStatus.failed
}
