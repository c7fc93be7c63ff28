import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline
import SegueTestSupport

/// Slow motion from phones (issue 37 item 9): the capture rate read where the file records it — Android's
/// `com.android.capture.fps`, Samsung's SEF trailer, an Apple high-frame-rate track — and what `"speed": "capture"`
/// makes of it (every frame the file holds once at the edit's rate), on the shared phone clips and made ones.
final class SlowMotionTests: EndToEndTestCase {
    /// The capture rate `segue probe` reads from every shared phone clip: the Android slow-motion clip records 240 fps
    /// and is stamped at 30 (already slowed 8×); the Android HEVC clip records 30 fps in real time; the others say
    /// nothing (an iPhone's 30 fps clips are no high-frame-rate track).
    func testCaptureRatesOfTheSharedPhoneClips() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let expected: [String: (rate: Double?, stream: String, slowed: Double?)] = [
            "android_slowmo_720p_vfr_noaudio_oddcolortags.mp4": (240, "30", 8),
            "android_hevc_fullrange_rot-90_datatrack_first.mp4": (30, "45000/1501", nil),
            "android12_portrait_4k60_rot-90.mp4": (nil, "60", nil),
            "android6_1080p_3frames.mp4": (nil, "30", nil),
            "android_3gp5_720p_rot-90.mp4": (nil, "30", nil),
            "pixel7_rot180_vfr_noaudio.mp4": (nil, "179/6", nil),
            "iphone4s_rot-90_audiofirst.mov": (nil, "30000/1001", nil),
            "iphone6s_livephoto_1440x1080_vfr_pcm.mov": (nil, "30000/1001", nil),
            "iphone14pro_hevc10_hlg_dolbyvision_rot-90.mov": (nil, "30", nil),
        ]
        for (name, want) in expected {
            let v = try XCTUnwrap(try ProbeReport(path: "\(media)/\(name)").video, name)
            XCTAssertEqual(v.captureRate, want.rate, name)
            XCTAssertEqual(v.streamRate, want.stream, name)
            XCTAssertEqual(v.alreadySlowedBy, want.slowed, name)
            XCTAssertEqual(v.captureRateSource, want.rate == nil ? nil : "com.android.capture.fps", name)
        }
        let slowmo = "\(media)/android_slowmo_720p_vfr_noaudio_oddcolortags.mp4"
        let out = try segue(["probe", slowmo])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.text.contains("captured at 240 fps (com.android.capture.fps), frames stamped at 30 fps: already slowed down 8× in the file"), out.text)
    }

    /// `capture` on the Android slow-motion clip: its frames are stamped at 30 fps (the phone slowed the 240 fps capture
    /// 8× already), so every frame once is speed edit rate / 30 — 1 in a 30 fps edit, 2 in a 60 fps edit — and the
    /// clip lasts its 0.525 s of stamps × 30 / edit rate: 16 frames either way (15.76 frames' worth, the last one
    /// whole). The output's duration is read back by ffprobe.
    func testCaptureSpeedOfTheAndroidSlowMotionClip() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let slowmo = "\(media)/android_slowmo_720p_vfr_noaudio_oddcolortags.mp4"
        let stamped = try XCTUnwrap(Double(try TestSupport.ffprobe(slowmo, "stream=duration")["duration"] ?? ""))
        for rate in [30, 60] {
            var c = ClipSpec(path: slowmo)
            c.speed = .capture
            var e = Edit(clips: [c])
            e.frameRate = FrameRate(Int32(rate)); e.renderSize = PixelSize(width: 160, height: 90); e.output.codec = .ffv1
            let out = path("slowmo\(rate).mkv")
            let r = try render(e, to: out, backend: .cpu, audio: false)
            let speed = Double(rate) / 30
            XCTAssertEqual(r.frames, Int64((stamped / speed * Double(rate)).rounded(.up)), "\(rate) fps")
            XCTAssertEqual(r.frames, 16)
            let probed = try TestSupport.ffprobe(out, "stream=nb_read_frames", count: true)
            XCTAssertEqual(probed["nb_read_frames"], "16")
            let d = try XCTUnwrap(Double(try TestSupport.ffprobe(out, "format=duration")["duration"] ?? ""))
            XCTAssertEqual(d, 16 / Double(rate), accuracy: 0.0015, "\(rate) fps")
        }
    }

    /// A Samsung-style slow-motion file: a 240 fps recording stamped in real time with an SEF trailer appended (its
    /// `SlowMotion_Data` slowing 0.050–0.150 s 8×): the capture rate is the stream rate (240, "Samsung SEF"), the
    /// sections are reported, and `capture` plays its 48 frames once each in a 30 fps edit (speed 30/240).
    func testSamsungSEFTrailer() throws {
        let clip = path("samsung.mp4")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=240:d=0.2", "-c:v", "mpeg4", "-q:v", "4", clip])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        bytes.append(contentsOf: Self.sef([("SlowMotion_Data", "50:150:4")]))
        try bytes.write(to: URL(fileURLWithPath: clip))
        let v = try XCTUnwrap(try ProbeReport(path: clip).video)
        XCTAssertEqual(v.captureRate, 240)
        XCTAssertEqual(v.captureRateSource, "Samsung SEF SlowMotion_Data, recorded in real time")
        XCTAssertEqual(v.slowMotionSections, ["0.050–0.150 s at 1/8"])
        XCTAssertNil(v.alreadySlowedBy)
        var c = ClipSpec(path: clip)
        c.speed = .capture
        var e = Edit(clips: [c])
        e.frameRate = FrameRate(30); e.output.codec = .ffv1
        XCTAssertEqual(try render(e, to: path("samsung.mkv"), backend: .cpu, audio: false).frames, 48)
        // A malformed trailer: the file still plays, the trailer is ignored and said so.
        bytes.append(contentsOf: [0xFF, 0xFF, 0, 0] + Array("SEFT".utf8))
        try bytes.write(to: URL(fileURLWithPath: clip))
        let bad = try XCTUnwrap(try ProbeReport(path: clip).video)
        XCTAssertNil(bad.captureRate)
        XCTAssertTrue(bad.captureRateSource?.contains("malformed Samsung SEF trailer") == true, bad.captureRateSource ?? "nil")
    }

    /// An iPhone original as recorded: a 240 fps track stamped in real time in a file whose `com.apple.quicktime.make`
    /// is Apple (an `mdta` key, as iPhones write it) reads as captured at 240 fps; the same track without the key, or
    /// an Apple file at 30 fps, reads as nothing recorded.
    func testAppleHighFrameRateTrack() throws {
        for (name, rate, apple, want) in [("apple240.mov", 240, true, 240.0), ("plain240.mov", 240, false, nil), ("apple30.mov", 30, true, nil)] as [(String, Int, Bool, Double?)] {
            try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=\(rate):d=0.1", "-c:v", "mpeg4"]
                                   + (apple ? ["-metadata", "com.apple.quicktime.make=Apple", "-movflags", "use_metadata_tags"] : []) + [path(name)])
            let v = try XCTUnwrap(try ProbeReport(path: path(name)).video)
            XCTAssertEqual(v.captureRate, want, name)
            XCTAssertEqual(v.captureRateSource, want == nil ? nil : "an Apple high-frame-rate track, recorded in real time", name)
            XCTAssertNil(v.alreadySlowedBy, name)
        }
    }

    /// The SEF parser on hostile input: each malformation is refused with what is wrong; no trailer is nil.
    func testSEFParserRefusesMalformedTrailers() throws {
        let good = Self.sef([("Other_Data", "x"), ("SlowMotion_Data", "1200:3400:4*4000:4500:3")])
        let sections = try XCTUnwrap(try SamsungSEF.slowMotionSections(tail: [1, 2, 3] + good))
        XCTAssertEqual(sections.map { [$0.startMs, $0.endMs, $0.slowdown] }, [[1200, 3400, 8], [4000, 4500, 4]])
        XCTAssertEqual(try SamsungSEF.slowMotionSections(tail: Self.sef([("Other_Data", "x")])), [])
        XCTAssertNil(try SamsungSEF.slowMotionSections(tail: Array("no trailer here".utf8)))
        XCTAssertNil(try SamsungSEF.slowMotionSections(tail: []))
        func refused(_ b: [UInt8], _ words: String, line: UInt = #line) {
            XCTAssertThrowsError(try SamsungSEF.slowMotionSections(tail: b), line: line) {
                XCTAssertTrue(($0 as? SamsungSEF.Malformed)?.message.contains(words) == true, "\($0)", line: line)
            }
        }
        var b = good
        let n = b.count
        refused([0, 0, 0, 0] + Array("SEFT".utf8), "trailer length 0")
        b[n - 8] = 0xFF; b[n - 7] = 0xFF; refused(b, "outside")                       // length past the start
        b = good; b[n - 8] &+= 1; refused(b, "no SEFH")                                // length off by one
        let head = n - 8 - (Int(good[n - 8]) | Int(good[n - 7]) << 8)
        b = good; b[head + 8] = 0xFF; b[head + 9] = 0xFF; refused(b, "entries do not fit")
        b = good; b[head + 12 + 4] = 0xFF; b[head + 12 + 5] = 0xFF; refused(b, "entry 0's data")
        b = good; b[head + 12 + 8] = 0xFF; b[head + 12 + 9] = 0xFF; refused(b, "entry 0's data")
        refused(Self.sef([("SlowMotion_Data", "12:ab:4")]), "is not START_MS:END_MS:E")
        refused(Self.sef([("SlowMotion_Data", "50:40:4")]), "is not START_MS:END_MS:E")
        refused(Self.sef([("SlowMotion_Data", "50:60:40")]), "is not START_MS:END_MS:E")
    }

    /// An SEF trailer as Samsung writes it (the layout `SamsungSEF` documents): each entry's data, then `SEFH`, version,
    /// count, the 12-byte entries, the trailer's length and `SEFT`.
    static func sef(_ entries: [(name: String, value: String)]) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var data: [UInt8] = [], refs: [(start: Int, size: Int)] = []
        for e in entries {
            let start = data.count, name = Array(e.name.utf8)
            data += [0, 0, 0x90, 0x08] + le32(name.count) + name + Array(e.value.utf8)
            refs.append((start, data.count - start))
        }
        var tail = Array("SEFH".utf8) + le32(106) + le32(entries.count)
        for r in refs { tail += [0, 0, 0x90, 0x08] + le32(data.count - r.start) + le32(r.size) }
        return data + tail + le32(tail.count) + Array("SEFT".utf8)
    }
}
