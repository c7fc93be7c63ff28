import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// GPU against the CPU reference where resampling is involved (non-integer scales, rotation, letterbox):
/// each channel within 45 dB PSNR, and no pixel further than a few levels apart.
final class DifferentialTests: RendererTestCase {
    /// A smooth picture with some texture: gradients plus a deterministic pseudo-random pattern.
    func pattern(_ w: Int, _ h: Int, seed: UInt32) -> RGBAImage {
        var p = [UInt8](repeating: 255, count: w * h * 4)
        var s = seed
        for y in 0..<h { for x in 0..<w {
            s = s &* 1_664_525 &+ 1_013_904_223
            let i = (y * w + x) * 4
            p[i] = UInt8((x * 255) / max(1, w - 1))
            p[i + 1] = UInt8((y * 255) / max(1, h - 1))
            p[i + 2] = UInt8(truncatingIfNeeded: (s >> 24) / 2 + UInt32((x + y) % 64))
        } }
        return RGBAImage(width: w, height: h, pixels: p)
    }

    func compare(_ plan: FramePlan, from: RGBAImage, to: RGBAImage?, size: PixelSize, label: String) throws {
        let cpu = try ReferenceRenderer().render(plan, from: from, to: to, renderSize: size)
        let gpu = try gpuRenderer().render(plan, from: from, to: to, renderSize: size)
        let (ok, d) = TransitionTable.agree(plan.transition?.kind, cpu.pixels, gpu.pixels)
        if !ok {
            let px = d.worstIndex / 4
            XCTFail("\(label): \(d) (pixel x=\(px % size.width) y=\(px / size.width)); images in \(dump(["cpu": cpu, "gpu": gpu]))")
        }
    }

    func testResampledTransitionsAgree() throws {
        _ = try gpuRenderer()
        let a = pattern(96, 64, seed: 1), b = pattern(50, 90, seed: 2)
        let size = PixelSize(width: 80, height: 60)
        let ccw = Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])
        let mirror = Orientation(displayMatrix: [-65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30])
        for fit in FitMode.allCases {
            for row in TransitionTable.rows {
              let kind = row.kind
              for dir in row.directions {
                for p in [0.0, 0.37, 0.81] {
                    let plan = FramePlan(
                        frame: 0, time: .zero,
                        from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: a.size, sar: 1, orientation: ccw, renderSize: size, fit: fit)),
                        to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: b.size, sar: 1.5, orientation: mirror, renderSize: size, fit: fit)),
                        transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: dir), progress: p)
                    try compare(plan, from: a, to: b, size: size, label: "\(kind.rawValue) \(dir?.rawValue ?? "") \(fit.rawValue) p=\(p)")
                }
              }
            }
        }
    }

    func testLetterboxBarsAreBlackOnBoth() throws {
        let a = pattern(64, 32, seed: 3)
        let size = PixelSize(width: 32, height: 32)
        let plan = FramePlan(frame: 0, time: .zero,
                             from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: a.size, sar: 1, orientation: .identity, renderSize: size, fit: .fit)),
                             to: nil, transition: nil, progress: 0)
        for r in try renderers() {
            let img = try r.render(plan, from: a, to: nil, renderSize: size)
            // The picture covers rows 8..<24; rows 0..<8 and 24..<32 are background.
            XCTAssertTrue(img.pixel(16, 3) == (0, 0, 0, 255), "\(r.name): \(img.pixel(16, 3))")
            XCTAssertTrue(img.pixel(16, 28) == (0, 0, 0, 255), "\(r.name): \(img.pixel(16, 28))")
            XCTAssertGreaterThan(Int(img.pixel(31, 16).0), 200, r.name)   // right edge of the red gradient
        }
        try compare(plan, from: a, to: nil, size: size, label: "letterbox")
    }
}
