import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
@testable import SegueFarm
import SegueMedia
import SegueTestSupport

/// Which audio stream plays, and at what level: several tracks, mono, 5.1; `"type": "cut"` in an edit file.
final class AudioTrackTests: EndToEndTestCase {
    /// A Matroska clip with two audio streams: track 0 a 440 Hz tone, track 1 a 1250 Hz tone; `defaults` are the
    /// streams' default flags (written as given: `-default_mode passthrough`).
    func twoTrackClip(_ name: String, defaults: (Bool, Bool)) throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=32x32:r=30:d=1",
                                "-f", "lavfi", "-i", "sine=f=440:r=48000:d=1", "-f", "lavfi", "-i", "sine=f=1250:r=48000:d=1",
                                "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le",
                                "-disposition:a:0", defaults.0 ? "default" : "0", "-disposition:a:1", defaults.1 ? "default" : "0",
                                "-default_mode", "passthrough", "-shortest", p])
        return p
    }
    /// Frequency from the zero crossings of the left channel over the middle 0.5 s.
    func frequency(_ x: [Float]) -> Double {
        let range = 12000..<36000
        let crossings = range.dropLast().filter { (x[$0 * 2] < 0) != (x[($0 + 1) * 2] < 0) }.count
        return Double(crossings) / 2 / (Double(range.count) / 48000)
    }

    func testDefaultFlaggedTrackPlaysAndAClipCanChoose() throws {
        let secondDefault = try twoTrackClip("second.mkv", defaults: (false, true))
        let noneFlagged = try twoTrackClip("none.mkv", defaults: (false, false))
        let probe = try ProbeReport(path: secondDefault)
        XCTAssertEqual(probe.audio.map(\.track), [0, 1])
        XCTAssertEqual(probe.audio.map(\.isDefault), [false, true])
        XCTAssertEqual(probe.audio.map(\.playedByDefault), [false, true])
        XCTAssertTrue(probe.text.contains("audio track 1 (stream #2): pcm_s16le 48000 Hz, 1 ch, flagged default; played unless"), probe.text)
        func played(_ file: String, track: Int?) throws -> Double {
            var c = clip(file)
            c.audioTrack = track
            let f = frequency(try renderedAudio(Edit(clips: [c]), "out-\(track ?? -1)-\(URL(fileURLWithPath: file).lastPathComponent).mkv"))
            print("\(URL(fileURLWithPath: file).lastPathComponent), audioTrack \(track.map(String.init) ?? "default"): \(f) Hz")
            return f
        }
        XCTAssertEqual(try played(secondDefault, track: nil), 1250, accuracy: 5, "the stream flagged default")
        XCTAssertEqual(try played(noneFlagged, track: nil), 440, accuracy: 5, "none flagged: the first audio stream")
        XCTAssertEqual(try played(secondDefault, track: 0), 440, accuracy: 5)
        XCTAssertEqual(try played(noneFlagged, track: 1), 1250, accuracy: 5)
        // The plan says which track plays, and the chunk plan's edit hash changes with it.
        var e = Edit(clips: [clip(secondDefault)])
        XCTAssertTrue(try RenderJob.resolve(e).notes.contains { $0.contains("audio track 1 of 2 (the file's default)") })
        let defaultHash = try ChunkPlanner.plan(e, editPath: path("e.json"), chunks: 1).editHash
        e.clips[0].audioTrack = 1
        XCTAssertNotEqual(try ChunkPlanner.plan(e, editPath: path("e.json"), chunks: 1).editHash, defaultHash)
        // A track the file does not have is an edit error naming the field and how many there are.
        e.clips = [clip(noneFlagged), clip(secondDefault)]
        e.clips[1].audioTrack = 2
        XCTAssertThrowsError(try RenderJob.resolve(e)) { error in
            guard let err = error as? EditError else { return XCTFail("\(error)") }
            XCTAssertEqual(err.field, "clips[1].audioTrack")
            XCTAssertTrue(err.description.contains("has 2 audio streams: audioTrack must be 0…1 (got 2)"), err.description)
        }
        let silent = path("silent.mp4")
        try TestSupport.makeClip(silent, video: "color=c=gray:s=32x32:r=30:d=1")
        e.clips = [clip(silent)]
        e.clips[0].audioTrack = 0
        XCTAssertThrowsError(try RenderJob.resolve(e)) { XCTAssertTrue("\($0)".contains("has no audio stream"), "\($0)") }
    }

    /// An edit of real clips drawn at 32×32: only the audio is measured.
    func small(_ clips: [ClipSpec]) -> Edit {
        var e = Edit(clips: clips)
        e.renderSize = PixelSize(width: 32, height: 32)
        return e
    }

    /// Mono plays at full level in both channels: the same tone in a mono and in a stereo clip gives the same RMS
    /// per channel.
    func testMonoPlaysAtFullLevelInBothChannels() throws {
        let tone = "0.125*sin(2*PI*440*t)"
        let mono = try exprClip("mono.mov", tone, seconds: 1, rate: 44100)
        let stereo = try exprClip("stereo.mov", "\(tone)|\(tone)", seconds: 1, rate: 44100)
        XCTAssertEqual(try TestSupport.ffprobe(mono, "stream=channels", stream: "a:0")["channels"], "1")
        XCTAssertEqual(try TestSupport.ffprobe(stereo, "stream=channels", stream: "a:0")["channels"], "2")
        let x = try renderedAudio(Edit(clips: [clip(mono), clip(stereo)]), "ms.mkv")
        for c in 0..<2 {
            let m = rmsDB(x, channel: c, of: 2, 12000..<36000), s = rmsDB(x, channel: c, of: 2, 60000..<84000)
            print(String(format: "channel %d: mono %.3f dBFS, stereo %.3f dBFS, difference %.3f dB", c, m, s, m - s))
            XCTAssertEqual(m, s, accuracy: 0.1, "channel \(c): mono \(m) dB, stereo \(s) dB")
            XCTAssertEqual(s, 20 * log10(0.125 / 2.0.squareRoot()), accuracy: 0.05, "the tone's amplitude, 1/8")
        }
    }

    /// Real mono files at their own level in each channel: an 8 kHz AAC phone clip, a 22.05 kHz PCM camera clip whose
    /// one channel has no layout, and an 11.025 kHz mono MP3 as music.
    func testRealMonoFilesKeepTheirLevel() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let cases: [(file: String, videoStart: Double)] = [("h263_cif_sar12-11_aac8k.3gp", 0.128), ("camera_mjpeg_320x240_pcm22k.avi", 0)]
        for (name, videoStart) in cases {
            let file = "\(media)/\(name)"
            let x = try renderedAudio(small([clip(file)]), "\(name).mkv")
            let src = try samples(file, channels: 1)
            let k0 = Int(videoStart * 48000)
            let ref = rmsDB(src, channel: 0, of: 1, (k0 + 24000)..<(k0 + 96000))
            for c in 0..<2 {
                let ours = rmsDB(x, channel: c, of: 2, 24000..<96000)
                print(String(format: "%@ channel %d: %.3f dBFS, source %.3f dBFS", name, c, ours, ref))
                XCTAssertEqual(ours, ref, accuracy: 0.1, "\(name) channel \(c)")
            }
        }
        let v = path("v.mp4")
        try TestSupport.makeClip(v, video: "color=c=gray:s=32x32:r=30:d=4")
        var e = small([clip(v)])
        var m = MusicSpec(path: "\(media)/music_mp3_11k_mono_65s.mp3")
        m.start = MediaTime(seconds: 20)
        e.music = m
        let x = try renderedAudio(e, "song.mkv")
        let src = try samples(m.path, channels: 1, extra: ["-ss", "20"])
        let ref = rmsDB(src, channel: 0, of: 1, 24000..<168000)
        for c in 0..<2 {
            let ours = rmsDB(x, channel: c, of: 2, 24000..<168000)
            print(String(format: "mono song channel %d: %.3f dBFS, source %.3f dBFS", c, ours, ref))
            XCTAssertEqual(ours, ref, accuracy: 0.1, "song channel \(c)")
        }
    }

    /// 5.1 is downmixed as FFmpeg does: L = FL + 0.707·FC + 0.707·BL, R likewise, LFE dropped, not normalised.
    func testSurroundDownmixIsFFmpegs() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let file = "\(media)/bbb_rot-90_aac51.mp4"
        let x = try renderedAudio(small([clip(file)]), "51.mkv")
        let six = try samples(file, channels: 6)   // FL FR FC LFE BL BR
        let offset = 4000                           // the first video frame is at 1/12 s
        let c = 0.5.squareRoot()
        for (ch, front, back) in [(0, 0, 4), (1, 1, 5)] {
            let range = 4800..<72000
            var err = 0.0, sig = 0.0
            for k in range {
                let s = (k + offset) * 6
                let expected = Double(six[s + front]) + c * Double(six[s + 2]) + c * Double(six[s + back])
                err += pow(Double(x[k * 2 + ch]) - expected, 2)
                sig += expected * expected
            }
            let db = 10 * log10(err / sig)
            print(String(format: "5.1 downmix channel %d: residual %.1f dB against FL + 0.707 FC + 0.707 BL", ch, db))
            XCTAssertLessThan(db, -60)
        }
    }

    /// `"type": "cut"` in an edit file is the command line's `--transition cut`.
    func testCutInAnEditFileIsTheCommandLinesCut() throws {
        let a = try toneClip("a.mov", freq: 440, seconds: 1), b = try toneClip("b.mov", freq: 660, seconds: 1)
        let edit = path("cut.json")
        try Data(#"{"clips": [{"path": "a.mov"}, {"path": "b.mov", "transition": {"type": "cut"}}, {"path": "a.mov", "transition": {"type": "crossfade", "duration": 0.5}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: edit))
        let fromFile = try TestSupport.run(TestSupport.segueBinary, ["plan", edit, "--json"])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        let fromCLI = try TestSupport.run(TestSupport.segueBinary, ["plan", a, b, a, "--transition", "cut", "--transition", "crossfade:0.5", "--json"])
        XCTAssertEqual(fromCLI.status, 0, fromCLI.stderr)
        XCTAssertEqual(fromFile.text, fromCLI.text)
        XCTAssertTrue(fromFile.text.contains("\"frameCount\" : 75"), fromFile.text)   // 3 − 0.5 s at 30 fps
        let plan = try RenderJob.resolve(try EditFile.load(path: edit))
        XCTAssertNil(plan.placements[1].spec.transition)
        XCTAssertEqual(plan.placements[1].start, MediaTime(seconds: 1))
    }
}
