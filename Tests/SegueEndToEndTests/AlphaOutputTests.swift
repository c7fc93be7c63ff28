import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Issue 22 #8, `"background": "transparent"`: the composite's alpha is kept — written by both renderers (alpha at
/// pixel centres and at chroma sites, `FramePlan.keepsAlpha`), identical on the GPU and the CPU — into the formats with
/// alpha: FFV1 (yuva420p), ProRes 4444, VP9 with alpha in WebM, PNG and TIFF sequences (straight RGBA), OpenEXR
/// (premultiplied linear light).
final class AlphaOutputTests: EndToEndTestCase {
    /// A 96×64 picture with alpha: transparent around, a 60 % green (0, 255, 128) rectangle (16…63 × 8…47) and an
    /// opaque white square in it (30…49 × 20…39).
    func logo() throws -> String {
        let inside = "between(X\\,30\\,49)*between(Y\\,20\\,39)", box = "between(X\\,16\\,63)*between(Y\\,8\\,47)"
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=96x64,format=rgba,geq=r='if(\(inside)\\,255\\,0)':g='255':b='if(\(inside)\\,255\\,128)'"
                                + ":a='if(\(box)\\,if(\(inside)\\,255\\,153)\\,0)'", "-frames:v", "1", path("logo.png")])
        return path("logo.png")
    }
    /// The edit: the logo for 0.3 s over nothing, and on a track above it a half-transparent red fill a quarter the size
    /// sliding right (a later pass over what is below, alpha included).
    func edit(_ logo: String) throws -> String {
        let json = #"{"tracks": [{"clips": [{"path": "\#(logo)", "duration": 0.3}]},"#
            + #" {"clips": [{"fill": "red", "duration": 0.3, "layer": {"scale": 0.25, "opacity": 0.5, "x": {"keyframes": [{"time": 0, "value": 0.2}, {"time": 0.3, "value": 0.8}]}}}]}],"#
            + #" "background": "transparent", "output": {"codec": "ffv1"}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: path("edit.json")))
        return path("edit.json")
    }
    func rgba(_ file: String, frame: Int = 0, decoder: [String] = []) throws -> [UInt8] {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error"] + decoder + ["-i", file, "-vf", "select=eq(n\\,\(frame))", "-frames:v", "1",
                                                                                       "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return [UInt8](r.stdout)
    }
    func px(_ p: [UInt8], _ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(p[(y * 96 + x) * 4 + $0]) } }
    func assertNear(_ got: [Int], _ want: [Int], _ tolerance: Int, _ what: String, line: UInt = #line) {
        XCTAssertEqual(got.count, want.count, line: line)
        for (g, w) in zip(got, want) { XCTAssertLessThanOrEqual(abs(g - w), tolerance, "\(what): \(got), expected \(want)", line: line) }
    }

    func testATransparentBackgroundKeepsAlphaOnBothRenderersAndInEveryFormatWithAlpha() throws {
        let e = try edit(try logo())
        for backend in ["gpu", "cpu"] {
            let r = try segue(["render", e, "-o", path("\(backend).mkv"), "--backend", backend, "--no-audio", "--verbose"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("writing yuva420p (alpha kept: transparent background)"), r.stderr)
        }
        XCTAssertEqual(try TestSupport.ffprobe(path("gpu.mkv"), "stream=pix_fmt")["pix_fmt"], "yuva420p")
        // GPU and CPU: the same planes (within a code: rounding, which dividing by alpha can double), alpha exactly.
        func planes(_ f: String) throws -> [UInt8] {
            [UInt8](try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", f, "-f", "rawvideo", "-pix_fmt", "yuva420p", "-"]).stdout)
        }
        let gpu = try planes(path("gpu.mkv")), cpu = try planes(path("cpu.mkv"))
        let frameBytes = 96 * 64 * 2 + 2 * 48 * 32
        XCTAssertEqual(gpu.count, 9 * frameBytes)
        XCTAssertEqual(cpu.count, gpu.count)
        for k in 0..<min(gpu.count, cpu.count) {
            let alpha = k % frameBytes >= 96 * 64 + 2 * 48 * 32
            if Int(gpu[k]).distance(to: Int(cpu[k])).magnitude > (alpha ? 0 : 1) {
                return XCTFail("GPU \(gpu[k]) and CPU \(cpu[k]) differ at byte \(k % frameBytes) of frame \(k / frameBytes)")
            }
        }
        // Frame 0: the logo as it is where the fill is not; the fill half over it where it is.
        let f = try rgba(path("gpu.mkv"))
        assertNear(px(f, 80, 10), [0, 0, 0, 0], 0, "transparent around")
        assertNear(px(f, 40, 30), [255, 255, 255, 255], 2, "opaque white")
        assertNear(px(f, 56, 12), [0, 255, 128, 153], 4, "60 % green")
        // The fill (alpha 0.5) at x 0.2 → over transparent: alpha 128, red.
        assertNear(px(f, 10, 32), [255, 0, 0, 128], 4, "half red over nothing")
        // Over the green (0.6): alpha 0.5 + 0.5·0.6 = 0.8, colour (0.5·red + 0.5·0.6·green) / 0.8.
        assertNear(px(f, 20, 32), [159, 96, 48, 204], 6, "half red over 60 % green")

        // ProRes 4444, VP9 with alpha, PNG and TIFF sequences: the same straight colour and alpha.
        for (codec, out, decoder) in [("prores", "alpha.mov", [String]()), ("vp9", "alpha.webm", ["-c:v", "libvpx-vp9"]),
                                      ("png", "png/%03d.png", []), ("tiff", "tif/%03d.tif", [])] {
            let r = try segue(["render", e, "-o", path(out), "--codec", codec, "--no-audio"])
            XCTAssertEqual(r.status, 0, "\(codec): \(r.stderr)")
            let first = out.contains("%") ? path(out.replacingOccurrences(of: "%03d", with: "001")) : path(out)
            let g = try rgba(first, decoder: decoder)
            let lossy = codec == "vp9" ? 8 : 4
            assertNear(px(g, 80, 10), [0, 0, 0, 0], codec == "vp9" ? 2 : 0, "\(codec): transparent")
            assertNear(px(g, 40, 30), [255, 255, 255, 255], lossy, "\(codec): opaque white")
            assertNear(px(g, 56, 12), [0, 255, 128, 153], lossy, "\(codec): 60 % green")
            assertNear(px(g, 20, 32), [159, 96, 48, 204], lossy + 4, "\(codec): half red over green")
        }
        let mov = try TestSupport.ffprobe(path("alpha.mov"), "stream=codec_name,profile,pix_fmt")
        XCTAssertEqual([mov["codec_name"], mov["profile"]], ["prores", "4444"])
        XCTAssertEqual(try TestSupport.ffprobe(path("alpha.webm"), "stream_tags=alpha_mode")["TAG:alpha_mode"], "1")
        XCTAssertEqual(try TestSupport.ffprobe(path("png/001.png"), "stream=pix_fmt")["pix_fmt"], "rgba")

        // OpenEXR: linear light, premultiplied: 60 % of green (1) and of blue 128/255 through the BT.1886 EOTF.
        let exr = try segue(["render", e, "-o", path("exr/%03d.exr"), "--codec", "exr"])
        XCTAssertEqual(exr.status, 0, exr.stderr)
        let floats = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path("exr/001.exr"), "-f", "rawvideo", "-pix_fmt", "gbrapf32le", "-"])
        let values = floats.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        guard values.count == 4 * 96 * 64 else { return XCTFail("the EXR frame: \(floats.stderr)") }
        func plane(_ k: Int, _ x: Int, _ y: Int) -> Float { values[k * 96 * 64 + y * 96 + x] }   // G, B, R, A
        XCTAssertEqual(plane(3, 56, 12), 0.6, accuracy: 0.01, "alpha")
        XCTAssertEqual(plane(0, 56, 12), 0.6, accuracy: 0.02, "green, premultiplied")
        XCTAssertEqual(plane(1, 56, 12), Float(pow(128.0 / 255, 2.4) * 0.6), accuracy: 0.01, "blue in linear light, premultiplied")
        XCTAssertEqual(plane(2, 40, 30), 1, accuracy: 0.02, "white (through 8-bit limited range)")
        XCTAssertEqual(plane(3, 80, 10), 0, "transparent")
    }

    func testATransparentBackgroundNeedsAFormatWithAlpha() throws {
        let e = try edit(try logo())
        for (out, codec) in [("x.mp4", "h264"), ("x.gif", "gif")] {
            let r = try segue(["render", e, "-o", path(out), "--codec", codec])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("background: transparent needs an output that keeps alpha (--codec ffv1, --codec vp9, --codec prores, --codec png, --codec tiff, --codec exr)"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(out)))
        }
        // The frame command's PNG keeps it too (straight alpha).
        let frame = try segue(["frame", e, "--frame", "0", "-o", path("frame.png")])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        assertNear(px(try rgba(path("frame.png")), 56, 12), [0, 255, 128, 153], 3, "frame: 60 % green")
    }
}
