import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueMedia
import SegueTestSupport

/// Issue 22 #3 and #4: a frame rate no camera records (a Matroska DefaultDuration of 1 ms: 1000 fps) gives way to the
/// rate the timestamps show; a variable-frame-rate file whose last frame lasts long is not reported as ending early.
final class ClipTimingTests: EndToEndTestCase {
    /// A 30 fps Matroska clip (1 s, a counter burnt in) whose DefaultDuration is patched to 1 ms: FFmpeg then reads
    /// its average rate as 1000 fps (and guesses a base rate of 60 from the millisecond timestamps).
    func thousandFPSClip() throws -> String {
        let ok = path("r30.mkv")
        try TestSupport.makeClip(ok, video: "testsrc2=s=96x64:r=30:d=1", extra: ["-g", "10"])
        var data = try Data(contentsOf: URL(fileURLWithPath: ok))
        // EBML DefaultDuration (0x23E383), a 4-byte unsigned integer of nanoseconds: 33333333 → 1000000.
        let id = try XCTUnwrap(data.range(of: Data([0x23, 0xE3, 0x83, 0x84])))
        let value = id.upperBound
        XCTAssertEqual(data[value..<(value + 4)].reduce(0) { $0 << 8 | Int($1) }, 33_333_333)
        data.replaceSubrange(value..<(value + 4), with: [0x00, 0x0F, 0x42, 0x40])
        let bad = path("r1000.mkv")
        try data.write(to: URL(fileURLWithPath: bad))
        XCTAssertEqual(try TestSupport.ffprobe(bad, "stream=avg_frame_rate")["avg_frame_rate"], "1000/1")
        return bad
    }

    func testAnImplausibleAverageGivesWayToTheTimestamps() throws {
        let bad = try thousandFPSClip()
        let info = try probeSource(path: bad)
        XCTAssertEqual(info.nominalFrameRate, 1000)
        XCTAssertEqual(try XCTUnwrap(info.measuredFrameRate), 30, accuracy: 0.5)
        XCTAssertEqual(info.defaultFrameRate?.rate, FrameRate(30))
        XCTAssertTrue(info.defaultFrameRate?.reason.contains("1000.000 fps, is implausible") ?? false, info.defaultFrameRate?.reason ?? "")
        // The last frame lasts one measured interval, not 1 ms: 30 frames, 1 s.
        XCTAssertEqual(info.duration, MediaTime(value: 1, timescale: 1))
        // Rendered at 30 fps: every source frame once (no doubling), as FFmpeg decodes them.
        var edit = Edit(clips: [ClipSpec(path: bad)])
        edit.output.codec = .ffv1
        let r = try render(edit, to: path("out.mkv"), backend: .cpu, audio: false)
        XCTAssertEqual(r.timeline.frameRate, FrameRate(30))
        XCTAssertEqual(r.frames, 30)
        XCTAssertEqual(r.warnings, [])
        let ours = try TestSupport.decodeFrames(path("out.mkv"), width: 96, height: 64, pixFmt: "rgb24")
        let source = try TestSupport.decodeFrames(bad, width: 96, height: 64, pixFmt: "rgb24")
        XCTAssertEqual(source.count, 30)
        TestSupport.assertRGBSequencesMatch(ours, source, width: 96, minPSNR: 38, label: "1000 fps Matroska")
        // A plausible average is not second-guessed (no measurement): the VFR phone clips keep their rule.
        let plain = try probeSource(path: path("r30.mkv"))
        XCTAssertNil(plain.measuredFrameRate)
        XCTAssertEqual(plain.defaultFrameRate?.rate, FrameRate(30))
        if let media = TestSupport.sharedMedia {
            for (name, rate) in [("iphone6s_livephoto_1440x1080_vfr_pcm.mov", FrameRate(30000, 1001)), ("flir_1080x1440_portrait_vfr.mp4", FrameRate(30)),
                                 ("android_slowmo_720p_vfr_noaudio_oddcolortags.mp4", FrameRate(30)), ("pixel7_rot180_vfr_noaudio.mp4", FrameRate(30000, 1001))] {
                let i = try probeSource(path: "\(media)/\(name)")
                XCTAssertNil(i.measuredFrameRate, name)
                XCTAssertEqual(i.defaultFrameRate?.rate, rate, name)
            }
        }
    }

    /// A variable-frame-rate MP4 whose last frame lasts 1.03 s (its stream lasts 2 s, 30 frames): intact, so no
    /// "ends early"; the last frame holds to the end, as FFmpeg shows it. A file cut short still warns
    /// (`HostileInputTests.testTruncatedMP4HoldsTheLastGoodFrameAtThePredictedDuration`).
    func testALongLastFrameIsNotAnEarlyEnd() throws {
        let even = path("even.mp4")
        try TestSupport.makeClip(even, video: "testsrc2=s=96x64:r=30:d=1", extra: ["-bf", "0", "-g", "10"])
        let long = path("long-last.mp4")
        try TestSupport.ffmpeg(["-i", even, "-c", "copy", "-bsf:v", "setts=duration=if(eq(N\\,29)\\,DURATION*31\\,DURATION)", long])
        XCTAssertEqual(try TestSupport.ffprobe(long, "stream=duration")["duration"], "2.000000")
        var edit = Edit(clips: [ClipSpec(path: long)])
        edit.output.codec = .ffv1
        let r = try render(edit, to: path("long.mkv"), backend: .cpu, audio: false)
        XCTAssertEqual(r.frames, 60)
        XCTAssertEqual(r.warnings, [], "an intact file does not end early")
        let frames = try TestSupport.decodeFrames(path("long.mkv"), width: 96, height: 64, pixFmt: "rgb24")
        let oracle = try TestSupport.decodeFrames(long, width: 96, height: 64, pixFmt: "rgb24", filter: "fps=30")
        TestSupport.assertRGBSequencesMatch(frames, oracle, width: 96, minPSNR: 38, label: "long last frame")
        // Through the CLI: no warning at all.
        let cli = try segue(["render", long, "-o", path("long-cli.mp4"), "--preset", "ultrafast"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertFalse(cli.stderr.contains("warning"), cli.stderr)
    }
}
