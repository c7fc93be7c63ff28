import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// Frames of several passes (issue 19) on both renderers, with hand-computable values: premultiplied "over" into the
/// planes below, opacity, alpha, crop, the pass rectangle, the direct first layer.
final class LayerRenderTests: RendererTestCase {
    let size = PixelSize(width: 32, height: 16)

    func layer(_ clip: Int, _ p: VideoPicture, transform: LayerTransform = .identity, opacity: Double = 1, fit: FitMode = .fill) -> LayerPlan {
        let g = LayerGeometry.place(codedSize: p.size, sar: 1, orientation: .identity, renderSize: size, fit: fit, transform: transform)!
        var l = LayerPlan(clipIndex: clip, sourceTime: .zero, outputToSource: g.outputToSource)
        l.crop = g.crop
        l.bounds = g.bounds
        l.opacity = opacity
        return l
    }
    /// The plan of `layers` (bottom first, one pass each), each later pass limited to its layer's box unless `wholeFrame`.
    func plan(_ layers: [LayerPlan], wholeFrame: Bool = false) -> FramePlan {
        FramePlan(frame: 0, time: .zero, renderSize: size, passes: layers.enumerated().map { k, l in
            CompositePass(track: k, from: l, to: nil, transition: nil, progress: 0,
                          rect: k == 0 || wholeFrame ? nil : l.bounds!.evenAligned.intersection(PixelRect(size)))
        })
    }
    /// An RGBA picture with straight alpha, premultiplied as the reader hands it on.
    func rgba(_ w: Int, _ h: Int, _ f: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> VideoPicture {
        var px: [UInt8] = []
        for y in 0..<h { for x in 0..<w { let c = f(x, y); px += [c.0, c.1, c.2, c.3] } }
        return VideoPicture.premultiplied(RGBAImage(width: w, height: h, pixels: px))
    }
    func assertClose(_ a: YUV420Image, _ b: YUV420Image, within: Int, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for (name, x, y) in [("Y", a.y, b.y), ("Cb", a.cb, b.cb), ("Cr", a.cr, b.cr)] {
            let worst = zip(x, y).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, within, "\(label) \(name): max |Δ| \(worst)", file: file, line: line)
        }
    }

    /// A half-scale overlay with alpha, right half of the frame: outside its box the base is untouched (bit-exact);
    /// where it is opaque its colour shows; where α = ½, half of each; both renderers within a code.
    func testOverlayWithAlphaIsOverOnBothRenderers() throws {
        let base = PlanarPictures.textured(32, 16, seed: 4)
        // Left half opaque red, right half white at α = 128.
        let logo = rgba(16, 8) { x, _ in x < 8 ? (255, 0, 0, 255) : (255, 255, 255, 128) }
        let p = plan([layer(0, base), layer(1, logo, transform: LayerTransform(x: 0.75, y: 0.5, scale: 0.5))])
        XCTAssertEqual(p.passes[1].rect, PixelRect(x0: 14, y0: 2, x1: 32, y1: 14))   // x 16…32, y 4…12, widened a pixel, even
        var outs: [YUV420Image] = []
        for r in try renderers() {
            let out = try r.renderYUV420(p, pictures: [base, logo])
            outs.append(out)
            let (y, cb, _) = PlanarPictures.planes(base)
            // Outside the box (columns < 16, rows < 2 or ≥ 14): the base's samples exactly.
            for j in 0..<16 { for i in 0..<32 where i < 16 || j < 2 || j >= 14 { XCTAssertEqual(out.y[j * 32 + i], y[j * 32 + i], "\(r.name) luma (\(i), \(j))") } }
            for j in 0..<8 { for i in 0..<8 { XCTAssertEqual(out.cb[j * 16 + i], cb[j * 16 + i], "\(r.name) Cb (\(i), \(j))") } }
            // Opaque red, BT.709 limited: Y = 16 + 219·0.2126 = 62.6 → 63.
            XCTAssertEqual(Int(out.y[8 * 32 + 19]), 63, "\(r.name) red luma")
            // White at α 128/255 over the base: Y = 235·a + (1 − a)·below, a = 128/255.
            let a = 128.0 / 255, below = Double(y[8 * 32 + 28])
            XCTAssertEqual(Double(out.y[8 * 32 + 28]), 235 * a + (1 - a) * below, accuracy: 1.01, "\(r.name) half-transparent white")
        }
        assertClose(outs[0], outs[1], within: 1, "GPU vs CPU")
    }

    /// Limiting a pass to its rectangle changes nothing: the same frame as blending over the whole frame.
    func testRectangleBlendEqualsWholeFrameBlend() throws {
        let base = PlanarPictures.textured(32, 16, seed: 5)
        let logo = rgba(8, 8) { x, y in (UInt8(x * 30), UInt8(y * 30), 200, UInt8(40 + x * 25)) }
        let layers = [layer(0, base), layer(1, logo, transform: LayerTransform(x: 0.3, y: 0.6, scale: 0.4, rotation: 30))]
        for r in try renderers() {
            let boxed = try r.renderYUV420(plan(layers), pictures: [base, logo])
            let whole = try r.renderYUV420(plan(layers, wholeFrame: true), pictures: [base, logo])
            XCTAssertEqual(boxed, whole, "\(r.name)")
            let rgbBoxed = try r.render(plan(layers), pictures: [base, logo])
            let rgbWhole = try r.render(plan(layers, wholeFrame: true), pictures: [base, logo])
            XCTAssertEqual(rgbBoxed, rgbWhole, "\(r.name) RGBA")
        }
    }

    /// An untouched first layer is not drawn but taken as it is (`DirectFrame.basePlanes`), the overlay blended into
    /// its planes: the overlay's colour inside its box, the base's samples outside, within a code between renderers.
    func testDirectFirstLayerUnderAnOverlay() throws {
        let base = PlanarPictures.textured(32, 16, seed: 6)
        let logo = rgba(4, 4) { _, _ in (0, 255, 0, 255) }
        let p = plan([layer(0, base), layer(1, logo, transform: LayerTransform(x: 0.25, y: 0.25, scale: 0.25))])
        let planes = try XCTUnwrap(DirectFrame.basePlanes(p, picture: base))
        let (y, _, _) = PlanarPictures.planes(base)
        var outs: [YUV420Image] = []
        for r in try renderers() {
            let out = try r.renderYUV420(p, pictures: [base, logo], base: planes)
            XCTAssertEqual(out, try r.renderYUV420(p, pictures: [base, logo]), "\(r.name): the same frame with every pass drawn")
            // The overlay covers x 4…12, y 2…6 (an 8×4 box centred at (8, 4)); green, BT.709: Y = 16 + 219·0.7152 = 172.6.
            XCTAssertEqual(Int(out.y[3 * 32 + 6]), 173, r.name)
            XCTAssertEqual(out.y[10 * 32 + 20], y[10 * 32 + 20], r.name)
            outs.append(out)
        }
        assertClose(outs[0], outs[1], within: 1, "GPU vs CPU")
    }

    /// Opacity ½ of a white fill over black: luma half-way between the codes (16 + 219/2 = 125.5), on both renderers.
    func testHalfOpacityGivesHalfwayLuma() throws {
        let black = VideoPicture.colour(.black, alpha: 1), white = VideoPicture.colour(.white, alpha: 1)
        let p = plan([layer(0, black, fit: .stretch), layer(1, white, opacity: 0.5, fit: .stretch)])
        for r in try renderers() {
            let out = try r.renderYUV420(p, pictures: [black, white])
            XCTAssertEqual(Double(out.y[5 * 32 + 7]), 125.5, accuracy: 0.51, r.name)
            XCTAssertEqual(out.cb[3 * 16 + 3], 128, r.name)
        }
    }

    /// A fully transparent layer leaves what is below exactly as it was; a fill is its exact colour.
    func testTransparentLayerAndFill() throws {
        let base = PlanarPictures.textured(32, 16, seed: 7)
        let clear = VideoPicture.colour(.white, alpha: 0)
        let fill = VideoPicture.colour(RGBColour(r: 0x20, g: 0x20, b: 0x20), alpha: 1)
        for r in try renderers() {
            let out = try r.renderYUV420(plan([layer(0, base), layer(1, clear, fit: .stretch)], wholeFrame: true), pictures: [base, clear])
            let (y, cb, cr) = PlanarPictures.planes(base)
            XCTAssertEqual(out.y, y, r.name); XCTAssertEqual(out.cb, cb, r.name); XCTAssertEqual(out.cr, cr, r.name)
            // #202020: Y = 16 + 219·32/255 = 43.5 → 43 or 44; Cb = Cr = 128.
            let filled = try r.renderYUV420(plan([layer(0, base), layer(1, fill, fit: .stretch)]), pictures: [base, fill])
            XCTAssertEqual(Set(filled.y).count, 1, r.name)
            XCTAssertEqual(Double(filled.y[0]), 43.5, accuracy: 0.51, r.name)
            XCTAssertEqual(Set(filled.cb + filled.cr), [128], r.name)
        }
    }

    /// A crop of the left half shows the right half, fitted to the frame: at scale 2 (16 stored columns over 32
    /// output columns, 8 rows over 16), each stored column twice (stretch fit, so that the picture's rows stay
    /// whole); on both renderers, within a code.
    func testCropShowsTheRestFitted() throws {
        let base = VideoPicture.colour(.black, alpha: 1)
        let picture = rgba(32, 8) { x, _ in x < 16 ? (255, 0, 0, 255) : (0, 0, UInt8(x * 7), 255) }
        let cropped = layer(1, picture, transform: LayerTransform(crop: CropInsets(left: 0.5)), fit: .stretch)
        XCTAssertEqual(cropped.crop, NormalizedRect(u0: 0.5, v0: 0, u1: 1, v1: 1))
        var outs: [RGBAImage] = []
        for r in try renderers() {
            let out = try r.render(plan([layer(0, base, fit: .stretch), cropped]), pictures: [base, picture])
            // No red from the cropped-off half, even at the left edge (filtered reads stay inside the crop).
            for x in 0..<32 { XCTAssertEqual(out.pixel(x, 8).0, 0, "\(r.name) x=\(x)") }
            // Output column 2x + 1 lies 3/4 into stored column 16 + x: blue ≈ 7·(16 + x) + 7·¼ between neighbours.
            XCTAssertEqual(Double(out.pixel(21, 8).2), 7 * 26.25, accuracy: 1.5, r.name)
            outs.append(out)
        }
        XCTAssertLessThanOrEqual(PlaneDifference(outs[0].pixels, outs[1].pixels).maxAbsDifference, 1, "GPU vs CPU")
    }

    /// A crossfade inside an upper pass over a textured base: the two layers mix, the base shows around them; GPU
    /// against CPU within a code.
    func testTransitionInsideAnUpperPass() throws {
        let base = PlanarPictures.textured(32, 16, seed: 8)
        let a = VideoPicture.colour(RGBColour(r: 255, g: 0, b: 0), alpha: 1), b = rgba(8, 8) { _, _ in (0, 0, 255, 255) }
        let from = layer(1, a, transform: LayerTransform(scale: 0.5), fit: .stretch), to = layer(2, b, transform: LayerTransform(scale: 0.5), fit: .stretch)
        let rect = from.bounds!.union(to.bounds!).evenAligned
        let p = FramePlan(frame: 0, time: .zero, renderSize: size, passes: [
            CompositePass(track: 0, from: layer(0, base), to: nil, transition: nil, progress: 0),
            CompositePass(track: 1, from: from, to: to, transition: Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1)),
                          progress: 0.5, rect: rect)])
        var outs: [YUV420Image] = []
        for r in try renderers() {
            let out = try r.renderYUV420(p, pictures: [base, a, b])
            // Half red, half blue: Y = 16 + 219·(0.2126 + 0.0722)/2 = 47.2.
            XCTAssertEqual(Double(out.y[8 * 32 + 16]), 47.2, accuracy: 1, r.name)
            XCTAssertEqual(out.y[1 * 32 + 1], PlanarPictures.planes(base).y[1 * 32 + 1], r.name)
            outs.append(out)
        }
        assertClose(outs[0], outs[1], within: 1, "GPU vs CPU")
    }
}
