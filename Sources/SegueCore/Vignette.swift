import Foundation

/// A `vignette` effect's values at one instant, and its per-sample formula (`effects.glsl`'s `segue_vignette` is the
/// GLSL twin).
///
/// The picture darkens towards its edges, following the picture (not the frame): for a sample at picture position
/// `(u, v)` (0…1 across its width and height), `d = |(2u − 1, 2v − 1)| / √2` (0 at the centre, 1 in the corners), and
/// R′G′B′ is multiplied by `1 − amount · smoothstep(radius, 1, d)` (`smoothstep(e₀, e₁, x) = t²(3 − 2t)`,
/// `t = clamp((x − e₀)/(e₁ − e₀), 0, 1)`, GLSL's). An elliptical vignette of the picture's proportions: inside
/// `radius` nothing changes; the corners are darkened by `amount` (1: black).
public struct Vignette: Equatable, Sendable {
    /// 0 (none) … 1 (the corners black).
    public var amount: Float
    /// Where the darkening starts, 0 (the centre) … 1 (the corners: none), as a fraction of the half-diagonal.
    public var radius: Float
    public init(amount: Float, radius: Float) { self.amount = amount; self.radius = radius }

    /// The largest `radius` used (smoothstep needs `e₀ < e₁`).
    public static let maxRadius: Float = 0.999

    /// What the shader gets (`segue_vignette`): amount, radius.
    public var uniforms: [Float] { [amount, min(radius, Vignette.maxRadius)] }

    /// The factor R′G′B′ is multiplied by at picture position `p` (0…1 each), from `uniforms` `u`.
    @inline(__always) public static func factor(_ p: SIMD2<Float>, _ u: [Float]) -> Float {
        let q = p * 2 - 1
        let d = (q.x * q.x + q.y * q.y).squareRoot() / Float(2).squareRoot()
        let t = min(max((d - u[1]) / (1 - u[1]), 0), 1)
        return 1 - u[0] * (t * t * (3 - 2 * t))
    }
}
