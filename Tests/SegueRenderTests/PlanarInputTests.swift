import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// Y′CbCr pictures in (planar 8/10-bit, NV12/NV21, 4:2:0/4:2:2/4:4:4), BT.709 limited 4:2:0 out, on both renderers.
final class PlanarInputTests: RendererTestCase {
    let cw = Orientation(displayMatrix: [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30])    // rotation -90
    let ccw = Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])   // rotation 90
    let half = Orientation(displayMatrix: [-65536, 0, 0, 0, -65536, 0, 0, 0, 1 << 30]) // rotation 180

    func layer(_ clip: Int, _ p: VideoPicture, size: PixelSize, orientation: Orientation = .identity, sar: Double = 1, fit: FitMode = .fill) -> LayerPlan {
        LayerPlan(clipIndex: clip, sourceTime: .zero,
                  outputToSource: LayerGeometry.outputToSource(codedSize: p.size, sar: sar, orientation: orientation, renderSize: size, fit: fit))
    }

    func single(_ p: VideoPicture, size: PixelSize, orientation: Orientation = .identity, fit: FitMode = .fill) -> FramePlan {
        FramePlan(frame: 0, time: .zero, from: layer(0, p, size: size, orientation: orientation, fit: fit), to: nil, transition: nil, progress: 0)
    }

    func assertPlanes(_ out: YUV420Image, _ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for (name, got, want) in [("Y", out.y, y), ("Cb", out.cb, cb), ("Cr", out.cr, cr)] where got != want {
            let i = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }!.offset
            XCTFail("\(label) \(name): sample \(i) is \(got[i]), expected \(want[i]); got \(got), expected \(want)", file: file, line: line)
        }
    }

    func testUntouchedPictureComesBackExactly() throws {
        let size = PixelSize(width: 16, height: 8)
        let a = PlanarPictures.textured(16, 8, seed: 1), b = PlanarPictures.textured(16, 8, seed: 2)
        // Super-black and super-white codes survive too: nothing is clamped between the two conversions.
        let extremes = PlanarPictures.planar(16, 8, y: { x, _ in x * 17 }, cb: { x, y in 1 + x * 36 + (y & 1) }, cr: { x, _ in 254 - x * 30 })
        for r in try renderers() {
            for p in [a, extremes] {
                let (y, cb, cr) = PlanarPictures.planes(p)
                assertPlanes(try r.renderYUV420(single(p, size: size), from: p, to: nil, renderSize: size), y, cb, cr, "\(r.name) identity")
            }
            // A wipe keeps both layers exact: A where x ≥ p·W (columns 8…15, chroma columns 4…7), B elsewhere.
            let plan = FramePlan(frame: 0, time: .zero, from: layer(0, a, size: size), to: layer(1, b, size: size),
                                 transition: Transition(kind: .wipe, duration: MediaTime(value: 1, timescale: 1), direction: .right), progress: 0.5)
            let out = try r.renderYUV420(plan, from: a, to: b, renderSize: size)
            func pick(_ pa: [UInt8], _ pb: [UInt8], _ w: Int, _ edge: Int) -> [UInt8] { pa.indices.map { $0 % w >= edge ? pa[$0] : pb[$0] } }
            assertPlanes(out, pick(a.planes[0].bytes, b.planes[0].bytes, 16, 8), pick(a.planes[1].bytes, b.planes[1].bytes, 8, 4),
                         pick(a.planes[2].bytes, b.planes[2].bytes, 8, 4), "\(r.name) wipe right p=0.5")
        }
    }

    func testQuarterTurnsAndCentredCropArePlanePermutations() throws {
        let p = PlanarPictures.textured(8, 4, seed: 3)
        let (y, cb, cr) = PlanarPictures.planes(p)
        // out(x, y) = stored(fx(x, y), fy(x, y)) on both the luma plane (8×4) and the chroma plane (4×2).
        func permuted(_ plane: [UInt8], _ w: Int, _ h: Int, _ ow: Int, _ oh: Int, _ f: (Int, Int, Int, Int) -> (Int, Int)) -> [UInt8] {
            var out: [UInt8] = []
            for j in 0..<oh { for i in 0..<ow { let (sx, sy) = f(i, j, w, h); out.append(plane[sy * w + sx]) } }
            return out
        }
        let cases: [(String, Orientation, (Int, Int, Int, Int) -> (Int, Int))] = [
            ("rotation -90", cw, { x, y, _, h in (y, h - 1 - x) }),
            ("rotation 90", ccw, { x, y, w, _ in (w - 1 - y, x) }),
            ("rotation 180", half, { x, y, w, h in (w - 1 - x, h - 1 - y) }),
        ]
        for r in try renderers() {
            for (label, o, f) in cases {
                let size = o.swapsAxes ? PixelSize(width: 4, height: 8) : PixelSize(width: 8, height: 4)
                let out = try r.renderYUV420(single(p, size: size, orientation: o), from: p, to: nil, renderSize: size)
                assertPlanes(out, permuted(y, 8, 4, size.width, size.height, f), permuted(cb, 4, 2, size.width / 2, size.height / 2, f),
                             permuted(cr, 4, 2, size.width / 2, size.height / 2, f), "\(r.name) \(label)")
            }
            // Centred square crop of 12×4 at scale 1: columns 4…7 (chroma 2…3).
            let wide = PlanarPictures.textured(12, 4, seed: 4)
            let sq = PixelSize(width: 4, height: 4)
            let out = try r.renderYUV420(single(wide, size: sq), from: wide, to: nil, renderSize: sq)
            let crop = { (pl: [UInt8], w: Int, x0: Int, cw: Int) in pl.indices.filter { $0 % w >= x0 && $0 % w < x0 + cw }.map { pl[$0] } }
            assertPlanes(out, crop(wide.planes[0].bytes, 12, 4, 4), crop(wide.planes[1].bytes, 6, 2, 2), crop(wide.planes[2].bytes, 6, 2, 2),
                         "\(r.name) square crop")
        }
    }

    func testExactLayersAreDetected() {
        let p = PlanarPictures.textured(12, 4, seed: 5)
        let plan = single(p, size: PixelSize(width: 4, height: 4))
        XCTAssertTrue(TransitionParameters.isExact(plan, plan.from, picture: p))
        XCTAssertTrue(LayerGeometry.isPixelExact(layer(0, p, size: PixelSize(width: 4, height: 12), orientation: cw).outputToSource, codedSize: p.size))
        // An odd crop offset (13 − 4 = 9 columns, 4.5 each side) lands between texels: not exact.
        let odd = PlanarPictures.textured(13, 4, seed: 5)
        XCTAssertFalse(LayerGeometry.isPixelExact(layer(0, odd, size: PixelSize(width: 4, height: 4)).outputToSource, codedSize: odd.size))
        XCTAssertFalse(LayerGeometry.isPixelExact(layer(0, p, size: PixelSize(width: 24, height: 8)).outputToSource, codedSize: p.size))
        let push = FramePlan(frame: 0, time: .zero, from: plan.from, to: plan.from,
                             transition: Transition(kind: .push, duration: MediaTime(value: 1, timescale: 1), direction: .left), progress: 0.3)
        XCTAssertFalse(TransitionParameters.isExact(push, push.from, picture: p))
        // 4:2:2 and 4:4:4 pictures keep filtered reads: their chroma is averaged down to the output's 4:2:0.
        XCTAssertFalse(TransitionParameters.isExact(plan, plan.from, picture: PlanarPictures.textured(12, 4, shiftY: 0, seed: 5)))
        XCTAssertFalse(TransitionParameters.isExact(plan, plan.from, picture: PlanarPictures.textured(12, 4, shiftX: 0, shiftY: 0, seed: 5)))
    }

    func testPlanarAndSemiPlanarLayoutsAgree() throws {
        let p = PlanarPictures.textured(24, 18, seed: 6)
        let small = PixelSize(width: 20, height: 14), same = PixelSize(width: 24, height: 18)
        let plans = [(single(p, size: small), small), (single(p, size: small, orientation: ccw, fit: .fit), small), (single(p, size: same), same)]
        for r in try renderers() {
            for (plan, size) in plans {
                let ref = try r.renderYUV420(plan, from: p, to: nil, renderSize: size)
                for (name, q) in [("nv12", PlanarPictures.semiPlanar(p)), ("nv21", PlanarPictures.semiPlanar(p, swapped: true))] {
                    let out = try r.renderYUV420(plan, from: q, to: nil, renderSize: size)
                    for (plane, a, b) in [("Y", ref.y, out.y), ("Cb", ref.cb, out.cb), ("Cr", ref.cr, out.cr)] {
                        XCTAssertLessThanOrEqual(PlaneDifference(a, b).maxAbsDifference, 1, "\(r.name) \(name) \(plane) \(size)")
                    }
                }
            }
        }
    }

    /// The fused passes (output conversion folded into the layers) and the general ones (composite in R′G′B′,
    /// converted per sample, as a transition that is not affine in colour gets) draw the same frames.
    func testFusedAndGeneralPassesAgree() throws {
        let a = PlanarPictures.textured(24, 18, seed: 10)
        let b = PlanarPictures.textured(18, 24, seed: 11, colour: YCbCrColour(matrix: .bt601, range: .full))
        let size = PixelSize(width: 20, height: 16)
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        defer { gpu.fuseColour = true }
        for r in [cpu, gpu] as [CompositeRenderer] {
            for (kind, dir) in TransitionTable.sample where kind.traits.mixesColoursOnly {
                let plan = FramePlan(frame: 0, time: .zero, from: layer(0, a, size: size), to: layer(1, b, size: size, orientation: ccw, fit: .fit),
                                     transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: dir), progress: 0.6)
                (r as? GPURenderer)?.fuseColour = true; (r as? ReferenceRenderer)?.fuseColour = true
                let fused = try r.renderYUV420(plan, from: a, to: b, renderSize: size)
                (r as? GPURenderer)?.fuseColour = false; (r as? ReferenceRenderer)?.fuseColour = false
                let general = try r.renderYUV420(plan, from: a, to: b, renderSize: size)
                for (name, x, y) in [("Y", fused.y, general.y), ("Cb", fused.cb, general.cb), ("Cr", fused.cr, general.cr)] {
                    XCTAssertLessThanOrEqual(PlaneDifference(x, y).maxAbsDifference, 1, "\(r.name) \(kind.rawValue) \(name)")
                }
            }
        }
    }
}
