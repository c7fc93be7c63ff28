import Foundation
import SegueCore

/// The edit file's `layer` object (docs/edit-file.md, "Tracks and layers") and the transitions of audio tracks.
extension EditFile {
    /// `{"x", "y", "scale", "rotation", "opacity", "crop": {"left", "top", "right", "bottom"}}`, each a number or
    /// `{"keyframes": [{"time", "value", "easing"}, …]}`. Throws `EditError` naming the field (`tf`, e.g.
    /// `tracks[1].clips[0].layer`).
    static func layer(_ raw: Any, _ tf: String) throws -> LayerSpec {
        let o = try object(raw, tf)
        try checkKeys(o, tf, ["x", "y", "scale", "rotation", "opacity", "crop"])
        var l = LayerSpec()
        if let v = o["x"] { l.x = try animated(v, "\(tf).x", range: -100...100, meaning: "a position across the render frame (0…1; beyond shows part of the layer)") }
        if let v = o["y"] { l.y = try animated(v, "\(tf).y", range: -100...100, meaning: "a position down the render frame (0…1; beyond shows part of the layer)") }
        if let v = o["scale"] { l.scale = try animated(v, "\(tf).scale", range: 0...100, meaning: "a scale of the fitted picture (1 = fitted to the render size)") }
        if let v = o["rotation"] { l.rotation = try animated(v, "\(tf).rotation", range: -36000...36000, meaning: "degrees clockwise") }
        if let v = o["opacity"] { l.opacity = try animated(v, "\(tf).opacity", range: 0...1, meaning: "an opacity (0 transparent … 1 opaque)") }
        if let c = o["crop"] {
            let cf = "\(tf).crop"
            let co = try object(c, cf)
            try checkKeys(co, cf, ["left", "top", "right", "bottom"])
            func side(_ key: String) throws -> Animated {
                guard let v = co[key] else { return .constant(0) }
                return try animated(v, "\(cf).\(key)", range: 0...0.999, meaning: "the fraction of the picture removed from that side (0 … less than 1)")
            }
            l.cropLeft = try side("left"); l.cropTop = try side("top"); l.cropRight = try side("right"); l.cropBottom = try side("bottom")
            for (a, b, names) in [(l.cropLeft, l.cropRight, "left and right"), (l.cropTop, l.cropBottom, "top and bottom")] {
                if case .constant(let x) = a, case .constant(let y) = b, x + y >= 1 {
                    throw EditError(cf, "crops \(names) together remove the whole picture (\(x) + \(y) ≥ 1)")
                }
            }
        }
        return l
    }

    /// A number within `range`, or `{"keyframes": [{"time": SECONDS, "value": NUMBER, "easing": NAME}, …]}` with
    /// times ≥ 0 and strictly increasing. Throws `EditError` naming the field (and the keyframe).
    static func animated(_ raw: Any, _ f: String, range: ClosedRange<Double>, meaning: String) throws -> Animated {
        func value(_ v: Any, _ field: String) throws -> Double {
            let d = try number(v, field)
            guard range.contains(d) else { throw EditError(field, "is \(meaning): must be \(range.lowerBound)…\(range.upperBound) (got \(d))") }
            return d
        }
        if !(raw is [String: Any]) { return .constant(try value(raw, f)) }
        let o = try object(raw, f)
        try checkKeys(o, f, ["keyframes"])
        guard let list = o["keyframes"] as? [Any] else { throw EditError("\(f).keyframes", "must be a list of keyframes {\"time\", \"value\", \"easing\"}") }
        if list.isEmpty { throw EditError("\(f).keyframes", "needs at least one keyframe") }
        var keys: [Keyframe] = []
        for (k, raw) in list.enumerated() {
            let kf = "\(f).keyframes[\(k)]"
            let ko = try object(raw, kf)
            try checkKeys(ko, kf, ["time", "value", "easing"])
            guard let t = ko["time"], let v = ko["value"] else { throw EditError(kf, "needs time (seconds from the item's start) and value") }
            let seconds = try self.seconds(t, "\(kf).time")
            guard seconds >= 0 else { throw EditError("\(kf).time", "counts seconds from the item's first instant: must be ≥ 0 (got \(seconds))") }
            let time = MediaTime(seconds: seconds)
            if let last = keys.last, !(last.time < time) {
                throw EditError("\(kf).time", "keyframes must be in order of time: \(seconds) s is not after the keyframe before it (\(last.time.seconds) s)")
            }
            let easing = try ko["easing"].map { try Easing.parse(try string($0, "\(kf).easing"), field: "\(kf).easing") } ?? .linear
            keys.append(Keyframe(time: time, value: try value(v, "\(kf).value"), easing: easing))
        }
        return .keyframes(keys)
    }

    /// The transition into an item of an audio track: a crossfade of the audio over `duration` (default 1 s) with
    /// `audioCurve` and `audioEasing`. `type` may only say `crossfade`.
    static func audioTransition(_ raw: Any, field tf: String) throws -> Transition {
        let o = try object(raw, tf)
        try checkKeys(o, tf, ["type", "duration", "audioCurve", "audioEasing"])
        if let t = o["type"], try string(t, "\(tf).type") != "crossfade" {
            throw EditError("\(tf).type", "an audio track's transition is a crossfade (or a cut: leave the transition out)")
        }
        return try transition(o, field: tf, base: "/")
    }
}
