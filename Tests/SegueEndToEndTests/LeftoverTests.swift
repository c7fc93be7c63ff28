import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueGL
import SegueTestSupport

/// Issue 22 #9–#11: nothing left behind and no rough edges at the end: the temporary file of a render killed with
/// SIGKILL is removed by the next render of that output (and only it); a one-frame clip and a long `--transition` on
/// the command line shorten the transition; a library program exiting right after a render error exits cleanly.
final class LeftoverTests: EndToEndTestCase {
    func hidden() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.sorted() }

    func testAKilledRendersTemporaryFileIsRemovedByTheNextRenderOfThatOutput() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=320x240:r=30:d=20")
        // A render killed with SIGKILL while it writes leaves its temporary file.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestSupport.segueBinary)
        p.arguments = ["render", path("a.mp4"), "-o", path("out.mp4"), "--backend", "cpu", "--preset", "veryslow"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(30)
        while try hidden().isEmpty && Date() < deadline { usleep(50_000) }
        usleep(300_000)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let left = try hidden()
        XCTAssertEqual(left.count, 1, "\(left)")
        let name = try XCTUnwrap(left.first)
        XCTAssertEqual(TemporaryFiles.writer(of: name, outputName: "out.mp4")?.pid, p.processIdentifier)
        XCTAssertEqual(TemporaryFiles.writer(of: name, outputName: "out.mp4")?.host, TemporaryFiles.host)
        // Others that must stay: a live process's (this test's), another output's, another machine's.
        let live = ".out.mp4.segue-\(TemporaryFiles.host)-\(getpid())-7.tmp"
        let other = ".other.mp4.segue-\(TemporaryFiles.host)-\(p.processIdentifier)-1.tmp"
        let remote = ".out.mp4.segue-some-other-host-\(p.processIdentifier)-1.tmp"
        let legacy = ".out.mp4.segue-\(p.processIdentifier)-3.tmp"   // as Segue named it before: this machine's
        for n in [live, other, remote, legacy] { XCTAssertTrue(FileManager.default.createFile(atPath: path(n), contents: Data("x".utf8))) }
        // The next render of out.mp4 removes the dead process's files of out.mp4 only.
        try TestSupport.makeClip(path("b.mp4"), video: "testsrc2=s=64x48:r=30:d=0.2")
        let r = try segue(["render", path("b.mp4"), "-o", path("out.mp4"), "--preset", "ultrafast"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try hidden(), [live, other, remote].sorted())
    }

    /// On the command line one --transition applies to every join: a clip shorter than it shortens it, with a warning.
    func testTheCommandLineShortensATransitionToWhatFits() throws {
        try TestSupport.makeClip(path("long.mp4"), video: "testsrc2=s=64x48:r=30:d=2")
        try TestSupport.makeClip(path("short.mp4"), video: "testsrc2=s=64x48:r=30:d=0.3")
        let r = try segue(["render", path("long.mp4"), path("short.mp4"), path("long.mp4"), "--transition", "crossfade:1", "-o", path("out.mkv"),
                           "--codec", "ffv1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: clips[1].transition: the crossfade of 1 s is longer than clip 0 (2 s) and clip 1 (0.300 s) allow: shortened to 0.150 s"), r.stderr)
        // 2 + 0.3 + 2 − 2 × 0.15 = 4 s.
        XCTAssertEqual(try TestSupport.ffprobe(path("out.mkv"), "stream=nb_read_frames", count: true)["nb_read_frames"], "120")
        // An edit file keeps the error unless it asks.
        try Data(#"{"clips": [{"path": "long.mp4"}, {"path": "short.mp4", "transition": {"type": "crossfade", "duration": 1}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path("edit.json")))
        let refused = try segue(["plan", path("edit.json")])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("clips[1].transition.duration"), refused.stderr)
    }

    /// A library program (Tests/ExitCheck) that renders on the GPU and exits the moment the render fails: it died of
    /// SIGSEGV inside libEGL about once in 40 runs under load (5 of 200) while the render's thread was still ending;
    /// 40 runs, two at a time, each must exit with status 3.
    func testALibraryProgramExitsCleanlyRightAfterARenderError() throws {
        let binary = URL(fileURLWithPath: TestSupport.segueBinary).deletingLastPathComponent().appendingPathComponent("segue-exit-check").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { return XCTFail("no \(binary): swift build builds it") }
        do { _ = try EGLSession() } catch {
            if TestSupport.inCI { return XCTFail("GPU tests must run in CI: \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
        try TestSupport.makeClip(path("small.mp4"), video: "testsrc2=s=64x48:r=30:d=0.2")
        // /proc/self cannot hold a file: the output fails to open after the GPU has started.
        let statuses = Collected([Int32]())
        let clip = path("small.mp4")
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<20 {
                let r = try? TestSupport.run(binary, [clip, "/proc/self/out.mp4"])
                statuses.update { $0.append(r?.status ?? -1) }
            }
        }
        XCTAssertEqual(statuses.value.count, 40)
        XCTAssertEqual(statuses.value.filter { $0 != 3 }, [], "every run exits with status 3 (a crash: the signal, 11 for SIGSEGV)")
    }
}
