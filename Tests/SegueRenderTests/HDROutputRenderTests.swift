import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// HDR output (BT.2020, 10-bit, HLG or PQ) on both renderers: an untouched HDR picture comes out with its own planes,
/// SDR white lands at BT.2408's reference white, HLG and PQ convert into each other through display light, and the
/// GPU matches the CPU reference.
final class HDROutputRenderTests: RendererTestCase {
    let hlg = YCbCrColour(matrix: .bt2020, range: .limited, transfer: .hlg, primaries: .bt2020)
    let pq = YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020)

    func flat10(_ y: Int, colour: YCbCrColour, cb: Int = 512, cr: Int = 512) -> VideoPicture {
        PlanarPictures.planar(4, 4, bitDepth: 10, colour: colour, y: { _, _ in y }, cb: { _, _ in cb }, cr: { _, _ in cr })
    }
    func sdrFlat(_ y: Int) -> VideoPicture { PlanarPictures.planar(4, 4, y: { _, _ in y }, cb: { _, _ in 128 }, cr: { _, _ in 128 }) }

    /// Renders `picture` alone at 4×4 into `range` and returns the 10-bit code of luma sample 5 and of Cb, Cr sample 1.
    /// (Expected codes below allow ±1: the shaders' `pow`, `exp` and `log` are single precision, a tenth of a 10-bit code.)
    func codes(_ r: CompositeRenderer, _ picture: VideoPicture, _ range: DynamicRange, curve: ToneMapCurve = .bt2390) throws -> (Int, Int, Int) {
        let size = PixelSize(width: 4, height: 4)
        var plan = self.plan(nil, progress: 0, size: size)
        plan.colour = OutputColour(dynamicRange: range, toneMap: curve)
        let out = try r.renderYUV420(plan, from: picture, to: nil, renderSize: size)
        XCTAssertEqual(out.bitDepth, 10)
        return (YUV420Image.sample(out.y, 5, bitDepth: 10), YUV420Image.sample(out.cb, 1, bitDepth: 10), YUV420Image.sample(out.cr, 1, bitDepth: 10))
    }

    func testUntouchedHDRPictureKeepsItsPlanes() throws {
        let base = PlanarPictures.textured(24, 16, seed: 21).planes.map { $0.bytes }
        for (colour, range) in [(hlg, DynamicRange.hlg), (pq, .pq)] {
            let p = PlanarPictures.planar(24, 16, bitDepth: 10, colour: colour, y: { x, y in 4 * Int(base[0][y * 24 + x]) + (x & 3) },
                                          cb: { x, y in 4 * Int(base[1][y * 12 + x]) + 1 }, cr: { x, y in 4 * Int(base[2][y * 12 + x]) + 2 })
            for r in try renderers() {
                let size = PixelSize(width: 24, height: 16)
                var plan = self.plan(nil, progress: 0, size: size)
                plan.colour = OutputColour(dynamicRange: range)
                let out = try r.renderYUV420(plan, from: p, to: nil, renderSize: size)
                XCTAssertEqual(out.bitDepth, 10)
                XCTAssertEqual(out.y, p.planes[0].bytes, "\(r.name) \(range) Y")
                XCTAssertEqual(out.cb, p.planes[1].bytes, "\(r.name) \(range) Cb")
                XCTAssertEqual(out.cr, p.planes[2].bytes, "\(r.name) \(range) Cr")
            }
        }
    }

    /// BT.2408: SDR white (BT.1886, 100 %) is HDR reference white, 203 cd/m²: 75 % HLG (code 721), 58 % PQ (573).
    func testSDRWhiteLandsAtReferenceWhite() throws {
        for r in try renderers() {
            XCTAssertEqual(try codes(r, sdrFlat(235), .hlg).0, 721, "\(r.name) HLG")
            XCTAssertEqual(try codes(r, sdrFlat(235), .pq).0, HDRReference.code10(HDRReference.pq(203)), "\(r.name) PQ")
            XCTAssertEqual(HDRReference.code10(HDRReference.pq(203)), 573)
            let (y, cb, cr) = try codes(r, sdrFlat(16), .hlg)
            XCTAssertEqual([y, cb, cr], [64, 512, 512], "\(r.name) black")
            // Mid grey: BT.1886 → 203·0.5^2.4 cd/m² → HLG.
            let grey = 16 + 219 / 2, light = 203 * pow(Double(219 / 2) / 219, 2.4)
            XCTAssertEqual(Double(try codes(r, sdrFlat(grey), .hlg).0), 64 + 876 * HDRReference.hlgSignal(ofGreyNits: light), accuracy: 1, "\(r.name) grey in HLG")
            XCTAssertEqual(Double(try codes(r, sdrFlat(grey), .pq).0), 64 + 876 * HDRReference.pq(light), accuracy: 1, "\(r.name) grey in PQ")
        }
    }

    /// HLG in a PQ edit shows the light it would on the 1000 cd/m² display; PQ in an HLG edit too, tone-mapped with the
    /// edit's curve when it is brighter than 1000 cd/m².
    func testHLGAndPQConvertThroughDisplayLight() throws {
        for r in try renderers() {
            for signal in [0.3, 0.5, 0.75, 0.9] {
                let code = HDRReference.code10(signal)
                let nits = HDRReference.hlgGrey(Double(code - 64) / 876)
                XCTAssertEqual(Double(try codes(r, flat10(code, colour: hlg), .pq).0), 64 + 876 * HDRReference.pq(nits), accuracy: 1, "\(r.name) HLG \(signal) in PQ")
            }
            for nits in [50.0, 203, 1000] {
                let code = HDRReference.code10(HDRReference.pq(nits)), shown = HDRReference.pqInverse(Double(code - 64) / 876)
                XCTAssertEqual(Double(try codes(r, flat10(code, colour: pq), .hlg).0), 64 + 876 * HDRReference.hlgSignal(ofGreyNits: shown),
                               accuracy: 1, "\(r.name) PQ \(nits) cd/m² in HLG")
            }
            // A 4000 cd/m² master: 2000 cd/m² goes through BT.2390 from 4000 to 1000 cd/m².
            let bright = YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020, peakLuminance: 4000)
            let code = HDRReference.code10(HDRReference.pq(2000)), shown = HDRReference.pqInverse(Double(code - 64) / 876)
            let mapped = HDRReference.bt2390(shown, source: 4000, target: 1000)
            XCTAssertEqual(Double(try codes(r, flat10(code, colour: bright), .hlg).0), 64 + 876 * HDRReference.hlgSignal(ofGreyNits: mapped),
                           accuracy: 1, "\(r.name) PQ 2000 of 4000 cd/m² in HLG")
        }
    }

    /// GPU against CPU into HLG and PQ: HDR and SDR pictures mixed, resampled and rotated, every transition;
    /// 10-bit planes within 45 dB (of 1023), no sample more than 32 codes (8 at 8 bits) apart.
    func testGPUMatchesCPUOnHDROutput() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let base = PlanarPictures.textured(48, 32, seed: 13).planes.map { $0.bytes }
        let hlgPicture = PlanarPictures.planar(48, 32, bitDepth: 10, colour: hlg, y: { x, y in 4 * Int(base[0][y * 48 + x]) + (x & 3) },
                                               cb: { x, y in 4 * Int(base[1][y * 24 + x]) }, cr: { x, y in 4 * Int(base[2][y * 24 + x]) })
        let pqPicture = PlanarPictures.planar(48, 32, bitDepth: 10, colour: YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020, peakLuminance: 3000),
                                              y: { x, y in 4 * Int(base[0][y * 48 + x]) }, cb: { x, y in 4 * Int(base[2][y * 24 + x]) }, cr: { x, y in 4 * Int(base[1][y * 24 + x]) })
        let sdr = PlanarPictures.textured(30, 40, seed: 14)
        let size = PixelSize(width: 40, height: 30)
        let ccw = Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])
        var worst = Double.infinity, count = 0
        // Every transition into HLG with an HLG and an SDR layer, and the other pairings once each (every new layer
        // combination is a shader program for llvmpipe to compile).
        let cases: [(DynamicRange, VideoPicture, VideoPicture, Transition.Kind?, Transition.Direction?)] = [
            (.hlg, hlgPicture, sdr, nil, nil), (.hlg, hlgPicture, sdr, .crossfade, nil), (.hlg, hlgPicture, sdr, .push, .up),
            (.hlg, hlgPicture, sdr, .wipe, .left), (.hlg, sdr, pqPicture, .crossfade, nil), (.hlg, pqPicture, hlgPicture, .wipe, .left),
            (.pq, hlgPicture, sdr, .crossfade, nil), (.pq, sdr, pqPicture, nil, nil), (.pq, pqPicture, hlgPicture, .push, .up),
            (.pq, pqPicture, sdr, .wipe, .left)]
        for (range, from, to, kind, dir) in cases {
            var plan = FramePlan(frame: 0, time: .zero,
                from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: from.size, sar: 1, orientation: ccw, renderSize: size, fit: .fill)),
                to: kind == nil ? nil : LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: to.size, sar: 1, orientation: .identity, renderSize: size, fit: .fit)),
                transition: kind.map { Transition(kind: $0, duration: MediaTime(value: 1, timescale: 1), direction: dir) }, progress: 0.61)
            plan.colour = OutputColour(dynamicRange: range)
            let toPicture = kind == nil ? nil : to
            let label = "\(range): \(from.colour.transfer) → \(to.colour.transfer) \(kind?.rawValue ?? "none")"
            let g = try gpu.renderYUV420(plan, from: from, to: toPicture, renderSize: size)
            let c = try cpu.renderYUV420(plan, from: from, to: toPicture, renderSize: size)
            XCTAssertEqual(g.bitDepth, 10)
            for (name, x, y) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                let d = PlaneDifference(x, y, bitDepth: 10)
                worst = min(worst, d.psnr)
                XCTAssertTrue(d.psnr >= 45 && d.maxAbsDifference <= 32, "\(label) \(name): \(d)")
            }
            count += 1
        }
        print(String(format: "HDR output, GPU vs CPU: worst plane %.2f dB over %d plans", worst, count))
    }
}
