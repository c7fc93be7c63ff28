import Foundation
import SegueCore
import SegueEdit
import SegueMedia

/// Smart rendering (`OutputSettings.smart`, docs/smart-rendering.md): the stretches `SmartPlan` copies are muxed as the
/// source's packets, the rest is rendered as usual in stretches of its own, each a closed GOP from an IDR picture,
/// by the copied stream's encoder set up to match it (libx264: its profile and level, a parameter-set id it does not
/// use; libx265: Main, parameter sets in band), and the audio is the normal render's.
extension RenderJob {
    /// Refuses a smart render of what cannot be one: another output than MP4 (`--codec h264`: the copied packets are
    /// H.264 or HEVC), another encoder than libx264 or libx265, HDR output, a transparent background, `--keep-partial`.
    /// - Throws: `UsageError`.
    package static func checkSmart(_ edit: Edit, keepPartial: Bool) throws {
        let o = edit.output
        guard o.format.codec == .h264 else {
            throw UsageError("--smart copies H.264 and HEVC packets into MP4 output (--codec h264): it does not write \(o.format.name) (--codec \(o.codec.rawValue)); leave out --smart or write h264")
        }
        if let e = o.encoder, !["libx264", "libx265"].contains(e) {
            throw UsageError("--smart encodes the frames it does not copy with the copied stream's own encoder (libx264 for H.264, libx265 for HEVC), not \(e)")
        }
        guard o.dynamicRange == .sdr else {
            throw UsageError("--smart copies SDR H.264 and HEVC streams: HDR output (\(o.dynamicRange.rawValue)) is HEVC Main 10, which it cannot join them with")
        }
        if edit.transparentBackground { throw UsageError("--smart writes H.264, which has no alpha: leave out the transparent background") }
        if keepPartial { throw UsageError("--smart and --keep-partial cannot be combined (a smart render is joined at its end)") }
    }

    /// A smart render of `timeline` to `path`: the plan's encoded stretches rendered to files of their own (next to
    /// `path`, removed after), the audio pass, and `SmartMux` joining them with the copied packets. With nothing to
    /// copy, a normal render and one line saying why.
    /// - Throws: as `encode`; `MediaError` from reading the sources' packets.
    static func smartEncode(_ timeline: Timeline, renderer: FrameRenderer, to path: String, options: RenderOptions,
                            watchdog: Watchdog?) throws -> (frames: Int64, samples: Int64, warnings: [String], stopped: Bool) {
        let plan = try SmartPlan.make(timeline)
        guard plan.copiedFrames > 0 else {
            options.log("segue: --smart: nothing can be copied (\(plan.mainReason)); rendered as usual")
            return try encode(timeline, renderer: renderer, to: path, options: options, watchdog: watchdog)
        }
        if options.verbose { plan.lines.dropLast().forEach { options.log("segue: smart: \($0)") } }
        let r = try smartWrite(timeline, plan: plan, frames: 0..<timeline.frameCount, renderer: renderer, to: path, options: options, watchdog: watchdog)
        if options.verbose, let matched = plan.matchedStream {
            options.log("segue: smart: \(plan.copiedFrames) of \(timeline.frameCount) frames copied from the sources' packets, \(plan.encodedFrames) encoded "
                        + "(\(matched.encoder) \(matched.encoderOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))")
        }
        return r
    }

    /// One chunk of a smart render (`SmartPlan.chunkRanges`): output frames `frames`, video only, into `path` as a file
    /// of its own that starts at an IDR picture with PTS 0: its copied stretches as the source's packets (`SmartMux`),
    /// its encoded ones as the one-pass smart render encodes them; a chunk of encoded frames only is that encoder's file.
    /// The stitch joins the chunks' packets through `SmartMux` again.
    /// An encoded run that goes on in the next chunk is fed its next frames as lookahead (`SmartPlan.Piece.encoded`).
    /// - Throws: `UsageError` when `frames` does not start and end where the plan may cut (a plan made from another
    ///   edit or other files: make the plan again), as `encode`, `MediaError`.
    package static func smartEncodeChunk(_ timeline: Timeline, plan: SmartPlan, frames: Range<Int64>, renderer: FrameRenderer, to path: String,
                                         options: RenderOptions, watchdog: Watchdog?) throws -> (frames: Int64, samples: Int64, warnings: [String], stopped: Bool) {
        var o = options
        o.audio = false
        return try smartWrite(timeline, plan: plan, frames: frames, renderer: renderer, to: path, options: o, watchdog: watchdog)
    }

    /// Writes output frames `range` of the smart render `plan` (which copies something) to `path`, with the audio pass
    /// when `options.audio` (the whole output only).
    private static func smartWrite(_ timeline: Timeline, plan: SmartPlan, frames range: Range<Int64>, renderer: FrameRenderer, to path: String,
                                   options: RenderOptions, watchdog: Watchdog?) throws -> (frames: Int64, samples: Int64, warnings: [String], stopped: Bool) {
        guard let matched = plan.matchedStream, let planned = plan.pieces(in: range) else {
            throw UsageError("--smart: frames \(range.lowerBound)–\(range.upperBound - 1) do not start and end where this smart render may be cut (the plan was made from other files?): make the plan again")
        }
        // One encoder per encoded stretch in this process: each must see fresh (zero) memory, as the first does, or
        // libx264's lookahead reads what the one before left and the stretch differs from run to run (HeapPolicy).
        HeapPolicy.zeroFillFromNow()
        var settings = timeline.output
        settings.encoderOptions = matched.encoderOptions
        settings.encoder = matched.encoder
        var stretchOptions = options
        stretchOptions.audio = false
        stretchOptions.progress = nil
        stretchOptions.verbose = false
        let total = Int64(range.count)
        let lookahead = timeline.output.format.lookahead(for: settings)
        // Progress: the encoded frames drawn so far, over the whole output (the copied ones count when it is written).
        let drawn = Locked<[Int: Int64]>([:])
        /// `ahead`: frames of the run after `r`, in another chunk (fed to the encoder as lookahead, not written).
        func encodeStretch(_ r: Range<Int64>, ahead: Int64, to file: String, job: Int, renderer: FrameRenderer, watchdog: Watchdog?) throws -> [String] {
            try options.checkCancellation(frame: drawn.value.values.reduce(0, +), of: total)
            var each = stretchOptions
            if let report = options.progress {
                each.progress = { @Sendable (p: RenderProgress) in
                    let done = drawn.update { $0[job] = p.frame; return $0.values.reduce(0, +) }
                    report(RenderProgress(frame: done, total: total, fps: p.fps, speed: p.speed, elapsed: p.elapsed, eta: p.eta, stage: "render"))
                }
            }
            return try encode(timeline, renderer: renderer, to: file, options: each, frames: r, encoderLookahead: min(lookahead, ahead),
                              settings: settings, watchdog: watchdog).warnings
        }
        let withAudio = options.audio && range == 0..<timeline.frameCount && timeline.output.format.hasAudio
        // A chunk of encoded frames only: the encoder's file is the chunk.
        if !withAudio, planned.count == 1, case .encoded(let f, let ahead) = planned[0] {
            let warnings = try encodeStretch(f.lowerBound + range.lowerBound..<f.upperBound + range.lowerBound, ahead: ahead, to: path, job: 0,
                                             renderer: renderer, watchdog: watchdog)
            return (Int64(f.count), 0, warnings, false)
        }
        let parts = path + ".parts"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parts) }
        // The audio pass (the whole mix, as a single-pass render encodes it) runs beside the encoded stretches.
        let audioPath = withAudio ? "\(parts)/audio.\(timeline.output.format.audioPassExtension)" : nil
        let audio = BackgroundWork { try audioPath.map { try writeAudioPass(timeline, to: $0) } ?? 0 }
        // Before the parts folder is removed (`defer` above runs after this one), the audio pass has ended.
        defer { _ = try? audio.value() }
        var pieces: [SmartMux.Piece] = []
        var stretches: [(frames: Range<Int64>, ahead: Int64, file: String)] = []
        for p in planned {
            switch p {
            case .encoded(let f, let ahead):
                let file = "\(parts)/\(pieces.count).mp4"
                stretches.append((f.lowerBound + range.lowerBound..<f.upperBound + range.lowerBound, ahead, file))
                pieces.append(SmartMux.Piece(.encoded(path: file), startFrame: f.lowerBound))
            case .copied(let f, let file, let source, let packets):
                pieces.append(SmartMux.Piece(.copied(plan.streams[file]!, packets: packets, firstFrame: source.lowerBound), startFrame: f.lowerBound))
            }
        }
        // The encoded stretches, each a file of its own: two at a time where the CPU draws them (each worker its own
        // CPU renderer and frame watchdog; the short stretches of a smart render keep one core busy, not two), one
        // after another where a GPU context draws. Measured on the bench's edit (2 cores, quiet): with crossfades 5.6 s
        // against 7.0 s one at a time; the cuts alone 2.5 s as before with the second worker waiting for the audio
        // pass, about 0.6 s slower when it starts at once.
        let twin = ProcessInfo.processInfo.activeProcessorCount >= 2 && stretches.count > 1 ? renderer.cpuTwin(options) : nil
        let next = Locked(0), results = Locked<[Int: Result<[String], Error>]>([:])
        func work(_ renderer: FrameRenderer, _ watchdog: Watchdog?) {
            while true {
                let k = next.update { n -> Int in n += 1; return n - 1 }
                guard k < stretches.count, !results.value.values.contains(where: { if case .failure = $0 { return true }; return false }) else { return }
                let s = stretches[k]
                let r = Result { try encodeStretch(s.frames, ahead: s.ahead, to: s.file, job: k, renderer: renderer, watchdog: watchdog) }
                results.update { $0[k] = r }
            }
        }
        // The second worker starts once the audio pass is over (on two cores the audio pass and one worker keep both
        // busy; a third would slow the audio pass, which a cuts-only edit waits for).
        let second = twin.map { twin in
            BackgroundWork(unchecked: {
                _ = try? audio.value()
                work(twin, watchdog.map { Watchdog(seconds: $0.seconds, limitName: $0.limitName) })
            })
        }
        work(renderer, watchdog)
        try second?.value()
        var warnings: [String] = []
        for k in stretches.indices { warnings += try results.value[k]?.get() ?? [] }
        let samples = try audio.value()
        let format = timeline.output.format
        let frames = try SmartMux.write(pieces, frameRate: timeline.frameRate, audioPath: audioPath, to: path,
                                        container: format.container, muxOptions: format.muxOptions)
        options.progress?(RenderProgress(frame: frames, total: frames, fps: 0, speed: 0, elapsed: 0, eta: 0, stage: "done"))
        return (frames, samples, warnings, false)
    }

    /// Writes the whole audio mix of `timeline` to `path` alone (the output format's audio pass: AAC in `.m4a` for
    /// MP4), exactly as a single-pass render encodes it. Returns the samples written (per channel).
    /// - Throws: `MediaError`.
    package static func writeAudioPass(_ timeline: Timeline, to path: String) throws -> Int64 {
        let writer = try MediaWriter(path: path, size: timeline.renderSize, frameRate: timeline.frameRate,
                                     settings: timeline.output, audio: timeline.audio, video: false)
        // The whole edit's audio, normalised over the whole edit when it has a loudness target (`OutputAudio`).
        let mixer = try OutputAudio(timeline: timeline)
        let total = mixer.total, rate = Int64(timeline.audio.sampleRate)
        while mixer.position < total {
            try writer.writeAudio(try mixer.next(Int(min(total - mixer.position, rate))))
        }
        return try writer.finish().audioSamples
    }
}

extension SmartPlan {
    /// The first copied stretch's source: the stream the encoded stretches are made to match (`SmartStream.encoder`,
    /// `encoderOptions`) and whose parameter sets head the output's; nil when nothing is copied.
    public var matchedStream: SmartStream? {
        for s in stretches { if case .copied(let path, _, _) = s.kind { return streams[path] } }
        return nil
    }

    /// The reason that keeps the most frames from being copied ("transition"), or "nothing to show".
    public var mainReason: String {
        var frames: [String: Int64] = [:]
        for s in stretches { if case .encoded(let why) = s.kind { frames[why, default: 0] += Int64(s.frames.count) } }
        return frames.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? "nothing to show"
    }
}
