import Foundation

/// The per-pixel pseudo-random values of FFmpeg's xfade (`frand` in libavfilter/vf_xfade.c, used by dissolve):
/// `r = sin(x·12.9898 + y·78.233)·43758.545`, value `r − floor(r)`, all in binary32 with the C library's `sinf`,
/// for pixel column `x` and row `y` (top-left origin).
///
/// The product amplifies the last bits of `sinf` by 4·10⁴, so a GPU's own `sin` gives other values: both renderers
/// read this table (the GPU as an R32F texture, `segue_noise`), which makes dissolve the same pattern as FFmpeg's.
public enum TransitionNoise {
    /// `width × height` values, rows top first.
    public static func values(width: Int, height: Int) -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let r = sinf(Float(x) * 12.9898 + Float(y) * 78.233) * 43758.545
                out[y * width + x] = r - r.rounded(.down)
            }
        }
        return out
    }
}
