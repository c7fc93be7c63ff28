import SegueCore

/// Small Y′CbCr pictures for the renderer tests, built from per-sample functions.
enum PlanarPictures {
    /// A planar picture: `y(x, y)` at each luma sample, `cb`/`cr` at each chroma sample (chroma indices),
    /// 8-bit codes, or 16-bit codes with `bitDepth > 8`.
    static func planar(_ w: Int, _ h: Int, shiftX: Int = 1, shiftY: Int = 1, bitDepth: Int = 8,
                       colour: YCbCrColour = YCbCrColour(matrix: .bt709, range: .limited),
                       y: (Int, Int) -> Int, cb: (Int, Int) -> Int, cr: (Int, Int) -> Int) -> VideoPicture {
        let cw = -((-w) >> shiftX), ch = -((-h) >> shiftY)
        func plane(_ pw: Int, _ ph: Int, _ f: (Int, Int) -> Int) -> PicturePlane {
            var bytes: [UInt8] = []
            for j in 0..<ph { for i in 0..<pw {
                let v = f(i, j)
                if bitDepth > 8 { bytes += [UInt8(v & 255), UInt8(v >> 8)] } else { bytes.append(UInt8(v)) }
            } }
            return PicturePlane(width: pw, height: ph, channels: 1, bytes: bytes)
        }
        return VideoPicture(width: w, height: h, layout: .planar, chromaShiftX: shiftX, chromaShiftY: shiftY, bitDepth: bitDepth,
                            planes: [plane(w, h, y), plane(cw, ch, cb), plane(cw, ch, cr)], colour: colour)
    }

    /// The same 8-bit 4:2:0 picture as NV12 (or NV21 with `swapped`).
    static func semiPlanar(_ p: VideoPicture, swapped: Bool = false) -> VideoPicture {
        let u = p.planes[1].bytes, v = p.planes[2].bytes
        var uv: [UInt8] = []
        for k in 0..<u.count { uv += swapped ? [v[k], u[k]] : [u[k], v[k]] }
        let c = p.chromaSize
        return VideoPicture(width: p.width, height: p.height, layout: .semiPlanar, chromaShiftX: p.chromaShiftX, chromaShiftY: p.chromaShiftY,
                            bitDepth: 8, swapsChroma: swapped,
                            planes: [p.planes[0], PicturePlane(width: c.width, height: c.height, channels: 2, bytes: uv)], colour: p.colour)
    }

    /// A deterministic textured 8-bit picture: gradients plus pseudo-random detail, chroma within 16…240.
    static func textured(_ w: Int, _ h: Int, shiftX: Int = 1, shiftY: Int = 1, seed: Int,
                         colour: YCbCrColour = YCbCrColour(matrix: .bt709, range: .limited)) -> VideoPicture {
        func noise(_ x: Int, _ y: Int, _ k: Int) -> Int { ((x &* 73 &+ y &* 151 &+ seed &* 29 &+ k) &* 2_654_435_761 >> 13) & 31 }
        return planar(w, h, shiftX: shiftX, shiftY: shiftY, colour: colour,
                      y: { x, y in 20 + (x * 180) / max(1, w - 1) + noise(x, y, 0) },
                      cb: { x, y in 40 + (y * 150) / max(1, h - 1) + noise(x, y, 1) },
                      cr: { x, y in 200 - (x * 150) / max(1, w - 1) + noise(x, y, 2) })
    }

    /// Planes of a picture as one `YUV420Image`-shaped triple, for exact comparisons.
    static func planes(_ p: VideoPicture) -> (y: [UInt8], cb: [UInt8], cr: [UInt8]) {
        (p.planes[0].bytes, p.planes[1].bytes, p.planes[2].bytes)
    }
}
