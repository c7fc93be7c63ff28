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
    /// The output Y′ and (Cb, Cr) as codes (0…255, not yet rounded) at lattice point (y, cb, cr), y fastest.
    let lumaTable: [Float]
    let chromaTable: [SIMD2<Float>]

    /// The grade of `effects` (each `isPointwise`); nil when there are none.
    public init?(_ effects: [PictureEffect]) {
        guard let chain = PictureEffects(effects) else { return nil }
        let toRGB = YCbCrToRGB(colour: YCbCrColour(matrix: .bt709, range: .limited), bitDepth: 8, normalizedSamples: true)
        let m = toRGB.matrix, o = toRGB.offset
        let rows = [RGBToOutputYCbCr.y, RGBToOutputYCbCr.cb, RGBToOutputYCbCr.cr]
        let n = PlanarGrade.points
        var luma = [Float](repeating: 0, count: n * n * n), chroma = [SIMD2<Float>](repeating: .zero, count: n * n * n)
        for k in 0..<n { for j in 0..<n { for i in 0..<n {
            let s = SIMD3(Float(i), Float(j), Float(k)) * PlanarGrade.step / 255
            let rgb = SIMD3((0..<3).map { r in m[3 * r] * s.x + m[3 * r + 1] * s.y + m[3 * r + 2] * s.z + o[r] })
            let c = chain.apply(SIMD4(rgb, 1), at: .zero)
            let out = rows.map { ($0[0] * c.x + $0[1] * c.y + $0[2] * c.z + $0[3]) * 255 }
            luma[(k * n + j) * n + i] = out[0]
            chroma[(k * n + j) * n + i] = SIMD2(out[1], out[2])
        } } }
        lumaTable = luma
        chromaTable = chroma
    }

    /// Per code 0…255: its lattice cell along an axis (the lower point, at most the last but one) and the fraction
    /// beyond it, so that samples need no float-to-integer conversion.
    static let cells: (index: [Int], fraction: [Float]) = {
        let inv = 1 / step, n = points
        let index = (0..<256).map { min(Int(Float($0) * inv), n - 2) }
        return (index, (0..<256).map { Float($0) * inv - Float(index[$0]) })
    }()

    @inline(__always) static func code(_ v: Float) -> UInt8 { UInt8(truncatingIfNeeded: Int32(min(max(v, 0), 255) + 0.5)) }

    /// `image` (8-bit, even width and height) graded. Each 2×2 block of luma samples shares its chroma sample, so the
    /// table's (Cb, Cr) cell and weights are found once a block; the Y′ axis is read per sample.
    public func graded(_ image: YUV420Image) -> YUV420Image {
        let w = image.width, cw = w / 2, ch = image.height / 2, n = PlanarGrade.points, nn = n * n
        var oy = [UInt8](repeating: 0, count: image.y.count), ob = [UInt8](repeating: 0, count: image.cb.count), or = ob
        let (cellIndex, cellFraction) = PlanarGrade.cells
        lumaTable.withUnsafeBufferPointer { lt in chromaTable.withUnsafeBufferPointer { ct in
            cellIndex.withUnsafeBufferPointer { ci in cellFraction.withUnsafeBufferPointer { cf in
            image.y.withUnsafeBufferPointer { yp in image.cb.withUnsafeBufferPointer { cbp in image.cr.withUnsafeBufferPointer { crp in
                oy.withUnsafeMutableBufferPointer { oy in ob.withUnsafeMutableBufferPointer { ob in or.withUnsafeMutableBufferPointer { or in
                    let tl = lt.baseAddress!, tc = ct.baseAddress!
                    for j in 0..<ch {
                        let row0 = yp.baseAddress! + 2 * j * w, row1 = row0 + w
                        let out0 = oy.baseAddress! + 2 * j * w, out1 = out0 + w
                        for i in 0..<cw {
                            let k = j * cw + i
                            let cb = Int(cbp[k]), cr = Int(crp[k])
                            let ib = ci[cb], ir = ci[cr], db = cf[cb], dr = cf[cr]
                            let w00 = (1 - db) * (1 - dr), w10 = db * (1 - dr), w01 = (1 - db) * dr, w11 = db * dr
                            let cell = (ir * n + ib) * n
                            @inline(__always) func grade(_ y: UInt8) -> (Int, Float) { (cell + ci[Int(y)], cf[Int(y)]) }
                            @inline(__always) func luma(_ y: UInt8) -> UInt8 {
                                let (at, d) = grade(y)
                                let b = tl + at
                                let v0 = w00 * b[0] + w10 * b[n] + w01 * b[nn] + w11 * b[nn + n]
                                let v1 = w00 * b[1] + w10 * b[n + 1] + w01 * b[nn + 1] + w11 * b[nn + n + 1]
                                return PlanarGrade.code(v0 + (v1 - v0) * d)
                            }
                            let y00 = row0[2 * i]
                            out0[2 * i] = luma(y00); out0[2 * i + 1] = luma(row0[2 * i + 1])
                            out1[2 * i] = luma(row1[2 * i]); out1[2 * i + 1] = luma(row1[2 * i + 1])
                            // The chroma sample with the luma at (2i, 2j), as the renderers' chroma pass reads it.
                            let (at, d) = grade(y00)
                            let b = tc + at
                            let v0 = w00 * b[0] + w10 * b[n] + w01 * b[nn] + w11 * b[nn + n]
                            let v1 = w00 * b[1] + w10 * b[n + 1] + w01 * b[nn + 1] + w11 * b[nn + n + 1]
                            let v = v0 + (v1 - v0) * d
                            ob[k] = PlanarGrade.code(v.x)
                            or[k] = PlanarGrade.code(v.y)
                        }
                    }
                } } }
            } } }
            } }
        } }
        return YUV420Image(width: image.width, height: image.height, y: oy, cb: ob, cr: or)
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
