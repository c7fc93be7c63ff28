import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
@testable import SegueFarm
import SegueGL
import SegueTestSupport

/// Shared set-up for whole renders: generated clips in a temp folder, renders through `RenderJob`.
class EndToEndTestCase: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = TestSupport.tempDir("segue-e2e")
    }
    override func tearDownWithError() throws {
        // Keep the files of a failed test for a look; remove the rest (some are large).
        if (testRun?.totalFailureCount ?? 0) == 0 && ProcessInfo.processInfo.environment["SEGUE_KEEP_TEST_FILES"] == nil {
            try? FileManager.default.removeItem(atPath: dir)
        } else {
            print("kept test files in \(dir)")
        }
    }

    func path(_ name: String) -> String { "\(dir)/\(name)" }

    /// Throws `XCTSkip` when there is no EGL context for `backend` .gpu (fails instead under CI).
    func requireContext(_ backend: Backend, file: StaticString = #filePath, line: UInt = #line) throws {
        guard backend == .gpu else { return }
        do { _ = try EGLSession() } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)", file: file, line: line) }
            throw XCTSkip("no EGL context: \(error)")
        }
    }

    /// Frames `n` of `edit` as `backend` draws them (R′G′B′A, before encoding).
    func renderedFrames(_ edit: Edit, _ n: [Int64], backend: Backend) throws -> [RGBAImage] {
        var o = RenderOptions()
        o.backend = backend
        try requireContext(backend)
        let t = try RenderJob.resolve(edit)
        return try RenderJob.renderFrames(t, frames: n, renderer: try RenderJob.makeRenderer(o, for: t)).images
    }

    /// Renders with the given backend; under CI a missing EGL context fails the test instead of skipping.
    @discardableResult
    func render(_ edit: Edit, to out: String, backend: Backend, audio: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws -> RenderResult {
        var o = RenderOptions()
        o.backend = backend
        o.audio = audio
        o.log = { print($0) }
        try requireContext(backend, file: file, line: line)
        return try RenderJob.render(edit, to: out, options: o)
    }

    func clip(_ p: String, _ t: Transition? = nil, start: Double = 0, duration: Double? = nil) -> ClipSpec {
        ClipSpec(path: p, start: MediaTime(seconds: start), duration: duration.map { MediaTime(seconds: $0) }, transition: t)
    }
    func tr(_ k: Transition.Kind, _ seconds: Double, _ d: Transition.Direction? = nil) -> Transition {
        Transition(kind: k, duration: MediaTime(seconds: seconds), direction: d)
    }

    /// A clip with four differently coloured quadrants (TL red, TR green, BL blue, BR white) over a moving test pattern,
    /// so that orientation errors show.
    func cornerClip(_ name: String, size: String = "96x64", seconds: Int = 1, rate: String = "30") throws -> String {
        let p = path(name)
        try TestSupport.makeClip(p, video: "testsrc2=s=\(size):r=\(rate):d=\(seconds),drawbox=x=0:y=0:w=iw/4:h=ih/4:color=red:t=fill,drawbox=x=iw*3/4:y=0:w=iw/4:h=ih/4:color=lime:t=fill,drawbox=x=0:y=ih*3/4:w=iw/4:h=ih/4:color=blue:t=fill,drawbox=x=iw*3/4:y=ih*3/4:w=iw/4:h=ih/4:color=white:t=fill",
                                 extra: ["-g", "10"])
        return p
    }

    /// A BT.709-tagged clip (so that it is already in the output's colour), `size`, 1 s at 30 fps.
    func bt709Clip(_ name: String, size: String, source: String = "testsrc2") throws -> String {
        let p = path(name)
        try TestSupport.makeClip(p, video: "\(source)=s=\(size):r=30:d=1",
                                 extra: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", "-g", "10"])
        return p
    }

    /// Runs the `segue` command.
    func segue(_ args: [String], env: [String: String]? = nil) throws -> TestSupport.ProcessResult {
        try TestSupport.run(TestSupport.segueBinary, args, environment: env)
    }

    /// Renders every chunk of `plan` through the CLI, the audio pass, and stitches. The chunks run at once, as many
    /// as there are cores, as a farm's nodes run them (each process its own chunk file).
    func renderChunked(_ planPath: String, chunks dir: String, out: String, backend: String = "cpu") throws {
        let plan = try ChunkPlanner.load(planPath)
        let binary = TestSupport.segueBinary
        let renders = try TestSupport.concurrentMap(plan.chunks.map(\.index)) { index in
            try TestSupport.run(binary, ["render", "--plan", planPath, "--chunk", "\(index)", "-o", dir, "--backend", backend])
        }
        for r in renders { XCTAssertEqual(r.status, 0, r.stderr) }
        if let a = plan.audio {
            let r = try segue(["render-audio", "--plan", planPath, "-o", "\(dir)/\(a.file)"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let r = try segue(["stitch", "--plan", planPath, dir, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// `ffmpeg -f framemd5` lines of one stream (timestamps, durations, sizes and MD5 of every decoded frame).
    func framemd5(_ file: String, _ stream: String) throws -> [String] {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-map", "0:\(stream)", "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    /// MD5 of each video packet, as stored (no decoding): `ffmpeg -c copy -f framemd5` lines.
    func packetMD5s(_ file: String) throws -> [String] {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }
}
