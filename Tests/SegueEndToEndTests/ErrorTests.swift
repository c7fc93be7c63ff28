import XCTest
import SegueCore
import SegueMedia
import SegueGL
import SeguePipeline
import SegueFarm
import SegueTestSupport

/// Issue 15 #3: every error knows its exit status and whether a farm should retry it, set where it is thrown; the
/// command line turns them into one message and one status; each command refuses options that do not apply to it.
final class ErrorTests: EndToEndTestCase {
    func testEachErrorCarriesItsExitStatusAndWhetherToRetry() {
        let cases: [(SegueError, Int32, Bool)] = [
            (EditError("clips[0].duration", "must be > 0"), 2, false),
            (UsageError("missing -o OUTPUT"), 2, false),
            (PlanMismatch(.edit), 2, false),
            (StitchRefused(problems: [], audioProblem: "missing", commands: []), 2, false),
            (MediaError(path: "a.mp4", function: "avformat_open_input", code: -1094995529, message: "Invalid data"), 1, false),
            // Output I/O, set where it is thrown, and errnos a retry may clear.
            (MediaError(path: "out.mp4", function: "av_interleaved_write_frame", code: -28, message: "No space left on device", outputIO: true), 1, true),
            (MediaError(path: "out.mp4", function: "avio_closep", code: -Int32(EIO), message: "I/O error"), 1, true),
            (GPUError("eglInitialize", "EGL_NOT_INITIALIZED", duringStartUp: true), 1, true),
            (GPUError("EGLSession", "GPU device 7 cannot be used", namedDeviceMissing: true, duringStartUp: true), 1, false),
            (GPUError("glTexImage2D", "GL_OUT_OF_MEMORY"), 1, false),
            (FarmError("sbatch failed (exit 1)"), 1, false),
            (TransientFailure("forced"), 1, true),
        ]
        for (e, status, retry) in cases {
            XCTAssertEqual(e.exitStatus, status, "\(type(of: e)): \(e)")
            XCTAssertEqual(e.isRetryable, retry, "\(type(of: e)): \(e)")
            XCTAssertEqual(RenderJob.isTransient(e), retry, "\(e)")
        }
        // The destination named instead of the temporary file keeps the flag.
        let io = MediaError(path: ".out.mp4.tmp", function: "av_write_trailer", code: -5, message: "I/O error", outputIO: true)
        XCTAssertEqual(io.about("out.mp4").path, "out.mp4")
        XCTAssertTrue(io.about("out.mp4").isRetryable)
        // A start-up failure on this machine (EGL disabled) is retryable; a device that is not there is not.
        XCTAssertThrowsError(try withEnvironment("SEGUE_DISABLE_EGL", "1") { _ = try EGLSession() }) {
            XCTAssertEqual(($0 as? GPUError)?.isRetryable, true, "\($0)")
        }
        XCTAssertThrowsError(try EGLSession(options: EGLOptions(device: "/dev/dri/renderD199"))) {
            XCTAssertEqual(($0 as? GPUError)?.isRetryable, false, "\($0)")
        }
        // A plan mismatch is typed: the remedy is the caller's to change, the difference stays.
        var m = PlanMismatch(.settings(edit: "crf=20", plan: "crf=18"))
        XCTAssertTrue(m.description.hasSuffix("differ from the plan's (crf=18): make the plan again"), m.description)
        m.remedy = "run `segue farm slurm` again"
        XCTAssertEqual(m.difference, .settings(edit: "crf=20", plan: "crf=18"))
        XCTAssertTrue(m.description.hasSuffix(": run `segue farm slurm` again"), m.description)
    }

    func withEnvironment<T>(_ name: String, _ value: String, _ body: () throws -> T) rethrows -> T {
        let old = getenv(name).map { String(cString: $0) }
        setenv(name, value, 1)
        defer { if let old { setenv(name, old, 1) } else { unsetenv(name) } }
        return try body()
    }

    /// Each command takes its own options: others are refused naming the option and the command.
    func testCommandsRefuseOptionsThatDoNotApplyToThem() throws {
        let a = try cornerClip("a.mp4")
        for (args, option, command) in [(["probe", "--crf", "20", a], "--crf", "probe"),
                                        (["frame", a, "--at", "0", "--codec", "ffv1", "-o", path("f.png")], "--codec", "frame"),
                                        (["transitions", "--square"], "--square", "transitions"),
                                        (["stitch", "--plan", "p.json", "dir", "-o", "x.mp4", "--backend", "cpu"], "--backend", "stitch"),
                                        (["farm", "status", dir, "--chunks", "3"], "--chunks", "farm status"),
                                        (["sheet", a, "-o", path("s.png"), "--music", a], "--music", "sheet")] {
            let r = try segue(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("segue \(command) does not take \(option)"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("f.png")))
        // What they do take still works.
        let probe = try segue(["probe", "--json", "--tone-map", "hable", a])
        XCTAssertEqual(probe.status, 0, probe.stderr)
        // An option given twice (the later would silently win) and --at with --frame are refused; --transition repeats.
        // A music volume that is not a number, after a file that exists, is named as such (not as a missing file).
        for (args, message) in [(["render", a, "-o", path("x.mp4"), "-o", path("y.mp4")], "-o is given twice"),
                                (["render", a, "--crf", "20", "--crf", "30", "-o", path("x.mp4")], "--crf is given twice"),
                                (["frame", a, "--at", "0.5", "--frame", "3", "-o", path("f.png")], "not both"),
                                (["render", a, "--music", a + ":loud", "-o", path("x.mp4")], "--music volume must be a number 0…16 after the last colon (got loud)")] {
            let r = try segue(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.mp4")) || FileManager.default.fileExists(atPath: path("y.mp4")))
        let cycle = try segue(["render", a, a, a, "--transition", "crossfade:0.2", "--transition", "push:0.2", "--codec", "ffv1",
                               "--no-audio", "--backend", "cpu", "-o", path("cycle.mkv")])
        XCTAssertEqual(cycle.status, 0, cycle.stderr)
    }

    /// `probe` of several files reports every file it can read and fails at the end if any could not be read.
    func testProbeReportsEveryFileAndFailsAtTheEnd() throws {
        let a = try cornerClip("a.mp4"), b = try cornerClip("b.mp4", size: "64x48")
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: path("junk.mp4")))
        let r = try segue(["probe", a, path("missing.mp4"), path("junk.mp4"), b])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.text.contains("a.mp4") && r.text.contains("96x64"), r.text)
        XCTAssertTrue(r.text.contains("b.mp4") && r.text.contains("64x48"), r.text)
        XCTAssertTrue(r.stderr.contains("missing.mp4: file not found"), r.stderr)
        XCTAssertTrue(r.stderr.contains("junk.mp4"), r.stderr)
        XCTAssertTrue(r.stderr.contains("2 of 4 file(s) could not be read"), r.stderr)
        let json = try segue(["probe", "--json", a, path("missing.mp4"), b])
        XCTAssertEqual(json.status, 1, json.stderr)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        XCTAssertEqual(reports.count, 2)
    }

    /// Farm I/O (a work folder that cannot be made) is a failure (1), not an invalid command line (2).
    func testFarmIOFailuresExitOne() throws {
        _ = try cornerClip("a.mp4")
        let edit = path("edit.json")
        try Data(#"{"clips": [{"path": "a.mp4"}]}"#.utf8).write(to: URL(fileURLWithPath: edit))
        try Data("a file".utf8).write(to: URL(fileURLWithPath: path("file")))
        let r = try segue(["farm", "slurm", edit, "--chunks", "2", "-o", path("out.mp4"), "--work-dir", path("file/work"), "--dry-run"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot create"), r.stderr)
        // A folder that is not a farm's work folder is a usage error.
        let bad = try segue(["farm", "resume", path("nowhere")])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("nowhere"), bad.stderr)
    }
}

extension ErrorTests {
    /// FFmpeg's own lines never reach standard error as FFmpeg prints them (`[h264 @ 0x…]`); with `--verbose` they
    /// come through Segue's logger, naming the clip.
    func testFFmpegLogLinesGoThroughSeguesLogger() throws {
        let clean = try cornerClip("clean.mp4", size: "320x240", seconds: 3)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: clean))
        var x: UInt32 = 12345
        for k in (bytes.count / 3)..<(bytes.count / 3 + bytes.count / 5) {
            x = x &* 1664525 &+ 1013904223
            bytes[k] = UInt8(truncatingIfNeeded: x >> 24)
        }
        let corrupt = path("damaged.mp4")
        try bytes.write(to: URL(fileURLWithPath: corrupt))
        let quiet = try segue(["render", corrupt, "--backend", "cpu", "--no-audio", "-o", path("q.mp4")])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertTrue(quiet.stderr.contains("corrupt packet"), quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains(" @ 0x") || quiet.stderr.contains("ffmpeg:"), quiet.stderr)
        let verbose = try segue(["render", corrupt, "--backend", "cpu", "--no-audio", "-o", path("v.mp4"), "--verbose"])
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("ffmpeg: [damaged.mp4] h264: "), verbose.stderr)
        XCTAssertFalse(verbose.stderr.contains(" @ 0x"), verbose.stderr)
        // Issue 37 #10: the decoder says "Error splitting the input into NAL units." of every damaged packet; each
        // line is shown once, and how often the repeated ones came is said at the end.
        let lines = verbose.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("ffmpeg: ") }
        let repeated = lines.filter { $0.hasSuffix(" times; shown once)") }
        let shown = lines.filter { !$0.hasSuffix(" times; shown once)") }
        XCTAssertEqual(Set(shown).count, shown.count, "a line shown twice: \(verbose.stderr)")
        let splitting = try XCTUnwrap(repeated.first { $0.contains("h264: Error splitting the input into NAL units. (came ") }, verbose.stderr)
        let count = Int(splitting.components(separatedBy: "(came ")[1].prefix { $0.isNumber }) ?? 0
        XCTAssertGreaterThanOrEqual(count, 2, splitting)
        // As many as the corrupt packets the render's own warning counts (one line for each).
        XCTAssertTrue(verbose.stderr.contains("\(count) corrupt packet(s) skipped"), verbose.stderr)
        XCTAssertEqual(shown.filter { $0 == "ffmpeg: [damaged.mp4] h264: Error splitting the input into NAL units." }.count, 1)
        XCTAssertGreaterThan(verbose.stderr.range(of: splitting)!.lowerBound, verbose.stderr.range(of: "segue: wrote")!.lowerBound, "said at the end")
    }

    /// `FFmpegLog.Once`: a line the first time, then only counted.
    func testFFmpegLinesOnceWithACount() {
        let once = FFmpegLog.Once()
        let a = FFmpegLog.Line(level: .warning, file: "a.mp4", component: "h264", message: "same")
        let b = FFmpegLog.Line(level: .warning, file: "b.mp4", component: "h264", message: "same")
        XCTAssertEqual([a, a, b, a, b].map(once.first), [true, false, true, false, false])
        XCTAssertEqual(once.repeats().map(\.line), ["[a.mp4] h264: same", "[b.mp4] h264: same"])
        XCTAssertEqual(once.repeats().map(\.count), [3, 2])
        let single = FFmpegLog.Once()
        XCTAssertTrue(single.first(a))
        XCTAssertTrue(single.repeats().isEmpty)
    }
}
