import SegueCore

/// What a blended pass blends with in a video output (`blend.glsl`, `segue_backdrop`): the output's 8-bit planes as
/// they were before the pass, read back to R′G′B′ by the output's inverse matrix (`OutputYCbCr.toRGB`), opaque. At a
/// luma sample (x, y): its Y′ and the Cb, Cr of its 2×2 block; at the chroma site of block (i, j): the mean of the
/// block's four Y′ and its Cb, Cr.
struct BlendBackdrop: Sendable {
    let mode: BlendMode
    let y, cb, cr: [UInt8]
    let width, chromaWidth: Int
    let toRGB: YCbCrToRGB

    init(mode: BlendMode, image: YUV420Image, format: OutputYCbCr) {
        self.mode = mode; y = image.y; cb = image.cb; cr = image.cr
        width = image.width; chromaWidth = image.width / 2; toRGB = format.toRGB
    }

    private func rgb(_ yv: Float, _ i: Int) -> SIMD4<Float> {
        let s = SIMD3(yv, Float(cb[i]) / 255, Float(cr[i]) / 255), m = toRGB.matrix, o = toRGB.offset
        return SIMD4(m[0] * s.x + m[1] * s.y + m[2] * s.z + o[0], m[3] * s.x + m[4] * s.y + m[5] * s.z + o[1],
                     m[6] * s.x + m[7] * s.y + m[8] * s.z + o[2], 1)
    }

    /// The backdrop at luma sample (x, row).
    func atLuma(_ x: Int, _ row: Int) -> SIMD4<Float> {
        rgb(Float(y[row * width + x]) / 255, (row / 2) * chromaWidth + x / 2)
    }

    /// The backdrop at the chroma site of block (i, row).
    func atChroma(_ i: Int, _ row: Int) -> SIMD4<Float> {
        let k = 2 * row * width + 2 * i
        let sum = Float(y[k]) + Float(y[k + 1]) + Float(y[k + width]) + Float(y[k + width + 1])
        return rgb(0.25 * (sum / 255), row * chromaWidth + i)
    }

    /// The pass's colours `c` of row `row` (luma samples, or chroma sites with `chroma`) blended with the backdrop there
    /// (`BlendMode.premultipliedSource`), for `columns`; indexed as `c` is.
    func blended(_ c: UnsafePointer<SIMD4<Float>>, row: Int, columns: Range<Int>, chroma: Bool) -> [SIMD4<Float>] {
        var out = [SIMD4<Float>](repeating: .zero, count: columns.upperBound)
        for x in columns { out[x] = mode.premultipliedSource(c[x], over: chroma ? atChroma(x, row) : atLuma(x, row)) }
        return out
    }
}
