import Foundation

/// The scalars the colour pipeline's functions are written for: `Float`, what the shaders (GLSL ES `highp`) and
/// the CPU reference compute in, and `Double`, for shader parameters and tests.
public protocol TransferScalar: BinaryFloatingPoint {
    static func pow(_ x: Self, _ y: Self) -> Self
    static func exp(_ x: Self) -> Self
    static func log(_ x: Self) -> Self
}

extension Float: TransferScalar {
    @inlinable public static func pow(_ x: Float, _ y: Float) -> Float { Foundation.pow(x, y) }
    @inlinable public static func exp(_ x: Float) -> Float { Foundation.exp(x) }
    @inlinable public static func log(_ x: Float) -> Float { Foundation.log(x) }
}

extension Double: TransferScalar {
    @inlinable public static func pow(_ x: Double, _ y: Double) -> Double { Foundation.pow(x, y) }
    @inlinable public static func exp(_ x: Double) -> Double { Foundation.exp(x) }
    @inlinable public static func log(_ x: Double) -> Double { Foundation.log(x) }
}

/// Hybrid log-gamma, ITU-R BT.2100-2 Table 5 (ARIB STD-B67). `colour.glsl`: `segue_hlgOETF`,
/// `segue_hlgInverseOETF`, `segue_hlgOOTF`, `segue_hlgInverseOOTF`.
///
/// Signals: `E′` (the non-linear R′G′B′, 0…1), scene light `E` (0…1), display light `F_D` in cd/m². Segue's HLG
/// display is the BT.2100 reference one: nominal peak `L_W` = 1000 cd/m², black 0 (so β = 0), system gamma 1.2.
public enum HLG {
    /// BT.2100 Table 5: `a`, `b = 1 − 4a`, `c = 0.5 − a·ln(4a)`.
    public static let a = 0.17883277, b = 0.28466892, c = 0.55991073
    /// Nominal peak luminance of the reference display, cd/m² (the OOTF's `α`).
    public static let nominalPeak = 1000.0
    /// System gamma for a 1000 cd/m² display: `γ = 1.2` (BT.2100 Table 5, note 5e).
    public static let systemGamma = 1.2
    /// HDR reference white (ITU-R BT.2408-7): 75 % HLG signal, 203 cd/m² on the reference display.
    public static let referenceWhiteSignal = 0.75

    /// OETF: `E′ = √(3E)` for `0 ≤ E ≤ 1/12`, else `a·ln(12E − b) + c`.
    @inlinable public static func oetf<T: TransferScalar>(_ e: T) -> T {
        let e = max(e, 0)
        return e <= 1 / 12 ? (3 * e).squareRoot() : T(a) * T.log(12 * e - T(b)) + T(c)
    }

    /// Inverse OETF: `E = E′²/3` for `0 ≤ E′ ≤ 1/2`, else `(exp((E′ − c)/a) + b)/12`. Negative signals count as 0.
    @inlinable public static func inverseOETF<T: TransferScalar>(_ e: T) -> T {
        let e = max(e, 0)
        return e <= 0.5 ? e * e / 3 : (T.exp((e - T(c)) / T(a)) + T(b)) / 12
    }

    /// OOTF without its gain: `Y_S^(γ−1) · E`, with `Y_S = 0.2627·R_S + 0.6780·G_S + 0.0593·B_S` (BT.2100 Table 5,
    /// BT.2020 luminance). Multiplied by `α = L_W` (`nominalPeak`) it is display light `F_D` in cd/m². The gamma
    /// acts on luminance, not on each component, so hues and saturation are kept.
    @inlinable public static func ootf<T: TransferScalar>(_ e: SIMD3<T>) -> SIMD3<T> {
        let ys = max(T(0.2627) * e.x + T(0.6780) * e.y + T(0.0593) * e.z, 0)
        return e * T.pow(ys, T(systemGamma - 1))
    }

    /// Inverse OOTF without its gain: for display light `F = F_D / α` (0…1) with luminance `Y_D`,
    /// `E = Y_D^((1 − γ)/γ) · F` (BT.2100 Table 5, "Inverse OOTF"). Black stays black.
    @inlinable public static func inverseOOTF<T: TransferScalar>(_ f: SIMD3<T>) -> SIMD3<T> {
        let yd = T(0.2627) * f.x + T(0.6780) * f.y + T(0.0593) * f.z
        return yd > 0 ? f * T.pow(yd, T((1 - systemGamma) / systemGamma)) : .zero
    }
}

/// The perceptual quantizer, SMPTE ST 2084:2014 (ITU-R BT.2100-2 Table 4). `colour.glsl`: `segue_pqEOTF`,
/// `segue_pqInverseEOTF`.
/// Absolute: the signal `E′` (0…1) codes display light `F_D = 10000·Y` cd/m².
public enum PQ {
    /// ST 2084: `m1 = 2610/16384`, `m2 = 2523/4096 · 128`, `c1 = 3424/4096`, `c2 = 2413/4096 · 32`, `c3 = 2392/4096 · 32`.
    public static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    public static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
    /// The luminance `Y = 1` stands for, cd/m².
    public static let peak = 10000.0

    /// EOTF: `Y = (max(E′^(1/m2) − c1, 0) / (c2 − c3·E′^(1/m2)))^(1/m1)`, `Y` = luminance / 10000 cd/m² (0…1).
    @inlinable public static func eotf<T: TransferScalar>(_ e: T) -> T {
        let p = T.pow(min(max(e, 0), 1), T(1 / m2))
        return T.pow(max(p - T(c1), 0) / (T(c2) - T(c3) * p), T(1 / m1))
    }

    /// Inverse EOTF: `E′ = ((c1 + c2·Y^m1) / (1 + c3·Y^m1))^m2` for `Y` = luminance / 10000 cd/m², clamped to 0…1.
    @inlinable public static func inverseEOTF<T: TransferScalar>(_ y: T) -> T {
        let p = T.pow(min(max(y, 0), 1), T(m1))
        return T.pow((T(c1) + T(c2) * p) / (1 + T(c3) * p), T(m2))
    }
}

/// The reference SDR display, ITU-R BT.1886 Annex 1, with black at 0 (`L_B = 0`, so `b = 0`, `a = L_W`): display
/// light relative to white is `L = V^2.4`. `colour.glsl`: `segue_bt1886EOTF`, `segue_bt1886InverseEOTF`.
///
/// Segue's SDR output is display-referred: tone-mapped light goes through the inverse of this EOTF, as FFmpeg's
/// `zscale` (zimg, display-referred by default) and libplacebo encode "bt709"; not through the BT.709 camera OETF.
/// Values below 0 (R′G′B′ of out-of-gamut Y′CbCr, which Segue does not clamp) are mirrored, `−(−V)^2.4`, so that
/// they survive a round trip through linear light (linear-light mixing, `Blending.linear`); the colour stage
/// (`ColourStage`) clamps its inputs at 0 before it.
public enum BT1886 {
    public static let gamma = 2.4
    /// Luminance of SDR white on the reference display, cd/m² (BT.2035; FFmpeg's `npl=100`).
    public static let white = 100.0

    /// `L = V^2.4`, relative to white (`−(−V)^2.4` below 0).
    @inlinable public static func eotf<T: TransferScalar>(_ v: T) -> T { v < 0 ? -T.pow(-v, T(gamma)) : T.pow(v, T(gamma)) }
    /// `V = L^(1/2.4)` (`−(−L)^(1/2.4)` below 0).
    @inlinable public static func inverseEOTF<T: TransferScalar>(_ l: T) -> T { l < 0 ? -T.pow(-l, T(1 / gamma)) : T.pow(l, T(1 / gamma)) }
}

/// HDR reference white, ITU-R BT.2408-7: 203 cd/m² (75 % HLG, 58 % PQ). SDR white goes here when SDR clips are
/// mapped into an HDR edit (BT.2408).
public let hdrReferenceWhite = 203.0
