import XCTest
import SegueCore
import SegueEdit
import SegueTestSupport

/// Issue 35 item 8: where the CPU composites, a clip direct but for its colour and LUT effects is graded on its planes
/// (`PlanarGrade`), not drawn — within 45 dB of the GPU's drawing of the same edit in every plane, the same frames
/// counted as taken from the planes; a vignette (not pointwise) is still drawn.
final class PlanarGradeTests: EndToEndTestCase {
    /// A 320×180 testsrc2 clip (1 s, 24 fps, FFV1 4:2:0, BT.709 limited) and a 33³ grade.
    func media() throws -> (clip: String, lut: String) {
        let clip = path("src.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=24:d=2,format=yuv420p", "-c:v", "ffv1", "-colorspace", "bt709",
                                "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", clip])
        var lines = ["LUT_3D_SIZE 33"]
        for b in 0..<33 { for g in 0..<33 { for r in 0..<33 {
            let (x, y, z) = (Double(r) / 32, Double(g) / 32, Double(b) / 32)
            lines.append(String(format: "%.6f %.6f %.6f", min(1, pow(x, 0.8) * 0.95 + 0.05 * y), pow(y, 1.15), z * 0.8 + 0.1))
        } } }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path("grade.cube"), atomically: true, encoding: .utf8)
        return (clip, path("grade.cube"))
    }

    func renderBoth(_ effects: String, name: String) throws -> (cpu: [[UInt8]], gpu: [[UInt8]], log: String) {
        let (clip, _) = try media()
        let edit = """
            {"renderSize": {"width": 320, "height": 180}, "frameRate": 24, "clips": [{"path": "\(clip)", "duration": 1, "effects": \(effects)}],
             "output": {"codec": "ffv1"}}
            """
        try edit.write(toFile: path("\(name).json"), atomically: true, encoding: .utf8)
        let cpu = try segue(["render", path("\(name).json"), "-o", path("\(name)-cpu.mkv"), "--backend", "cpu", "--no-audio", "--verbose"])
        XCTAssertEqual(cpu.status, 0, cpu.stderr)
        try requireContext(.gpu)
        let gpu = try segue(["render", path("\(name).json"), "-o", path("\(name)-gpu.mkv"), "--backend", "gpu", "--no-audio"])
        XCTAssertEqual(gpu.status, 0, gpu.stderr)
        return (try TestSupport.decodeFrames(path("\(name)-cpu.mkv"), width: 320, height: 180),
                try TestSupport.decodeFrames(path("\(name)-gpu.mkv"), width: 320, height: 180), cpu.stderr)
    }

    /// Colour (saturation, hue, exposure, temperature, contrast) then a LUT at strength 0.8: every frame graded on its
    /// planes (24 of 24 taken from them), within 45 dB of the GPU in each plane.
    func testGradedPlanesMatchTheGPU() throws {
        let (cpu, gpu, log) = try renderBoth("""
            [{"type": "colour", "saturation": 1.3, "hue": 20, "exposure": 0.3, "temperature": 0.2, "contrast": 1.1},
             {"type": "lut", "path": "grade.cube", "strength": 0.8}]
            """, name: "graded")
        XCTAssert(log.contains("24 of 24 frames needed no compositing"), log)
        XCTAssertEqual(cpu.count, 24)
        TestSupport.assertYUVSequencesMatch(cpu, gpu, width: 320, height: 180, minPSNR: 45, label: "planar grade against the GPU")
    }

    /// A vignette depends on the position: the frames are drawn.
    func testAVignetteIsDrawn() throws {
        let (cpu, gpu, log) = try renderBoth(#"[{"type": "lut", "path": "grade.cube"}, {"type": "vignette", "amount": 0.5}]"#, name: "vignette")
        XCTAssert(log.contains("0 of 24 frames needed no compositing"), log)
        TestSupport.assertYUVSequencesMatch(cpu, gpu, width: 320, height: 180, minPSNR: 45, label: "drawn vignette against the GPU")
    }
}
