import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// Matrix, range, bit depth and chroma siting of Y′CbCr input, with expectations computed here from the
/// standards' formulas (not from `YCbCrToRGB`), and the GPU against the CPU on planar inputs.
final class PlanarColourTests: RendererTestCase {
    /// 8-bit BT.709 limited Y′CbCr (ITU-R BT.709-6) of the code values (y, cb, cr) at `bits` in (kr, kb) and range
    /// (ITU-T H.273 §8.3 quantisation).
    func expected(_ y: Double, _ cb: Double, _ cr: Double, bits: Int, kr: Double, kb: Double, full: Bool) -> (Double, Double, Double) {
        let k = Double(1 << (bits - 8)), maxCode = Double((1 << bits) - 1), mid = Double(1 << (bits - 1))
        let Y = full ? y / maxCode : (y - 16 * k) / (219 * k)
        let pb = full ? (cb - mid) / maxCode : (cb - 128 * k) / (224 * k), pr = full ? (cr - mid) / maxCode : (cr - 128 * k) / (224 * k)
        let R = Y + 2 * (1 - kr) * pr, B = Y + 2 * (1 - kb) * pb, G = (Y - kr * R - kb * B) / (1 - kr - kb)
        let y709 = 0.2126 * R + 0.7152 * G + 0.0722 * B
        return (16 + 219 * y709, 128 + 224 * (B - y709) / 1.8556, 128 + 224 * (R - y709) / 1.5748)
    }

    func testKnownYCbCrInEachMatrixRangeAndDepth() throws {
        let matrices: [(YCbCrMatrix, Double, Double)] = [(.bt601, 0.299, 0.114), (.bt709, 0.2126, 0.0722), (.bt2020, 0.2627, 0.0593)]
        let codes: [Int: (Int, Int, Int)] = [8: (120, 90, 170), 10: (483, 361, 682)]
        for r in try renderers() {
            for (matrix, kr, kb) in matrices { for range in [ColourRange.limited, .full] { for bits in [8, 10] {
                let (y, cb, cr) = codes[bits]!
                let p = PlanarPictures.planar(4, 4, bitDepth: bits, colour: YCbCrColour(matrix: matrix, range: range),
                                              y: { _, _ in y }, cb: { _, _ in cb }, cr: { _, _ in cr })
                let e = expected(Double(y), Double(cb), Double(cr), bits: bits, kr: kr, kb: kb, full: range == .full)
                // Exact (same size) and resampled (stretched to 8×6) reads.
                for size in [PixelSize(width: 4, height: 4), PixelSize(width: 8, height: 6)] {
                    let plan = FramePlan(frame: 0, time: .zero, from: LayerPlan(clipIndex: 0, sourceTime: .zero,
                        outputToSource: LayerGeometry.outputToSource(codedSize: p.size, sar: 1, orientation: .identity, renderSize: size, fit: .stretch)),
                                         to: nil, transition: nil, progress: 0)
                    let out = try r.renderYUV420(plan, from: p, to: nil, renderSize: size)
                    let label = "\(r.name) \(matrix) \(range) \(bits)-bit \(size)"
                    XCTAssertEqual(Double(out.y[size.width + 1]), e.0, accuracy: 0.6, "\(label) Y")
                    XCTAssertEqual(Double(out.cb[1]), e.1, accuracy: 0.6, "\(label) Cb")
                    XCTAssertEqual(Double(out.cr[1]), e.2, accuracy: 0.6, "\(label) Cr")
                }
            } } }
        }
    }

    /// Stretching a chroma ramp by 2 along one axis reads each output chroma sample at its sited position:
    /// at stored position `p` (luma texel units) the chroma texel coordinate is `p/2 − (0.5 + d)/2` with `d` the
    /// siting offset (left 0, center 0.5 horizontally; top 0, centred 0.5 vertically), interpolated linearly.
    func testChromaSitingIsHonoured() throws {
        let ramp = [60.0, 100, 140, 180]
        func interp(_ q: Double) -> Double {
            let i = Int(q.rounded(.down)), f = q - q.rounded(.down)
            func c(_ k: Int) -> Double { ramp[min(max(k, 0), ramp.count - 1)] }
            return c(i) * (1 - f) + c(i + 1) * f
        }
        for r in try renderers() {
            for siting in [ChromaSiting.left, .center, .topLeft] {
                let colour = YCbCrColour(matrix: .bt709, range: .limited, siting: siting)
                // Horizontal: 8×2 stored (chroma 4×1), shown at 16×2. Output chroma i sits at stored x = i + 0.25.
                let h = PlanarPictures.planar(8, 2, colour: colour, y: { _, _ in 128 }, cb: { x, _ in Int(ramp[x]) }, cr: { _, _ in 128 })
                let hs = PixelSize(width: 16, height: 2)
                var out = try r.renderYUV420(stretch(h, hs), from: h, to: nil, renderSize: hs)
                for i in 0..<8 {
                    let e = interp((Double(i) + 0.25) / 2 - (0.5 + siting.x) / 2)
                    XCTAssertEqual(Double(out.cb[i]), e, accuracy: 1, "\(r.name) siting \(siting) horizontal chroma \(i)")
                }
                XCTAssertEqual(out.y, [UInt8](repeating: 128, count: 32), "\(r.name) flat luma")
                // Vertical: 2×8 stored (chroma 1×4), shown at 2×16. Output chroma row j sits at stored y = j + 0.5.
                let v = PlanarPictures.planar(2, 8, colour: colour, y: { _, _ in 128 }, cb: { _, y in Int(ramp[y]) }, cr: { _, _ in 128 })
                let vs = PixelSize(width: 2, height: 16)
                out = try r.renderYUV420(stretch(v, vs), from: v, to: nil, renderSize: vs)
                for j in 0..<8 {
                    let e = interp((Double(j) + 0.5) / 2 - (0.5 + siting.y) / 2)
                    XCTAssertEqual(Double(out.cb[j]), e, accuracy: 1, "\(r.name) siting \(siting) vertical chroma \(j)")
                }
            }
            // Left and center differ by a quarter chroma sample: 10 codes on this 40-code ramp.
            XCTAssertEqual(interp(1.25 / 2 - 0.25) - interp(1.25 / 2 - 0.5), 10, accuracy: 1e-9)
        }
    }

    func stretch(_ p: VideoPicture, _ size: PixelSize) -> FramePlan {
        FramePlan(frame: 0, time: .zero, from: LayerPlan(clipIndex: 0, sourceTime: .zero,
            outputToSource: LayerGeometry.outputToSource(codedSize: p.size, sar: 1, orientation: .identity, renderSize: size, fit: .stretch)),
                  to: nil, transition: nil, progress: 0)
    }

    /// A 10-bit limited-range picture whose codes are 4× an 8-bit one's shows the same thing.
    func testTenBitMatchesEightBit() throws {
        let p8 = PlanarPictures.textured(24, 16, shiftY: 0, seed: 7)
        let planes = p8.planes.map { $0.bytes }
        let p10 = PlanarPictures.planar(24, 16, shiftY: 0, bitDepth: 10, y: { x, y in 4 * Int(planes[0][y * 24 + x]) },
                                        cb: { x, y in 4 * Int(planes[1][y * 12 + x]) }, cr: { x, y in 4 * Int(planes[2][y * 12 + x]) })
        for r in try renderers() {
            for size in [PixelSize(width: 24, height: 16), PixelSize(width: 18, height: 18)] {
                let plan = FramePlan(frame: 0, time: .zero, from: LayerPlan(clipIndex: 0, sourceTime: .zero,
                    outputToSource: LayerGeometry.outputToSource(codedSize: p8.size, sar: 1, orientation: .identity, renderSize: size, fit: .fill)),
                                     to: nil, transition: nil, progress: 0)
                let a = try r.renderYUV420(plan, from: p8, to: nil, renderSize: size)
                let b = try r.renderYUV420(plan, from: p10, to: nil, renderSize: size)
                for (name, x, y) in [("Y", a.y, b.y), ("Cb", a.cb, b.cb), ("Cr", a.cr, b.cr)] {
                    XCTAssertLessThanOrEqual(PlaneDifference(x, y).maxAbsDifference, 1, "\(r.name) \(size) \(name)")
                }
            }
        }
    }

    /// GPU against CPU on planar inputs through resampling, rotation, SAR and every transition: each output plane
    /// within 45 dB, no sample more than a few levels apart; and the RGBA previews of the same plans.
    func testGPUMatchesCPUOnPlanarInputs() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let a = PlanarPictures.textured(48, 32, seed: 8)
        let b8 = PlanarPictures.textured(30, 40, shiftX: 0, shiftY: 0, seed: 9, colour: YCbCrColour(matrix: .bt601, range: .full, siting: .center))
        let planes = b8.planes.map { $0.bytes }
        let b10 = PlanarPictures.planar(30, 40, shiftX: 1, shiftY: 0, bitDepth: 10, colour: YCbCrColour(matrix: .bt2020, range: .limited),
                                        y: { x, y in 4 * Int(planes[0][y * 30 + x]) + (x & 3) },
                                        cb: { x, y in 4 * Int(planes[1][y * 30 + 2 * x]) }, cr: { x, y in 4 * Int(planes[2][y * 30 + 2 * x]) })
        let size = PixelSize(width: 40, height: 30)
        let ccw = Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])
        for (from, to) in [(a, b10), (PlanarPictures.semiPlanar(a), b8)] {
            for fit in FitMode.allCases {
                for (kind, dir) in TransitionTable.sample {
                    for p in [0.0, 0.43] {
                        let plan = FramePlan(frame: 0, time: .zero,
                            from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: from.size, sar: 1, orientation: ccw, renderSize: size, fit: fit)),
                            to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: to.size, sar: 1.25, orientation: .identity, renderSize: size, fit: fit)),
                            transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: dir), progress: p)
                        let label = "\(from.formatDescription) → \(to.formatDescription) \(kind.rawValue) \(fit.rawValue) p=\(p)"
                        let g = try gpu.renderYUV420(plan, from: from, to: to, renderSize: size)
                        let c = try cpu.renderYUV420(plan, from: from, to: to, renderSize: size)
                        for (name, x, y) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                            let (ok, d) = TransitionTable.agree(kind, x, y)
                            XCTAssertTrue(ok, "\(label) \(name): \(d)")
                        }
                        let (ok, d) = TransitionTable.agree(kind, try cpu.render(plan, from: from, to: to, renderSize: size).pixels,
                                                            try gpu.render(plan, from: from, to: to, renderSize: size).pixels)
                        XCTAssertTrue(ok, "\(label) RGBA: \(d)")
                    }
                }
            }
        }
    }
}
