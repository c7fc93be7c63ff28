import XCTest
import SegueTestSupport

/// Shared machinery of the `segue record` tests: live senders (FFmpeg with `-re`, on loopback), the command run in
/// the background and stopped by a signal, and the oracles (FFmpeg and ffprobe) that measure what it wrote.
class RecordTestCase: EndToEndTestCase {
    /// Background processes of the test (senders, servers, a recording), ended in `tearDown`.
    var processes: [Process] = []

    override func tearDownWithError() throws {
        for p in processes where p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    /// A loopback port for this test: spread by process id and test name, so that runs at once do not meet.
    func port(_ n: Int) -> Int {
        20_000 + Int(getpid() % 400) * 50 + abs(name.hashValue % 40) + n
    }

    /// Starts `program args` in the background (output discarded unless `stderrTo`).
    @discardableResult
    func background(_ program: String, _ args: [String], stderrTo: String? = nil) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/\(program)")
        p.arguments = args
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        if let e = stderrTo {
            _ = FileManager.default.createFile(atPath: e, contents: nil)
            p.standardError = FileHandle(forWritingAtPath: e)
        } else {
            p.standardError = FileHandle.nullDevice
        }
        try p.run()
        processes.append(p)
        return p
    }

    /// The sync pattern: a white frame at every whole second on black, and a 50 ms 1 kHz beep starting with it.
    static let flashVideo = "color=c=black:s=160x120:r=30,drawbox=c=white:t=fill:enable='lt(mod(t,1),0.02)'"
    static let beepAudio = "aevalsrc='if(lt(mod(t,1),0.05),0.8*sin(2*PI*1000*t),0)':s=48000:c=mono"

    /// FFmpeg sending the sync pattern (H.264, keyframe every `gop` frames, AAC) in real time to `url` as `format`,
    /// for `seconds`; `tee` also keeps what was sent in a file.
    @discardableResult
    func sender(_ url: String, format: String = "mpegts", seconds: Double = 12, gop: Int = 15, video: String = flashVideo,
                extra: [String] = [], tee: String? = nil, delay: Double = 0) throws -> Process {
        var args = ["-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", video, "-f", "lavfi", "-i", RecordTestCase.beepAudio,
                    "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-g", String(gop), "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-b:a", "96k"] + extra
        if let tee {
            args += ["-map", "0:v", "-map", "1:a", "-f", "tee", "[f=\(format)]\(url)|[f=mpegts]\(tee)"]
        } else {
            args += ["-f", format, url]
        }
        if delay > 0 {
            // `sleep` then `exec ffmpeg`: the same process, so tearDown's terminate reaches FFmpeg.
            return try background("/bin/sh", ["-c", "sleep \(delay); exec ffmpeg \"$@\"", "sh"] + args)
        }
        return try background("ffmpeg", args)
    }

    /// Runs `segue record ARGS`, sending `signal` after `after` seconds when given; waits at most `limit` seconds
    /// (then kills it and fails). Returns the exit status (128 + signal for a process a signal ended), stderr and
    /// the wall-clock seconds it ran.
    func record(_ args: [String], signal sig: Int32? = nil, after: Double = 0, limit: Double = 60,
                file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, stderr: String, seconds: Double) {
        let log = path("record-\(UUID().uuidString.prefix(6)).log")
        let started = Date()
        let p = try background(TestSupport.segueBinary, ["record"] + args, stderrTo: log)
        if let sig {
            Thread.sleep(forTimeInterval: after)
            kill(p.processIdentifier, sig)
        }
        while p.isRunning && Date().timeIntervalSince(started) < limit { Thread.sleep(forTimeInterval: 0.05) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            XCTFail("segue record did not end within \(limit) s", file: file, line: line)
        }
        p.waitUntilExit()
        let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
        return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "", Date().timeIntervalSince(started))
    }

    /// ffprobe's value of `entry` for `stream` (`v:0`, `a:0`) as a number.
    func probe(_ file: String, _ entry: String, stream: String = "v:0", count: Bool = false) throws -> Double? {
        try TestSupport.ffprobe(file, "stream=\(entry)", stream: stream, count: count)[entry].flatMap(Double.init)
    }

    /// Where the sync pattern's first flash after 0.5 s is in `file`'s video and where its beep starts in the audio,
    /// in seconds (FFmpeg decodes both; the audio padded to start at time 0, `aresample=async=1:first_pts=0`).
    func syncOffset(_ file: String, file f: StaticString = #filePath, line: UInt = #line) throws -> (video: Double, audio: Double)? {
        let start = try probe(file, "start_time") ?? 0
        let frames = try TestSupport.decodeFrames(file, width: 16, height: 12, pixFmt: "gray", filter: "scale=16:12")
        let rate = 30.0
        guard let i = frames.indices.first(where: { Double($0) / rate + start >= 0.5 && mean(frames[$0]) > 128 }) else {
            XCTFail("no flash in \(file)", file: f, line: line)
            return nil
        }
        let tv = Double(i) / rate + start
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-map", "0:a", "-af", "aresample=async=1:first_pts=0",
                                               "-ac", "1", "-ar", "48000", "-f", "f32le", "-"])
        let samples: [Float] = r.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let from = max(0, Int((tv - 0.5) * 48000))
        guard from < samples.count, let k = samples[from...].firstIndex(where: { abs($0) > 0.3 }) else {
            XCTFail("no beep in \(file) after \(tv - 0.5) s", file: f, line: line)
            return nil
        }
        return (tv, Double(k) / 48000)
    }

    func mean(_ bytes: [UInt8]) -> Double { bytes.isEmpty ? 0 : Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count) }

    /// The checks of a 4-second take of the sync pattern: 4 ± 0.1 s of video and of audio, the beep within one frame
    /// of its flash, every frame decodable.
    func assertFourSecondTake(_ file: String, status: Int32, stderr: String, file f: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(status, 0, stderr, file: f, line: line)
        let v = try probe(file, "duration"), a = try probe(file, "duration", stream: "a:0")
        XCTAssertEqual(v ?? 0, 4, accuracy: 0.1, "video seconds; \(stderr)", file: f, line: line)
        XCTAssertEqual(a ?? 0, 4, accuracy: 0.1, "audio seconds; \(stderr)", file: f, line: line)
        XCTAssertEqual(try probe(file, "nb_read_frames", count: true) ?? 0, 120, accuracy: 3, "frames", file: f, line: line)
        let decode = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-f", "null", "-"])
        XCTAssertEqual(decode.stderr, "", "FFmpeg decodes every frame", file: f, line: line)
        if let s = try syncOffset(file, file: f, line: line) {
            XCTAssertEqual(s.audio, s.video, accuracy: 1.0 / 30, "A/V offset (beep at \(s.audio) s, flash at \(s.video) s)", file: f, line: line)
        }
    }

    /// What browsers play from a plain MP4 (the checks a `<video>` element depends on, read with ffprobe and the
    /// file's boxes): H.264 Constrained Baseline, Main or High in 4:2:0 8-bit (avc1), AAC-LC, the index (moov)
    /// before the media (mdat), no fragments left (a finished take), and every frame decodable.
    func assertPlaysInBrowsers(_ file: String, file f: StaticString = #filePath, line: UInt = #line) throws {
        let v = try TestSupport.ffprobe(file, "stream=codec_name,codec_tag_string,profile,pix_fmt")
        XCTAssertEqual(v["codec_name"], "h264", file: f, line: line)
        XCTAssertEqual(v["codec_tag_string"], "avc1", file: f, line: line)
        XCTAssertTrue(["Constrained Baseline", "Baseline", "Main", "High"].contains(v["profile"] ?? ""), "\(v)", file: f, line: line)
        XCTAssertEqual(v["pix_fmt"], "yuv420p", file: f, line: line)
        let a = try TestSupport.ffprobe(file, "stream=codec_name,profile", stream: "a:0")
        if !a.isEmpty { XCTAssertEqual(a["codec_name"], "aac", file: f, line: line); XCTAssertEqual(a["profile"], "LC", file: f, line: line) }
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let moov = data.range(of: Data("moov".utf8))?.lowerBound, mdat = data.range(of: Data("mdat".utf8))?.lowerBound
        XCTAssertNotNil(moov, file: f, line: line)
        XCTAssertLessThan(moov ?? .max, mdat ?? 0, "+faststart: the index comes first", file: f, line: line)
        XCTAssertNil(data.range(of: Data("moof".utf8)), "a finished take is a plain MP4", file: f, line: line)
        let decode = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-f", "null", "-"])
        XCTAssertEqual(decode.status, 0, file: f, line: line)
        XCTAssertEqual(decode.stderr, "", file: f, line: line)
    }
}
