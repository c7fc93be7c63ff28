import SegueCore

/// Pointwise colour and LUT effects applied to a frame's 8-bit 4:2:0 BT.709 limited-range planes, where the CPU
/// composites and the layer is otherwise direct (`FrameStrategy.graded`; docs/performance.md): the chain Y′CbCr →
/// R′G′B′ (`YCbCrToRGB`) → the effects (`PictureEffects`, the renderer's one formula) → the output's Y′CbCr
/// (`RGBToOutputYCbCr`) is baked into a table over (Y′, Cb, Cr) codes, 33 lattice points an axis, and read trilinearly
/// with the texels the renderers read for an upright layer at scale 1 (`ReferenceLayer.exactTexel`): luma sample (x, y)
/// with chroma (x/2, y/2), chroma sample (i, j) with luma (2i, 2j).
public struct PlanarGrade {
    static let points = 33
    /// Code units between lattice points.
    static let step = Float(255) / Float(points - 1)
    /// (Y, Cb, Cr) output values as codes (0…255, not yet rounded) at lattice point (y, cb, cr), y fastest.
    let table: [SIMD4<Float>]

    /// The grade of `effects` (each `isPointwise`); nil when there are none.
    public init?(_ effects: [PictureEffect]) {
        guard let chain = PictureEffects(effects) else { return nil }
        let toRGB = YCbCrToRGB(colour: YCbCrColour(matrix: .bt709, range: .limited), bitDepth: 8, normalizedSamples: true)
        let m = toRGB.matrix, o = toRGB.offset
        let rows = [RGBToOutputYCbCr.y, RGBToOutputYCbCr.cb, RGBToOutputYCbCr.cr]
        let n = PlanarGrade.points
        var t = [SIMD4<Float>](repeating: .zero, count: n * n * n)
        for k in 0..<n { for j in 0..<n { for i in 0..<n {
            let s = SIMD3(Float(i), Float(j), Float(k)) * PlanarGrade.step / 255
            let rgb = SIMD3((0..<3).map { r in m[3 * r] * s.x + m[3 * r + 1] * s.y + m[3 * r + 2] * s.z + o[r] })
            let c = chain.apply(SIMD4(rgb, 1), at: .zero)
            let out = rows.map { $0[0] * c.x + $0[1] * c.y + $0[2] * c.z + $0[3] }
            t[(k * n + j) * n + i] = SIMD4(out[0], out[1], out[2], 0) * 255
        } } }
        table = t
    }

    /// The table's values at codes (y, cb, cr), trilinear.
    @inline(__always) func sample(_ t: UnsafePointer<SIMD4<Float>>, _ y: Float, _ cb: Float, _ cr: Float) -> SIMD4<Float> {
        let n = PlanarGrade.points, inv = 1 / PlanarGrade.step
        let p = SIMD3(y, cb, cr) * inv
        let f = p.rounded(.down)
        let i0 = SIMD3(min(Int(f.x), n - 2), min(Int(f.y), n - 2), min(Int(f.z), n - 2))
        let d = p - SIMD3(Float(i0.x), Float(i0.y), Float(i0.z))
        let b = t + (i0.z * n + i0.y) * n + i0.x
        let c00 = b[0] + (b[1] - b[0]) * d.x, c10 = b[n] + (b[n + 1] - b[n]) * d.x
        let c01 = b[n * n] + (b[n * n + 1] - b[n * n]) * d.x, c11 = b[n * n + n] + (b[n * n + n + 1] - b[n * n + n]) * d.x
        let c0 = c00 + (c10 - c00) * d.y, c1 = c01 + (c11 - c01) * d.y
        return c0 + (c1 - c0) * d.z
    }

    @inline(__always) static func code(_ v: Float) -> UInt8 { UInt8(truncatingIfNeeded: Int32(min(max(v, 0), 255) + 0.5)) }

    /// `image` (8-bit, even width and height) graded.
    public func graded(_ image: YUV420Image) -> YUV420Image {
        let w = image.width, h = image.height, cw = w / 2, ch = h / 2
        var out = image
        table.withUnsafeBufferPointer { tb in
            let t = tb.baseAddress!
            image.y.withUnsafeBufferPointer { yp in image.cb.withUnsafeBufferPointer { cbp in image.cr.withUnsafeBufferPointer { crp in
                out.y.withUnsafeMutableBufferPointer { oy in
                    for row in 0..<h {
                        let c = (row >> 1) * cw
                        let yr = yp.baseAddress! + row * w, o = oy.baseAddress! + row * w
                        let b = cbp.baseAddress! + c, r = crp.baseAddress! + c
                        for x in 0..<w {
                            o[x] = PlanarGrade.code(sample(t, Float(yr[x]), Float(b[x >> 1]), Float(r[x >> 1])).x)
                        }
                    }
                }
                out.cb.withUnsafeMutableBufferPointer { ob in out.cr.withUnsafeMutableBufferPointer { or in
                    for j in 0..<ch {
                        let y0 = yp.baseAddress! + 2 * j * w
                        for i in 0..<cw {
                            let k = j * cw + i
                            let v = sample(t, Float(y0[2 * i]), Float(cbp[k]), Float(crp[k]))
                            ob[k] = PlanarGrade.code(v.y)
                            or[k] = PlanarGrade.code(v.z)
                        }
                    }
                } }
            } } }
        }
        return out
    }

    /// The last grade made, kept while the effects stay the same (a render's frames mostly share them).
    public struct Cache {
        private var effects: [PictureEffect] = []
        private var grade: PlanarGrade?
        public init() {}

        /// `image` graded by `effects`.
        public mutating func graded(_ image: YUV420Image, by effects: [PictureEffect]) -> YUV420Image {
            if grade == nil || effects != self.effects {
                grade = PlanarGrade(effects)
                self.effects = effects
            }
            return grade?.graded(image) ?? image
        }
    }
}
