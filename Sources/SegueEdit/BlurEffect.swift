import SegueCore

/// The `blur` effect (`LayerFilter.blur` at each instant): `radius`, the Gaussian's standard deviation in output pixels
/// (CSS `blur()`), a number or keyframes, 0…250.
public struct BlurEffect: Equatable, Sendable, CustomStringConvertible {
    public var radius: Animated
    public init(radius: Animated) { self.radius = radius }

    /// The blur at `t` (seconds from the item's first instant), the radius clamped to 0…`LayerFilter.maxRadius`.
    public func filter(at t: MediaTime) -> LayerFilter { .blur(radius: BlurEffect.clamped(radius, t)) }

    static func clamped(_ a: Animated, _ t: MediaTime) -> Float { Float(min(LayerFilter.maxRadius, max(0, a.value(at: t)))) }

    /// "blur radius 4".
    public var description: String { "blur radius \(radius)" }
}

/// The `sharpen` effect (`LayerFilter.sharpen` at each instant): an unsharp mask, `c + amount · (c − blur_radius(c))`;
/// `amount` 0…10 (default 1) and `radius` 0…250 output pixels (default 1), each a number or keyframes.
public struct SharpenEffect: Equatable, Sendable, CustomStringConvertible {
    public var amount = Animated.constant(1), radius = Animated.constant(1)
    public init(amount: Animated = .constant(1), radius: Animated = .constant(1)) { self.amount = amount; self.radius = radius }

    /// The unsharp mask at `t`, amount clamped to 0…10 and radius to 0…`LayerFilter.maxRadius`.
    public func filter(at t: MediaTime) -> LayerFilter {
        .sharpen(amount: Float(min(10, max(0, amount.value(at: t)))), radius: BlurEffect.clamped(radius, t))
    }

    /// "sharpen amount 1, radius 1".
    public var description: String { "sharpen amount \(amount), radius \(radius)" }
}

extension EditFile {
    /// A `blur` entry (`EditSchema.blurEffect`; the schema check refuses a radius outside 0…250).
    static func blur(_ e: EditFields) throws -> BlurEffect {
        BlurEffect(radius: try animated(e, "radius") ?? .constant(0))
    }

    /// A `sharpen` entry (`EditSchema.sharpenEffect`).
    static func sharpen(_ e: EditFields) throws -> SharpenEffect {
        SharpenEffect(amount: try animated(e, "amount") ?? .constant(1), radius: try animated(e, "radius") ?? .constant(1))
    }
}
