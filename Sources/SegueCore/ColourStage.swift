import Foundation

/// The dynamic range Segue writes (`output.dynamicRange`).
public enum DynamicRange: String, CaseIterable, Sendable, Codable {
    /// BT.709 primaries, BT.1886 display (BT.709 transfer tags), 8-bit: the default.
    case sdr
    /// BT.2020 primaries, HLG (BT.2100), 10-bit.
    case hlg
    /// BT.2020 primaries, PQ (SMPTE ST 2084, BT.2100), 10-bit.
    case pq

    public var transfer: TransferFunction {
        switch self { case .sdr: .sdr; case .hlg: .hlg; case .pq: .pq }
    }
    public var primaries: ColourPrimaries { self == .sdr ? .bt709 : .bt2020 }
    /// The light that linear value 1 stands for in the colour stage, cd/m²: SDR white (100, BT.1886/BT.2035;
    /// FFmpeg's `npl=100`), HLG's nominal peak (1000), PQ's absolute 10000.
    public var peak: Double {
        switch self { case .sdr: BT1886.white; case .hlg: HLG.nominalPeak; case .pq: PQ.peak }
    }
    /// `OUTPUT_TRANSFER` in `colour.glsl`.
    public var shaderID: Int {
        switch self { case .sdr: 0; case .hlg: 1; case .pq: 2 }
    }

    /// The EOTF of this output's signal, per component of R′G′B′ (0…1) → display light relative to `peak`: BT.1886
    /// (`L = V^2.4`); HLG's inverse OETF then its OOTF (BT.2100's HLG EOTF for the 1000 cd/m² reference display,
    /// `F_D / 1000`); PQ's ST 2084 EOTF (`F_D / 10000`). Components below 0 (out-of-gamut R′G′B′) are mirrored,
    /// `−f(−V)`, so that `inverseEOTF(eotf(v)) ≈ v` for them too. Linear-light mixing (`Blending.linear`) goes
    /// through it. `colour.glsl`: `segue_outputEOTF`.
    @inlinable public func eotf(_ v: SIMD3<Float>) -> SIMD3<Float> {
        @inline(__always) func mirrored(_ f: (Float) -> Float, _ x: Float) -> Float { x < 0 ? -f(-x) : f(x) }
        switch self {
        case .sdr: return SIMD3(BT1886.eotf(v.x), BT1886.eotf(v.y), BT1886.eotf(v.z))
        case .hlg: return HLG.ootf(SIMD3(mirrored(HLG.inverseOETF, v.x), mirrored(HLG.inverseOETF, v.y), mirrored(HLG.inverseOETF, v.z)))
        case .pq: return SIMD3(mirrored(PQ.eotf, v.x), mirrored(PQ.eotf, v.y), mirrored(PQ.eotf, v.z))
        }
    }

    /// The inverse of `eotf`: display light relative to `peak` → this output's R′G′B′ (HLG: its inverse OOTF, then
    /// its OETF), mirrored below 0 likewise. `colour.glsl`: `segue_outputInverseEOTF`.
    @inlinable public func inverseEOTF(_ l: SIMD3<Float>) -> SIMD3<Float> {
        @inline(__always) func mirrored(_ f: (Float) -> Float, _ x: Float) -> Float { x < 0 ? -f(-x) : f(x) }
        switch self {
        case .sdr: return SIMD3(BT1886.inverseEOTF(l.x), BT1886.inverseEOTF(l.y), BT1886.inverseEOTF(l.z))
        case .hlg:
            let e = HLG.inverseOOTF(l)
            return SIMD3(mirrored(HLG.oetf, e.x), mirrored(HLG.oetf, e.y), mirrored(HLG.oetf, e.z))
        case .pq: return SIMD3(mirrored(PQ.inverseEOTF, l.x), mirrored(PQ.inverseEOTF, l.y), mirrored(PQ.inverseEOTF, l.z))
        }
    }

    /// `eotf` on the R′G′B′ of an R′G′B′A colour; alpha unchanged.
    @inlinable public func eotf(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let l = eotf(SIMD3(c.x, c.y, c.z))
        return SIMD4(l.x, l.y, l.z, c.w)
    }
    /// `eotf` on a premultiplied R′G′B′A colour (`segue_toLinear`): through it unpremultiplied, premultiplied again.
    @inlinable public func eotfPremultiplied(_ c: SIMD4<Float>) -> SIMD4<Float> {
        if c.w >= 1 { return eotf(c) }
        if c.w <= 0 { return SIMD4(repeating: 0) }
        let l = eotf(SIMD3(c.x, c.y, c.z) / c.w) * c.w
        return SIMD4(l.x, l.y, l.z, c.w)
    }
    /// `inverseEOTF` on a premultiplied colour (`segue_fromLinear`).
    @inlinable public func inverseEOTFPremultiplied(_ c: SIMD4<Float>) -> SIMD4<Float> {
        if c.w >= 1 { return inverseEOTF(c) }
        if c.w <= 0 { return SIMD4(repeating: 0) }
        let v = inverseEOTF(SIMD3(c.x, c.y, c.z) / c.w) * c.w
        return SIMD4(v.x, v.y, v.z, c.w)
    }
    /// `inverseEOTF` on the R′G′B′ of an R′G′B′A colour; alpha unchanged.
    @inlinable public func inverseEOTF(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let v = inverseEOTF(SIMD3(c.x, c.y, c.z))
        return SIMD4(v.x, v.y, v.z, c.w)
    }
}

/// How the output's colours are made, carried by every `FramePlan`: the dynamic range written and the curve that
/// tone-maps pictures brighter than it.
public struct OutputColour: Equatable, Sendable {
    public var dynamicRange: DynamicRange
    public var toneMap: ToneMapCurve
    public init(dynamicRange: DynamicRange = .sdr, toneMap: ToneMapCurve = .default) {
        self.dynamicRange = dynamicRange; self.toneMap = toneMap
    }
    /// SDR with the default curve.
    public static let sdr = OutputColour()
}

/// The part of a layer's colour that is not affine (`LAYER_TRANSFER`, `LAYER_TONE` in `layer.glsl`; `colour.glsl`):
/// from the picture's R′G′B′ (after `YCbCrToRGB`) in its own transfer and primaries to the output's R′G′B′. Nil
/// (`init` fails) when there is nothing to do: the picture's transfer is the output's and its primaries are too
/// (BT.601 counting as BT.709), as for every SDR clip in an SDR edit.
///
/// Steps, each a function named after its standard in `colour.glsl` and `TransferFunctions.swift`:
/// 1. To linear light: SDR by the BT.1886 EOTF (white = 100 cd/m² in an SDR edit; 203 cd/m², BT.2408, in an
///    HDR edit); HLG by its inverse OETF and the BT.2100 OOTF for a 1000 cd/m² display (γ = 1.2); PQ by the
///    ST 2084 EOTF (absolute). Then relative to the output's `DynamicRange.peak` (`scale`).
/// 2. Primaries: the linear-light matrix `GamutMapping.matrix` into the output's primaries, then
///    `GamutMapping.desaturateIntoGamut` (hue kept).
/// 3. Tone mapping (`ToneMap`, the edit's curve) when the picture can be brighter than the output: an HLG or PQ clip
///    in an SDR edit (target 100 cd/m²), a PQ clip brighter than 1000 cd/m² in an HLG edit. An SDR clip whose
///    BT.2020 primaries do not fit BT.709 is clipped at white by the same max-component scaling (`clip`), which
///    keeps its hue.
/// 4. The output's transfer (`DynamicRange.inverseEOTF`): the inverse BT.1886 EOTF (SDR), the HLG inverse OOTF and
///    OETF, or the PQ inverse EOTF.
public struct ColourStage: Equatable, Sendable {
    public let input: TransferFunction
    public let output: DynamicRange
    /// Linear light of the input (relative to its white, or HLG's `F_D/α`, or PQ's `Y`) → relative to the output's peak.
    public let scale: Double
    /// Linear input primaries → linear output primaries, 3×3 row-major (identity when they are the same).
    public let gamut: [Double]
    public let convertsPrimaries: Bool
    /// The output primaries' luminance coefficients (for `desaturateIntoGamut`).
    public let luminance: [Double]
    public let toneMap: ToneMap?
    /// `LAYER_TRANSFER`: 1 SDR (BT.1886), 2 HLG, 3 PQ.
    public var shaderID: Int {
        switch input { case .sdr: 1; case .hlg: 2; case .pq: 3 }
    }

    /// The stage for a picture described by `colour` in an edit whose output is `output`; nil when its colour is affine.
    public init?(colour: YCbCrColour, output: OutputColour) {
        let target = output.dynamicRange
        let from: ColourPrimaries = colour.primaries == .bt601 ? .bt709 : colour.primaries
        if colour.transfer == target.transfer && from == target.primaries { return nil }
        input = colour.transfer
        self.output = target
        let inputPeak: Double
        switch colour.transfer {
        case .sdr:
            inputPeak = target == .sdr ? BT1886.white : hdrReferenceWhite
            scale = inputPeak / target.peak
        case .hlg:
            inputPeak = HLG.nominalPeak
            scale = HLG.nominalPeak / target.peak
        case .pq:
            inputPeak = colour.peakLuminance ?? HLG.nominalPeak
            scale = PQ.peak / target.peak
        }
        convertsPrimaries = from != target.primaries
        gamut = convertsPrimaries ? GamutMapping.matrix(from: from, to: target.primaries) : Matrix3.identity
        luminance = target.primaries.luminanceCoefficients
        if let t = ToneMap(curve: output.toneMap, sourcePeak: inputPeak, targetPeak: target.peak) {
            toneMap = t
        } else if from == .bt2020 && target.primaries != .bt2020 {
            toneMap = ToneMap(clippingAt: target.peak)
        } else {
            toneMap = nil
        }
        gamutF = gamut.map { Float($0) }
        luminanceF = SIMD3(Float(luminance[0]), Float(luminance[1]), Float(luminance[2]))
        scaleF = Float(scale)
    }
    @usableFromInline let gamutF: [Float]
    @usableFromInline let luminanceF: SIMD3<Float>
    @usableFromInline let scaleF: Float

    /// The shaders' uniforms: `uLAYERGamut` (row-major), `uLAYERScale`, `uLAYERTone`.
    public var gamutParameters: [Float] { gamutF }
    public var scaleParameter: Float { scaleF }
    public var toneParameters: [Float] { toneMap?.parameters ?? [0, 0, 0, 0] }

    /// The stage on one R′G′B′ value, in `Float` and in the shaders' order of operations (the CPU reference's twin
    /// of `transferLAYER` in `layer.glsl`).
    @inlinable public func apply(_ c: SIMD3<Float>) -> SIMD3<Float> {
        var l: SIMD3<Float>
        switch input {
        case .sdr: l = SIMD3(BT1886.eotf(max(c.x, 0)), BT1886.eotf(max(c.y, 0)), BT1886.eotf(max(c.z, 0)))
        case .hlg: l = HLG.ootf(SIMD3(HLG.inverseOETF(c.x), HLG.inverseOETF(c.y), HLG.inverseOETF(c.z)))
        case .pq: l = SIMD3(PQ.eotf(c.x), PQ.eotf(c.y), PQ.eotf(c.z))
        }
        l *= scaleF
        let m = gamutF
        l = SIMD3(m[0] * l.x + m[1] * l.y + m[2] * l.z, m[3] * l.x + m[4] * l.y + m[5] * l.z, m[6] * l.x + m[7] * l.y + m[8] * l.z)
        l = GamutMapping.desaturateIntoGamut(l, luminance: luminanceF)
        if let t = toneMap { l = t.apply(l) }
        return output.inverseEOTF(SIMD3(max(l.x, 0), max(l.y, 0), max(l.z, 0)))
    }

    /// What happens to such a picture, for `probe` and `--verbose`: "HDR (HLG), tone-mapped with bt2390 (1000 →
    /// 100 cd/m²), BT.2020 → BT.709 primaries", "SDR, white at 203 cd/m² (BT.2408) in HLG, BT.709 → BT.2020 primaries".
    public var summary: String {
        var parts: [String] = []
        switch input {
        case .sdr: parts.append(output == .sdr ? "SDR" : "SDR, white at \(Int(hdrReferenceWhite)) cd/m² (BT.2408) in \(output.rawValue.uppercased())")
        case .hlg: parts.append("HDR (HLG)" + (output == .pq ? " in PQ" : ""))
        case .pq: parts.append("HDR (PQ)" + (output == .hlg ? " in HLG" : ""))
        }
        if let t = toneMap {
            if t.sourcePeak > t.targetPeak {
                parts[0] += String(format: ", tone-mapped with %@ (%.0f → %.0f cd/m²)", t.curve.rawValue, t.sourcePeak, t.targetPeak)
            } else {
                parts.append("clipped at white keeping hue")
            }
        }
        if convertsPrimaries {
            let to = output.primaries, from: ColourPrimaries = to == .bt2020 ? .bt709 : .bt2020
            parts.append("\(from == .bt709 ? "BT.709" : "BT.2020") → \(to == .bt709 ? "BT.709" : "BT.2020") primaries")
        }
        return parts.joined(separator: ", ")
    }
}

extension ToneMap {
    /// The ratio-keeping clip at the target's peak (`clip`), used where a gamut change alone can exceed it.
    init(clippingAt peak: Double) {
        self.init(curve: .clip, sourcePeak: peak, targetPeak: peak, constants: [0, 0, 0, 0])
    }
}

extension ColourStage {
    /// The stage of `picture` in `pass` of `plan`: the output planes follow `plan.colour`; RGBA previews (PNG) are
    /// always SDR, tone-mapped with the plan's curve.
    public init?(picture: VideoPicture, plan: FramePlan, pass: OutputPass) {
        var output = plan.colour
        if pass == .rgba { output.dynamicRange = .sdr }
        self.init(colour: picture.colour, output: output)
    }
}
