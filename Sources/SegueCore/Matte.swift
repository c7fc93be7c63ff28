/// How a track matte's picture masks the track below it (an item's `"matte"`, After Effects' track matte): the
/// value `m` its premultiplied R′G′B′A gives at each sample multiplies the masked pass's premultiplied colour and
/// alpha before that pass is composited over the tracks below it.
///
/// `alpha`: m = α. `luma`: m = BT.709 Y′ of its R′G′B′ times α (`0.2126·R′ + 0.7152·G′ + 0.0722·B′` of the
/// premultiplied colour). The inverted modes: `1 − m`. Outside the matte's picture it is transparent (m = 0; 1
/// inverted). The GLSL twin of `value` is `segue_matteValue` in `Shaders/glsl/main.glsl`.
public enum MatteMode: String, CaseIterable, Sendable {
    case alpha, luma
    case alphaInverted = "alpha-inverted", lumaInverted = "luma-inverted"

    /// The number the shader's `MATTE` define takes (`main.glsl`): the case's position plus 1 (0: no matte).
    public var shaderID: Int { MatteMode.allCases.firstIndex(of: self)! + 1 }

    /// Whether the mode measures luma (else alpha).
    public var isLuma: Bool { self == .luma || self == .lumaInverted }
    /// Whether the mode is inverted (`1 − m`).
    public var isInverted: Bool { self == .alphaInverted || self == .lumaInverted }

    /// The mask value (0…1, not clamped) of the matte's premultiplied R′G′B′A `c` (each 0…1).
    @inlinable public func value(_ c: SIMD4<Float>) -> Float {
        let m = isLuma ? 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z : c.w
        return isInverted ? 1 - m : m
    }
}

/// A track matte as a pass carries it (`CompositePass.matte`): the matte item's layer at the frame's instant (its
/// geometry, keyframes and opacity; drawn by neither renderer, only read) and how its picture masks the pass.
public struct PassMatte: Equatable, Sendable {
    public let layer: LayerPlan
    public let mode: MatteMode
    /// The track the matte item is on (the pass's track + 1).
    public let track: Int
    public init(layer: LayerPlan, mode: MatteMode, track: Int) { self.layer = layer; self.mode = mode; self.track = track }
}
