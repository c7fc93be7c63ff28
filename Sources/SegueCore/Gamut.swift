extension ColourPrimaries {
    /// CIE 1931 xy chromaticities of R, G, B and the white point (D65 for all three): ITU-R BT.709-6 Table 1 item 1.3
    /// (R 0.640 0.330, G 0.300 0.600, B 0.150 0.060), ITU-R BT.2020-2 Table 3 (R 0.708 0.292, G 0.170 0.797,
    /// B 0.131 0.046), D65 0.3127 0.3290. `bt601` is taken as BT.709 (its 525- and 625-line primaries differ from
    /// BT.709's by less than players correct for).
    public var chromaticities: (r: (Double, Double), g: (Double, Double), b: (Double, Double), white: (Double, Double)) {
        let d65 = (0.3127, 0.3290)
        switch self {
        case .bt709, .bt601: return ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060), d65)
        case .bt2020: return ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), d65)
        }
    }

    /// Linear RGB → CIE XYZ (Y = 1 at white), 3×3 row-major: the normalised primary matrix of SMPTE RP 177-1993
    /// (columns: the primaries' XYZ, scaled so that RGB = (1, 1, 1) gives the white point).
    public var rgbToXYZ: [Double] {
        let c = chromaticities
        func xyz(_ p: (Double, Double)) -> [Double] { [p.0 / p.1, 1, (1 - p.0 - p.1) / p.1] }
        let r = xyz(c.r), g = xyz(c.g), b = xyz(c.b), w = xyz(c.white)
        let p = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]]
        let s = Matrix3.apply(Matrix3.inverse(p), w)
        return (0..<9).map { p[$0] * s[$0 % 3] }
    }

    /// Relative luminance `Y` of linear RGB in these primaries: the middle row of `rgbToXYZ` (BT.709: 0.2126,
    /// 0.7152, 0.0722; BT.2020: 0.2627, 0.6780, 0.0593).
    public var luminanceCoefficients: [Double] { Array(rgbToXYZ[3..<6]) }
}

/// Converting linear light between primaries, and bringing colours that fall outside the target gamut back into it.
public enum GamutMapping {
    /// Linear RGB in `from` → linear RGB in `to`, 3×3 row-major: `to.rgbToXYZ⁻¹ · from.rgbToXYZ` (ITU-R BT.2087-0
    /// gives BT.709 → BT.2020 rounded to four places: 0.6274 0.3293 0.0433 / 0.0691 0.9195 0.0114 / 0.0164 0.0880
    /// 0.8956). Identity when both are the same.
    public static func matrix(from: ColourPrimaries, to: ColourPrimaries) -> [Double] {
        Matrix3.multiply(Matrix3.inverse(to.rgbToXYZ), from.rgbToXYZ)
    }

    /// A linear colour with negative components (outside the target gamut, as saturated BT.2020 colours are in
    /// BT.709) moved towards the neutral grey of the same luminance `Y = luminance · c` until its smallest component
    /// is 0: `c′ = Y + t·(c − Y)` with `t = Y / (Y − min(c))`. Mixing with grey in linear light keeps the luminance
    /// and the dominant wavelength (the chromaticity moves along its line to the white point), so the hue is kept
    /// and only the saturation drops, as far as the gamut needs and no further (one of the hue-preserving approaches
    /// ITU-R BT.2407-0 reviews for BT.2020 → BT.709; clipping each component instead, as a bare matrix and clamp do,
    /// shifts hue).
    /// Colours inside the gamut are returned unchanged; black (or negative luminance) gives black.
    /// `colour.glsl`: `segue_gamutMap`.
    @inlinable public static func desaturateIntoGamut<T: TransferScalar>(_ c: SIMD3<T>, luminance: SIMD3<T>) -> SIMD3<T> {
        let lowest = min(min(c.x, c.y), c.z)
        guard lowest < 0 else { return c }
        let y = luminance.x * c.x + luminance.y * c.y + luminance.z * c.z
        guard y > 0 else { return .zero }
        let t = y / (y - lowest)
        return SIMD3(repeating: y) + t * (c - SIMD3(repeating: y))
    }
}

/// 3×3 matrices, row-major `[Double]` of 9.
public enum Matrix3 {
    public static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

    public static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { (i: Int) -> Double in
            let r = i / 3, c = i % 3
            return a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c]
        }
    }

    public static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { r in m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2] }
    }

    /// The inverse by cofactors (the matrices here are well conditioned).
    public static func inverse(_ m: [Double]) -> [Double] {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        let inv = [A, -(b * i - c * h), b * f - c * e,
                   B, a * i - c * g, -(a * f - c * d),
                   C, -(a * h - b * g), a * e - b * d]
        return inv.map { $0 / det }
    }
}
