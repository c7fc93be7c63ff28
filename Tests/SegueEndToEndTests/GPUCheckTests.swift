import XCTest
import SegueCore
import SegueTestSupport

/// `make gpu-check` (bench/gpu_check.py) is meant for a machine with an NVIDIA GPU; its CPU-only parts are checked
/// here: it refuses llvmpipe loudly, and with GPU_CHECK_ALLOW_SOFTWARE=1 it runs every step at a tiny size and
/// prints one JSON line with every result, CUDA decoding and NVENC failing cleanly where there is no NVIDIA driver.
final class GPUCheckTests: EndToEndTestCase {
    func runCheck(allowSoftware: Bool) throws -> TestSupport.ProcessResult {
        var env = ["SEGUE_BINARY": TestSupport.segueBinary, "GPU_CHECK_CLIP_SIZE": "160x90", "GPU_CHECK_SECONDS": "2",
                   "GPU_CHECK_SIZES": "96x64,160x90", "GPU_CHECK_FRAMES": "6", "GPU_CHECK_REPS": "1",
                   "GPU_CHECK_FARM_JOBS": "1,2"]
        if allowSoftware { env["GPU_CHECK_ALLOW_SOFTWARE"] = "1" }
        return try TestSupport.run("python3", [TestSupport.packageRoot + "/bench/gpu_check.py"], environment: env)
    }

    /// A file the check wrote in the benchmark's work folder.
    func benchOutput(_ name: String) -> String { TestSupport.packageRoot + "/.build/bench/" + name }

    func testRefusesSoftwareRenderersAndReportsEveryStep() throws {
        let refused = try runCheck(allowSoftware: false)
        if refused.stderr.contains("no OpenGL ES context") && !TestSupport.inCI { throw XCTSkip("no EGL here: \(refused.stderr)") }
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("gpu-check FAILED") && refused.stderr.contains("llvmpipe"), refused.stderr)

        let r = try runCheck(allowSoftware: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one JSON line: \(r.text)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(json["software_renderer"] as? Bool, true)
        XCTAssertTrue((json["gl_renderer"] as? String ?? "").contains("llvmpipe"))
        let composite = try XCTUnwrap(json["composite_fps"] as? [String: [String: Double]])
        XCTAssertEqual(Set(composite.keys), ["96x64", "160x90"])
        for (_, byTransition) in composite {
            XCTAssertEqual(Set(byTransition.keys), ["crossfade", "push", "wipe"])
            XCTAssertTrue(byTransition.values.allSatisfy { $0 > 0 })
        }
        // Each encoder alone and end to end, libx264 and libx265 (no NVENC here), with Segue's stage times.
        let encode = try XCTUnwrap(json["encode_fps"] as? [String: Double])
        XCTAssertEqual(Set(encode.keys), ["libx264", "libx265"])
        XCTAssertTrue(encode.values.allSatisfy { $0 > 0 }, "\(encode)")
        let e2e = try XCTUnwrap(json["end_to_end"] as? [String: [String: Any]])
        XCTAssertEqual(Set(e2e.keys), ["libx264", "libx265"])
        for (enc, r) in e2e {
            XCTAssertGreaterThan(r["segue_s"] as? Double ?? 0, 0, enc)
            XCTAssertGreaterThan(r["ffmpeg_s"] as? Double ?? 0, 0, enc)
            // 3 clips of 2 s at 30 fps less two 1 s transitions (the middle clip is all transition: the shortest edit
            // the script's two transitions allow).
            XCTAssertEqual(r["frames"] as? Int, 120, enc)
            let stages = try XCTUnwrap(r["segue_stages"] as? [String: Any], enc)
            XCTAssertEqual(stages["frames"] as? Int, 120, enc)
            XCTAssertGreaterThan(stages["decode_fps"] as? Double ?? 0, 0, enc)
            // The two transitions (60 frames) at least are composited (and the portrait clip, scaled into the frame).
            XCTAssertGreaterThanOrEqual(stages["composited_frames"] as? Int ?? 0, 60, enc)
            XCTAssertGreaterThan(stages["composite_fps"] as? Double ?? 0, 0, enc)
        }
        XCTAssertEqual(try TestSupport.ffprobe(benchOutput("gpu-check-segue-libx265.mp4"), "stream=codec_name")["codec_name"], "hevc")
        let farm = try XCTUnwrap(json["farm_local"] as? [String: Any])
        for j in [1, 2] {
            let r = try XCTUnwrap(farm["jobs=\(j)"] as? [String: Any])
            XCTAssertEqual(r["chunks"] as? Int, 2 * j)
            XCTAssertGreaterThan(r["seconds"] as? Double ?? 0, 0)
        }
        // No NVIDIA driver here: CUDA decoding falls back (the render still succeeds), NVENC fails cleanly.
        let cuda = try XCTUnwrap(json["cuda_decode"] as? [String: Any])
        XCTAssertEqual(cuda["exit"] as? Int, 0)
        XCTAssertEqual(cuda["frames"] as? Int, 0)
        XCTAssertGreaterThan(cuda["of"] as? Int ?? 0, 0)
        XCTAssertNotNil(cuda["problem"] as? String)
        let nvenc = try XCTUnwrap(json["nvenc"] as? [String: Any])
        XCTAssertEqual(nvenc["clean"] as? Bool, true)
        XCTAssertEqual(nvenc["exit"] as? Int, 1)
        XCTAssertNotNil(json["targets"] as? [String: Bool])
    }
}
