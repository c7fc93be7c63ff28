import Foundation
import Synchronization
import Segue
import SeguePipeline
import SegueMedia

func say(_ s: String) { FileHandle.standardError.write((s.hasSuffix("\n") ? s : s + "\n").data(using: .utf8)!) }

func printJSON<T: Encodable>(_ value: T) throws {
    let e = JSONEncoder()
    e.outputFormatting = [.prettyPrinted, .sortedKeys]
    e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    print(String(data: try e.encode(value), encoding: .utf8)!)
}

/// `segue render`: an `ExportSession` of the library, its progress drawn on standard error. An edit as written is
/// resolved once and rendered (as `segue resolve` would save it); a resolved edit renders from its recorded facts.
func renderCommand(_ given: Arguments) throws {
    if given.plan != nil || given.chunk != nil { return try renderChunkCommand(given) }
    if given.cache != nil { return try cachedRenderCommand(given) }
    if given.chunks != nil { throw UsageError("--chunks applies to a render with --cache DIR (or to plan and farm)") }
    let (edit, a) = try given.resolvedInput()
    let out = try a.requireOutput()
    let printer = progressPrinter(a.progress ?? defaultProgressStyle())
    let started = Date()
    let session = ExportSession(edit: edit, outputPath: out, options: a.exportOptions)
    // Ctrl-C stops the render before its next frame (what was written kept with --keep-partial; RenderStopped says
    // which frame, exit status 130); a second one ends the process at once, as SIGTERM does (`SignalCleanup`).
    let interrupts = Atomic(0)
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    interrupt.setEventHandler {
        guard interrupts.add(1, ordering: .relaxed).newValue > 1 else { return session.stop() }
        say("segue: render interrupted again: stopped at once; " + (a.options.keepPartial ? "\(out) holds what was written (fragmented MP4)" : "nothing kept"))
        SignalCleanup.exitNow(ExitStatus.interrupted)
    }
    interrupt.resume()
    defer { interrupt.cancel() }
    // Printed from the render's thread as it comes: no second task to read the stream.
    let result = try waitFor { try await session.export(progress: printer) }
    say(String(format: "segue: wrote %@: %lld frames at %@ fps (%@), %.3f s, rendered by %@ in %.1f s",
               result.path, result.frames, result.timeline.frameRate.description, result.timeline.renderSize.description,
               Double(result.frames) / result.timeline.frameRate.framesPerSecond, result.renderer, Date().timeIntervalSince(started)))
}

/// Compositing + readback alone (no decoding, no encoding), frames per second, per transition (`CompositeBenchmark`).
func benchCompositeCommand(_ a: Arguments) throws {
    // Each frame drawn by the renderer a render would draw it with (auto: the CPU where the only GPU is a software rasteriser).
    let renderer = try RenderJob.makeRenderer(a.options)
    let size = a.size ?? PixelSize(width: 1920, height: 1080)
    let kinds = a.transitions.compactMap { $0 }
    // By default the three transitions `make gpu-check` reports (the built-ins all draw through the same layers).
    let defaults: [Transition.Kind] = [.crossfade, .push, .wipe]
    let transitions = kinds.isEmpty ? defaults.map { Transition(kind: $0, duration: MediaTime(value: 1, timescale: 1)) } : kinds
    var results: [CompositeBenchmark.Result] = []
    for t in transitions {
        let r = try CompositeBenchmark.run(renderer: renderer, size: size, transition: t, frames: a.frames ?? 120)
        results.append(r)
        if !a.json { print(String(format: "%@ %dx%d: %.1f frames/s (%d frames in %.2f s) on %@", r.transition, r.width, r.height, r.framesPerSecond, r.frames, r.seconds, r.renderer)) }
    }
    if a.json { try printJSON(results) }
}

/// `segue probe FILE...`: reports every file it can read, says why for each it cannot (on standard error, as it
/// goes), and fails at the end (`ProbeFailed`, exit status 1) if any could not be read.
func probeCommand(_ a: Arguments) throws {
    guard !a.positional.isEmpty else { throw UsageError("give one or more media files") }
    var reports: [ProbeReport] = [], failures: [(path: String, error: SegueError)] = []
    for p in a.positional {
        do {
            let toneMap = a.toneMap ?? .default, policy = a.inputPolicy
            let report = try waitFor { try await probe(p, toneMap: toneMap, policy: policy) }
            reports.append(report)
            if !a.json { print((reports.count > 1 ? "\n" : "") + report.text, terminator: "") }
        } catch let e as MediaError {
            say("segue: probe failed: \(e)")
            failures.append((e.path ?? p, e))
        } catch let e as InputRefused {
            say("segue: probe refused: \(e)")
            failures.append((p, e))
        } catch let e as LimitExceeded {
            say("segue: probe refused: \(p): \(e)")
            failures.append((p, e))
        }
    }
    if a.json { try printJSON(reports) }
    if !failures.isEmpty { throw ProbeFailed(failures: failures, files: a.positional.count) }
}

/// Some of the files given to `probe` could not be read or were refused (each was reported as it failed). Exit status 1.
struct ProbeFailed: SegueError {
    let failures: [(path: String, error: SegueError)]
    let files: Int
    var description: String { "\(failures.count) of \(files) file(s) could not be read: \(failures.map(\.path).joined(separator: ", "))" }
    var exitStatus: Int32 { ExitStatus.failed }
}

func planCommand(_ given: Arguments) throws {
    if given.chunks != nil { return try planChunksCommand(given) }
    if given.output != nil { throw UsageError("-o applies to a chunk plan: add --chunks N") }
    let (edit, a) = try given.resolvedInput()
    let policy = a.inputPolicy
    let timeline = try waitFor { try await resolve(edit, policy: policy) }
    timeline.warnings.forEach { say("warning: \($0)") }
    let report = TimelineReport(timeline)
    if a.json {
        try printJSON(PlanJSON(report: report, smart: edit.output.smart ? try SmartPlan.make(timeline).report : nil))
    } else {
        print(report.text, terminator: "")
        if edit.output.smart {
            // What a smart render copies and why the rest is encoded (`SmartPlan`).
            print("smart rendering:")
            try SmartPlan.make(timeline).lines.forEach { print("  \($0)") }
        }
        if a.options.verbose { report.notes.forEach { say("segue: \($0)") } }
    }
}

/// `segue plan --json`: the timeline report, and for a smart edit its smart plan (`"smart"`: `SmartPlan.Report`).
struct PlanJSON: Encodable {
    let report: TimelineReport
    let smart: SmartPlan.Report?
    enum Keys: String, CodingKey { case smart }
    func encode(to encoder: Encoder) throws {
        try report.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(smart, forKey: .smart)
    }
}

/// `segue export-otio EDIT.json -o EDIT.otio`: the library's `exportOTIO` (the edit resolved, then written as OTIO).
func exportOTIOCommand(_ given: Arguments) throws {
    let (edit, a) = try given.resolvedInput()
    let out = try a.requireOutput()
    let policy = a.inputPolicy
    let name = a.positional.count == 1 ? URL(fileURLWithPath: a.positional[0]).deletingPathExtension().lastPathComponent : ""
    let (timeline, warnings) = try RenderJob.exportOTIO(edit, to: out, name: name, policy: policy)
    timeline.warnings.forEach { say("warning: \($0)") }
    warnings.forEach { say("warning: \($0)") }
    let transitions = timeline.placements.filter { $0.spec.transition != nil }.count
    say("segue: wrote \(out): \(timeline.tracks.count) video track(s), \(timeline.placements.count) item(s), \(transitions) transition(s), "
        + "\(timeline.frameCount) frames at \(timeline.frameRate) fps")
}

/// `segue transitions [--json]`: every transition with its summary, directions and parameters.
func transitionsCommand(_ a: Arguments) throws {
    guard a.positional.isEmpty else { throw UsageError("transitions takes no arguments (only --json)") }
    let catalogue = TransitionCatalogue()
    if a.json { try printJSON(catalogue) } else { print(catalogue.text, terminator: "") }
}

/// `segue resolve EDIT [options] -o resolved.json`: the edit with the command line's options folded in and what its
/// render decides before frame 0 recorded (`RenderJob.resolvedEdit`), written as an edit file (`EditFileWriter`) that
/// `segue render` renders byte for byte as it would render EDIT with those options.
func resolveCommand(_ given: Arguments) throws {
    let (edit, a) = try given.resolvedInput()
    let out = try a.requireOutput()
    guard out.lowercased().hasSuffix(".json") else { throw UsageError("the resolved edit is an edit file: give -o a .json name (got \(out))") }
    try RenderJob.refuseOverwriting(inputsOf: edit, with: out)
    let watchdog = a.options.frameTimeout.map { Watchdog(seconds: $0) }
    let (resolved, timeline) = try RenderJob.resolvedEdit(edit, options: a.options, bundle: a.bundlePath, watchdog: watchdog)
    timeline.warnings.forEach { say("warning: \($0)") }
    let data = try EditFileWriter.data(resolved)
    do { try data.write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
        throw MediaError(path: out, function: "write", message: "cannot write the resolved edit: \(error.localizedDescription)", outputIO: true)
    }
    let media = resolved.resolution?.media.count ?? 0
    say("segue: wrote \(out): \(timeline.renderSize) at \(timeline.frameRate) fps, \(timeline.frameCount) frames, \(media) media file(s) resolved")
}

/// `segue schema`: the edit file's JSON Schema (draft 2020-12), from the declarations the parser reads (`EditSchema`).
func schemaCommand(_ a: Arguments) throws {
    guard a.positional.isEmpty else { throw UsageError("schema takes no arguments") }
    FileHandle.standardOutput.write(EditSchema.json)
}

/// `segue frame`: the library's `renderFrame` for `--frame N` or `--at SECONDS` (the frame showing that instant).
func frameCommand(_ given: Arguments) throws {
    let (edit, a) = try given.resolvedInput()
    let out = try a.requirePNGOutput()
    let position: FramePosition
    if let n = a.frame { position = .frame(n) } else if let t = a.at { position = .time(MediaTime(seconds: t)) } else {
        throw UsageError("give --at SECONDS or --frame N")
    }
    let options = a.exportOptions
    let f = try waitFor { try await renderFrame(edit, position, options: options) }
    try writePNG(f.image, to: out)
    let timeline = f.timeline
    say(String(format: "segue: wrote %@: frame %lld (%.3f s) of %lld, %@, %d source frames decoded, rendered by %@",
               out, f.frame, timeline.time(ofFrame: f.frame).seconds, timeline.frameCount, timeline.renderSize.description, f.decodedFrames, f.renderer))
}

func sheetCommand(_ given: Arguments) throws {
    let (edit, a) = try given.resolvedInput()
    let out = try a.requirePNGOutput()
    let timeline = try RenderJob.resolve(edit, policy: a.inputPolicy)
    let renderer = try RenderJob.makeRenderer(a.options, for: timeline)
    let (image, tiles) = try ContactSheet.render(timeline, renderer: renderer, columns: a.columns, tileWidth: a.tileWidth, progress: a.sheetProgress,
                                                 frameTimeout: a.options.frameTimeout)
    try StillImage.writePNG(image, to: out)
    say("segue: wrote \(out): \(image.width)x\(image.height), \(tiles.count) tiles")
}

func compareCommand(_ given: Arguments) throws {
    let a = given
    let result: VideoComparison
    if a.backends {
        guard a.positional.count == 1 else { throw UsageError("--backends takes one edit file") }
        if a.options.backend != .auto { throw UsageError("compare --backends renders on both backends: drop --backend") }
        var (edit, b) = try a.resolvedInput()
        edit.output.codec = OutputFormat.mkv.codec   // lossless: the difference is the renderers' alone
        let dir = NSTemporaryDirectory() + "segue-compare-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = b.options
        options.audio = false
        options.backend = .gpu
        let gpu = "\(dir)/gpu.\(OutputFormat.mkv.extensions[0])", cpu = "\(dir)/cpu.\(OutputFormat.mkv.extensions[0])"
        try RenderJob.render(edit, to: gpu, options: options)
        options.backend = .cpu
        try RenderJob.render(edit, to: cpu, options: options)
        result = try VideoComparison(gpu, cpu)
    } else {
        guard a.positional.count == 2 else { throw UsageError("compare takes two videos (or --backends EDIT.json)") }
        // Two finished videos: nothing is rendered, so options about rendering would be silently ignored.
        if let bad = a.given.first(where: { !["--min-psnr", "--json", "--verbose", "--help"].contains($0) }) {
            throw UsageError("segue compare A B takes only --min-psnr and --json; \(bad) is for compare --backends EDIT.json")
        }
        for p in a.positional where !FileManager.default.fileExists(atPath: p) { throw MediaError(path: p, function: nil, message: "file not found") }
        result = try VideoComparison(a.positional[0], a.positional[1])
    }
    if a.json { try printJSON(result) } else { print(result.text, terminator: "") }
    if result.countA != result.countB {
        throw ComparisonFailed(message: "frame counts differ: \(result.countA) vs \(result.countB)")
    }
    if let m = a.minPSNR, let w = result.worst, w.min < m {
        throw ComparisonFailed(message: String(format: "frame %d is under --min-psnr %.2f dB (%.2f dB)", w.frame, m, w.min))
    }
}

/// `compare` found the videos further apart than asked (or of different lengths). Exit status 1.
struct ComparisonFailed: SegueError {
    let message: String
    var description: String { message }
    var exitStatus: Int32 { ExitStatus.failed }
}
