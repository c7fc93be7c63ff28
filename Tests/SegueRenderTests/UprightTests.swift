import XCTest
import SegueCore
import SegueMedia
import SegueReference
import SegueGL
import SegueTestSupport

/// Phone clips without compositing (issue 25): a picture shown at scale 1 through any of the eight axis-aligned
/// display matrices is turned upright by libavfilter (`PictureTurner`) and cropped (`DirectFrame.route`,
/// `uprighted`); the planes equal what both renderers composite from the stored picture, byte for byte.
final class UprightTests: RendererTestCase {
    /// The eight orientations: identity, mirrors, half turn, quarter turns with and without a mirror.
    let orientations: [Orientation] = [
        Orientation(a: 1, b: 0, c: 0, d: 1), Orientation(a: -1, b: 0, c: 0, d: 1), Orientation(a: 1, b: 0, c: 0, d: -1),
        Orientation(a: -1, b: 0, c: 0, d: -1), Orientation(a: 0, b: 1, c: 1, d: 0), Orientation(a: 0, b: -1, c: 1, d: 0),
        Orientation(a: 0, b: 1, c: -1, d: 0), Orientation(a: 0, b: -1, c: -1, d: 0),
    ]

    func single(_ p: VideoPicture, size: PixelSize, orientation: Orientation) -> FramePlan {
        FramePlan(frame: 0, time: .zero, from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource:
            LayerGeometry.outputToSource(codedSize: p.size, sar: 1, orientation: orientation, renderSize: size, fit: .fill)),
                  to: nil, transition: nil, progress: 0, renderSize: size)
    }

    func assertSame(_ a: YUV420Image, _ b: YUV420Image, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for (name, x, y) in [("Y", a.y, b.y), ("Cb", a.cb, b.cb), ("Cr", a.cr, b.cr)] where x != y {
            let i = zip(x, y).enumerated().first { $0.element.0 != $0.element.1 }!.offset
            XCTFail("\(label) \(name): sample \(i) is \(x[i]), composited \(y[i])", file: file, line: line)
        }
    }

    /// All eight matrices, at the upright size and as a centred square crop (4:2:0 chroma included), on both
    /// renderers: the turned, cropped planes equal the composite of the stored picture.
    func testTurnedPlanesEqualTheCompositeForAllEightMatrices() throws {
        let stored = PlanarPictures.textured(24, 16, seed: 21)
        let turner = PictureTurner()
        for r in try renderers() {
            for o in orientations {
                let upright = o.swapsAxes ? PixelSize(width: 16, height: 24) : PixelSize(width: 24, height: 16)
                for size in [upright, PixelSize(width: 16, height: 16), PixelSize(width: upright.width, height: upright.height - 4)] {
                    let label = "\(r.name) \(o) \(size)"
                    let plan = single(stored, size: size, orientation: o)
                    let composited = try r.renderYUV420(plan, pictures: [stored])
                    let route = try XCTUnwrap(DirectFrame.route(plan.passes[0], picture: stored, plan: plan), label)
                    XCTAssertEqual(route.turns, o != .identity, label)
                    let turned = try turner.turned(stored, by: route.turn)
                    XCTAssertEqual(turned.size, upright, label)
                    let after = DirectFrame.uprighted(plan, turn: route.turn, picture: stored)
                    XCTAssertEqual(DirectFrame.route(after.passes[0], picture: turned, plan: after), DirectFrame.Route(turn: .identity, x: route.x, y: route.y), label)
                    assertSame(try XCTUnwrap(DirectFrame.image(after, picture: turned, renderSize: after.renderSize), label), composited, label + " direct")
                    // The renderers given the turned picture and its plan draw the same frame again.
                    assertSame(try r.renderYUV420(after, pictures: [turned]), composited, label + " redrawn")
                }
            }
        }
    }

    /// An overlay above a turned first layer: the first layer taken as turned planes (`basePlanes`) and the overlay
    /// blended inside its rectangle equals the frame whose first layer the renderer draws through the shaders.
    func testOverlayOverATurnedLayerEqualsTheFullComposite() throws {
        let stored = PlanarPictures.textured(24, 16, seed: 22)
        let logo = PlanarPictures.textured(8, 8, seed: 23, colour: YCbCrColour(matrix: .bt601, range: .full))
        let size = PixelSize(width: 16, height: 16)
        let turner = PictureTurner()
        for r in try renderers() {
            for o in orientations where o.swapsAxes || o.isMirrored {
                let base = single(stored, size: size, orientation: o).passes[0]
                let g = LayerGeometry.place(codedSize: logo.size, sar: 1, orientation: .identity, renderSize: size, fit: .fill,
                                            transform: LayerTransform(x: 0.7, y: 0.3, scale: 0.3))!
                var over = LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: g.outputToSource)
                over.bounds = g.bounds
                over.opacity = 0.6
                let plan = FramePlan(frame: 0, time: .zero, renderSize: size, passes: [
                    base, CompositePass(track: 1, from: over, to: nil, transition: nil, progress: 0, rect: g.bounds.evenAligned.intersection(PixelRect(size)))])
                XCTAssertNil(DirectFrame.basePlanes(plan, picture: stored), "a turned layer is drawn unless turned first")
                let drawn = try r.renderYUV420(plan, pictures: [stored, logo])
                let route = try XCTUnwrap(DirectFrame.route(plan.passes[0], picture: stored, plan: plan))
                let turned = try turner.turned(stored, by: route.turn)
                let after = DirectFrame.uprighted(plan, turn: route.turn, picture: stored)
                let planes = try XCTUnwrap(DirectFrame.basePlanes(after, picture: turned))
                assertSame(try r.renderYUV420(after, pictures: [turned, logo], base: planes), drawn, "\(r.name) \(o)")
                assertSame(try r.renderYUV420(after, pictures: [turned, logo]), drawn, "\(r.name) \(o) every pass drawn")
            }
        }
    }

    /// What stays composited: odd crop offsets, odd sides of a turned picture, scaling, and non-4:2:0 pictures.
    func testRoutesOnlyWherePlanesTurnExactly() throws {
        let cw = Orientation(a: 0, b: 1, c: -1, d: 0)
        let p = PlanarPictures.textured(24, 16, seed: 24)
        // 24 − 14 = 10 rows cropped of the upright 16×24: 5 on each side, odd.
        let odd = single(p, size: PixelSize(width: 16, height: 14), orientation: cw)
        XCTAssertNil(DirectFrame.route(odd.passes[0], picture: p, plan: odd))
        let oddSide = PlanarPictures.textured(24, 15, seed: 24)
        let s = single(oddSide, size: PixelSize(width: 14, height: 24), orientation: cw)
        XCTAssertNil(DirectFrame.route(s.passes[0], picture: oddSide, plan: s))
        let scaled = single(p, size: PixelSize(width: 8, height: 12), orientation: cw)
        XCTAssertNil(DirectFrame.route(scaled.passes[0], picture: p, plan: scaled))
        let p422 = PlanarPictures.textured(24, 16, shiftY: 0, seed: 24)
        let full = single(p422, size: PixelSize(width: 16, height: 24), orientation: cw)
        XCTAssertNil(DirectFrame.route(full.passes[0], picture: p422, plan: full))
        // The identity keeps the crop path as it was (no turn).
        let plain = single(p, size: PixelSize(width: 16, height: 16), orientation: .identity)
        XCTAssertEqual(DirectFrame.route(plain.passes[0], picture: p, plan: plain), DirectFrame.Route(turn: .identity, x: 4, y: 0))
        XCTAssertEqual(PictureTurner.filters(cw), "transpose=dir=2")
    }
}
