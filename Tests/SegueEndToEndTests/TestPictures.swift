import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Pictures the effect tests draw: FFmpeg's testsrc2 as a still, and one still's frame with effects.
extension EndToEndTestCase {
    /// testsrc2 (flat colours, ramps and edges) at `size` as an RGB PNG named `name` in the test's folder, made once.
    func testsrc2PNG(_ size: PixelSize, name: String) throws -> String {
        let png = path(name)
        if !FileManager.default.fileExists(atPath: png) {
            let r = try TestSupport.run("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size.width)x\(size.height),format=rgb24",
                                                   "-frames:v", "1", png])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        return png
    }

    /// Frame `n` of the still `path` shown for 1 s at 10 fps with `effects`, at `size`, on `backend`.
    func stillFrame(_ path: String, _ effects: [ItemEffect], size: PixelSize, frame n: Int64 = 0, backend: Backend) throws -> RGBAImage {
        var item = ClipSpec(path: path)
        item.duration = MediaTime(seconds: 1)
        item.effects = effects
        var edit = Edit(clips: [item])
        edit.renderSize = size
        edit.frameRate = FrameRate(10)
        return try renderedFrames(edit, [n], backend: backend)[0]
    }

    /// Frames `n` of `edit` on both renderers, the GPU's each within `floor` dB of the CPU's; the CPU's frames.
    func cpuFramesMatchingTheGPU(_ edit: Edit, _ n: [Int64], floor: Double = 45) throws -> [RGBAImage] {
        let gpu = try renderedFrames(edit, n, backend: .gpu), cpu = try renderedFrames(edit, n, backend: .cpu)
        for (k, (g, c)) in zip(gpu, cpu).enumerated() {
            let p = PlaneDifference(g.pixels, c.pixels).psnr
            print("frame \(n[k]): GPU against CPU \(String(format: "%.2f", p)) dB")
            XCTAssertGreaterThanOrEqual(p, floor, "frame \(n[k]): GPU against CPU")
        }
        return cpu
    }

    /// Writes a `.cube` file: `header` lines, then `size` (1D) or size³ (3D) entries of `f` at each lattice point.
    func cube(_ name: String, size n: Int, is3D: Bool = true, header: [String] = [], _ f: (Double, Double, Double) -> (Double, Double, Double)) throws -> String {
        // The size first: FFmpeg reads DOMAIN_ lines only after it (the Cube specification allows any order).
        var lines = [is3D ? "LUT_3D_SIZE \(n)" : "LUT_1D_SIZE \(n)"] + header
        let k = Double(n - 1)
        if is3D {
            for b in 0..<n { for g in 0..<n { for r in 0..<n {
                let v = f(Double(r) / k, Double(g) / k, Double(b) / k)
                lines.append(String(format: "%.6f %.6f %.6f", v.0, v.1, v.2))
            } } }
        } else {
            for i in 0..<n { let v = f(Double(i) / k, Double(i) / k, Double(i) / k); lines.append(String(format: "%.6f %.6f %.6f", v.0, v.1, v.2)) }
        }
        let p = path(name)
        try (lines.joined(separator: "\n") + "\n").write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }
}
