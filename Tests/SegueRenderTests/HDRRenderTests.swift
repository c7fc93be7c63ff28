import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// HDR pictures (10-bit BT.2020 HLG and PQ) on both renderers: known greys land where BT.2100 and each tone curve
/// put them, HDR layers are not fused (the composite mixes SDR R′G′B′), and the GPU matches the CPU reference.
final class HDRRenderTests: RendererTestCase {
    let hlg = YCbCrColour(matrix: .bt2020, range: .limited, transfer: .hlg, primaries: .bt2020)
    let pq = YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020)

    /// A flat 10-bit picture of one Y′CbCr value.
    func flat(_ w: Int, _ h: Int, y: Int, cb: Int = 512, cr: Int = 512, colour: YCbCrColour) -> VideoPicture {
        PlanarPictures.planar(w, h, bitDepth: 10, colour: colour, y: { _, _ in y }, cb: { _, _ in cb }, cr: { _, _ in cr })
    }

    /// An HLG grey: luma code `Y` → signal (Y − 64)/876 → display light (BT.2100 OOTF, 1000 cd/m²) → the curve →
    /// BT.1886⁻¹ → 8-bit luma, on both renderers, for every curve; chroma stays neutral.
    func testHLGGreysLandWhereTheCurveSays() throws {
        let size = PixelSize(width: 4, height: 4)
        for r in try renderers() {
            for curve in ToneMapCurve.allCases {
                for code in [128, 300, 500, 721, 940] {
                    let p = flat(4, 4, y: code, colour: hlg)
                    var plan = self.plan(nil, progress: 0, size: size)
                    plan.colour = OutputColour(dynamicRange: .sdr, toneMap: curve)
                    let out = try r.renderYUV420(plan, from: p, to: nil, renderSize: size)
                    let e = HDRReference.sdrLumaOfHLGGrey(Double(code - 64) / 876, curve: curve)
                    XCTAssertEqual(Double(out.y[5]), e, accuracy: 0.6, "\(r.name) \(curve) HLG luma \(code)")
                    XCTAssertEqual(Int(out.cb[1]), 128, "\(r.name) \(curve) \(code) Cb")
                    XCTAssertEqual(Int(out.cr[1]), 128, "\(r.name) \(curve) \(code) Cr")
                }
            }
        }
    }

    /// PQ greys: ST 2084 EOTF → cd/m² → the curve from 1000 cd/m² (no metadata), or from the content's MaxCLL.
    func testPQGreysLandWhereTheCurveSays() throws {
        let size = PixelSize(width: 4, height: 4)
        for r in try renderers() {
            for (peak, colour) in [(1000.0, pq), (4000.0, YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020, peakLuminance: 4000))] {
                for nits in [10.0, 100, 203, 600] {
                    let code = Int((64 + 876 * HDRReference.pq(nits)).rounded())
                    let shown = HDRReference.pqInverse(Double(code - 64) / 876)
                    let out = try r.renderYUV420(plan(nil, progress: 0, size: size), from: flat(4, 4, y: code, colour: colour), to: nil, renderSize: size)
                    let e = 16 + 219 * pow(HDRReference.curve(.bt2390, shown / 100, peak: peak / 100), 1 / 2.4)
                    XCTAssertEqual(Double(out.y[5]), e, accuracy: 0.6, "\(r.name) PQ \(nits) cd/m², peak \(peak)")
                }
            }
        }
    }

    /// HDR layers are tone-mapped on their own and then mixed as SDR R′G′B′: a crossfade halfway between an SDR grey
    /// (R′G′B′ 0.5) and an HLG reference white (BT.2390: 0.949) is their mean, in the luma and the preview alike.
    func testHDRLayerMixesAsSDRInATransition() throws {
        let size = PixelSize(width: 4, height: 4)
        let sdr = PlanarPictures.planar(4, 4, y: { _, _ in 16 + 219 / 2 }, cb: { _, _ in 128 }, cr: { _, _ in 128 })   // Y′ = 0.4977
        let white = flat(4, 4, y: 721, colour: hlg)
        let hdrValue = (HDRReference.sdrLumaOfHLGGrey(657.0 / 876, curve: .bt2390) - 16) / 219
        let sdrValue = 109.0 / 219
        for r in try renderers() {
            for (from, to, label) in [(sdr, white, "SDR → HLG"), (white, sdr, "HLG → SDR")] {
                let out = try r.renderYUV420(plan(.crossfade, progress: 0.5, size: size), from: from, to: to, renderSize: size)
                XCTAssertEqual(Double(out.y[5]), 16 + 219 * (sdrValue + hdrValue) / 2, accuracy: 0.6, "\(r.name) \(label)")
                let rgba = try r.render(plan(.crossfade, progress: 0.5, size: size), from: from, to: to, renderSize: size)
                XCTAssertEqual(Double(rgba.pixel(1, 1).0), 255 * (sdrValue + hdrValue) / 2, accuracy: 0.6, "\(r.name) \(label) preview")
            }
        }
    }

    /// A saturated BT.2020 colour outside BT.709 keeps its hue: only the saturation drops (its R′G′B′ come out with the
    /// same order and no component clipped to 0 but the one the gamut forces), on both renderers, equal within rounding.
    func testOutOfGamutColourKeepsItsHue() throws {
        let size = PixelSize(width: 4, height: 4)
        // BT.2020 green at 50 % HLG: (R', G', B') = (0, 0.5, 0) → Y′CbCr in the BT.2020 matrix, 10-bit limited.
        let kr = 0.2627, kb = 0.0593, g = 0.5
        let y = (1 - kr - kb) * g, cb = (0 - y) / (2 * (1 - kb)), cr = (0 - y) / (2 * (1 - kr))
        let p = flat(4, 4, y: Int((64 + 876 * y).rounded()), cb: Int((512 + 896 * cb).rounded()), cr: Int((512 + 896 * cr).rounded()), colour: hlg)
        var images: [RGBAImage] = []
        for r in try renderers() {
            let img = try r.render(plan(nil, progress: 0, size: size), from: p, to: nil, renderSize: size)
            let (R, G, B, _) = img.pixel(1, 1)
            XCTAssertGreaterThan(G, 100, "\(r.name): still green")
            XCTAssertEqual(min(R, B), 0, "\(r.name): on the gamut's edge")
            XCTAssertGreaterThan(max(R, B), 0, "\(r.name): desaturated towards grey, not clipped")
            images.append(img)
        }
        if images.count == 2 { XCTAssertLessThanOrEqual(PlaneDifference(images[0].pixels, images[1].pixels).maxAbsDifference, 1) }
    }

    /// GPU against CPU on textured 10-bit HLG and PQ pictures, mixed with SDR ones, through resampling, rotation and
    /// every transition, in every output pass: ≥ 45 dB, no sample more than a few levels apart.
    func testGPUMatchesCPUOnHDRPictures() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let base = PlanarPictures.textured(48, 32, seed: 11).planes.map { $0.bytes }
        func tenBit(_ colour: YCbCrColour) -> VideoPicture {
            PlanarPictures.planar(48, 32, bitDepth: 10, colour: colour, y: { x, y in 4 * Int(base[0][y * 48 + x]) + (x & 3) },
                                  cb: { x, y in 4 * Int(base[1][y * 24 + x]) }, cr: { x, y in 4 * Int(base[2][y * 24 + x]) })
        }
        let hlgPicture = tenBit(hlg), pqPicture = tenBit(YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020, peakLuminance: 2000))
        let sdr = PlanarPictures.textured(30, 40, seed: 12)
        let size = PixelSize(width: 40, height: 30)
        let ccw = Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])
        // Every curve on each HDR picture alone; every transition with the default curve (each new combination is a
        // shader program to compile, which llvmpipe takes about half a second for).
        var cases: [(ToneMapCurve, VideoPicture, VideoPicture, Transition.Kind?, Transition.Direction?)] = []
        for curve in ToneMapCurve.allCases { cases += [(curve, hlgPicture, sdr, nil, nil), (curve, pqPicture, sdr, nil, nil)] }
        for (from, to) in [(hlgPicture, sdr), (sdr, pqPicture), (hlgPicture, pqPicture)] {
            cases += [(.bt2390, from, to, .crossfade, nil), (.bt2390, from, to, .push, .left), (.bt2390, from, to, .wipe, .downRight)]
        }
        var worst = Double.infinity
        for (curve, from, to, kind, dir) in cases {
            var plan = FramePlan(frame: 0, time: .zero,
                from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: from.size, sar: 1, orientation: ccw, renderSize: size, fit: .fill)),
                to: kind == nil ? nil : LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: to.size, sar: 1, orientation: .identity, renderSize: size, fit: .fit)),
                transition: kind.map { Transition(kind: $0, duration: MediaTime(value: 1, timescale: 1), direction: dir) }, progress: 0.37)
            plan.colour = OutputColour(dynamicRange: .sdr, toneMap: curve)
            let label = "\(curve) \(from.colour.transfer) → \(to.colour.transfer) \(kind?.rawValue ?? "none")"
            let toPicture = kind == nil ? nil : to
            let g = try gpu.renderYUV420(plan, from: from, to: toPicture, renderSize: size)
            let c = try cpu.renderYUV420(plan, from: from, to: toPicture, renderSize: size)
            for (name, x, y) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                let d = PlaneDifference(x, y)
                worst = min(worst, d.psnr)
                XCTAssertTrue(d.psnr >= 45 && d.maxAbsDifference <= 8, "\(label) \(name): \(d)")
            }
            let d = PlaneDifference(try cpu.render(plan, from: from, to: toPicture, renderSize: size).pixels,
                                    try gpu.render(plan, from: from, to: toPicture, renderSize: size).pixels)
            XCTAssertTrue(d.psnr >= 45 && d.maxAbsDifference <= 8, "\(label) RGBA: \(d)")
        }
        print(String(format: "HDR pictures, GPU vs CPU: worst plane %.2f dB over %d plans", worst, cases.count))
    }
}
