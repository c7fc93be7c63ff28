import Foundation
import SegueCore

/// The edit file's `layer` object (docs/edit-file.md, "Tracks and layers"), keyframes, and the transitions of audio
/// tracks.
extension EditFile {
    /// `{"x", "y", "scale", "rotation", "opacity", "crop": {"left", "top", "right", "bottom"}, "blend": MODE}`, each
    /// (but `blend`, a `BlendMode` name) a number or `{"keyframes": [{"time", "value", "easing"}, …]}` (checked against
    /// `EditSchema.layer`). Throws `EditError` naming the field (`tracks[1].clips[0].layer.crop`): crops that remove the
    /// whole picture, keyframes out of order.
    static func layer(_ o: EditFields) throws -> LayerSpec {
        var l = LayerSpec()
        if let v = try animated(o, "x") { l.x = v }
        if let v = try animated(o, "y") { l.y = v }
        if let v = try animated(o, "scale") { l.scale = v }
        if let v = try animated(o, "rotation") { l.rotation = v }
        if let v = try animated(o, "opacity") { l.opacity = v }
        if let mode = o.choice("blend", BlendMode.self) { l.blend = mode }
        if let c = o.object("crop") {
            l.cropLeft = try animated(c, "left") ?? .constant(0); l.cropTop = try animated(c, "top") ?? .constant(0)
            l.cropRight = try animated(c, "right") ?? .constant(0); l.cropBottom = try animated(c, "bottom") ?? .constant(0)
            for (a, b, names) in [(l.cropLeft, l.cropRight, "left and right"), (l.cropTop, l.cropBottom, "top and bottom")] {
                if case .constant(let x) = a, case .constant(let y) = b, x + y >= 1 {
                    throw EditError(c.path, "crops \(names) together remove the whole picture (\(x) + \(y) ≥ 1)")
                }
            }
        }
        return l
    }

    /// Field `name` of `o`: a number (within its declared range), or `{"keyframes": [{"time": SECONDS, "value":
    /// NUMBER, "easing": NAME}, …]}` with times strictly increasing; nil when left out. Throws `EditError` naming the
    /// keyframe whose time is out of order, or whose easing is not CSS.
    static func animated(_ o: EditFields, _ name: String) throws -> Animated? {
        if let d = o.number(name) { return .constant(d) }
        guard let k = o.object(name) else { return nil }
        var keys: [Keyframe] = []
        for kf in k.objects("keyframes") ?? [] {
            let time = kf.seconds("time") ?? .zero
            if let last = keys.last, !(last.time < time) {
                throw EditError(kf.path("time"), "keyframes must be in order of time: \(time.seconds) s is not after the keyframe before it (\(last.time.seconds) s)")
            }
            let easing = try kf.string("easing").map { try Easing.parse($0, field: kf.path("easing")) } ?? .linear
            keys.append(Keyframe(time: time, value: kf.number("value") ?? 0, easing: easing))
        }
        return .keyframes(keys)
    }

    /// The transition into an item of an audio track (`EditSchema.audioTransition`, not a cut): a crossfade of the
    /// audio over `duration` (default 1 s) with `audioCurve` and `audioEasing`.
    static func audioTransition(_ t: EditFields) throws -> Transition {
        try transition(t, base: "/")
    }
}
