import Foundation

/// A `chromaKey` effect's values at one instant, and its per-sample formula (`effects.glsl`'s `segue_chromaKey` is the
/// GLSL twin: keep them alike step by step).
///
/// Applied to an unpremultiplied R′G′B′ colour `c` with alpha `a`:
/// 1. Cb and Cr of `c` and of the key colour by the BT.709 matrix at studio scale, as 8-bit codes / 255 (as a BT.709
///    4:4:4 frame stores them; OBS's `chroma_key_filter_v2.effect` uses the same `cb_v4`, `cr_v4`);
/// 2. the distance `d = √((ΔCb² + ΔCr²) / 2)`, FFmpeg's `vf_chromakey.c` `do_chromakey_pixel` (0 at the key colour);
/// 3. the key's alpha `k = clamp((d − similarity) / smoothness, 0, 1)` (FFmpeg's `blend`), or `d > similarity ? 1 : 0`
///    when `smoothness` ≤ 0.0001 (FFmpeg likewise); the sample's alpha becomes `a · k`;
/// 4. spill suppression as OBS's chroma key filter does it: `s = clamp((d − similarity) / spill, 0, 1)^1.5`, the colour
///    mixed towards its BT.709 luma `Y′ = 0.2126 R′ + 0.7152 G′ + 0.0722 B′` by `1 − s`: `c′ = Y′ + (c − Y′) · s`
///    (near the key colour grey, from `similarity + spill` on unchanged); none when `spill` is 0.
///
/// Where FFmpeg differs: it averages `d` over the 3 × 3 neighbourhood of each pixel (this is per sample: a soft edge
/// keys within a fraction of a pixel of it), reads Cb and Cr as its input frame stores them (subsampled, in the
/// frame's own matrix) and converts the key colour with the full-range BT.601 matrix (so a pixel of the key colour is
/// at a small distance from it). OBS's `similarity`, `smoothness` and `spill` are √2 times these (its distance is
/// `√(ΔCb² + ΔCr²)`), its alpha ramp is `k^1.5` and it averages 9 samples too.
public struct ChromaKey: Equatable, Sendable {
    /// The key colour, R′G′B′ 0…1.
    public var colour: SIMD3<Float>
    /// The distance up to which the picture is keyed out (0…1).
    public var similarity: Float
    /// The distance over which alpha ramps from 0 to 1 beyond `similarity` (0: a hard key).
    public var smoothness: Float
    /// The distance beyond `similarity` over which colours are desaturated (0: no spill suppression).
    public var spill: Float
    public init(colour: SIMD3<Float>, similarity: Float, smoothness: Float, spill: Float) {
        self.colour = colour; self.similarity = similarity; self.smoothness = smoothness; self.spill = spill
    }

    /// (Cb, Cr) of R′G′B′ `c`, BT.709 at studio scale, centred on 0 (the code minus 128, / 255).
    @inline(__always) public static func chroma(_ c: SIMD3<Float>) -> SIMD2<Float> {
        SIMD2(-0.100644 * c.x - 0.338572 * c.y + 0.439216 * c.z, 0.439216 * c.x - 0.398942 * c.y - 0.040274 * c.z)
    }

    /// What the shader gets (`segue_chromaKey`): key Cb, key Cr, similarity, smoothness, spill.
    public var uniforms: [Float] {
        let k = ChromaKey.chroma(colour)
        return [k.x, k.y, similarity, smoothness, spill]
    }

    /// The keyed colour and alpha of unpremultiplied R′G′B′ and alpha `c` (steps 1–4).
    public func apply(_ c: SIMD4<Float>) -> SIMD4<Float> { ChromaKey.apply(c, uniforms) }

    /// Steps 1–4 from the uniforms (`segue_chromaKey`).
    @inline(__always) public static func apply(_ c: SIMD4<Float>, _ u: [Float]) -> SIMD4<Float> {
        let rgb = SIMD3(c.x, c.y, c.z)
        let delta = chroma(rgb) - SIMD2(u[0], u[1])
        let d = ((delta.x * delta.x + delta.y * delta.y) / 2).squareRoot()
        let base = d - u[2]
        let key = u[3] > 0.0001 ? min(1, max(0, base / u[3])) : (base > 0 ? 1 : 0)
        var out = rgb
        if u[4] > 0 {
            let t = min(1, max(0, base / u[4])), s = t * t.squareRoot()
            let y = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
            out = y + (rgb - y) * s
        }
        return SIMD4(out.x, out.y, out.z, c.w * key)
    }
}
