import Foundation
import SegueCore
import SegueEdit
import SegueMedia
import SegueReference
import SegueGL
import SegueText

/// Which renderer draws the frames.
public enum Backend: String, CaseIterable, Sendable {
    /// The GPU path (headless EGL + GLSL ES shaders); fails if no EGL context can be made.
    case gpu
    /// The pure-Swift CPU reference.
    case cpu
    /// The GPU when an EGL context can be made, else the CPU with a warning.
    case auto
}

/// Options for one render.
public struct RenderOptions: Sendable {
    public var backend: Backend = .auto
    public var egl = EGLOptions()
    /// Print what was chosen (EGL platform, `GL_RENDERER`, render size and frame rate and why).
    public var verbose = false
    /// Include the audio mix (AAC 48 kHz stereo).
    public var audio = true
    /// Where messages go (default: standard error).
    public var log: @Sendable (String) -> Void = { FileHandle.standardError.write(($0 + "\n").data(using: .utf8)!) }
    /// Called after each frame is encoded (and once more at the end, with `stage` "done").
    public var progress: (@Sendable (RenderProgress) -> Void)?
    /// Called with each rendered picture before it is encoded (previews, tests).
    public var onFrame: (@Sendable (Int64, RGBAImage) -> Void)?
    /// Hand frames that need no compositing (one untouched clip, or a whole-pixel crop of it, already in the output's
    /// format: `DirectFrame`) to the encoder without drawing them. Byte-identical either way; off only to compare.
    public var directFrames = true
    /// Read a file cut several times through one open: a clip's reader, once the render has passed the clip, seeks to a
    /// later cut of the same file (`FrameSource`). The same frames either way; off only to compare.
    public var reuseReaders = true
    /// Decode with an FFmpeg hwaccel (`.cuda`: NVDEC) where the machine has one, pictures downloaded to system
    /// memory; software decoding where it has not (with a warning) and for codecs the hwaccel lacks.
    public var hardwareDecoding: HardwareDecoding = .none
    /// Asked before each frame (and before the renderer starts): true stops the render, which then throws
    /// `RenderStopped` after removing its temporary file, or, with `keepPartial`, after finishing the file with the
    /// frames drawn so far and moving it into place (the library's `Task` cancellation, `ExportSession.stop()`).
    public var isCancelled: (@Sendable () -> Bool)?
    /// Keep what was written when the render is stopped (`isCancelled`; Ctrl-C in `segue render --keep-partial`): the
    /// output is written as fragmented MP4 (`OutputFormat.fragmentedMuxOptions`, as `segue record` writes a take), so
    /// that it plays up to its last complete fragment even when the process is killed (a second Ctrl-C, SIGTERM:
    /// the temporary file is then moved into place as it is); a render stopped at a frame finishes the file with the
    /// frames drawn. MP4 and QuickTime outputs only. A render that fails keeps nothing, as any.
    public var keepPartial = false
    /// What the edit may read and how much it may ask for (`InputPolicy`: plain local files, `root`, `outputRoot`,
    /// `limits`); the default refuses indirect inputs and applies the default limits.
    public var inputPolicy = InputPolicy.default
    /// Seconds one frame may take (opening a clip, decoding, drawing, encoding) before the watchdog ends the process
    /// with exit status 1, naming the clip or shader and removing the temporary output (`Watchdog`: a GL draw
    /// cannot be interrupted); also the most a gl-transitions shader's pre-flight may take (at most
    /// `preflightSeconds`). Default 120; nil: no watchdog and no pre-flight.
    public var frameTimeout: Double? = 120
    public init() {}

    /// Throws `RenderStopped` (nothing kept, stopped at `frame` of `total`) when `isCancelled` says so.
    func checkCancellation(frame: Int64, of total: Int64) throws {
        if isCancelled?() == true { throw RenderStopped(frame: frame, total: total, kept: nil) }
    }
}

/// Where a render is: for progress bars and farm managers.
public struct RenderProgress: Codable, Sendable {
    /// Frames encoded so far.
    public let frame: Int64
    /// Frames the render writes in all.
    public let total: Int64
    /// Frames per second so far.
    public let fps: Double
    /// Output seconds per wall-clock second.
    public let speed: Double
    /// Seconds since the render started.
    public let elapsed: Double
    /// Estimated seconds to go.
    public let eta: Double
    /// "render" while frames are produced, "done" at the end.
    public let stage: String

    public init(frame: Int64, total: Int64, fps: Double, speed: Double, elapsed: Double, eta: Double, stage: String) {
        self.frame = frame; self.total = total; self.fps = fps; self.speed = speed; self.elapsed = elapsed; self.eta = eta; self.stage = stage
    }
}

/// What a finished render wrote.
public struct RenderResult: Sendable {
    /// The file written (absolute).
    public let path: String
    /// Video frames written.
    public let frames: Int64
    /// Audio samples written per channel (0 without audio).
    public let audioSamples: Int64
    /// The renderer that drew the frames, e.g. "gpu (llvmpipe …, EGL surfaceless)" or "cpu (Segue reference)".
    public let renderer: String
    /// The resolved edit (`TimelineReport(timeline)` describes it; `timeline.warnings` lists what it noticed).
    public let timeline: Timeline
    /// Damage found and worked around (corrupt packets skipped, truncated clips held on their last picture),
    /// one line per clip, naming it.
    public let warnings: [String]
}

/// Renders edits: probes every clip first (so a bad clip fails before any work), resolves the timeline,
/// draws each output frame with the chosen renderer and encodes it, writing to a temporary file beside the
/// destination that is renamed into place only on success.
public enum RenderJob {
    /// Checks the edit against `policy` (`InputPolicy.applied(to:)`: its clip count and every path it names, before
    /// anything is opened), opens and probes every clip under it, resolves the edit, and checks the result against
    /// the policy's limits. The timeline keeps the policy (`Timeline.inputPolicy`) for the files the render opens.
    /// - Throws: `EditError` (invalid edit, or a path the policy refuses; names the clip and field), `InputRefused`
    ///   or `LimitExceeded` (the policy refuses a file or the edit's size; names the field), `MediaError` (a clip
    ///   cannot be read, or is Dolby Vision without a compatible base layer; names the file).
    public static func resolve(_ edit: Edit, policy: InputPolicy = .default) throws -> Timeline {
        try resolve(edit, policy: policy, watchdog: nil)
    }

    /// `resolve` with a watchdog armed while each file is opened ("opening clip 2 (c.mp4)").
    public static func resolve(_ edit: Edit, policy: InputPolicy, watchdog: Watchdog?) throws -> Timeline {
        try resolve(edit, policy: policy, watchdog: watchdog, probe: {
            try probeSource(path: $0.path, colourOverride: $0.colour, sequence: $0.imageSequence, policy: $1)
        })
    }

    /// `resolve` with the probe given (tests count the files it opens).
    static func resolve(_ edit: Edit, probe: (ClipSpec) throws -> SourceInfo) throws -> Timeline {
        try resolve(edit, policy: .default, watchdog: nil, probe: { spec, _ in try probe(spec) })
    }

    /// `resolve` with the probes given. A resolved edit (`Edit.resolution`, `segue resolve`) is not probed again: its files are checked against their
    /// fingerprints and the timeline is made from the recorded facts (`resolveSaved`).
    static func resolve(_ edit: Edit, policy given: InputPolicy, watchdog: Watchdog?,
                        probe: (ClipSpec, InputPolicy) throws -> SourceInfo,
                        probeAudio: (String, InputPolicy) throws -> SourceInfo = { try probeAudioSource(path: $0, policy: $1) }) throws -> Timeline {
        if let saved = edit.resolution { return try resolveSaved(edit, saved, policy: given, watchdog: watchdog) }
        return try resolveProbing(edit, policy: given, watchdog: watchdog, probe: probe, probeAudio: probeAudio)
    }

    /// `resolve` of an edit as written: every media file opened and probed (`probe`, `probeAudio`), the music opened
    /// and checked unless `checksMusic` is false (a resolved edit's was, when it was resolved).
    static func resolveProbing(_ edit: Edit, policy given: InputPolicy, watchdog: Watchdog?, checksMusic: Bool = true,
                               probe: (ClipSpec, InputPolicy) throws -> SourceInfo,
                               probeAudio: (String, InputPolicy) throws -> SourceInfo) throws -> Timeline {
        let policy = given.applied(to: edit)
        try policy.check(edit)
        defer { watchdog?.disarm() }
        var infos: [SourceInfo] = []
        var probed: [(path: String, colour: ColourOverride?, audio: Bool, sequence: ImageSequence?, info: SourceInfo)] = []
        if let m = edit.music, checksMusic {
            watchdog?.arm("opening the music (\(m.path))")
            try checkExists(m.path, field: "music.path")
            do {
                guard try AudioReader(path: m.path, videoOrigin: .zero, start: .zero, policy: policy) != nil else {
                    throw MediaError(path: m.path, function: nil, message: "music: the file has no audio stream (music is a song or a video with sound; a picture or a silent video goes on a video track)")
                }
            } catch let e as MediaError where e.function != nil {
                try checkIsMedia(m.path, field: "music.path", failure: e)
                throw MediaError(path: m.path, function: e.function, code: e.code, message: "music: \(e.message)")
            } catch var e as InputRefused {
                e.field = "music.path"
                throw e
            }
            if let length = (try? mediaDuration(path: m.path, policy: policy)) ?? nil, !(m.start < length) {
                throw EditError("music.start", "\(m.start.seconds) s is at or past the end of the song (\(String(format: "%.3f", length.seconds)) s)")
            }
        }
        for item in Timeline.mediaItems(of: edit) {
            let path = item.spec.path
            let what = item.audio || edit.tracks.count > 1 ? item.field : "clip \(item.item)"
            watchdog?.arm("opening \(what) (\(path))")
            var isDir: ObjCBool = false
            if item.spec.imageSequence != nil {
                // A numbered picture pattern: its folder must exist; the pictures are listed when it is probed.
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
                    throw EditError("\(item.field).path", "\(path) is missing: the image sequence's folder \(folder) does not exist")
                }
            } else {
                try checkExists(path, field: "\(item.field).path")
            }
            let info: SourceInfo
            do {
                // A file used by several clips (ranges cut from one recording) is opened and probed once.
                if let known = probed.first(where: { $0.path == path && $0.colour == item.spec.colour && $0.audio == item.audio && $0.sequence == item.spec.imageSequence }) {
                    info = known.info
                } else {
                    info = item.audio ? try probeAudio(path, policy) : try probe(item.spec, policy)
                    probed.append((path, item.spec.colour, item.audio, item.spec.imageSequence, info))
                }
            } catch let e as MediaError {
                if item.spec.imageSequence == nil { try checkIsMedia(path, field: "\(item.field).path", failure: e) }
                throw MediaError(path: path, function: e.function, code: e.code, message: "\(what): \(e.message)")
            } catch var e as InputRefused {
                e.field = "\(item.field).path"
                throw e
            } catch var e as LimitExceeded {
                e.field = "\(item.field).path"
                throw e
            }
            // Dolby Vision without a compatible base layer (profile 5) would show wrong colours: refuse it.
            if let dv = info.dolbyVision, case .unsupported(let why) = dv.decision {
                throw MediaError(path: path, function: nil, message: "\(what): \(why)")
            }
            infos.append(info)
        }
        // Text items and captions are shaped (and caption files read) by the text module, only when there are some.
        let hasText = edit.captions != nil || edit.tracks.contains { $0.clips.contains { $0.text != nil } }
        var timeline = try Timeline(edit: edit, sources: infos, text: hasText ? try TextEngine() : nil)
        try policy.check(timeline)
        timeline.inputPolicy = policy
        return timeline
    }

    /// The rule for an input the edit names (a clip, the music): one that is missing is an invalid edit, naming the
    /// field and the path (a directory, a FIFO or a device the input policy refused already, likewise). A URL passes.
    /// - Throws: `EditError`.
    static func checkExists(_ path: String, field: String) throws {
        guard InputPolicy.urlScheme(of: path) == nil else { return }
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            throw EditError(field, "\(path) is missing: file not found")
        }
        if isDir.boolValue { throw EditError(field, "\(path) is a directory, not a media file: inputs must be regular files") }
    }

    /// After `failure` opening an input the edit names: when the file is not media at all (empty, text, no format
    /// FFmpeg reads: `NotMedia`), an invalid edit naming the field, the path and what it is; otherwise (a damaged or
    /// unreadable media file) nothing, and the caller throws the failure (exit status 1).
    /// - Throws: `EditError`.
    static func checkIsMedia(_ path: String, field: String, failure: MediaError) throws {
        guard InputPolicy.urlScheme(of: path) == nil, let kind = NotMedia.kind(ofFileAt: path) else { return }
        throw EditError(field, "\(path) is \(kind), not a media file (\(failure.function.map { "\($0): " } ?? "")\(failure.message))")
    }

    /// Renders `edit` to `outputPath`.
    /// - Throws: `EditError` or `UsageError` (exit status 2), `MediaError` or `GPUError` (exit status 1). On any error the
    ///   temporary file is removed and an existing file at `outputPath` is left untouched.
    ///
    /// Every render goes through the resolved edit (`resolvedEdit`): an edit as written is resolved once (its media
    /// probed, what was decided recorded in `Edit.resolution`) and its timeline rendered; a resolved edit renders from
    /// its recorded facts, with the audio choice it was resolved with (`RenderOptions.adopting`), under
    /// `options.inputPolicy`.
    @discardableResult
    public static func render(_ edit: Edit, to outputPath: String, options given: RenderOptions = RenderOptions()) throws -> RenderResult {
        let options = given.adopting(edit.resolution)
        let out = URL(fileURLWithPath: outputPath).standardizedFileURL
        try options.inputPolicy.checkOutput(path: outputPath)
        let edit = withFormatOfFileName(edit, outputPath)
        try refuseOverwriting(inputsOf: edit, with: outputPath)
        var outIsDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: out.path, isDirectory: &outIsDir), outIsDir.boolValue {
            throw UsageError("the output \(outputPath) is a folder; give a file name")
        }
        try checkOutput(edit.output, path: outputPath, keepsAlpha: edit.transparentBackground, audio: options.audio ? edit.audio : nil)
        if edit.output.smart { try checkSmart(edit, keepPartial: options.keepPartial) }
        if options.keepPartial, edit.output.format.fragmentedMuxOptions == nil {
            throw UsageError("--keep-partial keeps a fragmented MP4: it needs an MP4 or QuickTime output (.mp4, .m4v, .mov), not \(edit.output.format.name)")
        }
        let dir = out.deletingLastPathComponent()
        var isDir: ObjCBool = false
        if edit.output.format.isImageSequence, !FileManager.default.fileExists(atPath: dir.path),
           FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().path) {
            // An image sequence's folder is made when only it is missing (frames/%05d.png in an existing folder).
            try? FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: false)
        }
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw MediaError(path: dir.path, function: nil, message: "the output folder does not exist")
        }
        let watchdog = options.frameTimeout.map { Watchdog(seconds: $0) }
        // Rendered at once and not kept: no fingerprints to take (`segue resolve` and plans take them).
        let (_, timeline) = try resolvedEdit(edit, options: options, fingerprints: false, watchdog: watchdog)
        if options.verbose {
            timeline.notes.forEach { options.log("segue: \($0)") }
            let format = edit.output.format
            options.log("segue: output \(timeline.outputDescription), \(format.videoEncoder(edit.output)) (\(format.name), writing "
                        + "\(format.pixelFormat(edit.output.dynamicRange, alpha: edit.transparentBackground) ?? "?")"
                        + (edit.transparentBackground ? " (alpha kept: transparent background)" : "")
                        + (format.hasAudio ? (options.audio ? ", \(format.audioName) audio" : ", no audio") : ", no audio: \(format.containerName) has none") + ")")
        }
        timeline.warnings.forEach { options.log("warning: \($0)") }
        try options.checkCancellation(frame: 0, of: timeline.frameCount)
        let renderer = try makeRenderer(options, for: timeline)
        if options.verbose { options.log("segue: renderer \(renderer.name)") }

        let write = { (temp: String) in
            edit.output.smart ? try smartEncode(timeline, renderer: renderer, to: temp, options: options, watchdog: watchdog)
                : try encode(timeline, renderer: renderer, to: temp, options: options, watchdog: watchdog)
        }
        let result = edit.output.format.isImageSequence ? try writeSequenceAtomically(to: out.path, write)
            : try writeAtomically(to: out.path, keepOnSignal: options.keepPartial, write)
        result.warnings.forEach { options.log("warning: \($0)") }
        if result.stopped { throw RenderStopped(frame: result.frames, total: timeline.frameCount, kept: out.path) }
        return RenderResult(path: out.path, frames: result.frames, audioSamples: result.samples, renderer: renderer.name,
                            timeline: timeline, warnings: result.warnings)
    }

    /// Draws and encodes the output frames `frames` (default: all) with PTS 0, 1, … in the file; audio only when
    /// `options.audio` and the range starts at frame 0. With `encoderLookahead` > 0 and an encoder that takes
    /// forced frame types, up to that many frames after the range are drawn and fed to the encoder as lookahead
    /// but not written (see `MediaWriter.keepFrames`).
    ///
    /// Three threads: decoding (`DecodeAhead`, up to `decodeAheadDepth` frames ahead), this one (all GL), and
    /// encoding (`EncodeQueue`); each clip's decoder and libx264 add their own threads.
    ///
    /// With `watchdog`, each frame is timed (`RenderOptions.frameTimeout`): one that takes longer ends the process,
    /// naming the frame, its clips and the shaders being drawn (`FrameWatch`).
    ///
    /// Stopped (`RenderOptions.isCancelled`) it throws `RenderStopped`; with `keepPartial` (the file fragmented MP4)
    /// it stops drawing, finishes the file with the frames drawn and returns with `stopped` true.
    ///
    /// `settings` replaces the timeline's output settings for the video encoder (a smart render's encoded stretches).
    package static func encode(_ timeline: Timeline, renderer: FrameRenderer, to path: String, options: RenderOptions,
                       frames wanted: Range<Int64>? = nil, encoderLookahead: Int64 = 0, settings: OutputSettings? = nil,
                       decodeAheadDepth: Int = 3, watchdog: Watchdog? = nil) throws -> (frames: Int64, samples: Int64, warnings: [String], stopped: Bool) {
        var range = wanted ?? 0..<timeline.frameCount
        let withAudio = options.audio && range.lowerBound == 0 && timeline.output.format.hasAudio
        let sampleRate = Int32(timeline.audio.sampleRate)
        let writer = try MediaWriter(path: path, size: timeline.renderSize, frameRate: timeline.frameRate,
                                     settings: settings ?? timeline.output, audio: withAudio ? timeline.audio : nil, alpha: timeline.keepsAlpha,
                                     contentPeak: timeline.contentPeak, fragmented: options.keepPartial)
        let mixer = withAudio ? try OutputAudio(timeline: timeline) : nil
        if options.verbose, let m = mixer, let measured = m.measured, let target = timeline.output.loudness {
            options.log(String(format: "segue: loudness: the mix measures %.1f LUFS integrated, true peak %.1f dBTP (ebur128); a gain of %+.1f dB and a true-peak limiter for ",
                               measured.integrated, measured.truePeak, m.gain) + target.description)
        }
        if encoderLookahead > 0 && writer.honoursForcedFrameTypes && range.upperBound < timeline.frameCount {
            writer.keepFrames = Int64(range.count)
            range = range.lowerBound..<min(timeline.frameCount, range.upperBound + encoderLookahead)
        }
        // Disarmed last, after the decode and encode threads have stopped (a stuck one is the watchdog's too).
        var watch = FrameWatch(timeline: timeline, watchdog: watchdog)
        defer { watchdog?.disarm() }
        let frames = FrameSource(timeline: timeline, hardware: options.hardwareDecoding, maxPictureSize: renderer.maxPictureSize)
        // Each frame's strategy is decided on the decode thread (which turns pictures upright where it says so).
        frames.machine = renderer.machine
        frames.reusesReaders = options.reuseReaders
        // Decoding runs ahead on its own thread (a few frames, bounded); `frames` is used only there until
        // `decoded.cancel()` has returned.
        // Weighed by the pictures of at least a quarter of the output's area each frame holds, so that a transition
        // (two clips' pictures) is decoded one frame ahead, not three: the same pictures, less memory.
        let quarter = timeline.renderSize.width * timeline.renderSize.height / 4
        let decoded = DecodeAhead(frames: range, depth: decodeAheadDepth,
                                  weight: { item in item.pictures.reduce(0) { $0 + ($1.width * $1.height >= quarter ? 1 : 0) } }) { n in
            try frames.framePictures(n)
        }
        defer { decoded.cancel() }
        // The writer is used only on the encode thread from here until `encoder.finish()`.
        let encoder = EncodeQueue()
        defer { encoder.cancel() }
        let rate = timeline.frameRate
        let report = ProgressReporter(options.progress, total: Int64(range.count), rate: rate)
        // Wall time per stage on this (the GL) thread, for --verbose (where the time goes).
        var stage = (pictures: 0.0, composite: 0.0, video: 0.0, audio: 0.0)
        func timed<T>(_ t: inout Double, _ body: () throws -> T) rethrows -> T {
            let t0 = DispatchTime.now().uptimeNanoseconds
            defer { t += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9 }
            return try body()
        }
        // Frames come back in order, possibly a frame late (GPU readback).
        let pipeline = FrameDrawer(renderer)
        var drawn = range.lowerBound
        func emit(_ images: [YUV420Image]) throws {
            for picture in images {
                let n = drawn
                drawn += 1
                try timed(&stage.video) { try encoder.submit { try writer.writeVideo(picture) } }
                if let m = mixer {
                    // Audio up to the end of this frame: round((n + 1) / fps × rate), exact.
                    let end = MediaTime(frame: n + 1, rate: rate).rounded(toUnitsOf: Int64(sampleRate))
                    if end > m.position {
                        let samples = try m.next(Int(end - m.position))
                        try timed(&stage.audio) { try encoder.submit { try writer.writeAudio(samples) } }
                    }
                }
                report(n + 1 - range.lowerBound, "render")
            }
        }
        var end = range.upperBound
        for n in range {
            // Kept: the frames drawn, at least one (a file of none would not play).
            if options.keepPartial && n > range.lowerBound && options.isCancelled?() == true { end = n; break }
            try options.checkCancellation(frame: n - range.lowerBound, of: Int64(range.count))
            watch.start(frame: n)
            let (plan, pictures, strategy) = try timed(&stage.pictures) { try decoded.next() }
            let images = try timed(&stage.composite) { try pipeline.submit(plan, pictures: pictures, strategy: strategy!) }
            if let onFrame = options.onFrame { onFrame(n, try renderer.render(plan, pictures: pictures)) }
            try emit(images)
        }
        watch.finishing()
        try emit(try timed(&stage.composite) { try pipeline.finish() })
        precondition(drawn == end, "the renderer's pipeline returned \(drawn - range.lowerBound) of \(end - range.lowerBound) frames")
        decoded.cancel()
        var result: (videoFrames: Int64, audioSamples: Int64) = (0, 0)
        try timed(&stage.video) { try encoder.finish() }
        try timed(&stage.video) { result = try writer.finish() }
        if end == range.upperBound { report(Int64(range.count), "done") }
        if options.verbose {
            logFrames(pipeline.counts, of: range.count, renderer: renderer, options: options)
            options.log(String(format: "segue: time: decoding %.2f s on the decode thread (overlapped); on the render thread: waiting "
                               + "for decoded pictures %.2f s, compositing %.2f s (GPU: upload, draw, and waiting for the previous "
                               + "frame's readback), waiting for the encoder %.2f s, audio %.2f s",
                               decoded.busySeconds, stage.pictures, stage.composite, stage.video, stage.audio))
        }
        let warnings = frames.finishAll()
        logReading(frames, options: options)
        return (result.videoFrames, result.audioSamples, warnings, end < range.upperBound)
    }

    /// `RenderOptions.progress` while frames are rendered (at most every 0.25 s, and for the first frame) and once when
    /// done: frames done of `total`, frames per second since the start, speed against the edit's rate, time left.
    final class ProgressReporter {
        let progress: (@Sendable (RenderProgress) -> Void)?
        let total: Int64
        let rate: FrameRate
        let started = Date()
        var last = Date.distantPast
        init(_ progress: (@Sendable (RenderProgress) -> Void)?, total: Int64, rate: FrameRate) {
            self.progress = progress; self.total = total; self.rate = rate
        }
        /// `done` frames, at `stage` ("render", "done").
        func callAsFunction(_ done: Int64, _ stage: String) {
            guard let p = progress else { return }
            let now = Date()
            if stage == "render" && now.timeIntervalSince(last) < 0.25 && done != 1 { return }
            last = now
            let elapsed = now.timeIntervalSince(started)
            let fps = elapsed > 0 ? Double(done) / elapsed : 0
            p(RenderProgress(frame: done, total: total, fps: fps, speed: fps / rate.framesPerSecond, elapsed: elapsed,
                             eta: fps > 0 ? Double(total - done) / fps : 0, stage: stage))
        }
    }

    /// `--verbose`: how many frames each strategy made (`FrameDrawer.counts`), of `total`, and who drew them.
    static func logFrames(_ c: FrameStrategy.Counts, of total: Int, renderer: FrameRenderer, options: RenderOptions) {
        options.log("segue: \(c.direct) of \(total) frames needed no compositing (one clip, untouched or cropped at scale 1, already BT.709 4:2:0; on the CPU, also one graded by colour and LUT effects on its planes): their planes went to the encoder directly")
        options.log("segue: \(c.basePlanes) more had their first layer taken as planes in the same way, only the layers above it drawn (each inside its rectangle)")
        if let why = renderer.cpuBecause {
            let gl = renderer.gpu == nil ? "no GL context was made" : "\(c.gpu) frames with gl-transitions shaders drawn by \(renderer.gpu!.name)"
            options.log("segue: backend auto: \(why) here, so the CPU draws \(c.cpu) frames on the planes, faster (every built-in transition, layers at any scale, position or rotation); \(gl)")
        } else {
            options.log("segue: frames drawn: \(c.cpu) by the CPU renderer, \(c.gpu) by \(renderer.gpu?.name ?? "the GPU")")
        }
        options.log("segue: \(c.turned) frames: a layer (a quarter turn, half turn or mirror) was turned upright by libavfilter (transpose/hflip/vflip) instead of being drawn")
    }

    /// What reading the clips took (`--verbose`: size changes, file opens and reuses, hardware decoding) and the
    /// warning for hardware decoding asked for and not available.
    static func logReading(_ frames: FrameSource, options: RenderOptions) {
        if options.verbose {
            frames.sizeChanges.forEach { options.log("segue: \($0)") }
            options.log("segue: clips read through \(frames.opens) file open(s); \(frames.reuses) clip(s) reused the reader of an earlier cut of the same file")
        }
        for why in frames.hardwareProblems.sorted() { options.log("warning: \(options.hardwareDecoding.rawValue) decoding is not available (\(why)); decoded in software") }
        if options.verbose && options.hardwareDecoding != .none {
            options.log("segue: \(frames.hardwareFrames) of \(frames.decodedFrames) source frames decoded with \(options.hardwareDecoding.rawValue) (downloaded to system memory)")
        }
    }
}

extension RenderJob {
    /// Renders only the given output frames (in any order; rendered in ascending order), seeking each clip
    /// to the keyframe before the first picture it needs. For previews (`segue frame`, `segue sheet`).
    /// - Returns: the pictures in the order of `frames`, and how many source frames were decoded.
    /// With `watchdog`, each frame is timed as in a render (`RenderOptions.frameTimeout`).
    public static func renderFrames(_ timeline: Timeline, frames: [Int64], renderer: CompositeRenderer,
                                    watchdog: Watchdog? = nil) throws -> (images: [RGBAImage], decodedFrames: Int) {
        let source = FrameSource(timeline: timeline, maxPictureSize: renderer.maxPictureSize)
        var byFrame: [Int64: RGBAImage] = [:]
        var watch = FrameWatch(timeline: timeline, watchdog: watchdog)
        defer { watchdog?.disarm() }
        for n in Set(frames).sorted() {
            guard n >= 0 && n < timeline.frameCount else {
                throw UsageError("frame \(n) is outside the edit (0…\(timeline.frameCount - 1))")
            }
            watch.start(frame: n)
            // A transparent background's frames come premultiplied: previews (PNG) are straight.
            let image = try source.render(frame: n, with: renderer)
            byFrame[n] = timeline.keepsAlpha ? image.straightened() : image
        }
        return (frames.map { byFrame[$0]! }, source.decodedFrames)
    }
}
