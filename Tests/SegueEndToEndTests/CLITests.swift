import XCTest
import SegueCore
import SegueTestSupport

/// The `segue` command as a user runs it: exit codes, messages, and nothing lost on failure.
final class CLITests: EndToEndTestCase {
    func segue(_ args: [String], env: [String: String]? = nil) throws -> TestSupport.ProcessResult {
        try TestSupport.run(TestSupport.segueBinary, args, environment: env)
    }

    func testMissingClipFailsNamingTheFileAndWritesNothing() throws {
        let a = try cornerClip("a.mp4")
        let out = path("out.mp4")
        let r = try segue(["render", a, path("nope.mp4"), "--transition", "crossfade:0.5", "-o", out])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("nope.mp4") && r.stderr.contains("not found"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }, [])
    }

    func testFailedRenderKeepsTheExistingOutput() throws {
        let a = try cornerClip("a.mp4")
        let out = path("out.mp4")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let edit = path("edit.json")
        try Data(#"{"clips": [{"path": "a.mp4"}, {"path": "a.mp4", "transition": {"type": "crossfade", "duration": 5}}]}"#.utf8).write(to: URL(fileURLWithPath: edit))
        let r = try segue(["render", edit, "-o", out])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("clips[1].transition.duration"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "precious")
        _ = a
    }

    func testOutputEqualToAnInputIsRefused() throws {
        let a = try cornerClip("a.mp4")
        let before = try Data(contentsOf: URL(fileURLWithPath: a))
        let r = try segue(["render", a, "-o", a])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("input"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), before)
    }

    func testEditFileRenderWithBackendsAndNoEGLFallback() throws {
        _ = try cornerClip("a.mp4")
        _ = try cornerClip("b.mp4", size: "64x96")
        let edit = path("edit.json")
        try Data(#"{"frameRate": 30, "clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "push", "duration": 0.5, "direction": "right"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: edit))
        // With EGL blocked: auto falls back to the CPU with a warning; gpu fails clearly.
        let auto = try segue(["render", edit, "-o", path("auto.mp4")], env: ["SEGUE_DISABLE_EGL": "1"])
        XCTAssertEqual(auto.status, 0, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("warning") && auto.stderr.contains("CPU"), auto.stderr)
        let gpu = try segue(["render", edit, "-o", path("gpu.mp4"), "--backend", "gpu"], env: ["SEGUE_DISABLE_EGL": "1"])
        XCTAssertEqual(gpu.status, 1, gpu.stderr)
        XCTAssertTrue(gpu.stderr.contains("SEGUE_DISABLE_EGL"), gpu.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("gpu.mp4")))
        // --verbose names the EGL platform and GL_RENDERER.
        let v = try segue(["render", edit, "-o", path("v.mkv"), "--backend", "gpu", "--codec", "ffv1", "--verbose"])
        if v.status != 0 && !TestSupport.inCI && v.stderr.contains("EGL") { throw XCTSkip("no EGL here: \(v.stderr)") }
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertTrue(v.stderr.contains("renderer gpu") && v.stderr.contains("EGL"), v.stderr)
        // 1 + 1 - 0.5 = 1.5 s at 30 fps, size 96x96 (widest 96, tallest 96).
        let probe = try TestSupport.ffprobe(path("v.mkv"), "stream=codec_name,width,height,nb_read_frames", count: true)
        XCTAssertEqual(probe["codec_name"], "ffv1")
        XCTAssertEqual(probe["width"], "96")
        XCTAssertEqual(probe["height"], "96")
        XCTAssertEqual(probe["nb_read_frames"], "45")
    }

    func testBadCommandLinesExitTwo() throws {
        XCTAssertEqual(try segue(["render", "a.mp4"]).status, 2)                                    // no -o
        XCTAssertEqual(try segue(["render", "a.mp4", "-o", "x.mp4", "--backend", "vulkan"]).status, 2)
        let r = try segue(["render", "a.mp4", "b.mp4", "--transition", "spin:1", "-o", "x.mp4"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("crossfade, push, wipe"), r.stderr)
        XCTAssertEqual(try segue(["frobnicate"]).status, 2)
    }
}
