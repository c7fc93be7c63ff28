import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Time (issue 20) in whole renders: lossless sources whose every frame says its number, so each output frame's
/// source frame is read back exactly; FFmpeg's `setpts` as the oracle for speed; the audio's length and pitch.
final class TimeTests: EndToEndTestCase {
    /// A lossless clip (FFV1) of `frames` frames at `rate` whose frame N is a flat luma 16 + 2N (N < 110), neutral chroma.
    func counter(_ name: String, frames: Int, rate: Int = 30) throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=64x48:r=\(rate),trim=end_frame=\(frames),format=yuv420p,geq=lum='16+2*N':cb=128:cr=128",
                                "-c:v", "ffv1", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", p])
        return p
    }
    /// The luma at the centre of each output frame (FFV1 output), and the source frame it says (fractional when blended).
    func shown(_ edit: Edit, _ name: String, backend: Backend = .cpu) throws -> [Double] {
        var e = edit
        e.output.codec = .ffv1
        try render(e, to: path(name), backend: backend, audio: false)
        return try TestSupport.decodeFrames(path(name), width: 64, height: 48).map { (Double($0[24 * 64 + 32]) - 16) / 2 }
    }
    func clip(_ p: String, _ configure: (inout ClipSpec) -> Void) -> ClipSpec {
        var c = ClipSpec(path: p)
        configure(&c)
        return c
    }

    /// Speed 2 shows source frame 2k at output frame k; 0.5 each frame twice (or, blended, the mean of the two
    /// around it); reverse N − 1 − k; a freeze its one frame; a 240 fps clip at `capture` speed every frame once in a
    /// 30 fps edit. Both backends for the blend.
    func testSpeedsReverseFreezeAndCapture() throws {
        let src = try counter("c.mkv", frames: 60)
        func edit(_ c: ClipSpec) -> Edit { var e = Edit(clips: [c]); e.frameRate = FrameRate(30); return e }
        XCTAssertEqual(try shown(edit(clip(src) { $0.speed = .constant(2) }), "fast.mkv"), (0..<30).map { Double(2 * $0) })
        XCTAssertEqual(try shown(edit(clip(src) { $0.speed = .constant(0.5) }), "slow.mkv"), (0..<120).map { Double($0 / 2) })
        for backend in [Backend.cpu, .gpu] {
            let blended = try shown(edit(clip(src) { $0.speed = .constant(0.5); $0.frameBlend = true }), "blend-\(backend).mkv", backend: backend)
            XCTAssertEqual(blended.count, 120)
            // Frame 2j shows source j; frame 2j + 1 half-way between j and j + 1 (luma 16 + 2j + 1, exactly).
            XCTAssertEqual(blended, (0..<120).map { k in k == 119 ? 59 : Double(k) / 2 }, "\(backend)")
        }
        XCTAssertEqual(try shown(edit(clip(src) { $0.reverse = true }), "reverse.mkv"), (0..<60).map { Double(59 - $0) })
        XCTAssertEqual(try shown(edit(clip(src) { $0.reverse = true; $0.speed = .constant(2) }), "reverse2.mkv"), (0..<30).map { Double(59 - 2 * $0) })
        XCTAssertEqual(try shown(edit(clip(src) { $0.freeze = MediaTime(seconds: 1); $0.duration = MediaTime(seconds: 0.5) }), "freeze.mkv"),
                       Array(repeating: 30, count: 15))
        let hfr = try counter("hfr.mkv", frames: 96, rate: 240)
        XCTAssertEqual(try shown(edit(clip(hfr) { $0.speed = .capture }), "capture.mkv"), (0..<96).map(Double.init))
        // The same frames as FFmpeg's setpts at 2×: every other frame, restamped at 30 fps (`select` + `setpts`; the `fps`
        // filter would round Matroska's millisecond stamps to the nearest frame instead of the one at or before).
        let moving = path("moving.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=30:d=2", "-c:v", "ffv1", "-colorspace", "bt709", "-color_primaries", "bt709",
                                "-color_trc", "bt709", moving])
        var m = Edit(clips: [clip(moving) { $0.speed = .constant(2) }]); m.output.codec = .ffv1
        try render(m, to: path("moving2.mkv"), backend: .cpu, audio: false)
        let ours = try TestSupport.decodeFrames(path("moving2.mkv"), width: 64, height: 48)
        let oracle = try TestSupport.decodeFrames(moving, width: 64, height: 48, filter: "select='not(mod(n\\,2))',setpts=N/(30*TB)")
        TestSupport.assertYUVSequencesMatch(ours, Array(oracle.prefix(ours.count)), width: 64, height: 48, minPSNR: 60, label: "2× vs setpts")
        XCTAssertEqual(ours.count, 30)
    }

    /// A ramp 1× → 4× → 1× (keyframes at 0, 0.5 and 1 s; linear): every output frame shows the source frame its
    /// closed-form source time says, `⌊30·F(k/30)⌋` with F(τ) = τ + 3τ² up to 0.5 s, then back down; chunked losslessly
    /// (a seam inside the ramp) it is the single pass; GPU against CPU ≥ 45 dB on a moving picture, blended and ramped.
    func testRampFollowsItsClosedFormOnEveryFrame() throws {
        let src = try counter("c.mkv", frames: 105)
        let keys = [Keyframe(time: .zero, value: 1), Keyframe(time: MediaTime(seconds: 0.5), value: 4), Keyframe(time: MediaTime(seconds: 1), value: 1)]
        var e = Edit(clips: [clip(src) { $0.speed = .ramp(keys) }])
        e.frameRate = FrameRate(30)
        func F(_ t: Double) -> Double {
            if t <= 0.5 { return t + 3 * t * t }
            if t <= 1 { let u = t - 0.5; return 1.25 + 4 * u - 3 * u * u }
            return 2.5 + (t - 1)
        }
        let got = try shown(e, "ramp.mkv")
        // 105 frames = 3.5 s of source: 2.5 s in the ramp's first second, then 1 s at 1×: 2 s on the timeline.
        XCTAssertEqual(got.count, 60)
        XCTAssertEqual(got, (0..<60).map { k in (30 * F(Double(k) / 30) + 1e-6).rounded(.down) })
        // Chunked: a seam at frame 20, inside the ramp.
        let edit = path("ramp.json")
        try Data(#"{"frameRate": 30, "clips": [{"path": "c.mkv", "speed": {"keyframes": [{"time": 0, "value": 1}, {"time": 0.5, "value": 4}, {"time": 1, "value": 1}]}}], "output": {"codec": "ffv1"}}"#.utf8)
            .write(to: URL(fileURLWithPath: edit))
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "3", "-o", path("plan.json"), "--no-audio"]).status, 0)
        try FileManager.default.createDirectory(atPath: path("chunks"), withIntermediateDirectories: true)
        try renderChunked(path("plan.json"), chunks: path("chunks"), out: path("chunked.mkv"))
        XCTAssertEqual(try framemd5(path("chunked.mkv"), "v"), try framemd5(path("ramp.mkv"), "v"))
        // GPU against CPU.
        let moving = path("moving.mp4")
        try TestSupport.makeClip(moving, video: "testsrc2=s=128x96:r=30:d=2")
        for (name, c) in [("blended", clip(moving) { $0.speed = .constant(0.4); $0.frameBlend = true; $0.duration = MediaTime(seconds: 0.8) }),
                          ("ramped", clip(moving) { $0.speed = .ramp(keys) })] {
            var x = Edit(clips: [c]); x.output.codec = .ffv1
            try render(x, to: path("\(name)-gpu.mkv"), backend: .gpu, audio: false)
            try render(x, to: path("\(name)-cpu.mkv"), backend: .cpu, audio: false)
            TestSupport.assertYUVSequencesMatch(try TestSupport.decodeFrames(path("\(name)-gpu.mkv"), width: 128, height: 96),
                                                try TestSupport.decodeFrames(path("\(name)-cpu.mkv"), width: 128, height: 96),
                                                width: 128, height: 96, minPSNR: 45, label: "\(name): gpu vs cpu")
        }
    }

    /// The audio follows: a 440 Hz tone at 2× lasts half as long and stays at 440 Hz (pitch kept); with `pitch`
    /// `follow` it is at 880 Hz; at 0.25× still 440 Hz, without clicks (no step larger than twice the tone's own); as
    /// long as FFmpeg's `atempo` makes it; reversed, the same tone backwards; muted, silence.
    func testAudioFollowsTheSpeed() throws {
        let tone = try toneClip("tone.mov", freq: 440, seconds: 2)
        func audio(_ c: ClipSpec, _ name: String) throws -> [Float] {
            var e = Edit(clips: [c])
            e.frameRate = FrameRate(30)
            return try renderedAudio(e, name)
        }
        /// Frequency from zero crossings of channel 0 over samples `range`.
        func frequency(_ x: [Float], _ range: Range<Int>) -> Double {
            var crossings = 0
            for n in range.dropFirst() where (x[2 * (n - 1)] < 0) != (x[2 * n] < 0) { crossings += 1 }
            return Double(crossings) / 2 / (Double(range.count) / 48000)
        }
        let fast = try audio(clip(tone) { $0.speed = .constant(2) }, "fast.mkv")
        XCTAssertEqual(fast.count / 2, 48_000)                       // 1 s: the video's 30 frames, the audio to their end
        XCTAssertEqual(frequency(fast, 4800..<43_200), 440, accuracy: 4.4)
        // FFmpeg's own atempo gives the same length for the same audio.
        let ff = try TestSupport.run("ffmpeg", ["-v", "error", "-i", tone, "-af", "atempo=2", "-f", "f32le", "-ac", "2", "-ar", "48000", "-"])
        XCTAssertEqual(Double(ff.stdout.count / 8), 48_000, accuracy: 1024)   // within one AAC frame
        let up = try audio(clip(tone) { $0.speed = .constant(2); $0.pitch = .follow }, "follow.mkv")
        XCTAssertEqual(frequency(up, 4800..<43_200), 880, accuracy: 8.8)
        let slow = try audio(clip(tone) { $0.speed = .constant(0.25); $0.duration = MediaTime(seconds: 1) }, "slow.mkv")
        XCTAssertEqual(slow.count / 2, 192_000)
        XCTAssertEqual(frequency(slow, 9600..<182_400), 440, accuracy: 4.4)
        let toneStep = 2 * (1.0 / 8 / 2.0.squareRoot()) * sin(Double.pi * 440 / 48000)   // the tone's largest step: 2A·sin(πf/rate)
        XCTAssertLessThanOrEqual(largestStep(slow, 9600..<182_400), 2 * toneStep, "no clicks at 0.25×")
        let back = try audio(clip(tone) { $0.reverse = true; $0.duration = MediaTime(seconds: 1) }, "back.mkv")
        XCTAssertEqual(frequency(back, 4800..<43_200), 440, accuracy: 4.4)
        let muted = try audio(clip(tone) { $0.speed = .constant(2); $0.pitch = .mute }, "mute.mkv")
        XCTAssertEqual(muted.map { abs($0) }.max() ?? 1, 0)
        let ramped = try audio(clip(tone) { $0.speed = .ramp([Keyframe(time: .zero, value: 1), Keyframe(time: MediaTime(seconds: 0.5), value: 2)]) }, "ramp.mkv")
        XCTAssertEqual(frequency(ramped, 28_800..<52_800), 440, accuracy: 8.8, "pitch kept through a ramp")
    }

    /// A reversed clip is read one stretch at a time: a 60 s 1080p clip (10 fps, a keyframe a second) reversed into a
    /// small frame stays well under 1 GB of resident memory (the whole clip decoded would be 1.8 GB).
    func testReverseOfALongClipStaysBounded() throws {
        let long = path("long.mp4")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=10:d=60", "-c:v", "libx264", "-preset", "ultrafast", "-g", "10",
                                "-pix_fmt", "yuv420p", long])
        let e = path("rev.json")
        try Data(#"{"renderSize": {"width": 96, "height": 54}, "clips": [{"path": "long.mp4", "reverse": true}], "output": {"codec": "ffv1"}}"#.utf8)
            .write(to: URL(fileURLWithPath: e))
        let r = try TestSupport.run("/usr/bin/time", ["-f", "%M", TestSupport.segueBinary, "render", e, "-o", path("rev.mkv"), "--backend", "cpu", "--no-audio"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let peakKB = Int(r.stderr.split(separator: "\n").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        print("reverse of 60 s 1080p: peak RSS \(peakKB / 1024) MB")
        XCTAssertGreaterThan(peakKB, 0)
        XCTAssertLessThan(peakKB, 1_000_000)
        XCTAssertEqual(try TestSupport.ffprobe(path("rev.mkv"), "stream=nb_read_frames", count: true)["nb_read_frames"], "600")
    }
}
