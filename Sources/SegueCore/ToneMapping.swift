/// Tone-mapping curves: how display light brighter than the output can show is brought into its range
/// (`--tone-map NAME`, `output.toneMap`).
public enum ToneMapCurve: String, CaseIterable, Sendable, Codable {
    /// ITU-R BT.2390-10 EETF: linear below a knee, a Hermite spline above it, in the PQ domain. The default:
    /// it is the broadcast standard's curve, it leaves everything below its knee untouched (for an HLG or 1000 cd/m²
    /// source shown at 100 cd/m²: up to 28 cd/m²), and it puts HDR reference white (203 cd/m²) at 88 cd/m², 95 % of
    /// the SDR signal: near SDR white, with headroom above it for highlights, as ITU-R BT.2408 intends.
    case bt2390
    /// John Hable's filmic curve (Uncharted 2), as FFmpeg's `tonemap=hable`: `h(x)/h(peak)`; darker mid-tones
    /// (203 cd/m² lands at 51 % of SDR white's light, 76 % of its signal).
    case hable
    /// Möbius, as FFmpeg's `tonemap=mobius` (knee `j = 0.3`): linear up to 30 % of SDR white, then a Möbius transform
    /// that reaches 1 at the peak.
    case mobius
    /// Reinhard, as FFmpeg's `tonemap=reinhard` (its default parameter): `x/(x + 1) · (peak + 1)/peak`.
    case reinhard
    /// Clip at the target's peak, as FFmpeg's `tonemap=clip`: everything above it is lost.
    case clip

    /// `bt2390`.
    public static let `default` = ToneMapCurve.bt2390

    /// The names `parse` takes, lower case: the names above and libplacebo's spelling `bt.2390`.
    public static let spellings: [String: ToneMapCurve] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
        .merging(["bt.2390": .bt2390]) { a, _ in a }
    /// One of `spellings`, case-insensitive; nil otherwise.
    public static func parse(_ s: String) -> ToneMapCurve? { spellings[s.lowercased()] }

    /// `LAYER_TONE` in `layer.glsl` (0 is "no tone mapping").
    public var shaderID: Int {
        switch self { case .clip: 1; case .reinhard: 2; case .mobius: 3; case .hable: 4; case .bt2390: 5 }
    }
}

/// A tone-mapping curve fitted to a source and a target peak, FFmpeg `tonemap`'s model (`vf_tonemap.c`): the curve
/// `f` acts on the largest component `m = max(R, G, B, 10⁻⁶)` of linear light relative to the target's peak
/// (`x = L / targetPeak`, so the target shows 0…1), and all three components are scaled by `f(m)/m`. Scaling keeps
/// the components' ratios, so hue and saturation survive (a curve applied to each component on its own would
/// bleach bright colours and shift their hue). `colour.glsl`: `segue_toneMap…`.
///
/// With an SDR target (peak 100 cd/m², FFmpeg's `npl=100`) and an HLG source (peak 1000 cd/m²), `x` runs to 10.
public struct ToneMap: Equatable, Sendable {
    public let curve: ToneMapCurve
    /// Peak of the source, cd/m² (HLG: 1000; PQ: its MaxCLL, else its mastering display's maximum, else 1000).
    public let sourcePeak: Double
    /// Peak of the target, cd/m² (SDR: 100; HLG: 1000).
    public let targetPeak: Double
    /// The curve's constants (`uLAYERTone`), computed in `Double`; `parameters` are what the shaders get.
    public let constants: [Double]
    public let parameters: [Float]

    /// Nil when the source is no brighter than the target: nothing to map.
    public init?(curve: ToneMapCurve, sourcePeak: Double, targetPeak: Double) {
        guard sourcePeak > targetPeak, targetPeak > 0 else { return nil }
        self.curve = curve; self.sourcePeak = sourcePeak; self.targetPeak = targetPeak
        let p = sourcePeak / targetPeak
        switch curve {
        case .clip:
            constants = [0, 0, 0, 0]
        case .reinhard:
            constants = [(p + 1) / p, 0, 0, 0]
        case .hable:
            constants = [1 / ToneMap.hable(p), 0, 0, 0]
        case .mobius:
            // vf_tonemap.c mobius(): a = −j²(peak − 1)/(j² − 2j + peak), b = (j² − 2j·peak + peak)/max(peak − 1, 1e−6).
            let j = 0.3
            let a = -j * j * (p - 1) / (j * j - 2 * j + p)
            let b = (j * j - 2 * j * p + p) / max(p - 1, 1e-6)
            constants = [j, a, b, (b * b + 2 * b * j + j * j) / (b - a)]
        case .bt2390:
            // BT.2390-10 with L_B = L_min = 0: E1 = PQ(L)/PQ(L_W), maxLum = PQ(L_max)/PQ(L_W), KS = 1.5·maxLum − 0.5.
            let pqSource = PQ.inverseEOTF(sourcePeak / PQ.peak)
            let maxLum = PQ.inverseEOTF(targetPeak / PQ.peak) / pqSource
            constants = [targetPeak / PQ.peak, pqSource, maxLum, 1.5 * maxLum - 0.5]
        }
        parameters = constants.map { Float($0) }
    }

    init(curve: ToneMapCurve, sourcePeak: Double, targetPeak: Double, constants: [Double]) {
        self.curve = curve; self.sourcePeak = sourcePeak; self.targetPeak = targetPeak
        self.constants = constants; parameters = constants.map { Float($0) }
    }

    /// Hable's curve `h(x) = (x(Ax + CB) + DE)/(x(Ax + B) + DF) − E/F`, A = 0.15, B = 0.50, C = 0.10, D = 0.20,
    /// E = 0.02, F = 0.30 (as vf_tonemap.c `hable()`).
    @inlinable public static func hable<T: TransferScalar>(_ x: T) -> T {
        let a = T(0.15), b = T(0.50), c = T(0.10), d = T(0.20), e = T(0.02), f = T(0.30)
        return (x * (x * a + b * c) + d * e) / (x * (x * a + b) + d * f) - e / f
    }

    /// The curve at `x` (light relative to the target's peak), with the constants in `T` (for `Float`, exactly the
    /// shaders' uniforms).
    @inlinable public func callAsFunction<T: TransferScalar>(_ x: T) -> T {
        let k0 = T(constants[0]), k1 = T(constants[1]), k2 = T(constants[2]), k3 = T(constants[3])
        switch curve {
        case .clip:
            return min(x, 1)
        case .reinhard:
            return x / (x + 1) * k0
        case .hable:
            return ToneMap.hable(x) * k0
        case .mobius:
            return x <= k0 ? x : k3 * (x + k1) / (x + k2)
        case .bt2390:
            // E1 in the source's PQ range (clamped to it: the spline only holds up to 1), the knee KS, then back to light.
            let e1 = min(PQ.inverseEOTF(x * k0) / k1, 1)
            var e2 = e1
            if e1 >= k3 {
                let t = (e1 - k3) / (1 - k3), t2 = t * t, t3 = t2 * t
                e2 = (2 * t3 - 3 * t2 + 1) * k3 + (t3 - 2 * t2 + t) * (1 - k3) + (-2 * t3 + 3 * t2) * k2
            }
            return PQ.eotf(e2 * k1) / k0
        }
    }

    /// `f(m)/m` scaling of linear light relative to the target's peak, `m = max(R, G, B, 10⁻⁶)`.
    @inlinable public func apply<T: TransferScalar>(_ c: SIMD3<T>) -> SIMD3<T> {
        let m = max(max(c.x, c.y), max(c.z, T(1e-6)))
        return c * (self(m) / m)
    }
}
