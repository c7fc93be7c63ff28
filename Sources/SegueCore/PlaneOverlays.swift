import Foundation

/// Layers over a frame blended straight into its 8-bit 4:2:0 planes by the CPU, inside each layer's rectangle: a logo,
/// a title or caption, a colour card over a frame whose first pass is planes already (`DirectFrame.basePlanes`, or
/// drawn by `PlaneTransitions`) — "layers cost in proportion to their area" where the only OpenGL is a software
/// rasteriser, with no upload and readback of the whole frame.
///
/// Each such pass is one RGBA layer (premultiplied; `VideoPicture(_ image:)`: a PNG logo, text, a 1×1 colour) shown
/// upright and axis-aligned (any scale and position; no crop) with any opacity, in an SDR BT.709 output. The maths is
/// the reference's for a later pass (`ReferenceRenderer.draw` with `overBelow`, `ReferenceLayer`): at each luma
/// sample's centre and each chroma site inside the pass's rectangle (a site whose pixel, `segue_pixel`, lies outside
/// it is left as it is), the layer's premultiplied R′G′B′A read bilinear (`GL_LINEAR`, `GL_CLAMP_TO_EDGE`; a 1×1
/// picture exactly), transparent outside 0…1 and outside the picture, times the opacity; the fused colour map
/// (`LayerColourMap`: the output's Y′ or Cb, Cr rows, the offset times α); then `value + (1 − α)·below`, rounded to
/// the nearest code (halves to even, as `PlaneTransitions`: within one code of the reference).
public enum PlaneOverlays {
    /// Whether `pass` (a pass above the first) is one `blend` draws with `picture`.
    public static func blends(_ pass: CompositePass, picture: VideoPicture, plan: FramePlan) -> Bool {
        guard pass.transition == nil, pass.to == nil, !plan.keepsAlpha, plan.colour.dynamicRange == .sdr,
              picture.layout == .rgba, picture.colour.transfer == .sdr, picture.colour.primaries == .bt709,
              pass.from.crop == .unit, plan.renderSize.width % 2 == 0, plan.renderSize.height % 2 == 0 else { return false }
        let m = pass.from.outputToSource
        return m.a > 0 && m.d > 0 && abs(m.b) <= 1e-12 * m.a && abs(m.c) <= 1e-12 * m.d
    }

    /// A frame of several passes drawn on the planes: its first pass taken as planes (`DirectFrame.basePlanes`) or drawn
    /// by `PlaneTransitions`, every pass above it blended by `blend`; nil when a pass is not one these draw.
    /// `pictures`: those of `plan.layers`.
    public static func image(_ plan: FramePlan, pictures: [VideoPicture], threads: Int = 2) -> YUV420Image? {
        guard plan.passes.count > 1, !plan.keepsAlpha else { return nil }
        let k = plan.passes[0].layers.count
        var index = k
        for pass in plan.passes.dropFirst() {
            guard pass.layers.count == 1, blends(pass, picture: pictures[index], plan: plan) else { return nil }
            index += 1
        }
        var image: YUV420Image
        if let direct = DirectFrame.basePlanes(plan, picture: pictures[0]) {
            image = direct
        } else {
            var alone = plan
            alone.passes = [plan.passes[0]]
            guard let drawn = PlaneTransitions.image(alone, pictures: Array(pictures[0..<k]), threads: threads) else { return nil }
            image = drawn
        }
        for (n, pass) in plan.passes.dropFirst().enumerated() { blend(pass, picture: pictures[k + n], plan: plan, into: &image) }
        return image
    }

    /// `image` (the frame's planes below the pass, 8-bit) with `pass` blended in: `blends` must hold.
    public static func blend(_ pass: CompositePass, picture: VideoPicture, plan: FramePlan, into image: inout YUV420Image) {
        let size = plan.renderSize, W = size.width, H = size.height
        let r = (pass.rect ?? PixelRect(size)).intersection(PixelRect(size))
        guard !r.isEmpty else { return }
        let p = TransitionParameters(pass: pass, renderSize: size)
        let map = p.fromMap
        let exact = TransitionParameters.isExact(pass, pass.from, picture: picture)
        let opacity = Float(pass.from.opacity)
        let fw = Float(W), fh = Float(H), site = RGBToOutputYCbCr.siting
        let pw = picture.width, ph = picture.height
        // The pass's rectangle in pixels, as segue_pixel tests it.
        let (rx0, ry0, rx1, ry1) = (Float(r.x0), Float(r.y0), Float(r.x1), Float(r.y1))
        /// Along one axis: a position's read (inside the layer and the rectangle, its taps and the second's weight).
        func axis(_ uv: Float, horizontal: Bool) -> PlaneTransitions.Tap {
            let res = horizontal ? fw : fh
            let px = (uv * res - 1.0 / 64).rounded(.down)
            let inRect = horizontal ? px >= rx0 && px < rx1 : px >= ry0 && px < ry1
            let s = horizontal ? map[0] * uv + map[4] : map[3] * uv + map[5]
            let inside = inRect && uv >= 0 && uv <= 1 && s >= 0 && s <= 1
            let n = horizontal ? pw : ph
            let pos = s * Float(n)
            return PlaneTransitions.Tap(pos, count: n, exact: exact, inside: inside)
        }
        let rgba = picture.planes[0].bytes
        // One output plane's samples `xs` × `ys` (k: 0 luma; 1 chroma, Cb and Cr together from one read).
        func draw(_ k: Int, columns xs: Range<Int>, rows ys: Range<Int>, into outs: [UnsafeMutablePointer<UInt8>]) {
            let chroma = k > 0
            let colour = LayerColourMap(picture: picture, pass: chroma ? .chroma : .luma, fused: true)
            // The colour map's rows this pass writes (Y′; or Cb, Cr), as SIMD4 (R′, G′, B′, α) weights.
            let weights = (0..<outs.count).map { r in SIMD4(colour.matrix[3 * r], colour.matrix[3 * r + 1], colour.matrix[3 * r + 2], colour.offset[r]) }
            let cols = xs.map { i in axis(chroma ? ((Float(i) + 0.5) * 2 - 0.5 + site.x) / fw : (Float(i) + 0.5) / fw, horizontal: true) }
            let rows = ys.map { j in axis(chroma ? ((Float(j) + 0.5) * 2 - 0.5 + site.y) / fh : (Float(j) + 0.5) / fh, horizontal: false) }
            // The columns inside the layer and the rectangle are one run.
            guard let lo = cols.firstIndex(where: { $0.inside }), let last = cols.lastIndex(where: { $0.inside }) else { return }
            let stride = chroma ? W / 2 : W
            rgba.withUnsafeBufferPointer { src in
                cols.withUnsafeBufferPointer { cs in
                    let base = src.baseAddress!
                    @inline(__always) func texel(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD4<Float> {
                        let p = row + x * 4
                        return SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) / 255
                    }
                    for (b, y) in rows.enumerated() where y.inside {
                        let r0 = base + y.i0 * pw * 4, r1 = base + y.i1 * pw * 4
                        let line = (ys.lowerBound + b) * stride + xs.lowerBound
                        for a in lo...last {
                            let x = cs[a]
                            // ReferenceLayer.bilinear4 (lane by lane as the reference's SIMD4), the colour map, the opacity.
                            let top = texel(r0, x.i0) * (1 - x.f) + texel(r0, x.i1) * x.f
                            let bottom = texel(r1, x.i0) * (1 - x.f) + texel(r1, x.i1) * x.f
                            let c = top * (1 - y.f) + bottom * y.f
                            let alpha = c.w * opacity
                            for (n, out) in outs.enumerated() {
                                let w = weights[n]
                                let value = (w.x * c.x + w.y * c.y + w.z * c.z + w.w * c.w) * opacity
                                out[line + a] = PlaneTransitions.unorm8(value + (1 - alpha) * (Float(out[line + a]) / 255))
                            }
                        }
                    }
                }
            }
        }
        image.y.withUnsafeMutableBufferPointer { y in draw(0, columns: r.x0..<r.x1, rows: r.y0..<r.y1, into: [y.baseAddress!]) }
        // The chroma samples of the rectangle's 2×2 blocks.
        let cx0 = r.x0 / 2, cx1 = min(W / 2, (r.x1 + 1) / 2), cy0 = r.y0 / 2, cy1 = min(H / 2, (r.y1 + 1) / 2)
        guard cx0 < cx1 && cy0 < cy1 else { return }
        image.cb.withUnsafeMutableBufferPointer { cb in
            image.cr.withUnsafeMutableBufferPointer { cr in
                draw(1, columns: cx0..<cx1, rows: cy0..<cy1, into: [cb.baseAddress!, cr.baseAddress!])
            }
        }
    }
}
