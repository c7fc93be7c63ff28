import XCTest
import SegueCore
import SegueEdit
import SegueTestSupport

/// Shared set-up of the OpenTimelineIO tests: the `opentimelineio` package (the oracle, in the virtual environment
/// `make test` makes: `.build/otio-venv`), counter clips whose every frame says which clip and frame it is, and the
/// comparison of rendered frames with what the oracle expects.
class OTIOTestCase: EndToEndTestCase {
    /// The virtual environment with `opentimelineio` and its CMX 3600 and FCP 7 XML adapters (`make otio-venv`).
    static var venv: String {
        ProcessInfo.processInfo.environment["SEGUE_OTIO_VENV"] ?? TestSupport.packageRoot + "/.build/otio-venv"
    }
    static var oracleScript: String { TestSupport.packageRoot + "/Tests/OTIO/otio_oracle.py" }

    /// The venv's python; skips the test when the venv is missing (fails under CI, where `make test` makes it).
    func oraclePython(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let python = OTIOTestCase.venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if TestSupport.inCI { XCTFail("the opentimelineio venv is missing (\(OTIOTestCase.venv)): `make test` makes it", file: file, line: line) }
            throw XCTSkip("no opentimelineio venv at \(OTIOTestCase.venv): run `make otio-venv`")
        }
        return python
    }

    /// Runs a program of the venv (`python`, `otioconvert`), failing on a non-zero exit.
    @discardableResult
    func venvRun(_ program: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> TestSupport.ProcessResult {
        _ = try oraclePython(file: file, line: line)
        let r = try TestSupport.run(OTIOTestCase.venv + "/bin/" + program, args)
        XCTAssertEqual(r.status, 0, "\(program) \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    /// The frames per second of every generated clip and timeline.
    static let rate = 24.0

    /// Five lossless counter clips a.mkv … e.mkv (64×48, 150 frames at 24 fps, FFV1, tagged BT.709 so that no matrix
    /// changes them): frame N of clip K is flat, Y = 40 + 4 (N mod 40), Cb = 96 + 16 K, Cr = 104 + 16 (N div 40).
    func counterClips(in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (k, name) in ["a", "b", "c", "d", "e"].enumerated() {
            try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x48:r=24:d=6.25,format=yuv420p,geq=lum='40+4*mod(N\\,40)':cb='\(96 + 16 * k)':cr='104+16*floor(N/40)'",
                                    "-c:v", "ffv1", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
                                    "\(folder)/\(name).mkv"])
        }
        return folder
    }

    /// The Y′CbCr of frame `frame` of counter clip `clip`.
    static func counter(clip: Int, frame: Int) -> [Double] {
        [40 + 4 * Double(frame % 40), 96 + 16 * Double(clip), 104 + 16 * Double(frame / 40)]
    }

    /// The mean Y′, Cb, Cr of every frame of a 64×48 yuv420p video.
    func means(_ video: String) throws -> [[Double]] {
        try TestSupport.decodeFrames(video, width: 64, height: 48).map { f in
            let y = 64 * 48, c = 32 * 24
            return [Array(f[0..<y]), Array(f[y..<(y + c)]), Array(f[(y + c)..<(y + 2 * c)])].map { p in Double(p.reduce(0) { $0 + Int($1) }) / Double(p.count) }
        }
    }

    /// What the oracle expects of one timeline (`otio_oracle.py`).
    struct Expected: Decodable {
        struct Clip: Decodable {
            let name: String, path: String, black: Bool
            /// Frames on the timeline, cut to cut, and with the transitions' handles.
            let start: Double, end: Double, segueStart: Double, segueEnd: Double
            let `in`: Double, out: Double
        }
        struct Frame: Decodable {
            let kind: String
            let clip: Int?, frame: Int?
            let from: [Int]?, to: [Int]?
            let progress: Double?
        }
        let duration: Double
        let clips: [Clip]
        let frames: [Frame]
    }

    /// Checks `segue plan --json` of `timeline` against the oracle: the frame count, and every clip's range (with its
    /// handles) and file. Returns the report.
    @discardableResult
    func assertPlanAgrees(_ timeline: String, _ expected: Expected, extra: [String] = [], label: String,
                          file: StaticString = #filePath, line: UInt = #line) throws -> TimelineReport? {
        let r = try segue(["plan", timeline, "--json"] + extra)
        XCTAssertEqual(r.status, 0, "\(label): \(r.stderr)", file: file, line: line)
        guard r.status == 0 else { return nil }
        let report = try JSONDecoder().decode(TimelineReport.self, from: r.stdout)
        XCTAssertEqual(report.frameCount, Int64(expected.duration.rounded()), "\(label): frame count (OTIO's duration())", file: file, line: line)
        let ours = report.clips.filter { $0.kind != "gap" }.map { ($0.kind == "fill" ? "black" : $0.path, $0.start * OTIOTestCase.rate, $0.end * OTIOTestCase.rate) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        let theirs = expected.clips.map { ($0.black ? "black" : $0.path, $0.segueStart, $0.segueEnd) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        XCTAssertEqual(ours.count, theirs.count, "\(label): clips \(ours) vs OTIO's \(theirs)", file: file, line: line)
        for (a, b) in zip(ours, theirs) {
            XCTAssertEqual(a.0, b.0, "\(label): clip file", file: file, line: line)
            XCTAssertEqual(a.1, b.1, accuracy: 1e-4, "\(label): \(a.0) starts at frame \(a.1), OTIO says \(b.1)", file: file, line: line)
            XCTAssertEqual(a.2, b.2, accuracy: 1e-4, "\(label): \(a.0) ends at frame \(a.2), OTIO says \(b.2)", file: file, line: line)
        }
        return report
    }

    /// Checks every rendered frame against the oracle: the counter frame of the clip on top, black, or inside a
    /// transition the mix of the two sides at its progress (Y′CbCr within 1.5 codes: the renders are lossless).
    func assertFramesAgree(_ video: String, _ expected: Expected, label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try means(video)
        XCTAssertEqual(got.count, expected.frames.count, "\(label): frames rendered", file: file, line: line)
        var bad: [String] = []
        for (n, (g, e)) in zip(got, expected.frames).enumerated() {
            let want: [Double]
            switch e.kind {
            case "black": want = [16, 128, 128]
            case "frame": want = OTIOTestCase.counter(clip: e.clip!, frame: e.frame!)
            default:
                // A side of nothing (a transition at a track's end): black.
                let black: [Double] = [16, 128, 128]
                let a = e.from.map { OTIOTestCase.counter(clip: $0[0], frame: $0[1]) } ?? black, b = e.to.map { OTIOTestCase.counter(clip: $0[0], frame: $0[1]) } ?? black
                let p = e.progress!
                want = zip(a, b).map { (1 - p) * $0 + p * $1 }
            }
            if zip(g, want).contains(where: { abs($0 - $1) > 1.5 }) {
                bad.append("frame \(n): got Y′CbCr \(g.map { Int($0.rounded()) }), OTIO says \(e.kind) \(want.map { Int($0.rounded()) })")
            }
        }
        XCTAssert(bad.isEmpty, "\(label): \(bad.count) frames differ: \(bad.prefix(6).joined(separator: "; "))", file: file, line: line)
    }

    /// Renders a timeline losslessly (FFV1, CPU renderer, no audio) with the command line.
    func renderLossless(_ timeline: String, to out: String, extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try segue(["render", timeline, "-o", out, "--codec", "ffv1", "--backend", "cpu", "--no-audio"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
    }
}
