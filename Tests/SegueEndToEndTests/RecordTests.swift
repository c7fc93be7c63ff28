import XCTest
import SegueCore
import SegueTestSupport

/// `segue record` from live streams on loopback (FFmpeg sending in real time), measured with FFmpeg and ffprobe:
/// length, A/V sync, crash safety, signals, segments against what was sent, square output of a rotated source,
/// sources that stop or never send.
final class RecordTests: RecordTestCase {
    /// MPEG-TS over UDP, as a contribution feed sends it: 4 s recorded = 4 s of video and audio, in sync.
    func testUDPStreamFourSeconds() throws {
        let p = port(0)
        try sender("udp://127.0.0.1:\(p)?pkt_size=1316")
        let out = path("udp.mp4")
        let r = try record(["udp://127.0.0.1:\(p)", "-o", out, "--duration", "4", "--timeout", "8"])
        try assertFourSecondTake(out, status: r.status, stderr: r.stderr)
        XCTAssertTrue(r.stderr.contains("copied as it comes"), r.stderr)   // nothing asked of the frames: stream copy
    }

    /// SRT: FFmpeg listens, Segue calls.
    func testSRTCallerFourSeconds() throws {
        let p = port(1)
        try sender("srt://127.0.0.1:\(p)?mode=listener")
        Thread.sleep(forTimeInterval: 0.5)
        let out = path("srt.mp4")
        let r = try record(["srt://127.0.0.1:\(p)", "-o", out, "--duration", "4", "--timeout", "8"])
        try assertFourSecondTake(out, status: r.status, stderr: r.stderr)
    }

    /// RTSP: Segue listens (`?listen=1`: the demuxer's `rtsp_flags=listen`), FFmpeg pushes (ANNOUNCE/RECORD over TCP).
    func testRTSPListenFourSeconds() throws {
        let p = port(2)
        let out = path("rtsp.mp4")
        // The sender starts once Segue listens (a shell waits a second first).
        let send = try sender("rtsp://127.0.0.1:\(p)/live", format: "rtsp", extra: ["-rtsp_transport", "tcp"], delay: 1)
        _ = send
        let r = try record(["rtsp://127.0.0.1:\(p)/live?listen=1", "-o", out, "--duration", "4", "--timeout", "8"])
        try assertFourSecondTake(out, status: r.status, stderr: r.stderr)
    }

    /// `kill -9` after 5 s: the fragmented take plays and holds at least 3 s (all but the last fragment, ≤ 2 s).
    func testKilledTakePlaysUpToItsLastFragment() throws {
        let out = path("killed.mp4")
        // Re-encoded (raw frames from libavfilter): Segue's own encoder and fragments.
        let r = try record(["lavfi:testsrc2=s=160x120:r=30[out0];sine=f=440:sample_rate=48000[out1]", "-o", out],
                           signal: SIGKILL, after: 5)
        XCTAssertEqual(r.status, 128 + SIGKILL, r.stderr)
        let frames = try probe(out, "nb_read_frames", count: true) ?? 0
        XCTAssertGreaterThanOrEqual(frames, 90, "at least 3 s of 30 fps; \(r.stderr)")
        let decode = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-map", "0:v", "-f", "null", "-"])
        XCTAssertEqual(decode.status, 0, decode.stderr)
        XCTAssertGreaterThanOrEqual(try probe(out, "duration", stream: "a:0") ?? 0, 3)
    }

    /// SIGINT finishes the take (exit 0): a plain MP4 with its index first that ffprobe reads and browsers play;
    /// the preview JPEG was written; `--progress json` reports.
    func testSIGINTFinishesTheTake() throws {
        let p = port(3)
        try sender("udp://127.0.0.1:\(p)?pkt_size=1316")
        let out = path("sigint.mp4"), preview = path("preview.jpg")
        let r = try record(["udp://127.0.0.1:\(p)", "-o", out, "--preview", preview, "--progress", "json"], signal: SIGINT, after: 3.5)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("stopped"), r.stderr)
        let probeRun = try TestSupport.run("ffprobe", ["-v", "error", out])
        XCTAssertEqual(probeRun.status, 0, probeRun.stderr)
        XCTAssertEqual(probeRun.stderr, "")
        XCTAssertGreaterThan(try probe(out, "duration") ?? 0, 1.5)
        try assertPlaysInBrowsers(out)
        let jpeg = try TestSupport.ffprobe(preview, "stream=codec_name,width,height")
        XCTAssertEqual(jpeg["codec_name"], "mjpeg")
        XCTAssertEqual(jpeg["width"], "160")
        XCTAssertTrue(r.stderr.contains(#""stage":"done""#), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }, [], "no temporary files left")
    }

    /// `--segment 2`: files split at keyframes, each starting with one; decoded together they are exactly a run of
    /// the frames sent (framemd5 of the stream copy against FFmpeg's own copy of what it sent: nothing lost or
    /// doubled); audio too; and `segue render` merges them.
    func testSegmentsAreTheWholeRecording() throws {
        let p = port(4)
        let sent = path("sent.ts")
        let sending = try sender("udp://127.0.0.1:\(p)?pkt_size=1316", seconds: 8, video: "testsrc2=s=160x120:r=30", tee: sent)
        let pattern = path("take_%03d.mp4")
        let r = try record(["udp://127.0.0.1:\(p)", "-o", pattern, "--segment", "2", "--duration", "5", "--timeout", "8"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = (0..<3).map { path(String(format: "take_%03d.mp4", $0)) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("take_003.mp4")), r.stderr)
        var recorded: [String] = [], audioSeconds = 0.0
        for f in files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: f), r.stderr)
            let first = try TestSupport.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags",
                                                        "-read_intervals", "%+#1", "-of", "csv=p=0", f]).text
            XCTAssertTrue(first.hasPrefix("K"), "\(f) starts with a keyframe (\(first))")
            recorded += try md5s(f)
            audioSeconds += try probe(f, "duration", stream: "a:0") ?? 0
        }
        // 2 s, 2 s and 1 s at 30 fps, each cut at a keyframe (every 15 frames: at 2 s exactly).
        XCTAssertEqual(recorded.count, 150, accuracy: 1)
        for (f, seconds) in zip(files, [2.0, 2.0, 1.0]) { XCTAssertEqual(try probe(f, "duration") ?? 0, seconds, accuracy: 0.05, f) }
        XCTAssertEqual(audioSeconds, 5, accuracy: 0.1)
        // What was sent, once the sender has finished writing its copy; the recording must be a run of it.
        sending.waitUntilExit()
        let source = try md5s(sent)
        guard let start = source.firstIndex(of: recorded.first ?? "") else { return XCTFail("the first recorded frame is not among those sent") }
        XCTAssertEqual(Array(source[start..<min(source.count, start + recorded.count)]), recorded, "the segments hold exactly the frames sent, in order")
        XCTAssertEqual(Set(recorded).count, recorded.count, "no frame twice")
        // The seeds' flow: record takes, then merge them with render.
        let merged = path("merged.mp4")
        let m = try TestSupport.run(TestSupport.segueBinary, ["render"] + files + ["--square", "-o", merged])
        XCTAssertEqual(m.status, 0, m.stderr)
        XCTAssertEqual(try probe(merged, "nb_read_frames", count: true) ?? 0, 150, accuracy: 1)
        XCTAssertEqual(try probe(merged, "width"), 120)
        XCTAssertEqual(try probe(merged, "height"), 120)
    }

    /// `--square` on a source turned by its display matrix (a portrait phone clip served over HTTP): upright and
    /// square, as FFmpeg's own autorotate and a centre crop give it.
    func testSquareOfARotatedSourceIsUpright() throws {
        let stored = path("stored.mp4"), served = path("www/portrait.mp4")
        try FileManager.default.createDirectory(atPath: path("www"), withIntermediateDirectories: true)
        try TestSupport.makeClip(stored, video: "testsrc2=s=160x96:r=30:d=3", extra: ["-g", "15"])
        // Turned by a display matrix, the index first (Python's server does not answer range requests).
        try TestSupport.ffmpeg(["-i", stored, "-c", "copy", "-metadata:s:v:0", "rotate=90", "-movflags", "+faststart", served])
        let p = port(5)
        try background("python3", ["-m", "http.server", String(p), "--bind", "127.0.0.1", "--directory", path("www")])
        Thread.sleep(forTimeInterval: 1)
        let out = path("square.mp4")
        let r = try record(["http://127.0.0.1:\(p)/portrait.mp4", "-o", out, "--square", "--duration", "1", "--timeout", "8"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let v = try TestSupport.ffprobe(out, "stream=width,height:stream_side_data=rotation")
        XCTAssertEqual(v["width"], "96")
        XCTAssertEqual(v["height"], "96")
        XCTAssertNil(v["rotation"], "drawn upright: no rotation left to apply")
        // The oracle: FFmpeg turns the stored picture by its matrix (autorotate) and crops the middle square.
        let expected = try TestSupport.decodeFrames(served, width: 96, height: 96, filter: "crop=96:96,\(TestSupport.bt601ToBT709)")
        let got = try TestSupport.decodeFrames(out, width: 96, height: 96)
        XCTAssertGreaterThanOrEqual(got.count, 25, r.stderr)
        TestSupport.assertYUVSequencesMatch(Array(expected.prefix(10)), Array(got.prefix(10)), width: 96, height: 96, minPSNR: 28, label: "square of the rotated source")
    }

    /// A source that stops mid-take (the SRT sender ends after 3 s): the take ends there, finished (exit 0).
    func testSourceStoppingMidTakeEndsItCleanly() throws {
        let p = port(6)
        try sender("srt://127.0.0.1:\(p)?mode=listener", seconds: 3)
        Thread.sleep(forTimeInterval: 0.5)
        let out = path("short.mp4")
        let r = try record(["srt://127.0.0.1:\(p)", "-o", out, "--duration", "30", "--timeout", "4"], limit: 25)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("srt://"), r.stderr)
        XCTAssertEqual(try probe(out, "duration") ?? 0, 2.5, accuracy: 0.6, r.stderr)
        try assertPlaysInBrowsers(out)
    }

    /// `--reconnect`: the SRT sender goes away after 3 s and another starts on the same port; the take goes on from
    /// the frame after the last one (continuous timestamps, every frame decodable) to its duration.
    func testReconnectContinuesTheTake() throws {
        let p = port(8)
        let send = "ffmpeg -nostdin -v error -re -f lavfi -i testsrc2=s=160x120:r=30 -f lavfi -i sine=r=48000 -t $1 -c:v libx264 -preset ultrafast -g 15 -c:a aac -f mpegts 'srt://127.0.0.1:\(p)?mode=listener'"
        try background("/bin/sh", ["-c", "send() { \(send.replacingOccurrences(of: "$1", with: "\"$1\"")); }; send 3; sleep 0.5; exec \(send.replacingOccurrences(of: "$1", with: "4"))"])
        Thread.sleep(forTimeInterval: 0.5)
        let out = path("reconnected.mp4")
        let r = try record(["srt://127.0.0.1:\(p)", "-o", out, "--reconnect", "--duration", "5", "--timeout", "5"], limit: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("reconnected 1 time"), r.stderr)
        XCTAssertEqual(try probe(out, "duration") ?? 0, 5, accuracy: 0.05)
        XCTAssertEqual(try probe(out, "nb_read_frames", count: true) ?? 0, 150, accuracy: 2)
        let decode = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-f", "null", "-"])
        XCTAssertEqual(decode.stderr, "")
        let pts = try TestSupport.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", out]).text
            .split(separator: "\n").compactMap { Double($0) }
        XCTAssertEqual(zip(pts.dropFirst(), pts).map { $0 - $1 }.max() ?? 1, 1.0 / 30, accuracy: 0.002, "no gap where the source came back")
    }

    /// A source that never sends: exit 1 with a message within `--timeout`, and no file.
    func testSourceNeverSendingFailsWithinTheTimeout() throws {
        let out = path("never.mp4")
        let r = try record(["udp://127.0.0.1:\(port(7))", "-o", out, "--timeout", "2"], limit: 20)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("sent nothing for 2 s"), r.stderr)
        XCTAssertLessThan(r.seconds, 2 + 8, "gave up at the timeout (plus start-up under load, with margin), not at the 20 s limit")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// Options are checked before anything is opened: exit 2, no file.
    func testBadOptionsAreRefused() throws {
        let existing = path("exists.mp4")
        _ = FileManager.default.createFile(atPath: existing, contents: Data("x".utf8))
        for (args, says) in [(["lavfi:testsrc2", "-o", existing], "exists already"),
                             (["lavfi:testsrc2", "-o", path("a.mp4"), "--segment", "2"], "%d pattern"),
                             (["lavfi:testsrc2", "-o", path("a.mkv")], ".mp4"),
                             (["nonsense", "-o", path("a.mp4")], "not a source"),
                             (["lavfi:testsrc2", "-o", path("a.mp4"), "--preset", "ultra"], "high, medium or low"),
                             (["lavfi:testsrc2", "-o", path("a.mp4"), "--crf", "20"], "does not take --crf")] {
            let r = try TestSupport.run(TestSupport.segueBinary, ["record"] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(says), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "x")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("a.mp4")))
    }
}
