import XCTest
@testable import SegueCore
import SegueTestSupport

/// The colour pipeline's stages against the standards' own numbers: BT.2100 HLG, SMPTE ST 2084 PQ, BT.1886,
/// BT.2087 primaries, BT.2408 reference white. Expected values are the standards' (or computed here from their
/// formulas in `Double`), never Segue's own output.
final class TransferFunctionTests: XCTestCase {
    func testHLGInverseOETFAtKnownPoints() {
        // BT.2100 Table 5: E' = 1/2 is E = 1/12 (the segment boundary), E' = 1 is E = 1; the curve is continuous.
        XCTAssertEqual(HLG.inverseOETF(0.5), 1.0 / 12, accuracy: 1e-12)
        XCTAssertEqual(HLG.inverseOETF(1.0), 1.0, accuracy: 1e-6)
        XCTAssertEqual(HLG.inverseOETF(0.25), 0.25 * 0.25 / 3, accuracy: 1e-12)
        XCTAssertEqual(HLG.inverseOETF(0.5 + 1e-9), 1.0 / 12, accuracy: 1e-8)
        XCTAssertEqual(HLG.inverseOETF(-0.1), 0)
        // b = 1 − 4a, c = 0.5 − a·ln(4a).
        XCTAssertEqual(HLG.b, 1 - 4 * HLG.a, accuracy: 1e-8)
        XCTAssertEqual(HLG.c, 0.5 - HLG.a * log(4 * HLG.a), accuracy: 1e-8)
        for e in stride(from: 0.0, through: 1.0, by: 0.05) {
            XCTAssertEqual(HLG.oetf(HLG.inverseOETF(e)), e, accuracy: 1e-9, "OETF ∘ OETF⁻¹ at \(e)")
        }
        // The Float twin (what the CPU reference runs) agrees.
        XCTAssertEqual(Double(HLG.inverseOETF(Float(0.75))), HLG.inverseOETF(0.75), accuracy: 1e-6)
    }

    func testHLGReferenceWhiteIs203CdM2() {
        // BT.2408-7: 75 % HLG on a 1000 cd/m² display (γ = 1.2) is 203 cd/m².
        let e = HLG.inverseOETF(HLG.referenceWhiteSignal)
        let fd = HLG.nominalPeak * HLG.ootf(SIMD3(repeating: e))
        XCTAssertEqual(fd.x, 203, accuracy: 0.5)
        XCTAssertEqual(fd.y, fd.x, accuracy: 1e-9)
        // The OOTF acts on luminance: a colour keeps its component ratios (BT.2100: F_D = α·Y_S^(γ−1)·E).
        let c = SIMD3(0.3, 0.1, 0.05)
        let f = HLG.ootf(c)
        XCTAssertEqual(f.x / f.y, 3, accuracy: 1e-12)
        XCTAssertEqual(f.x, 0.3 * pow(0.2627 * 0.3 + 0.6780 * 0.1 + 0.0593 * 0.05, 0.2), accuracy: 1e-12)
        // And the inverse OOTF undoes it.
        let back = HLG.inverseOOTF(f)
        XCTAssertEqual(back.x, c.x, accuracy: 1e-12)
        XCTAssertEqual(back.z, c.z, accuracy: 1e-12)
    }

    func testPQAtKnownLuminances() {
        // BT.2408-7 Table: 100 cd/m² is PQ 51 % (0.5081), 203 cd/m² 58 % (0.5807), 1000 cd/m² 75 % (0.7518).
        XCTAssertEqual(PQ.inverseEOTF(100 / PQ.peak), 0.508078, accuracy: 1e-5)
        XCTAssertEqual(PQ.inverseEOTF(203 / PQ.peak), 0.580689, accuracy: 1e-5)
        XCTAssertEqual(PQ.inverseEOTF(1000 / PQ.peak), 0.751827, accuracy: 1e-5)
        XCTAssertEqual(PQ.inverseEOTF(0.0), pow(PQ.c1, PQ.m2), accuracy: 1e-12)   // 7.3e-7: ST 2084's black
        XCTAssertEqual(PQ.inverseEOTF(1.0), 1, accuracy: 1e-12)
        XCTAssertEqual(PQ.eotf(1.0), 1, accuracy: 1e-12)
        XCTAssertEqual(PQ.eotf(0.0), 0)
        for l in [0.005, 1, 48, 100, 203, 1000, 4000] {
            XCTAssertEqual(PQ.eotf(PQ.inverseEOTF(l / PQ.peak)) * PQ.peak, l, accuracy: l * 1e-9, "EOTF ∘ EOTF⁻¹ at \(l) cd/m²")
        }
        // The constants as ST 2084 writes them.
        XCTAssertEqual(PQ.m1, 0.1593017578125)
        XCTAssertEqual(PQ.m2, 78.84375)
        XCTAssertEqual(PQ.c1, 0.8359375)
        XCTAssertEqual(PQ.c2, 18.8515625)
        XCTAssertEqual(PQ.c3, 18.6875)
    }

    func testBT1886IsAPureGammaOf2Point4() {
        XCTAssertEqual(BT1886.eotf(0.5), pow(0.5, 2.4), accuracy: 1e-15)
        XCTAssertEqual(BT1886.inverseEOTF(0.18), pow(0.18, 1 / 2.4), accuracy: 1e-15)
        // Below 0 the curve is mirrored (linear-light mixing keeps out-of-gamut R′G′B′); the colour stage clamps first.
        XCTAssertEqual(BT1886.eotf(-0.1), -pow(0.1, 2.4), accuracy: 1e-15)
        XCTAssertEqual(BT1886.inverseEOTF(-0.18), -pow(0.18, 1 / 2.4), accuracy: 1e-15)
    }

    /// The output's EOTF (linear-light mixing in each output signal): SDR white, HLG 75 % (HDR reference white, 203 of
    /// 1000 cd/m² on the reference display) and PQ's 58 % code land where the standards put them, and every signal,
    /// out-of-gamut values below 0 and above 1 included, comes back through the inverse.
    func testOutputEOTFsMatchTheStandardsAndRoundTrip() {
        XCTAssertEqual(DynamicRange.sdr.eotf(SIMD3<Float>(repeating: 1)).x, 1)
        XCTAssertEqual(Double(DynamicRange.hlg.eotf(SIMD3<Float>(repeating: 0.75)).x) * HLG.nominalPeak, 203, accuracy: 1.5)
        XCTAssertEqual(Double(DynamicRange.pq.eotf(SIMD3<Float>(repeating: 0.5807)).x) * PQ.peak, 203, accuracy: 0.5)
        for range in DynamicRange.allCases {
            for v in [SIMD3<Float>(0.2, 0.5, 0.9), SIMD3<Float>(-0.03, 0.4, 1.0), SIMD3<Float>(0.7, -0.01, 0.3), SIMD3<Float>(0, 0, 0)] {
                let back = range.inverseEOTF(range.eotf(v))
                for k in 0..<3 { XCTAssertEqual(back[k], v[k], accuracy: 2e-5, "\(range) \(v)") }
            }
            // Alpha passes through the R′G′B′A forms.
            XCTAssertEqual(range.eotf(SIMD4<Float>(0.5, 0.5, 0.5, 0.25)).w, 0.25)
        }
    }

    func testPrimaryMatricesMatchBT2087() {
        // ITU-R BT.2087-0: linear BT.709 → BT.2020, to four decimals.
        let expected = [0.6274, 0.3293, 0.0433, 0.0691, 0.9195, 0.0114, 0.0164, 0.0880, 0.8956]
        let m = GamutMapping.matrix(from: .bt709, to: .bt2020)
        for i in 0..<9 { XCTAssertEqual(m[i], expected[i], accuracy: 0.00006, "element \(i)") }
        // BT.2020's inverse (its well-known first row 1.6605, −0.5876, −0.0728), and rows summing to 1 (white is kept).
        let inv = GamutMapping.matrix(from: .bt2020, to: .bt709)
        XCTAssertEqual(inv[0], 1.6605, accuracy: 0.0001)
        XCTAssertEqual(inv[1], -0.5876, accuracy: 0.0001)
        XCTAssertEqual(inv[2], -0.0728, accuracy: 0.0001)
        for r in 0..<3 { XCTAssertEqual(inv[3 * r] + inv[3 * r + 1] + inv[3 * r + 2], 1, accuracy: 1e-9) }
        // Luminance rows: BT.709-6 item 3.2 and BT.2020-2 Table 4.
        let y709 = ColourPrimaries.bt709.luminanceCoefficients, y2020 = ColourPrimaries.bt2020.luminanceCoefficients
        for (a, b) in zip(y709, [0.2126, 0.7152, 0.0722]) { XCTAssertEqual(a, b, accuracy: 0.0001) }
        for (a, b) in zip(y2020, [0.2627, 0.6780, 0.0593]) { XCTAssertEqual(a, b, accuracy: 0.0001) }
    }

    /// CIE xy of linear BT.709 RGB.
    func xy(_ c: SIMD3<Double>) -> (Double, Double) {
        let m = ColourPrimaries.bt709.rgbToXYZ
        let X = m[0] * c.x + m[1] * c.y + m[2] * c.z, Y = m[3] * c.x + m[4] * c.y + m[5] * c.z, Z = m[6] * c.x + m[7] * c.y + m[8] * c.z
        return (X / (X + Y + Z), Y / (X + Y + Z))
    }

    func testGamutMappingKeepsHueAndLuminance() {
        let toBT709 = GamutMapping.matrix(from: .bt2020, to: .bt709)
        let lum = SIMD3(0.2126, 0.7152, 0.0722)
        for (name, c2020) in [("green", [0.0, 1, 0]), ("red", [1.0, 0, 0]), ("cyan", [0, 0.5, 0.5]), ("orange", [0.8, 0.3, 0.02])] {
            let v = Matrix3.apply(toBT709, c2020)
            let linear = SIMD3(v[0], v[1], v[2])
            XCTAssertLessThan(min(linear.x, linear.y, linear.z), 0, "\(name) is outside BT.709")
            let mapped = GamutMapping.desaturateIntoGamut(linear, luminance: lum)
            XCTAssertEqual(min(mapped.x, mapped.y, mapped.z), 0, accuracy: 1e-12, "\(name): just inside the gamut")
            XCTAssertEqual((lum * mapped).sum(), (lum * linear).sum(), accuracy: 1e-12, "\(name): same luminance")
            // Same hue: the chromaticity stays on the line from D65 through the original, on the same side.
            let w = (0.3127, 0.3290), o = xy(linear), n = xy(mapped)
            let cross = (o.0 - w.0) * (n.1 - w.1) - (o.1 - w.1) * (n.0 - w.0)
            let dot = (o.0 - w.0) * (n.0 - w.0) + (o.1 - w.1) * (n.1 - w.1)
            XCTAssertEqual(cross, 0, accuracy: 1e-9, "\(name): hue kept")
            XCTAssertGreaterThan(dot, 0, "\(name): not flipped through white")
        }
        // In-gamut colours pass unchanged; negative luminance gives black.
        XCTAssertEqual(GamutMapping.desaturateIntoGamut(SIMD3(0.2, 0.4, 0.9), luminance: lum), SIMD3(0.2, 0.4, 0.9))
        XCTAssertEqual(GamutMapping.desaturateIntoGamut(SIMD3(-0.5, 0.01, 0.0), luminance: lum), SIMD3(0, 0, 0))
    }

    func ffmpegCurve(_ curve: ToneMapCurve, _ x: Double, peak: Double) -> Double { HDRReference.curve(curve, x, peak: peak) }

    func testFFmpegCurvesMatchVfTonemap() throws {
        for curve in [ToneMapCurve.clip, .reinhard, .hable, .mobius] {
            let t = try XCTUnwrap(ToneMap(curve: curve, sourcePeak: 1000, targetPeak: 100))
            for x in [0.01, 0.1, 0.3, 0.5, 1, 2.03, 5, 10] {
                XCTAssertEqual(t(x), ffmpegCurve(curve, x, peak: 10), accuracy: 1e-12, "\(curve) at \(x)")
            }
            // Every curve puts the source peak at (or, clip, above) the target's.
            XCTAssertEqual(t(10.0), 1, accuracy: 1e-9, "\(curve) at the peak")
        }
        // Nothing to map when the source is no brighter than the target.
        XCTAssertNil(ToneMap(curve: .hable, sourcePeak: 100, targetPeak: 100))
    }

    func bt2390(_ nits: Double, source lw: Double, target lmax: Double) -> Double { HDRReference.bt2390(nits, source: lw, target: lmax) }

    func testBT2390EETF() throws {
        let t = try XCTUnwrap(ToneMap(curve: .bt2390, sourcePeak: 1000, targetPeak: 100))
        // The knee: KS = 1.5·PQ(100)/PQ(1000) − 0.5 = 0.5137, at 27.86 cd/m²; below it light passes unchanged.
        XCTAssertEqual(t.constants[3], 1.5 * 0.508078 / 0.751827 - 0.5, accuracy: 1e-5)
        for nits in [0.5, 5, 20, 27] {
            XCTAssertEqual(t(nits / 100) * 100, nits, accuracy: nits * 1e-6, "identity below the knee at \(nits) cd/m²")
        }
        XCTAssertLessThan(t(0.4) * 100, 40, "compressed above the knee")
        // The source peak lands on the target's peak, and the curve rises monotonically up to it.
        XCTAssertEqual(t(10.0), 1, accuracy: 1e-9)
        var last = 0.0
        for k in 1...200 {
            let v = t(Double(k) / 20)
            XCTAssertGreaterThan(v, last, "monotonic at \(Double(k) / 20)")
            last = v
        }
        // Against the formula written out above, over the whole range, and for a 4000 cd/m² PQ master too.
        for nits in [30.0, 60, 100, 203, 400, 700, 1000] {
            XCTAssertEqual(t(nits / 100) * 100, bt2390(nits, source: 1000, target: 100), accuracy: 1e-6, "at \(nits) cd/m²")
        }
        let t4000 = try XCTUnwrap(ToneMap(curve: .bt2390, sourcePeak: 4000, targetPeak: 1000))
        for nits in [100.0, 500, 1000, 2500, 4000] {
            XCTAssertEqual(t4000(nits / 1000) * 1000, bt2390(nits, source: 4000, target: 1000), accuracy: 1e-5, "4000 → 1000 at \(nits) cd/m²")
        }
    }

    /// HDR reference white (BT.2408: HLG 75 % = 203 cd/m²) lands where each curve says, through the whole HLG → SDR stage
    /// (`ColourStage` in `Float`, as the CPU reference runs it): SDR R′G′B′ = BT.1886⁻¹(f(2.03)).
    func testReferenceWhiteLandsWhereTheCurveSays() throws {
        let hlg = YCbCrColour(matrix: .bt2020, range: .limited, transfer: .hlg, primaries: .bt2020)
        for curve in ToneMapCurve.allCases {
            let stage = try XCTUnwrap(ColourStage(colour: hlg, output: OutputColour(dynamicRange: .sdr, toneMap: curve)))
            XCTAssertEqual(stage.toneMap?.curve, curve)
            let white = stage.apply(SIMD3(repeating: 0.75))
            let light = curve == .bt2390 ? bt2390(203.2, source: 1000, target: 100) / 100 : ffmpegCurve(curve, 2.032, peak: 10)
            let expected = pow(light, 1 / 2.4)
            XCTAssertEqual(Double(white.x), expected, accuracy: 2e-4, "\(curve)")
            XCTAssertEqual(white.y, white.x, accuracy: 1e-6, "\(curve): grey stays grey")
            XCTAssertEqual(white.z, white.x, accuracy: 1e-6, "\(curve): grey stays grey")
        }
        // BT.2390 puts it at 88 cd/m²: 95 % of the SDR signal, 223.9 in 8-bit limited range.
        let stage = try XCTUnwrap(ColourStage(colour: hlg, output: .sdr))
        XCTAssertEqual(16 + 219 * Double(stage.apply(SIMD3(repeating: 0.75)).x), 223.9, accuracy: 0.2)
    }

    func testWhichPicturesHaveAStage() {
        let sdr = YCbCrColour(matrix: .bt709, range: .limited)
        XCTAssertNil(ColourStage(colour: sdr, output: .sdr), "SDR BT.709 in SDR: affine")
        XCTAssertNil(ColourStage(colour: YCbCrColour(matrix: .bt601, range: .full, primaries: .bt601), output: .sdr), "BT.601 primaries count as BT.709")
        let pq = ColourStage(colour: YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020, peakLuminance: 4000), output: .sdr)
        XCTAssertEqual(pq?.toneMap?.sourcePeak, 4000, "PQ: the metadata's peak")
        XCTAssertEqual(ColourStage(colour: YCbCrColour(matrix: .bt2020, range: .limited, transfer: .pq, primaries: .bt2020), output: .sdr)?.toneMap?.sourcePeak,
                       1000, "PQ without metadata: 1000 cd/m²")
        // SDR with BT.2020 primaries in an SDR edit: converted, clipped at white keeping hue (ratios).
        let wide = ColourStage(colour: YCbCrColour(matrix: .bt2020, range: .limited, primaries: .bt2020), output: .sdr)
        XCTAssertEqual(wide?.toneMap?.curve, .clip)
        let red = wide!.apply(SIMD3(1, 0, 0))
        XCTAssertEqual(red.x, 1, accuracy: 1e-5)
        XCTAssertEqual(ColourStage(colour: YCbCrColour(matrix: .bt2020, range: .limited, transfer: .hlg, primaries: .bt2020), output: .sdr)?.summary,
                       "HDR (HLG), tone-mapped with bt2390 (1000 → 100 cd/m²), BT.2020 → BT.709 primaries")
    }
}
