/// Y′CbCr → R′G′B′ as both renderers apply it: `rgb = M · s + o`, where `s = (Y, Cb, Cr)` are the samples as
/// the renderers read them (8-bit planes as unorm, `code / 255`; 9…16-bit planes as integer code values) and
/// `rgb` is full-range R′G′B′, 0…1 within gamut.
///
/// `rgb` is deliberately not clamped: the composite goes back to Y′CbCr, and a clamp would turn the
/// out-of-gamut combinations that 4:2:0 produces at colour edges (full-resolution luma against shared chroma)
/// into false colours; unclamped, an untouched picture comes back with its chroma as it was (as in FFmpeg's
/// Y′CbCr-only paths). The RGBA previews clamp when they store 8 bits.
///
/// Formulas: ITU-T H.273 §8.3 (quantisation: limited `Y′ = (D − 16·2^(N−8)) / (219·2^(N−8))`,
/// `P = (D − 128·2^(N−8)) / (224·2^(N−8))`; full `Y′ = D / (2^N − 1)`, `P = (D − 2^(N−1)) / (2^N − 1)`) and
/// ITU-R BT.709-6 §3.2 / BT.601-7 §2.5 (`R = Y′ + 2(1 − Kr)·Pr`, `B = Y′ + 2(1 − Kb)·Pb`,
/// `G = (Y′ − Kr·R − Kb·B) / Kg`). Computed in `Double`, handed to shaders and the CPU as `Float`.
public struct YCbCrToRGB: Sendable, Equatable {
    /// 3×3, row-major: `rgb[r] = Σ matrix[3r + c] · s[c] + offset[r]`.
    public let matrix: [Float]
    public let offset: [Float]
    /// The same in `Double`, for composing with the output conversion.
    let matrixD: [Double], offsetD: [Double]

    /// - Parameters:
    ///   - normalizedSamples: true when samples are read as unorm of 8-bit storage (`code / 255`).
    ///   - swapsChroma: the sample vector is (Y, Cr, Cb) (NV21).
    public init(colour: YCbCrColour, bitDepth: Int, normalizedSamples: Bool, swapsChroma: Bool = false) {
        self.init(colour: colour, bitDepth: bitDepth, codeScale: normalizedSamples ? 255 : 1, swapsChroma: swapsChroma)
    }

    /// - Parameter codeScale: what a sample is multiplied by to give its code value: 255 for unorm reads of 8-bit
    ///   storage, 1 for code values, `2^N − 1` for the output's values (`OutputYCbCr`, code / (2^N − 1)).
    init(colour: YCbCrColour, bitDepth: Int, codeScale: Double, swapsChroma: Bool = false) {
        let kr = colour.matrix.kr, kb = colour.matrix.kb, kg = 1 - kr - kb
        let n = Double(bitDepth), k = pow2(n - 8), maxCode = pow2(n) - 1
        let (sy, ty, sc, tc): (Double, Double, Double, Double)
        switch colour.range {
        case .limited: (sy, ty, sc, tc) = (codeScale / (219 * k), -16.0 / 219, codeScale / (224 * k), -128.0 / 224)
        case .full: (sy, ty, sc, tc) = (codeScale / maxCode, 0, codeScale / maxCode, -pow2(n - 1) / maxCode)
        }
        // (Y′, Pb, Pr) → (R, G, B)
        let a: [[Double]] = [[1, 0, 2 * (1 - kr)],
                             [1, -2 * kb * (1 - kb) / kg, -2 * kr * (1 - kr) / kg],
                             [1, 2 * (1 - kb), 0]]
        var m = [Double](repeating: 0, count: 9), o = [Double](repeating: 0, count: 3)
        for r in 0..<3 {
            var cols = [a[r][0] * sy, a[r][1] * sc, a[r][2] * sc]
            if swapsChroma { cols.swapAt(1, 2) }
            for c in 0..<3 { m[3 * r + c] = cols[c] }
            o[r] = a[r][0] * ty + a[r][1] * tc + a[r][2] * tc
        }
        matrixD = m; offsetD = o
        matrix = m.map { Float($0) }; offset = o.map { Float($0) }
    }
}

/// R′G′B′ (0…1) → the SDR output's BT.709 limited-range 8-bit Y′CbCr, as unorm values (`code / 255`):
/// `Y = 16/255 + 219/255·(Kr·R + Kg·G + Kb·B)`, `Cb = 128/255 + 224/255·(B − Y′) / (2(1 − Kb))`,
/// `Cr = 128/255 + 224/255·(R − Y′) / (2(1 − Kr))` (ITU-R BT.709-6 §3.2–3.5). Each row is
/// `(cR, cG, cB, constant)`: `value = cR·R + cG·G + cB·B + constant`. `OutputYCbCr` generalises it to the HDR
/// outputs (BT.2020, 10-bit).
public enum RGBToOutputYCbCr {
    public static let y: [Float] = yRow.map { Float($0) }
    public static let cb: [Float] = cbRow.map { Float($0) }
    public static let cr: [Float] = crRow.map { Float($0) }
    /// The rows in `Double`, for composing with the input conversion (`LayerColourMap`).
    public static let yRow = OutputYCbCr.sdr.yRow
    public static let cbRow = OutputYCbCr.sdr.cbRow
    public static let crRow = OutputYCbCr.sdr.crRow

    /// Where output chroma sample `(i, j)` sits, in output pixel coordinates (pixel centres at `k + 0.5`):
    /// `(2i + 0.5 + 0, 2j + 0.5 + 0.5)` for left siting, i.e. `2·f − 0.5 + siting` with `f = i + 0.5`.
    public static let siting: (x: Float, y: Float) = (Float(ChromaSiting.left.x), Float(ChromaSiting.left.y))
}

/// The output's Y′CbCr, limited range, 4:2:0 sited left: BT.709 8-bit for SDR, BT.2020 (non-constant luminance)
/// 10-bit for HLG and PQ. Rows `(cR, cG, cB, constant)` give `value = code / (2^N − 1)` from R′G′B′ (0…1):
/// `Y = (16·2^(N−8) + 219·2^(N−8)·(Kr·R + Kg·G + Kb·B)) / (2^N − 1)`,
/// `Cb = (128·2^(N−8) + 224·2^(N−8)·(B − Y′)/(2(1 − Kb))) / (2^N − 1)`, Cr likewise with R and Kr
/// (ITU-T H.273 §8.3; ITU-R BT.709-6 §3, BT.2020-2 Table 4, BT.2100-2 Table 9).
public struct OutputYCbCr: Equatable, Sendable {
    public let bitDepth: Int
    public let matrix: YCbCrMatrix
    public let yRow, cbRow, crRow: [Double]
    /// The inverse: the output's values (code / (2^N − 1)) → R′G′B′, for transitions defined on the output's
    /// Y′CbCr components (FFmpeg's xfade works on the planes): `segue_fromYCbCr` in `colour.glsl`.
    public let toRGB: YCbCrToRGB
    public var y: [Float] { yRow.map { Float($0) } }
    public var cb: [Float] { cbRow.map { Float($0) } }
    public var cr: [Float] { crRow.map { Float($0) } }
    /// The largest code value, `2^N − 1`.
    public var maxCode: Int { (1 << bitDepth) - 1 }
    /// Neutral chroma, `128·2^(N−8) / (2^N − 1)`, as `Float` (`segue_neutralChroma`).
    public var neutralChroma: Float { Float(128 << (bitDepth - 8)) / Float(maxCode) }

    public init(_ range: DynamicRange) {
        bitDepth = range == .sdr ? 8 : 10
        matrix = range == .sdr ? .bt709 : .bt2020
        let n = bitDepth, kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb, maxCode = Double((1 << n) - 1)
        let ys = Double(219 << (n - 8)), cs = Double(224 << (n - 8))
        yRow = [ys * kr / maxCode, ys * kg / maxCode, ys * kb / maxCode, Double(16 << (n - 8)) / maxCode]
        func chroma(red: Bool) -> [Double] {
            let s = cs / maxCode / (2 * (1 - (red ? kr : kb)))
            let c = red ? [1 - kr, -kg, -kb] : [-kr, -kg, 1 - kb]
            return c.map { $0 * s } + [Double(128 << (n - 8)) / maxCode]
        }
        cbRow = chroma(red: false)
        crRow = chroma(red: true)
        toRGB = YCbCrToRGB(colour: YCbCrColour(matrix: matrix, range: .limited), bitDepth: bitDepth, codeScale: Double(maxCode))
    }
    public static let sdr = OutputYCbCr(.sdr)
}

/// How chroma sample positions relate to luma positions in a subsampled picture: a position `P` in luma texel
/// units (centres at `k + 0.5`) is `pc = P · scale + offset` in chroma texel units. Chroma sample `k` sits at
/// luma position `s·k + 0.5 + d` with `d = siting · (s − 1)`, so `scale = 1/s`, `offset = 0.5 − (0.5 + d)/s`
/// (left-sited 4:2:0: `pc = P/2 + 0.25` horizontally, `P/2` vertically).
public struct ChromaPositionMap: Sendable, Equatable {
    public let scaleX, scaleY, offsetX, offsetY: Float
    public init(_ picture: VideoPicture) {
        func axis(_ shift: Int, _ siting: Double) -> (Float, Float) {
            let s = Double(1 << shift), d = siting * (s - 1)
            return (Float(1 / s), Float(0.5 - (0.5 + d) / s))
        }
        (scaleX, offsetX) = axis(picture.chromaShiftX, picture.colour.siting.x)
        (scaleY, offsetY) = axis(picture.chromaShiftY, picture.colour.siting.y)
    }
}

private func pow2(_ e: Double) -> Double { Double(sign: .plus, exponent: Int(e), significand: 1) }

extension LayerGeometry {
    /// True when `outputToSource` (output pixels → normalized stored picture of `codedSize`) sends every output
    /// pixel centre to a stored pixel centre with unit steps: identity, quarter turns, mirrors and whole-pixel
    /// crops at scale 1. Such layers are read with exact texel fetches instead of bilinear filtering.
    public static func isPixelExact(_ outputToSource: Affine2D, codedSize: PixelSize) -> Bool {
        let m = outputToSource.then(.scale(Double(codedSize.width), Double(codedSize.height)))
        func unit(_ v: Double) -> Bool { abs(v) < 1e-9 || abs(abs(v) - 1) < 1e-9 }
        guard unit(m.a), unit(m.b), unit(m.c), unit(m.d), abs(abs(m.a * m.d - m.b * m.c) - 1) < 1e-9 else { return false }
        let (x, y) = m.apply(0.5, 0.5)
        func centre(_ v: Double) -> Bool { abs((v - 0.5) - (v - 0.5).rounded()) < 1e-6 }
        return centre(x) && centre(y)
    }
}

/// What a render pass writes (`OUTPUT` in `main.glsl`, `ShaderLibrary.fragmentSource`): the one enum for the
/// renderers, the colour maps and the shaders.
public enum OutputPass: Int, Sendable, Hashable {
    /// Full-range R′G′B′A at each pixel centre (previews; an RGBA8 target).
    case rgba = 0
    /// The output's luma at each pixel centre (the render size; 8-bit, or 10-bit in two bytes for HDR).
    case luma = 1
    /// The output's Cb and Cr at each chroma site (two targets, half the render size).
    case chroma = 2
    /// The composite's alpha at each pixel centre (8-bit, laid out as the luma; outputs that keep alpha).
    case alpha = 3
    /// The composite's alpha at each chroma site (8-bit, laid out as one chroma plane): what divides the premultiplied
    /// Cb and Cr back out (`YUV420Image.straightened`).
    case chromaAlpha = 4

    /// Whether the pass writes the output's Y′CbCr values (luma or chroma), which a transition that only mixes colours
    /// may fold into its layers (`LayerColourMap` fused).
    public var writesYCbCr: Bool { self == .luma || self == .chroma }
}

/// The affine colour map a layer applies to its samples in one pass: `value = matrix · s + offset`
/// (3×3 row-major; `s` = (Y, Cb, Cr) as read, or R′G′B′ of an RGBA picture).
///
/// Unfused (RGBA previews, or a transition that is not affine in colour) it is `YCbCrToRGB` (identity for
/// RGBA pictures) and the pass converts the composite to Y′CbCr. Fused (luma or chroma pass of a transition
/// that only mixes and selects colours: crossfade, push, wipe) the output conversion is folded in:
/// `value.x` is the output luma code / 255 (luma pass), or `value.xy` are Cb, Cr (chroma pass). Because mixing
/// with weights summing to 1 commutes with affine maps, the composite is the same, and a plane whose
/// coefficients vanish need not be read at all: a BT.709 limited-range layer's luma pass reads only Y, its
/// chroma pass only Cb and Cr.
public struct LayerColourMap: Sendable, Equatable {
    public let matrix: [Float]
    public let offset: [Float]
    /// Whether the luma plane (plane 0) / the chroma planes contribute (always true for RGBA pictures).
    public let readsLuma: Bool
    public let readsChroma: Bool

    /// - Parameter output: the output's Y′CbCr (fused passes fold its rows in).
    public init(picture: VideoPicture, pass: OutputPass, fused: Bool, output: OutputYCbCr = .sdr) {
        var m: [Double], o: [Double]
        if picture.layout == .rgba {
            (m, o) = ([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])
        } else {
            let c = YCbCrToRGB(colour: picture.colour, bitDepth: picture.bitDepth, normalizedSamples: picture.bitDepth == 8,
                               swapsChroma: picture.swapsChroma)
            (m, o) = (c.matrixD, c.offsetD)
        }
        if fused && pass.writesYCbCr {
            let rows = pass == .luma ? [output.yRow] : [output.cbRow, output.crRow]
            var fm = [Double](repeating: 0, count: 9), fo = [Double](repeating: 0, count: 3)
            for (r, row) in rows.enumerated() {
                for c in 0..<3 { fm[3 * r + c] = (0..<3).reduce(0) { $0 + row[$1] * m[3 * $1 + c] } }
                fo[r] = (0..<3).reduce(row[3]) { $0 + row[$1] * o[$1] }
            }
            (m, o) = (fm, fo)
        }
        matrix = m.map { Float($0) }
        offset = o.map { Float($0) }
        // Coefficients that vanish in exact arithmetic come out around 1e-16 here.
        let used = { (c: Int) in (0..<3).contains { abs(m[3 * $0 + c]) > 1e-9 } }
        readsLuma = picture.layout == .rgba || used(0)
        readsChroma = picture.layout == .rgba || used(1) || used(2)
    }

    /// What a layer shows outside its picture in this pass: the edit's background `colour` (default black), as
    /// R′G′B′A or as the fused pass's values (the output's luma, or Cb and Cr, of that colour, in `output`'s format).
    /// The colour's 8-bit values are taken as the output's R′G′B′ code values (in an HDR edit, as its HLG/PQ signal).
    /// With `alpha` 0 (an output that keeps alpha: `FramePlan.keepsAlpha`) the background is transparent: every value,
    /// premultiplied, is 0.
    public static func background(pass: OutputPass, fused: Bool, output: OutputYCbCr = .sdr, colour: RGBColour = .black,
                                  alpha: Double = 1) -> [Float] {
        let c: [Float] = fused && pass.writesYCbCr
            ? constant(Double(colour.r) / 255, Double(colour.g) / 255, Double(colour.b) / 255, pass: pass, fused: fused, output: output)
            : colour.normalized + [1]
        return c.map { $0 * Float(alpha) }
    }

    /// A constant R′G′B′ colour (0…1 in the pass's signal: black and white for transitions, the background) as a
    /// layer gives it in this pass: R′G′B′A, or fused, the output's luma (`.x`) or Cb, Cr (`.xy`) in `output`'s
    /// format (code / (2^N − 1)).
    public static func constant(_ r: Double, _ g: Double, _ b: Double, pass: OutputPass, fused: Bool, output: OutputYCbCr = .sdr) -> [Float] {
        guard fused && pass.writesYCbCr else { return [Float(r), Float(g), Float(b), 1] }
        func apply(_ row: [Double]) -> Float { Float(row[0] * r + row[1] * g + row[2] * b + row[3]) }
        switch pass {
        case .rgba, .luma, .alpha, .chromaAlpha: return [apply(output.yRow), 0, 0, 1]
        case .chroma: return [apply(output.cbRow), apply(output.crRow), 0, 1]
        }
    }
}

