import Foundation
import SegueCore

/// A number that may change over an item's time: one value, or keyframes.
///
/// Keyframe times are seconds from the item's first instant on its track (the first frame of the transition into
/// it, if any). Before the first keyframe the value is the first keyframe's, after the last the last's; between
/// keyframes `k` and `k + 1` it moves from one value to the next along keyframe `k`'s easing (the CSS rule: a
/// keyframe's timing function governs the interval that starts at it; CSS Animations Level 1 §3.9):
/// `v(t) = v_k + (v_{k+1} − v_k) · easing_k((t − t_k) / (t_{k+1} − t_k))`, the fraction computed from exact rational
/// times.
public enum Animated: Equatable, Sendable, CustomStringConvertible {
    case constant(Double)
    /// At least one keyframe, times strictly increasing.
    case keyframes([Keyframe])

    /// The value at `t` (seconds from the item's first instant, exact).
    public func value(at t: MediaTime) -> Double {
        switch self {
        case .constant(let v): return v
        case .keyframes(let k):
            if !(k[0].time < t) { return k[0].value }
            guard let next = k.firstIndex(where: { t < $0.time }) else { return k[k.count - 1].value }
            let a = k[next - 1], b = k[next]
            return a.value + (b.value - a.value) * a.easing(MediaTime.ratio(t - a.time, b.time - a.time))
        }
    }

    /// Whether the value is the same at every instant.
    public var isConstant: Bool {
        switch self {
        case .constant: return true
        case .keyframes(let k): return k.allSatisfy { $0.value == k[0].value }
        }
    }

    /// Every value it takes at a keyframe (the extremes of a linear or eased segment lie at its ends, except for
    /// overshooting cubic Béziers).
    public var keyValues: [Double] {
        switch self {
        case .constant(let v): return [v]
        case .keyframes(let k): return k.map(\.value)
        }
    }

    public var description: String {
        switch self {
        case .constant(let v): return String(format: "%g", v)
        case .keyframes(let k):
            return k.map { String(format: "%g@%gs", $0.value, $0.time.seconds) + ($0.easing == .linear ? "" : " \($0.easing)") }.joined(separator: " → ")
        }
    }
}

/// A value at a time, and how the value moves on to the next keyframe.
public struct Keyframe: Equatable, Sendable {
    /// Seconds from the item's first instant on its track.
    public var time: MediaTime
    public var value: Double
    /// The shape of the interval from this keyframe to the next (default linear).
    public var easing: Easing
    public init(time: MediaTime, value: Double, easing: Easing = .linear) { self.time = time; self.value = value; self.easing = easing }
}

/// An item's `layer`: where and how it is drawn over the tracks below (`LayerTransform` at each instant, and an
/// opacity). Each property is a number or keyframes (`Animated`).
public struct LayerSpec: Equatable, Sendable {
    /// The layer's centre in the render frame, normalized (0…1, top-left origin); default 0.5, 0.5.
    public var x = Animated.constant(0.5), y = Animated.constant(0.5)
    /// 1 = fitted to the render size as the edit's `fit` says; 0.25 = a quarter of that width and height.
    public var scale = Animated.constant(1)
    /// Degrees, clockwise, about the layer's centre.
    public var rotation = Animated.constant(0)
    /// 0 (transparent) … 1 (opaque; default), multiplying the picture's own alpha.
    public var opacity = Animated.constant(1)
    /// Fractions of the upright picture removed before fitting (each 0…1).
    public var cropLeft = Animated.constant(0), cropTop = Animated.constant(0)
    public var cropRight = Animated.constant(0), cropBottom = Animated.constant(0)
    /// How the layer's colour mixes with the colour below it (`BlendMode`; default normal: drawn over it).
    public var blend = BlendMode.normal
    public init() {}

    /// The transform at `t` (seconds from the item's first instant).
    public func transform(at t: MediaTime) -> LayerTransform {
        LayerTransform(x: x.value(at: t), y: y.value(at: t), scale: scale.value(at: t), rotation: rotation.value(at: t),
                       crop: CropInsets(left: cropLeft.value(at: t), top: cropTop.value(at: t),
                                        right: cropRight.value(at: t), bottom: cropBottom.value(at: t)))
    }

    /// The geometric properties (position, scale, rotation, crop).
    var geometry: [Animated] { [x, y, scale, rotation, cropLeft, cropTop, cropRight, cropBottom] }

    /// Whether the picture's size on screen can change over time (keyframed scale or crop): such a layer is
    /// prefiltered to power-of-two levels rather than once per frame.
    public var changesSize: Bool { !(scale.isConstant && cropLeft.isConstant && cropTop.isConstant && cropRight.isConstant && cropBottom.isConstant) }

    /// Whether every property is constant.
    public var isConstant: Bool { (geometry + [opacity]).allSatisfy(\.isConstant) }

    /// Whether it draws the picture as an edit of one track does (the defaults throughout).
    public var isIdentity: Bool { self == LayerSpec() }

    /// "x 0.8, y 0.2, scale 0.25", naming what differs from the defaults; "" for none.
    public var description: String {
        let d = LayerSpec()
        var parts: [String] = []
        for (name, v, dv) in [("x", x, d.x), ("y", y, d.y), ("scale", scale, d.scale), ("rotation", rotation, d.rotation),
                              ("opacity", opacity, d.opacity), ("crop left", cropLeft, d.cropLeft), ("crop top", cropTop, d.cropTop),
                              ("crop right", cropRight, d.cropRight), ("crop bottom", cropBottom, d.cropBottom)] where v != dv {
            parts.append("\(name) \(v)")
        }
        if blend != .normal { parts.append("blend \(blend.rawValue)") }
        return parts.joined(separator: ", ")
    }
}
