import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
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

    /// Renders with the given backend; under CI a missing EGL context fails the test instead of skipping.
    @discardableResult
    func render(_ edit: Edit, to out: String, backend: Backend, audio: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws -> RenderResult {
        var o = RenderOptions()
        o.backend = backend
        o.audio = audio
        o.log = { print($0) }
        if backend == .gpu {
            do { _ = try EGLSession() } catch {
                if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)", file: file, line: line) }
                throw XCTSkip("no EGL context: \(error)")
            }
        }
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
}
