/// An edit resolved against its clips' media: every time and size fixed, ready to plan frames.
///
/// Clip `i` starts at `T_i = T_{i-1} + D_{i-1} - d_i` (`D`: clip duration, `d_i`: the transition into clip `i`);
/// the edit lasts `T_last + D_last`; output frame `n` is at `n / frameRate`; the frame count is
/// duration × frame rate rounded to the nearest frame. Clips alternate between track A (even) and B (odd).
public struct Timeline: Sendable {
    public struct Placement: Sendable {
        public let index: Int
        public let spec: ClipSpec
        public let source: SourceInfo
        /// Offset into the source (seconds from its first frame).
        public let sourceStart: MediaTime
        /// Length used (`D`).
        public let duration: MediaTime
        /// Start on the output timeline (`T`).
        public let start: MediaTime
        /// The audio track played (an index among the file's audio streams): `clips[].audioTrack`, else the
        /// file's default (`SourceInfo.defaultAudioTrack`); nil when the file has no audio.
        public var audioTrack: Int? { spec.audioTrack ?? source.defaultAudioTrack }
        public var end: MediaTime { start + duration }
        /// 0 = track A, 1 = track B.
        public var track: Int { index % 2 }
        /// Map from output pixel positions to normalized stored-picture positions (the fit's framing; with `motion`,
        /// `outputToSource(at:)` gives each instant's).
        public let outputToSource: Affine2D
        /// Pan and zoom over the clip's time on screen, resolved (presets fitted to this clip); nil for none.
        public var motion: Motion? = nil
        /// The map at timeline time `t`: the fit's, moved by `motion`'s window at `(t − start) / duration`.
        public func outputToSource(at t: MediaTime, renderSize: PixelSize, fit: FitMode) -> Affine2D {
            guard let m = motion else { return outputToSource }
            let w = m.window(at: MediaTime.ratio(t - start, duration))
            return LayerGeometry.outputToSource(codedSize: source.codedSize, sar: source.sampleAspectRatio, orientation: source.orientation,
                                                renderSize: renderSize, fit: fit, window: w)
        }
    }

    public let placements: [Placement]
    public let renderSize: PixelSize
    public let frameRate: FrameRate
    public let fit: FitMode
    public let output: OutputSettings
    public let music: MusicSpec?
    public let audio: AudioSettings
    /// `T_last + D_last`.
    public let duration: MediaTime
    /// `round(duration × frameRate)`.
    public let frameCount: Int64
    /// The edit's background colour (`Edit.background`), carried by every `FramePlan`.
    public let background: RGBColour
    /// The input policy the edit was resolved under (`InputPolicy.applied(to:)`): every file the render opens later
    /// (a clip's decoder, the music, image parameters) is opened under it too.
    public var inputPolicy = InputPolicy.default
    /// The largest default render size along either axis: 16384 pixels, what libx264 takes (and the edit file's
    /// `renderSize` allows). A larger default (a 16400-pixel panorama) is scaled down to fit, keeping its aspect ratio.
    public static let maxRenderSide = 16384
    /// Human-readable notes on derived values (for `--verbose`).
    public let notes: [String]
    /// Things in the edit that are allowed but probably not meant (always shown): e.g. a music ramp wholly outside
    /// the edit, which then only sets the gain it ends at.
    public let warnings: [String]

    /// Resolves `edit` with `sources[i]` describing `edit.clips[i]`.
    /// - Throws: `EditError` for a start beyond a clip's end, a duration past it, a transition longer than the
    ///   clip before or after it, or transitions that overlap each other inside one clip.
    public init(edit: Edit, sources: [SourceInfo]) throws {
        precondition(edit.clips.count == sources.count)
        var notes: [String] = []
        // Durations.
        var durations: [MediaTime] = []
        for (i, (spec, src)) in zip(edit.clips, sources).enumerated() {
            let name = "clips[\(i)] (\(spec.path.split(separator: "/").last.map(String.init) ?? spec.path))"
            if src.isStill {
                // A still shows one picture for as long as the edit says: there is no source time to start from.
                if MediaTime.zero < spec.start {
                    throw EditError("clips[\(i)].start", "\(name) is a still picture: it has no time to start from; leave start out and give its duration (default \(fmt(SourceInfo.defaultStillDuration)) s)")
                }
                durations.append(spec.duration ?? SourceInfo.defaultStillDuration)
                continue
            }
            if !(spec.start < src.duration) {
                throw EditError("clips[\(i)].start", "\(name): start \(fmt(spec.start)) s is at or beyond the clip's end (\(fmt(src.duration)) s)")
            }
            let avail = src.duration - spec.start
            let d = spec.duration ?? avail
            if avail < d {
                throw EditError("clips[\(i)].duration", "\(name): start \(fmt(spec.start)) s + duration \(fmt(d)) s runs past the clip's end (\(fmt(src.duration)) s)")
            }
            durations.append(d)
            if let n = spec.audioTrack, n >= src.audioTrackCount {
                throw EditError("clips[\(i)].audioTrack", src.audioTrackCount == 0
                    ? "\(name) has no audio stream (got \(n))"
                    : "\(name) has \(src.audioTrackCount) audio stream\(src.audioTrackCount == 1 ? "" : "s"): audioTrack must be 0…\(src.audioTrackCount - 1) (got \(n))")
            }
        }
        // Transitions fit inside their clips and do not overlap each other.
        for i in 1..<max(1, edit.clips.count) {
            guard let t = edit.clips[i].transition else { continue }
            if durations[i - 1] < t.duration || durations[i] < t.duration {
                throw EditError("clips[\(i)].transition.duration",
                                "the \(t.kind.rawValue) lasts \(fmt(t.duration)) s, longer than clip \(i - 1) (\(fmt(durations[i - 1])) s) or clip \(i) (\(fmt(durations[i])) s); shorten the transition")
            }
        }
        for i in 0..<edit.clips.count {
            let into = edit.clips[i].transition?.duration ?? .zero
            let out = i + 1 < edit.clips.count ? (edit.clips[i + 1].transition?.duration ?? .zero) : .zero
            if durations[i] < into + out {
                throw EditError("clips[\(i)]", "the transitions into (\(fmt(into)) s) and out of (\(fmt(out)) s) clip \(i) overlap: together they exceed its \(fmt(durations[i])) s")
            }
        }
        // Render size: AVVideoComposition(propertiesOf:) takes the largest width and height.
        var size: PixelSize
        if let rs = edit.renderSize {
            size = rs
        } else {
            if edit.square {
                // Each clip is cropped to a square of its short side; the edit's square is the largest of those, so
                // no clip is upscaled more than it must be (a 1920×1080 and a 1080×1920 clip give 1080, not 1920).
                let s = sources.map { min($0.displaySize.width, $0.displaySize.height) }.max()!
                size = PixelSize(width: s, height: s)
                notes.append("render size \(size): square, the largest short side among the clips after rotation")
            } else {
                size = PixelSize(width: sources.map(\.displaySize.width).max()!, height: sources.map(\.displaySize.height).max()!)
                notes.append("render size \(size): largest clip width and height after rotation")
            }
        }
        if edit.renderSize == nil, max(size.width, size.height) > Timeline.maxRenderSide {
            // A huge picture (a panorama, a scan) would ask for a size no encoder takes: scale it down to fit.
            let k = Double(Timeline.maxRenderSide) / Double(max(size.width, size.height))
            size = PixelSize(width: max(2, Int((Double(size.width) * k).rounded())), height: max(2, Int((Double(size.height) * k).rounded())))
            notes.append("render size \(size): scaled down to fit \(Timeline.maxRenderSide) pixels, the largest side libx264 and the edit file take")
        }
        if size.width % 2 != 0 || size.height % 2 != 0 {
            if edit.renderSize != nil {
                throw EditError("renderSize", "width and height must be even for 4:2:0 output (got \(size))")
            }
            size = PixelSize(width: max(2, size.width & ~1), height: max(2, size.height & ~1))
            notes.append("rounded down to even for 4:2:0: \(size)")
        }
        // Frame rate: the highest standard rate the clips ask for (see SourceInfo.standardFrameRate), else 30.
        let rate: FrameRate
        if let r = edit.frameRate {
            rate = r
        } else if let best = sources.enumerated().compactMap({ (i, s) in s.defaultFrameRate.map { (i, $0.rate, $0.reason) } })
                    .max(by: { $0.1.framesPerSecond < $1.1.framesPerSecond }) {
            rate = best.1
            let name = edit.clips[best.0].path.split(separator: "/").last.map(String.init) ?? ""
            notes.append("frame rate \(rate): the highest clip rate, from clip \(best.0) (\(name)): \(best.2)")
        } else {
            rate = FrameRate(30)
            notes.append("frame rate 30: no clip reports a frame rate")
        }
        // Placements: each clip starts where the one before ends, less the transition between them.
        let starts = Timeline.clipStarts(edit: edit, sources: sources, durations: &durations, rate: rate)
        var placements: [Placement] = []
        for i in 0..<edit.clips.count {
            let t = starts[i]
            let src = sources[i]
            let m = LayerGeometry.outputToSource(codedSize: src.codedSize, sar: src.sampleAspectRatio,
                                                 orientation: src.orientation, renderSize: size, fit: edit.fit)
            var spec = edit.clips[i]
            if spec.transition != nil, spec.transition?.blend == nil { spec.transition?.blend = edit.blending }
            var placement = Placement(index: i, spec: spec, source: src, sourceStart: edit.clips[i].start,
                                      duration: durations[i], start: t, outputToSource: m)
            switch spec.motion {
            case .windows(let motion)?: placement.motion = motion
            case .preset(let preset, let easing)?:
                placement.motion = preset.motion(visible: LayerGeometry.visibleFraction(codedSize: src.codedSize, sar: src.sampleAspectRatio,
                                                                                        orientation: src.orientation, renderSize: size, fit: edit.fit),
                                                 easing: easing)
            case nil: break
            }
            placements.append(placement)
        }
        for p in placements {
            let name = p.spec.path.split(separator: "/").last.map(String.init) ?? p.spec.path
            notes.append("clip \(p.index) \(name): track \(p.track == 0 ? "A" : "B"), \(p.source.isStill ? "still picture, " : "")\(p.source.codedSize) \(p.source.orientation)"
                         + (p.source.orientationSource.map { " (\($0))" } ?? "")
                         + (p.source.isInterlaced ? ", \(p.source.fieldOrder) (deinterlaced with bwdif, one picture per field)" : "")
                         + (p.source.isStill ? ", shown \(fmt(p.duration)) s" : ", source \(fmt(p.sourceStart))–\(fmt(p.sourceStart + p.duration)) s of \(fmt(p.source.duration)) s")
                         + ", timeline \(fmt(p.start))–\(fmt(p.end)) s"
                         + (p.spec.transition.map { ", \($0.kind.rawValue) \(fmt($0.duration)) s in" } ?? "")
                         + (p.motion.map { ", motion \($0.description)" } ?? "")
                         + (p.source.audioTrackCount > 1 ? ", audio track \(p.audioTrack ?? 0) of \(p.source.audioTrackCount)"
                            + (p.spec.audioTrack == nil ? " (the file's default)" : "") : "")
                         + (p.source.colour.map { ", colour \($0.summary)" } ?? "")
                         + (p.source.colourOverridden.isEmpty ? "" : " (\(p.source.colourOverridden.joined(separator: ", ")) from the edit)"))
            if let c = p.source.colour, let stage = ColourStage(colour: c, output: Timeline.outputColour(edit.output)) {
                notes.append("clip \(p.index) \(name): \(stage.summary)")
            }
            if let dv = p.source.dolbyVision { notes.append("clip \(p.index) \(name): \(dv.summary)") }
        }
        self.placements = placements
        self.renderSize = size
        self.frameRate = rate
        self.fit = edit.fit
        self.output = edit.output
        self.music = edit.music
        self.audio = edit.audio
        self.background = edit.background
        self.duration = placements.last!.end
        self.frameCount = duration.rounded(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator))
        if frameCount < 1 {
            throw EditError("clips", "the edit lasts \(fmt(duration)) s, less than one frame at \(rate) fps")
        }
        for i in 1..<max(1, placements.count) {
            // Less than a microsecond short (the precision of seconds in an edit file: 1/30 s is written 0.0333…,
            // read as 33 333 µs) counts as one frame.
            if let t = placements[i].spec.transition, MediaTime.secondsPrecision < rate.frameDuration - t.duration {
                throw EditError("clips[\(i)].transition.duration", "\(fmt(t.duration)) s is shorter than one frame (\(fmt(rate.frameDuration)) s at \(rate) fps); leave the transition out for a cut")
            }
        }
        self.notes = notes
        var warnings: [String] = []
        for (k, r) in (music?.ramps ?? []).enumerated() {
            let start = r.start < .zero ? duration + r.start : r.start
            if !(start < duration) || !(MediaTime.zero < start + r.duration) {
                warnings.append("music.ramps[\(k)] (\(fmt(start))–\(fmt(start + r.duration)) s on the timeline) lies wholly outside the edit (0–\(fmt(duration)) s): it only sets the gain it ends at")
            }
        }
        self.warnings = warnings
    }

    /// Where each clip starts on the timeline (seconds): where the clip before ends, less the transition between them.
    /// A start that falls after an output frame by no more than the timestamp tolerance of the two clips
    /// (`SourceInfo.timestampTolerance`, and at least the microsecond to which an edit file's seconds are read:
    /// container rounding, such as Matroska's whole milliseconds, makes a clip's length end a fraction of a
    /// millisecond past a frame, and a transition of 1/30 s is 33 333 µs) moves back onto that frame, and the clip
    /// before is shortened by the same amount (`durations`), so that a cut stays a cut. Otherwise the incoming clip would be
    /// looked up just before each of its own pictures' times, and the rounding of each timestamp would decide, frame
    /// by frame, which picture shows (measured: 22 of 60 frames lost after a 29.97 fps clip remuxed from Matroska to
    /// MPEG-TS). Starts further from a frame are kept as they are, as AVFoundation keeps a composition's time ranges.
    static func clipStarts(edit: Edit, sources: [SourceInfo], durations: inout [MediaTime], rate: FrameRate) -> [MediaTime] {
        var starts: [MediaTime] = []
        var t = MediaTime.zero
        for i in 0..<edit.clips.count {
            if i > 0 {
                t = t + durations[i - 1] - (edit.clips[i].transition?.duration ?? .zero)
                let frame = MediaTime(frame: t.floored(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator)), rate: rate)
                // At least the precision of seconds in an edit file (a transition of 1/30 s is 33 333 µs).
                let slack = max(sources[i - 1].timestampTolerance, sources[i].timestampTolerance, MediaTime.secondsPrecision)
                let into = edit.clips[i - 1].transition?.duration ?? .zero, out = edit.clips[i].transition?.duration ?? .zero
                let shortened = durations[i - 1] - (t - frame)
                if frame < t, !(slack < t - frame), !(shortened < into + out), MediaTime.zero < shortened {
                    durations[i - 1] = shortened
                    t = frame
                }
            }
            starts.append(t)
        }
        return starts
    }

    /// How the output's colours are made: `output.dynamicRange` and `output.toneMap`.
    public var outputColour: OutputColour { Timeline.outputColour(output) }
    static func outputColour(_ o: OutputSettings) -> OutputColour { OutputColour(dynamicRange: o.dynamicRange, toneMap: o.toneMap) }

    /// Time of output frame `n`: `n / frameRate`.
    public func time(ofFrame n: Int64) -> MediaTime { MediaTime(frame: n, rate: frameRate) }

    /// What to draw for output frame `n` (0 ≤ n < frameCount).
    public func plan(frame n: Int64) -> FramePlan {
        let t = time(ofFrame: n)
        // Clips covering t: T ≤ t < T + D. At most two (transitions never overlap).
        var active = placements.filter { !(t < $0.start) && t < $0.end }
        if active.isEmpty {
            // Past the last clip's end by rounding: hold the last clip's final instant.
            active = [placements.last!]
        }
        func layer(_ p: Placement) -> LayerPlan {
            var local = t - p.start
            if !(local < p.duration) { local = p.duration - MediaTime(value: 1, timescale: 1_000_000) }
            if local < .zero { local = .zero }
            return LayerPlan(clipIndex: p.index, sourceTime: p.sourceStart + local,
                             outputToSource: p.outputToSource(at: t, renderSize: renderSize, fit: fit), moving: p.motion != nil)
        }
        if active.count >= 2 {
            let from = active[active.count - 2], to = active[active.count - 1]
            let tr = to.spec.transition!
            let p = MediaTime.ratio(t - to.start, tr.duration)
            var plan = FramePlan(frame: n, time: t, from: layer(from), to: layer(to), transition: tr, progress: tr.easing(p), colour: outputColour)
            plan.background = background
            return plan
        }
        var plan = FramePlan(frame: n, time: t, from: layer(active[0]), to: nil, transition: nil, progress: 0, colour: outputColour)
        plan.background = background
        return plan
    }

    /// Output frame range `[first, end)` showing transition into clip `i` (empty when it has none).
    public func transitionFrames(into i: Int) -> Range<Int64> {
        let p = placements[i]
        guard let tr = p.spec.transition else { return 0..<0 }
        return firstFrame(atOrAfter: p.start)..<firstFrame(atOrAfter: p.start + tr.duration)
    }

    /// The first output frame `n` with `n / frameRate ≥ t`.
    public func firstFrame(atOrAfter t: MediaTime) -> Int64 {
        let f = t.floored(toUnitsOf: Int64(frameRate.numerator), per: Int64(frameRate.denominator))
        return time(ofFrame: f) < t ? f + 1 : f
    }
}

/// One visible clip in an output frame.
public struct LayerPlan: Equatable, Sendable {
    public let clipIndex: Int
    /// Time in the source, from its first frame (clip `start` + clip-local time).
    public let sourceTime: MediaTime
    /// Output pixel position → normalized stored-picture position.
    public let outputToSource: Affine2D
    /// Whether the clip pans or zooms (`Motion`): its scale changes from frame to frame.
    public let moving: Bool

    public init(clipIndex: Int, sourceTime: MediaTime, outputToSource: Affine2D, moving: Bool = false) {
        self.clipIndex = clipIndex; self.sourceTime = sourceTime; self.outputToSource = outputToSource; self.moving = moving
    }
}

/// What to draw for one output frame: a single layer, or two layers joined by a transition at `progress`.
public struct FramePlan: Sendable {
    public let frame: Int64
    public let time: MediaTime
    /// The only layer, or the outgoing one (A) in a transition.
    public let from: LayerPlan
    /// The incoming layer (B) during a transition.
    public let to: LayerPlan?
    public let transition: Transition?
    /// The transition's progress: its easing of `(t − T) / d` (which is in [0, 1): 0 on a transition's first frame).
    public let progress: Double
    /// The output's dynamic range and tone-mapping curve (the edit's `output`).
    public var colour: OutputColour
    /// What shows outside the layers' pictures (`Edit.background`); black unless the edit says otherwise.
    public var background: RGBColour = .black

    public init(frame: Int64, time: MediaTime, from: LayerPlan, to: LayerPlan?, transition: Transition?, progress: Double,
                colour: OutputColour = .sdr) {
        self.frame = frame; self.time = time; self.from = from; self.to = to; self.transition = transition; self.progress = progress
        self.colour = colour
    }
}

func fmt(_ t: MediaTime) -> String {
    let s = t.seconds
    return s == s.rounded() ? String(Int(s)) : String(format: "%.3f", s)
}

import Foundation
