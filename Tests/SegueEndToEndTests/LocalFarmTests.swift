import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueFarm
import SegueTestSupport

/// `segue farm local` (issue 25): the farm's chunks as processes on this machine, `--jobs` at once. Lossless chunks
/// stitch to the single pass frame for frame and sample for sample; a chunk killed mid-render fails the run (no
/// stitch) and `farm resume` renders it again.
final class LocalFarmTests: EndToEndTestCase {
    /// Three 1 s clips with audio (a crossfade and a push), FFV1 at 64×48: lossless, so the frames compare exactly.
    func makeEdit() throws -> String {
        for k in 0..<3 {
            try TestSupport.makeClip(path("c\(k).mp4"), video: "testsrc2=s=96x64:r=30:d=1,hue=h=\(k * 120)",
                                     audio: "sine=f=\(440 + 220 * k):r=48000:d=1", extra: ["-g", "8"])
        }
        let edit = path("edit.json")
        try Data("""
        {"renderSize": {"width": 64, "height": 48}, "frameRate": 30,
         "clips": [{"path": "c0.mp4"},
                   {"path": "c1.mp4", "transition": {"type": "crossfade", "duration": 0.6}},
                   {"path": "c2.mp4", "transition": {"type": "push", "duration": 0.3, "direction": "up"}}],
         "output": {"codec": "ffv1"}}
        """.utf8).write(to: URL(fileURLWithPath: edit))
        return edit
    }

    func assertSameAsSinglePass(_ out: String, _ edit: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let single = path("single.mkv")
        if !FileManager.default.fileExists(atPath: single) {
            let r = try segue(["render", edit, "-o", single, "--backend", "cpu", "--progress", "none"])
            XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        }
        let frames = try framemd5(out, "v")
        XCTAssertEqual(frames.count, 63, file: file, line: line)
        XCTAssertEqual(frames, try framemd5(single, "v"), "video", file: file, line: line)
        XCTAssertEqual(try framemd5(out, "a"), try framemd5(single, "a"), "audio", file: file, line: line)
    }

    func testLocalChunksEqualTheSinglePass() throws {
        let edit = try makeEdit()
        let out = path("out.mkv"), work = path("work")
        // No engine named: an edit file runs on this machine.
        let r = try segue(["farm", edit, "--chunks", "3", "--jobs", "2", "-o", out, "--work-dir", work, "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("segue: wrote \(out) with 2 chunk process(es) at once"), r.stderr)
        XCTAssertFalse(r.stderr.contains("node-local"), "one machine needs no shared filesystem: \(r.stderr)")
        try assertSameAsSinglePass(out, edit)
        let status = try segue(["farm", "status", work])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(status.text.split(separator: "\n").filter { $0.contains(" done ") }.count, 5, status.text)
        // A chunk file removed after the stitch: still done (it is in the output), nothing for `farm resume` to do.
        let chunkFile = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: "\(work)/chunks").first { $0.hasPrefix("chunk_0001.") && !$0.hasSuffix(".json") })
        try FileManager.default.removeItem(atPath: "\(work)/chunks/\(chunkFile)")
        let after = try segue(["farm", "status", work])
        XCTAssertEqual(after.status, 0, after.text)
        XCTAssertFalse(after.text.contains("failed"), after.text)
        XCTAssertTrue(after.text.contains("stitched into the output; its file now: missing"), after.text)
        // The scripts run the same commands by hand.
        let chunks = try String(contentsOfFile: "\(work)/chunks.sh", encoding: .utf8)
        XCTAssertTrue(chunks.contains("render --plan \(work)/plan.json --chunk auto -o \(work)/chunks --progress none --backend cpu"), chunks)
        // Options of a cluster are refused, with what `farm local` takes instead.
        let bad = try segue(["farm", "local", edit, "--chunks", "3", "--partition", "gpu", "-o", out])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("segue farm local does not take --partition"), bad.stderr)
        // An edit that names no codec: the output's name chooses, as `segue render`'s does (.mkv: FFV1 chunks, the
        // same frames); a format rendered in one pass is refused before anything renders.
        let unnamed = path("unnamed.json")
        let named = try String(contentsOfFile: edit, encoding: .utf8)
        try named.replacingOccurrences(of: #"],\#n "output": {"codec": "ffv1"}}"#, with: "]}").write(toFile: unnamed, atomically: true, encoding: .utf8)
        XCTAssertFalse(try String(contentsOfFile: unnamed, encoding: .utf8).contains("ffv1"))
        let byName = try segue(["farm", "local", unnamed, "--chunks", "2", "-o", path("named.mkv"), "--work-dir", path("work2"), "--backend", "cpu"])
        XCTAssertEqual(byName.status, 0, byName.stderr)
        try assertSameAsSinglePass(path("named.mkv"), edit)
        let webm = try segue(["farm", "local", unnamed, "--chunks", "2", "-o", path("x.webm"), "--work-dir", path("work3")])
        XCTAssertEqual(webm.status, 2, webm.stderr)
        XCTAssertTrue(webm.stderr.contains("is rendered in one pass, not in chunks"), webm.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("work3/chunks/chunk_0001.mp4")), "nothing rendered")
    }

    func testResumeAfterAKilledChunk() throws {
        let edit = try makeEdit()
        let out = path("out.mkv"), work = path("work"), mark = path("killed-once")
        // The segue the jobs run: chunk 1's first attempt is killed (SIGKILL) 0.1 s after it starts, mid-render.
        let wrapper = path("segue-killing-chunk-1.sh")
        try Data("""
        #!/bin/sh
        case " $* " in *" --chunk 1 "*)
          if [ ! -e '\(mark)' ]; then
            touch '\(mark)'
            '\(TestSupport.segueBinary)' "$@" & sleep 0.1; kill -9 $!; wait $!; kill -9 $$
          fi;;
        esac
        exec '\(TestSupport.segueBinary)' "$@"

        """.utf8).write(to: URL(fileURLWithPath: wrapper))
        XCTAssertEqual(chmod(wrapper, 0o755), 0)
        var options = FarmOptions()
        options.chunks = 3
        options.output = out
        options.workDir = work
        options.renderArguments = ["--backend", "cpu"]
        let log = Collected<[String]>([])
        let engine = LocalEngine(jobs: 2, log: { line in log.update { $0.append(line) } })
        try Farm.submit(try EditFile.load(path: edit), editPath: edit, options: options, engine: engine, segue: wrapper, dryRun: false,
                        log: { line in log.update { $0.append(line) } })
        XCTAssertTrue(log.value.contains { $0.contains("chunk 1 failed (killed by signal 9)") }, "\(log.value)")
        XCTAssertTrue(log.value.contains { $0.contains("the stitch does not run: chunk(s) 1 failed") }, "\(log.value)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let st = try Farm.status(work)
        XCTAssertEqual(st.items.map { "\($0.kind)\($0.index.map(String.init) ?? "") \($0.state)" },
                       ["chunk0 done", "chunk1 failed", "chunk2 done", "audio done", "stitch failed"])
        XCTAssertEqual(st.exitStatus, 1)
        // `farm resume` renders chunk 1 again and stitches; the file is the single pass's.
        let r = try segue(["farm", "resume", work])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("started chunks 1 as job"), r.stderr)
        XCTAssertFalse(r.stderr.contains("the audio pass"), "the audio pass was done already: \(r.stderr)")
        try assertSameAsSinglePass(out, edit)
        XCTAssertEqual(try Farm.status(work).exitStatus, 0)
    }
}
