import Foundation
import SegueCore
import SeguePipeline
import SegueEdit
import SegueMedia
import SegueGL

/// How a chunk render ended.
public enum ChunkOutcome {
    /// Rendered now.
    case rendered(ChunkRecord)
    /// A valid chunk was already there: nothing was done.
    case alreadyDone(ChunkRecord)
}

/// A failure worth retrying elsewhere or later that no library reported (the forced failures of
/// `SEGUE_TEST_FAIL_CHUNK`): exit status 1, or 75 (`EX_TEMPFAIL`) from a chunk render, for render-farm engines.
public struct TransientFailure: SegueError {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var exitStatus: Int32 { ExitStatus.failed }
    public var isRetryable: Bool { true }
}

extension RenderJob {
    /// Renders chunk `index` of `plan` (video only) from `edit`: the plan's own (`ChunkPlanner.document(of:)`), or an
    /// edit that must resolve to the same timeline (`PlanMismatch` otherwise), into `directory` as `chunk_NNNN.mp4` (or `.mkv`) plus its
    /// sidecar `chunk_NNNN.json`, both written to temporary files and renamed into place. Each clip is opened at
    /// the keyframe before the first picture the chunk needs. The chunk is its own encode: it starts with a
    /// keyframe (IDR) at PTS 0 and references nothing outside itself. If a valid chunk is already there, does
    /// nothing.
    ///
    /// For tests of retries, `SEGUE_TEST_FAIL_CHUNK=INDEX:TIMES` (or `INDEX:always`) makes chunk INDEX fail with a
    /// `TransientFailure` that many times (counted in `directory/.chunk_NNNN.forced-failures`).
    /// `renderer`: the renderer to draw with (one made for the timeline already: `ChunkCache` names it in its keys);
    /// nil: one is made.
    /// - Throws: `PlanMismatch` (the plan does not match the edit), `UsageError` (index out of range), `TransientFailure` or
    ///   `GPUError` (retry), `MediaError`.
    public static func renderChunk(_ edit: Edit, plan: ChunkPlan, index: Int, directory: String,
                                   options given: RenderOptions = RenderOptions(), renderer made: FrameRenderer? = nil) throws -> ChunkOutcome {
        let options = given.adopting(edit.resolution)
        guard plan.chunks.indices.contains(index) else {
            throw UsageError("chunk \(index) is not in the plan (0…\(plan.chunks.count - 1))")
        }
        let chunk = plan.chunks[index]
        try options.inputPolicy.checkOutput(path: directory + "/" + chunk.file)
        let watchdog = options.frameTimeout.map { Watchdog(seconds: $0) }
        let timeline = try resolve(edit, policy: options.inputPolicy, watchdog: watchdog)
        try ChunkPlanner.check(plan, matches: timeline)
        try ensureDirectory(directory)
        let video = "\(directory)/\(chunk.file)", sidecar = ChunkRender.sidecarPath(video)
        if let record = try? ChunkRender.verify(chunk, in: directory, plan: plan).get() {
            return .alreadyDone(record)
        }
        ChunkRender.removeStaleTemporaries(of: chunk.file, in: directory)
        try ChunkRender.forcedFailure(index: index, directory: directory)
        let renderer = try made ?? makeRenderer(options, for: timeline)
        let started = Date()
        var o = options
        o.audio = false
        // A smart render's chunk: a smart render of its frames (the plan cut it where one may start and end).
        let smart = try plan.smart.map { _ in try SmartPlan.make(timeline) }
        let (result, summary) = try writeAtomically(to: video) { temp in
            let result = try smart.map {
                try smartEncodeChunk(timeline, plan: $0, frames: chunk.start..<chunk.end, renderer: renderer, to: temp, options: o, watchdog: watchdog)
            } ?? encode(timeline, renderer: renderer, to: temp, options: o, frames: chunk.start..<chunk.end,
                        encoderLookahead: timeline.output.format.lookahead(for: timeline.output), watchdog: watchdog)
            // Check the file as stitch will, before it is put in place.
            let s = try VideoPacketSummary(path: temp, frameRate: timeline.frameRate)
            guard s.frames == chunk.frames, s.startsWithKeyframe, s.timestampsContinuous else {
                throw MediaError(path: temp, function: nil, message: "the chunk came out with \(s.frames) frames (planned \(chunk.frames)), keyframe first: \(s.startsWithKeyframe), continuous timestamps: \(s.timestampsContinuous)")
            }
            return (result, s)
        }
        result.warnings.forEach { options.log("warning: \($0)") }
        let (bytes, sha) = try ChunkRender.fingerprint(video)
        let record = ChunkRecord(index: index, start: chunk.start, end: chunk.end, frames: result.frames,
                                 settingsHash: plan.settingsHash, editHash: plan.editHash,
                                 codecHeaderHash: summary.headerHash, file: chunk.file, bytes: bytes, sha256: sha,
                                 renderer: renderer.name, seconds: Date().timeIntervalSince(started),
                                 host: ProcessInfo.processInfo.hostName)
        try ChunkRender.writeJSON(record, to: sidecar)
        return .rendered(record)
    }

    /// Renders the whole audio mix of `edit` in one pass to `path` (the output format's audio and container:
    /// `OutputFormat.audioPassExtension`, AAC in `.m4a` for MP4 output, 32-bit float PCM in `.mka` for FFV1), exactly as a single-pass render would encode it. With a `plan`, first checks that
    /// the plan has an audio pass and was made from this edit, and writes the sidecar `stitch` checks
    /// (`audio.json` beside `audio.m4a`).
    /// - Returns: samples written.
    /// - Throws: `UsageError` (wrong name, an output that is an input, a plan without audio), `PlanMismatch` (a plan from another edit),
    ///   `MediaError`.
    @discardableResult
    public static func renderAudio(_ edit: Edit, to path: String, plan: ChunkPlan? = nil, options given: RenderOptions = RenderOptions()) throws -> Int64 {
        let options = given.adopting(edit.resolution)
        try options.inputPolicy.checkOutput(path: path)
        try refuseOverwriting(inputsOf: edit, with: path, others: plan.map { [("the edit file", $0.edit)] } ?? [])
        let format = edit.output.format
        guard OutputFormat.fileExtension(path) == format.audioPassExtension else {
            throw UsageError("the audio pass of \(format.name) output is \(format.audioName) in \(format.containerName): give it a .\(format.audioPassExtension) name (got \(path))")
        }
        if let plan, plan.audio == nil {
            throw UsageError("the plan has no audio pass (it was made with --no-audio): there is nothing to render")
        }
        let timeline = try resolve(edit, policy: options.inputPolicy)
        if let plan { try ChunkPlanner.check(plan, matches: timeline) }
        try ensureDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let samples = try writeAtomically(to: path) { temp in
            try writeAudioPass(timeline, to: temp)
        }
        if let plan, let pass = plan.audio {
            let (bytes, sha) = try ChunkRender.fingerprint(path)
            try ChunkRender.writeJSON(AudioRecord(editHash: plan.editHash, samples: samples, sampleRate: pass.sampleRate,
                                                  channels: pass.channels, codec: pass.codec,
                                                  file: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes, sha256: sha),
                                      to: ChunkRender.sidecarPath(path))
        }
        return samples
    }

    static func ensureDirectory(_ dir: String) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
            if !isDir.boolValue { throw UsageError("\(dir) is a file; give a folder for the chunks") }
            return
        }
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            throw MediaError(path: dir, function: "mkdir", message: "cannot create the folder: \(error.localizedDescription)", outputIO: true)
        }
    }

    /// Whether `error` is worth retrying (exit status 75): what the error itself says (`SegueError.isRetryable`:
    /// GPU/EGL start-up, output I/O, a forced failure); false for errors that are not Segue's.
    public static func isTransient(_ error: Error) -> Bool {
        (error as? SegueError)?.isRetryable ?? false
    }
}

extension ChunkRender {
    /// Makes chunk `index` fail while `SEGUE_TEST_FAIL_CHUNK` asks for it (tests of retries).
    static func forcedFailure(index: Int, directory: String) throws {
        guard let spec = ProcessInfo.processInfo.environment["SEGUE_TEST_FAIL_CHUNK"] else { return }
        let parts = spec.split(separator: ":").map(String.init)
        guard parts.count == 2, Int(parts[0]) == index else { return }
        let counter = "\(directory)/.\(ChunkPlan.stem(index: index)).forced-failures"
        let failed = Int((try? String(contentsOfFile: counter, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0") ?? 0
        if parts[1] == "always" || failed < (Int(parts[1]) ?? 0) {
            try? String(failed + 1).write(toFile: counter, atomically: true, encoding: .utf8)
            throw TransientFailure("chunk \(index): failure forced by SEGUE_TEST_FAIL_CHUNK=\(spec) (forced failure \(failed + 1))")
        }
    }
}
