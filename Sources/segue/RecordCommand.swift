import Foundation
import Dispatch
import Segue

/// `segue record SOURCE... -o take.mp4`: a `CaptureSession` of the library. SIGINT and SIGTERM stop the take, which
/// is then finished (exit 0); a source that falls silent for `--timeout` mid-take leaves the take finished and exits 1.
func recordCommand(_ a: Arguments) throws {
    guard !a.positional.isEmpty else { throw UsageError("give one or more sources: record SOURCE... -o take.mp4") }
    let out = try a.requireOutput()
    var o = CaptureOptions()
    o.duration = a.duration
    o.segment = a.segment
    o.square = a.square
    o.size = a.size
    o.frameRate = a.fps
    if let p = a.preset {
        guard let preset = LivePreset(rawValue: p) else { throw UsageError("record's --preset must be high, medium or low (got \(p))") }
        o.preset = preset
    }
    o.preview = a.preview
    o.reconnect = a.reconnect
    if let t = a.timeout { o.timeout = t }
    o.backend = a.options.backend
    o.gpu = a.options.egl
    o.verbose = a.options.verbose
    o.log = { say($0) }
    let session = CaptureSession(sources: a.positional, outputPath: out, options: o)
    // The take is finished on SIGINT/SIGTERM, not abandoned: the handlers `main` installed are replaced.
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        s.setEventHandler { session.stop() }
        s.resume()
        sources.append(s)
    }
    defer { sources.forEach { $0.cancel() } }
    let printer = recordProgressPrinter(a.progress ?? defaultProgressStyle())
    let r = try waitFor { try await session.start(progress: printer) }
    let files = r.files.count == 1 ? r.files[0] : "\(r.files.count) files (\(r.files.first ?? "") … \(r.files.last ?? ""))"
    let videoWay = r.videoFrames == 0 ? "no video" : r.videoCopied ? "copied" : "re-encoded"
    let audioWay = r.audioPackets == 0 ? "no audio" : r.audioCopied ? "copied" : "re-encoded"
    say(String(format: "segue: wrote %@: %.3f s, %lld video frames (%@), %lld audio packets (%@); dropped %lld (missing in the source %lld, behind %lld, undecodable or repeated %lld), late %lld; %@",
               files, r.seconds, r.videoFrames, videoWay, r.audioPackets, audioWay,
               r.dropped, r.sourceGaps, r.droppedBehind, r.droppedInvalid, r.late, r.endReason)
        + (r.timestampJumps > 0 ? ", \(r.timestampJumps) timestamp jump(s) smoothed" : "")
        + (r.reconnects > 0 ? ", reconnected \(r.reconnects) time(s)" : "")
        + (r.fragmented.isEmpty ? "" : "; left fragmented (no room to rewrite): \(r.fragmented.joined(separator: ", "))"))
    if r.ended == .sourceSilent { throw TakeCutShort(reason: r.endReason, files: r.files) }
}

/// The source fell silent mid-take (`--timeout`): the take so far is finished and kept, but it is not what was asked
/// for. Exit status 1.
struct TakeCutShort: SegueError {
    let reason: String
    let files: [String]
    var description: String { "\(reason); the take so far is in \(files.joined(separator: ", "))" }
    var exitStatus: Int32 { ExitStatus.failed }
}

/// Prints recording progress on standard error: a line redrawn in place (TTY), plain lines, or JSON lines.
func recordProgressPrinter(_ style: ProgressStyle) -> (@Sendable (RecordingProgress) -> Void)? {
    @Sendable func write(_ s: String) { FileHandle.standardError.write(s.data(using: .utf8)!) }
    @Sendable func line(_ p: RecordingProgress) -> String {
        String(format: "recorded %d:%04.1f  %.1f MB  %lld frames  dropped %lld  late %lld%@%@", Int(p.seconds) / 60, p.seconds.truncatingRemainder(dividingBy: 60),
               Double(p.bytes) / 1e6, p.frames, p.dropped, p.late, p.file > 0 ? "  file \(p.file)" : "", p.behind ? "  BEHIND" : "")
    }
    switch style {
    case .none: return nil
    case .json:
        return { p in
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            if let d = try? e.encode(p), let s = String(data: d, encoding: .utf8) { write(s + "\n") }
        }
    case .plain: return { p in write(line(p) + (p.stage == "done" ? "  done\n" : "\n")) }
    case .bar: return { p in write("\r" + line(p) + "   " + (p.stage == "done" ? "\n" : "")) }
    }
}
