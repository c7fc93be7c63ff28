import Foundation
import SegueCore

/// Writes a resolved edit as an OpenTimelineIO timeline (`segue export-otio`), so that a render can be opened in an
/// editor, in the schemas the `opentimelineio` 0.18 package reads (`Timeline.1`, `Stack.1`, `Track.1`, `Clip.2`,
/// `Gap.1`, `Transition.1`, `ExternalReference.1`, `GeneratorReference.1`, `LinearTimeWarp.1`, `FreezeFrame.1`,
/// `Marker.2`), every time at the edit's frame rate.
///
/// - Every place on a track (an item's start and end, a gap, a transition's length) is a whole number of frames at the
///   edit's rate: the output frame where the render starts showing it (`Timeline.firstFrame(atOrAfter:)`, the last at
///   the edit's `frameCount`), so that the package's `duration()` of the timeline is the render's frame count and each
///   item covers the frames the render shows it on. An item moved later to its frame starts its source range as much
///   later (through its speed), so it shows the same source frames. Source ranges keep the exact time, a fraction of
///   a frame where it is not on one.
/// - Each video track is an OTIO Video track; items placed with `at` leave Gaps before them.
/// - A transition of `d` into item B becomes `Transition.1` with `in_offset` 0 and `out_offset` d at B's start (the
///   convention of the CMX 3600 adapter): the item before it ends there in OTIO, the `d` it overlaps B being its
///   handle. `SMPTE_Dissolve` for a plain crossfade, else `Custom_Transition` with the edit-file transition object in
///   `metadata.segue` (type, direction, parameters, easing, blend, shader).
/// - An image sequence is an `ImageSequenceReference` (its first picture the `start_frame`).
/// - A constant speed is a `LinearTimeWarp` (its `time_scalar`; negative: played backwards); a freeze a `FreezeFrame`
///   with its `source_range` starting at the frame held; a fill a `SolidColor` generator; a gap a Gap.
/// - Picture effects (`colour`, `lut`, `chromaKey`, `vignette`) follow the time warps as `Effect.1`s named
///   `Segue.TYPE`, their settings (keyframes included) in `metadata.segue` (`OTIOEffects`).
/// - OTIO's video tracks are silent: each video track whose clips have sound gets an Audio track of the same layout
///   (its gain and audio stream in `metadata.segue`); audio tracks are Audio tracks.
/// - The output properties (size, rate, fit, background, output settings, audio settings, music) go in the timeline's
///   `metadata.segue`, which `OTIOFile` reads back.
/// What OTIO cannot hold and Segue does not write (layer transforms, pan and zoom, colour overrides, speed ramps)
/// is listed in `warnings`.
public enum OTIOWriter {
    /// The timeline as OTIO JSON (pretty-printed, keys sorted), and what could not be written.
    public static func write(_ t: Timeline, name: String = "") throws -> (data: Data, warnings: [String]) {
        var w = Writer(timeline: t)
        let document = w.timeline(name: name)
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        return (data, w.warnings)
    }

    struct Writer {
        let timeline: Timeline
        var warnings: [String] = []
        var rate: FrameRate { timeline.frameRate }

        init(timeline: Timeline) { self.timeline = timeline }

        /// `RationalTime.1` of `t` at the edit's rate (a whole number of frames when `t` is on a frame).
        func time(_ t: MediaTime) -> [String: Any] {
            let frames = Double(t.value) * Double(rate.numerator) / (Double(t.timescale) * Double(rate.denominator))
            let whole = t.scaled(by: Int64(rate.numerator), Int64(rate.denominator))
            let value = whole.timescale == 1 ? Double(whole.value) : frames
            return ["OTIO_SCHEMA": "RationalTime.1", "rate": rate.framesPerSecond, "value": value]
        }
        func range(_ start: MediaTime, _ duration: MediaTime) -> [String: Any] {
            ["OTIO_SCHEMA": "TimeRange.1", "start_time": time(start), "duration": time(duration)]
        }
        /// `RationalTime.1` of `n` frames at the edit's rate.
        func frames(_ n: Int64) -> [String: Any] {
            ["OTIO_SCHEMA": "RationalTime.1", "rate": rate.framesPerSecond, "value": Double(n)]
        }
        /// A source range starting at `start` (exact), `n` frames long.
        func range(_ start: MediaTime, frames n: Int64) -> [String: Any] {
            ["OTIO_SCHEMA": "TimeRange.1", "start_time": time(start), "duration": frames(n)]
        }
        /// The output frame where something placed at timeline time `t` starts to show: the first frame at or after
        /// `t`, at most the edit's frame count (the edit's end is its last frame's end).
        func frame(at t: MediaTime) -> Int64 { min(timeline.firstFrame(atOrAfter: t), timeline.frameCount) }

        mutating func timeline(name: String) -> [String: Any] {
            var children: [[String: Any]] = []
            for (k, members) in timeline.tracks.enumerated() where !timeline.captionTracks.contains(k) {
                children.append(track(members.map { timeline.placements[$0] }, name: "Video \(k + 1)", video: true))
            }
            if timeline.captions != nil { warnings.append("the captions are not written (OTIO has no captions)") }
            // OTIO's video tracks are silent: the sound of each video track's clips goes on an audio track of its own.
            var audioCount = 0
            for (k, members) in timeline.tracks.enumerated() where !timeline.captionTracks.contains(k) {
                let placements = members.map { timeline.placements[$0] }
                guard placements.contains(where: audible) else { continue }
                audioCount += 1
                children.append(track(placements, name: "Audio \(audioCount)", video: false, only: audible))
            }
            for (k, a) in timeline.audioTracks.enumerated() {
                audioCount += 1
                var t = track(a.items.map { timeline.audioPlacements[$0] }, name: "Audio \(audioCount)", video: false)
                if !a.duck { t["metadata"] = ["segue": ["duck": false]] }
                _ = k
                children.append(t)
            }
            let stack: [String: Any] = [
                "OTIO_SCHEMA": "Stack.1", "name": "tracks", "metadata": [String: Any](), "source_range": NSNull(), "effects": [Any](),
                "markers": timeline.markers.map(marker), "enabled": true, "children": children,
            ]
            return [
                "OTIO_SCHEMA": "Timeline.1", "name": name, "tracks": stack,
                "global_start_time": timeline.globalStartTime.map { time($0) } ?? NSNull(),
                "metadata": ["segue": properties()],
            ]
        }

        /// Whether a placement's sound is heard in the mix (a video track's clip with audio, not muted).
        func audible(_ p: Timeline.Placement) -> Bool {
            p.isMedia && p.source.hasAudio && p.spec.volume > 0 && p.spec.freeze == nil && !(p.spec.pitch == .mute && !p.timeMap.isIdentity)
        }

        /// The edit's output properties as the edit file writes them: the codec only when the edit names one (else the
        /// output's file name chooses it when the OTIO file is rendered, as it did for the edit), the other settings
        /// only where they are not the defaults (`EditFileWriter.output`).
        func properties() -> [String: Any] {
            let o = timeline.output, d = OutputSettings()
            var output: [String: Any] = [:]
            if !o.codecFromFileName { output["codec"] = o.codec.rawValue }
            if o.crf != d.crf { output["crf"] = o.crf }
            if o.preset != d.preset { output["preset"] = o.preset }
            if o.toneMap != d.toneMap { output["toneMap"] = o.toneMap.rawValue }
            if o.dynamicRange != d.dynamicRange { output["dynamicRange"] = o.dynamicRange.rawValue }
            if let e = o.encoder { output["encoder"] = e }
            if let l = o.loudness { output["loudness"] = l.integrated; output["truePeak"] = l.truePeak }
            var p: [String: Any] = [
                "renderSize": ["width": timeline.renderSize.width, "height": timeline.renderSize.height],
                "frameRate": rate.description, "fit": timeline.fit.rawValue, "background": timeline.background.description, "output": output,
                "audio": ["sampleRate": timeline.audio.sampleRate, "channels": timeline.audio.channels, "bitrate": timeline.audio.bitRate],
            ]
            if let b = timeline.fitBackground { p["fitBackground"] = b.description }
            if let m = timeline.music {
                var music: [String: Any] = ["path": m.path, "start": m.start.seconds, "volume": m.volume, "loop": m.loop]
                if !m.ramps.isEmpty { music["ramps"] = m.ramps.map(ramp) }
                if let d = m.duck { music["duck"] = ["level": d.level, "attack": d.attack, "release": d.release] }
                p["music"] = music
            }
            return p
        }

        func ramp(_ r: VolumeRamp) -> [String: Any] { ["from": r.from, "to": r.to, "start": r.start.seconds, "duration": r.duration.seconds] }

        func marker(_ m: EditMarker) -> [String: Any] {
            ["OTIO_SCHEMA": "Marker.2", "name": m.name, "metadata": [String: Any](), "color": m.colour ?? "RED", "comment": m.comment,
             "marked_range": range(m.start, m.duration)]
        }

        /// An OTIO track of `placements` (one track's items in order): gaps where nothing is, a transition at each
        /// cut Segue overlaps. With `only`, items it refuses are gaps (the silent items of a video track's sound).
        /// Every place is in whole frames (`frame(at:)`).
        mutating func track(_ placements: [Timeline.Placement], name: String, video: Bool,
                            only: ((Timeline.Placement) -> Bool)? = nil) -> [String: Any] {
            var children: [[String: Any]] = []
            var cursor: Int64 = 0
            for (j, p) in placements.enumerated() {
                // In OTIO the item runs to the next cut: the start of the next item when a transition overlaps them.
                let next = j + 1 < placements.count ? placements[j + 1] : nil
                let cut = next.flatMap { $0.spec.transition == nil ? nil : $0.start } ?? p.end
                let first = frame(at: p.start), end = max(first, frame(at: cut))
                if cursor < first { children.append(gap(first - cursor)) }
                if let t = p.spec.transition, j > 0 {
                    let n = frame(at: p.start + t.duration) - first
                    children.append(transition(t, frames: n, video: video))
                    if video { checkHandle(of: placements[j - 1], until: first + n, into: p, transition: t) }
                }
                if only.map({ !$0(p) }) ?? false {
                    children.append(gap(end - first))
                } else {
                    children.append(item(p, lead: MediaTime(frame: first, rate: rate) - p.start, frames: end - first, video: video))
                }
                cursor = max(cursor, end)
            }
            return ["OTIO_SCHEMA": "Track.1", "name": name, "kind": video ? "Video" : "Audio", "metadata": [String: Any](),
                    "source_range": NSNull(), "effects": [Any](), "markers": [Any](), "enabled": true, "children": children]
        }

        /// Warns where the outgoing item `a` of a transition into `b` would need media past its file's end in OTIO: its
        /// whole frames run to frame `endFrame` (the transition's last frame, exclusive), while Segue shows `a` on the
        /// frames that start within it. A clip whose file ends between two frames inside a transition asks OTIO for
        /// the rest of that frame, which the file lacks: a reader (Segue's included) shortens the transition by it.
        mutating func checkHandle(of a: Timeline.Placement, until endFrame: Int64, into b: Timeline.Placement, transition t: Transition) {
            guard a.isMedia, !a.source.isStill, a.spec.freeze == nil, !a.spec.reverse, !a.spec.loop, a.timeMap.isConstant else { return }
            let needed = a.sourceStart + a.timeMap.sourceOffset(at: MediaTime(frame: endFrame, rate: rate) - a.start)
            let mediaEnd = a.source.duration + a.source.timestampTolerance
            guard mediaEnd < needed else { return }
            warnings.append("the \(t.kind.rawValue) from \(Timeline.name(a.spec)) into \(Timeline.name(b.spec)): OTIO counts whole frames, so "
                            + "it asks for \(String(format: "%.3f", (needed - a.source.duration).seconds)) s of \(Timeline.name(a.spec)) past its file's end "
                            + "(which falls inside the transition's last frame): a reader of the OTIO file shortens the transition by that much")
        }

        /// A gap of `n` frames.
        func gap(_ n: Int64) -> [String: Any] {
            ["OTIO_SCHEMA": "Gap.1", "name": "", "metadata": [String: Any](), "source_range": range(.zero, frames: n), "effects": [Any](),
             "markers": [Any](), "enabled": true]
        }

        /// A transition of `n` frames (its `out_offset`) at the cut before the item it leads into.
        mutating func transition(_ t: Transition, frames n: Int64, video: Bool) -> [String: Any] {
            let plain = !video || (t.kind == .crossfade && t.easing == .linear && t.audioEasing == nil && t.audioCurve == .linear && t.params.isEmpty
                                   && (t.blend ?? .gamma) == .gamma)
            var o: [String: Any] = ["OTIO_SCHEMA": "Transition.1", "name": plain ? "Cross Dissolve" : t.kind.rawValue, "metadata": [String: Any](),
                                    "in_offset": frames(0), "out_offset": frames(n),
                                    "transition_type": plain ? "SMPTE_Dissolve" : "Custom_Transition"]
            if !plain { o["metadata"] = ["segue": transitionObject(t)] }
            return o
        }

        /// The edit file's transition object for `t` (without its duration: OTIO's offsets hold it).
        func transitionObject(_ t: Transition) -> [String: Any] {
            var o: [String: Any] = ["type": t.kind.rawValue]
            if !t.kind.traits.directions.isEmpty { o["direction"] = t.direction.rawValue }
            if t.easing != .linear { o["easing"] = t.easing.description }
            if let e = t.audioEasing { o["audioEasing"] = e.description }
            if t.audioCurve != .linear { o["audioCurve"] = t.audioCurve.rawValue }
            if let b = t.blend { o["blend"] = b.rawValue }
            if let s = t.shader { o["shader"] = s.path }
            if !t.params.isEmpty {
                var params: [String: Any] = [:]
                for (k, v) in t.params {
                    switch v {
                    case .number(let d): params[k] = d
                    case .vector(let list): params[k] = list
                    case .boolean(let b): params[k] = b
                    case .image(let path): params[k] = path
                    }
                }
                o["params"] = params
            }
            return o
        }

        /// Source seconds per track second: the speed the item plays at (a ramp's mean).
        func meanSpeed(_ p: Timeline.Placement) -> Double {
            p.timeMap.isConstant ? p.timeMap.speed(at: .zero) : MediaTime.ratio(p.sourceDuration, p.duration)
        }

        /// The item's effects (`ClipSpec.effects`) as OTIO's: a freeze a `FreezeFrame` (its clip's source range
        /// starting at the frame held); the speed and `reverse` together one `LinearTimeWarp` of the speed it plays at
        /// (`meanSpeed`), negative when played backwards, none at speed 1 forwards.
        func otioEffects(_ p: Timeline.Placement) -> [[String: Any]] {
            var out: [[String: Any]] = []
            var warped = false
            for effect in p.spec.effects {
                switch effect {
                case .freeze:
                    out.append(["OTIO_SCHEMA": "FreezeFrame.1", "name": "", "metadata": [String: Any](), "effect_name": "FreezeFrame",
                                "enabled": true, "time_scalar": 0.0])
                case .speed, .reverse:
                    guard p.spec.freeze == nil, !warped else { continue }
                    warped = true
                    let speed = meanSpeed(p)
                    if speed != 1 || p.spec.reverse {
                        out.append(["OTIO_SCHEMA": "LinearTimeWarp.1", "name": "", "metadata": [String: Any](), "effect_name": "LinearTimeWarp",
                                    "enabled": true, "time_scalar": p.spec.reverse ? -speed : speed])
                    }
                default:
                    continue   // picture effects: `pictureEffects`
                }
            }
            return out
        }

        /// The item's picture effects as `Effect.1`s (`OTIOEffects`); one the edit file cannot hold is a warning.
        mutating func pictureEffects(_ p: Timeline.Placement, label: String) -> [[String: Any]] {
            do { return try OTIOEffects.write(p.spec, field: "\(label).effects") } catch {
                warnings.append("\(label): its picture effects are not written (\(error))")
                return []
            }
        }

        /// An image sequence as an `ImageSequenceReference.1` (its `available_range` is set by the caller): the folder,
        /// the text around the number, its padding, the first picture in the folder as `start_frame` (Segue's time 0
        /// of a sequence), its rate and missing-frame policy.
        func sequence(_ s: ImageSequence, _ pattern: ImageSequencePattern) -> [String: Any] {
            ["OTIO_SCHEMA": "ImageSequenceReference.1", "name": "", "metadata": [String: Any](),
             "target_url_base": URL(fileURLWithPath: pattern.directory, isDirectory: true).absoluteString,
             "name_prefix": pattern.prefix, "name_suffix": pattern.suffix, "frame_zero_padding": pattern.width,
             "start_frame": (try? pattern.numbers().first) ?? 1, "frame_step": 1, "rate": s.rate.framesPerSecond,
             "missing_frame_policy": s.missingFrames.rawValue]
        }

        /// A clip (or generator, or gap) of `n` frames on its OTIO track, starting `lead` (less than a frame) after the
        /// placement's start (on the frame where the render first shows it): its source range starts as much later.
        mutating func item(_ p: Timeline.Placement, lead: MediaTime, frames n: Int64, video: Bool) -> [String: Any] {
            let length = MediaTime(frame: n, rate: rate)
            let label = "\(Timeline.name(p.spec))"
            var clip: [String: Any] = ["OTIO_SCHEMA": "Clip.2", "name": label, "metadata": [String: Any](), "markers": [Any](),
                                       "enabled": true, "active_media_reference_key": "DEFAULT_MEDIA"]
            var effects: [[String: Any]] = []
            var segue: [String: Any] = [:]
            let reference: [String: Any]
            switch p.spec.content {
            case .gap: return gap(n)
            case .text, .subtitles, .shape:
                warnings.append("\(label): \(p.spec.shape == nil ? "text" : "a shape") is not written (OTIO has no \(p.spec.shape == nil ? "titles" : "shapes")): a gap")
                return gap(n)
            case .fill:
                var colour = RGBColour.black
                if case .fill(let c) = p.spec.content { colour = c }
                reference = ["OTIO_SCHEMA": "GeneratorReference.1", "name": "", "metadata": [String: Any](), "generator_kind": "SolidColor",
                             "parameters": ["color": colour.description], "available_range": NSNull()]
                clip["source_range"] = range(.zero, frames: n)
                if video { effects = pictureEffects(p, label: label) }
            case .file(let path):
                var ref: [String: Any] = ["OTIO_SCHEMA": "ExternalReference.1", "name": "", "metadata": [String: Any](),
                                          "target_url": URL(fileURLWithPath: path).absoluteString]
                if let s = p.spec.imageSequence, let pattern = ImageSequencePattern(path: path) { ref = sequence(s, pattern) }
                ref["available_range"] = p.source.isStill ? NSNull() : range(.zero, p.source.duration)
                reference = ref
                if p.spec.freeze != nil {
                    clip["source_range"] = range(p.sourceStart, frames: n)
                } else if p.source.isStill {
                    clip["source_range"] = range(.zero, frames: n)
                } else {
                    if !p.timeMap.isConstant {
                        warnings.append("\(label): a speed ramp is written as its mean speed (OTIO's LinearTimeWarp is constant)")
                    }
                    // The item's local times [lead, lead + length) are shown; played backwards, they show the end of
                    // its source range, counted back.
                    let start = p.spec.reverse ? p.sourceStart + p.sourceDuration - p.timeMap.sourceOffset(at: lead + length)
                        : p.sourceStart + p.timeMap.sourceOffset(at: lead)
                    clip["source_range"] = range(max(.zero, start), frames: n)
                }
                if !p.source.isStill { effects = otioEffects(p) }
                if video { effects += pictureEffects(p, label: label) }
                if !video {
                    if p.spec.volume != 1 { segue["volume"] = p.spec.volume }
                    if !p.spec.ramps.isEmpty { segue["ramps"] = p.spec.ramps.map(ramp) }
                    if let a = p.spec.audioTrack { segue["audioTrack"] = a }
                    if p.spec.pitch != .keep { segue["pitch"] = p.spec.pitch.rawValue }
                } else {
                    if p.spec.frameBlend { segue["frameBlend"] = true }
                    var lost: [String] = []
                    if !p.spec.layer.isIdentity { lost.append("layer") }
                    if p.spec.motion != nil { lost.append("motion") }
                    if p.spec.colour != nil { lost.append("colour") }
                    if p.spec.matte != nil { lost.append("matte") }
                    if p.spec.fitBackground != nil { lost.append("fitBackground") }
                    if !lost.isEmpty { warnings.append("\(label): \(lost.joined(separator: ", ")) not written (OTIO has no such thing)") }
                }
            }
            clip["media_references"] = ["DEFAULT_MEDIA": reference]
            clip["effects"] = effects
            if !segue.isEmpty { clip["metadata"] = ["segue": segue] }
            return clip
        }
    }
}
