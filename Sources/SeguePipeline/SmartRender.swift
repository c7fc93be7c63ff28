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
    static func checkSmart(_ edit: Edit, keepPartial: Bool) throws {
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
        guard let firstCopy = plan.stretches.first(where: \.isCopied), case .copied(let firstPath, _, _) = firstCopy.kind,
              let matched = plan.streams[firstPath] else {
            options.log("segue: --smart: nothing can be copied (\(plan.mainReason)); rendered as usual")
            return try encode(timeline, renderer: renderer, to: path, options: options, watchdog: watchdog)
        }
        if options.verbose { plan.lines.dropLast().forEach { options.log("segue: smart: \($0)") } }
        // One encoder per encoded stretch in this process: each must see fresh (zero) memory, as the first does, or
        // libx264's lookahead reads what the one before left and the stretch differs from run to run (HeapPolicy).
        HeapPolicy.zeroFillFromNow()
        var settings = timeline.output
        settings.encoderOptions = matched.encoderOptions
        settings.encoder = matched.encoder
        let parts = path + ".parts"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parts) }
        var stretchOptions = options
        stretchOptions.audio = false
        stretchOptions.progress = nil
        stretchOptions.verbose = false
        // The audio pass (the whole mix, as a single-pass render encodes it) runs beside the encoded stretches.
        let withAudio = options.audio && timeline.output.format.hasAudio
        let audioPath = withAudio ? "\(parts)/audio.\(timeline.output.format.audioPassExtension)" : nil
        let audio = BackgroundWork { try audioPath.map { try writeAudioPass(timeline, to: $0) } ?? 0 }
        // Before the parts folder is removed (`defer` above runs after this one), the audio pass has ended.
        defer { _ = try? audio.value() }
        var pieces: [SmartMux.Piece] = [], warnings: [String] = []
        var pending: Range<Int64>?
        func flush() throws {
            guard let r = pending else { return }
            pending = nil
            try options.checkCancellation(frame: r.lowerBound, of: timeline.frameCount)
            let file = "\(parts)/\(pieces.count).mp4"
            // Progress over the whole output: the frames before this stretch (copied or encoded) count as done.
            let total = timeline.frameCount, base = r.lowerBound
            var each = stretchOptions
            if let report = options.progress {
                each.progress = { @Sendable (p: RenderProgress) in
                    report(RenderProgress(frame: base + p.frame, total: total, fps: p.fps, speed: p.speed, elapsed: p.elapsed, eta: p.eta, stage: "render"))
                }
            }
            warnings += try encode(timeline, renderer: renderer, to: file, options: each, frames: r, settings: settings,
                                   watchdog: watchdog).warnings
            pieces.append(SmartMux.Piece(.encoded(path: file), startFrame: r.lowerBound))
        }
        for s in plan.stretches {
            switch s.kind {
            case .encoded:
                pending = pending.map { $0.lowerBound..<s.frames.upperBound } ?? s.frames
            case .copied(let file, let source, let packets):
                try flush()
                pieces.append(SmartMux.Piece(.copied(plan.streams[file]!, packets: packets, firstFrame: source.lowerBound), startFrame: s.frames.lowerBound))
            }
        }
        try flush()
        let samples = try audio.value()
        let format = timeline.output.format
        let frames = try SmartMux.write(pieces, frameRate: timeline.frameRate, audioPath: audioPath, to: path,
                                        container: format.container, muxOptions: format.muxOptions)
        options.progress?(RenderProgress(frame: frames, total: frames, fps: 0, speed: 0, elapsed: 0, eta: 0, stage: "done"))
        if options.verbose {
            options.log("segue: smart: \(plan.copiedFrames) of \(timeline.frameCount) frames copied from the sources' packets, \(plan.encodedFrames) encoded "
                        + "(\(matched.encoder) \(matched.encoderOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))")
        }
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
    /// The reason that keeps the most frames from being copied ("transition"), or "nothing to show".
    public var mainReason: String {
        var frames: [String: Int64] = [:]
        for s in stretches { if case .encoded(let why) = s.kind { frames[why, default: 0] += Int64(s.frames.count) } }
        return frames.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? "nothing to show"
    }
}
