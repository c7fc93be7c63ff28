import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Frame counts, transition frame indices and audio length, read back from the written files.
final class TimingTests: EndToEndTestCase {
    func mean(_ frame: [UInt8], plane: Int, width: Int, height: Int) -> Double {
        let ySize = width * height, cSize = (width / 2) * (height / 2)
        let r: Range<Int> = plane == 0 ? 0..<ySize : plane == 1 ? ySize..<(ySize + cSize) : (ySize + cSize)..<(ySize + 2 * cSize)
        return Double(frame[r].reduce(0) { $0 + Int($1) }) / Double(r.count)
    }

    func testFrameCountsTransitionFramesAndAudioLength() throws {
        // Solid red and solid blue clips with audio: every frame's colour tells which clip it shows.
        let red = path("red.mp4"), blue = path("blue.mp4")
        try TestSupport.makeClip(red, video: "color=c=red:s=64x64:r=30:d=3", audio: "sine=f=440:r=48000:d=3")
        try TestSupport.makeClip(blue, video: "color=c=blue:s=64x64:r=30:d=3", audio: "sine=f=880:r=44100:d=3")
        for rate in [FrameRate(25), FrameRate(30), FrameRate(30000, 1001)] {
            var edit = Edit(clips: [clip(red, duration: 2), clip(blue, tr(.crossfade, 1), duration: 2)])
            edit.frameRate = rate
            edit.output.codec = .ffv1
            let out = path("timing-\(rate.numerator).mkv")
            let r = try render(edit, to: out, backend: .cpu)
            // 3 s: 75, 90 and round(89.91) = 90 frames.
            let expected: Int64 = rate == FrameRate(25) ? 75 : 90
            XCTAssertEqual(r.frames, expected, "\(rate)")
            let probe = try TestSupport.ffprobe(out, "stream=nb_read_frames", count: true)
            XCTAssertEqual(probe["nb_read_frames"], String(expected), "\(rate)")
            // Transition frames: first n with n / fps ≥ 1 s, first n with n / fps ≥ 2 s.
            let range = r.timeline.transitionFrames(into: 1)
            let expectedRange: Range<Int64> = rate == FrameRate(25) ? 25..<50 : rate == FrameRate(30) ? 30..<60 : 30..<60
            XCTAssertEqual(range, expectedRange, "\(rate)")
            let frames = try TestSupport.decodeFrames(out, width: 64, height: 64)
            XCTAssertEqual(frames.count, Int(expected))
            // V (Cr) is high for red, low for blue.
            let v = frames.map { mean($0, plane: 2, width: 64, height: 64) }
            let redV = v[0], blueV = v[frames.count - 1]
            XCTAssertGreaterThan(redV - blueV, 100)
            let first = Int(range.lowerBound), end = Int(range.upperBound)
            XCTAssertEqual(v[first - 1], redV, accuracy: 1, "\(rate): frame before the transition is all red")
            XCTAssertEqual(v[first], redV, accuracy: 1, "\(rate): first transition frame has p = 0")
            XCTAssertLessThan(v[first + 1], redV - 2, "\(rate): the next frame starts mixing")
            XCTAssertGreaterThan(v[end - 1], blueV + 2, "\(rate): last transition frame still mixes")
            XCTAssertEqual(v[end], blueV, accuracy: 1, "\(rate): first frame after the transition is all blue")
            // Audio in the MP4 (whose edit list trims AAC priming and padding): 48 kHz stereo, as long as the video within one AAC frame.
            edit.output.codec = .h264
            let mp4 = path("timing-\(rate.numerator).mp4")
            try render(edit, to: mp4, backend: .cpu)
            let a = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", mp4, "-map", "0:a", "-f", "f32le", "-ac", "2", "-"])
            let samples = a.stdout.count / 8
            let videoSamples = Double(expected) * Double(rate.denominator) / Double(rate.numerator) * 48000
            XCTAssertEqual(Double(samples), videoSamples, accuracy: 1024, "\(rate): audio \(samples) samples vs video \(videoSamples)")
            let ar = try TestSupport.ffprobe(mp4, "stream=sample_rate,channels", stream: "a:0")
            XCTAssertEqual(ar["sample_rate"], "48000")
            XCTAssertEqual(ar["channels"], "2")
            XCTAssertEqual(try TestSupport.ffprobe(mp4, "stream=nb_read_frames", count: true)["nb_read_frames"], String(expected))
        }
    }

    func testH264OutputIsTaggedAndFaststart() throws {
        let a = path("a.mp4"), b = path("b.mp4")
        try TestSupport.makeClip(a, video: "testsrc2=s=96x64:r=30:d=1", audio: "sine=f=440:r=48000:d=1")
        try TestSupport.makeClip(b, video: "testsrc=s=96x64:r=30:d=1")   // no audio: silence, not a crash
        let out = path("out.mp4")
        let r = try render(Edit(clips: [clip(a), clip(b, tr(.wipe, 0.5))]), to: out, backend: .cpu)
        XCTAssertEqual(r.frames, 45)
        let v = try TestSupport.ffprobe(out, "stream=codec_name,pix_fmt,color_space,color_transfer,color_primaries,color_range,nb_frames")
        XCTAssertEqual(v["codec_name"], "h264")
        XCTAssertEqual(v["pix_fmt"], "yuv420p")
        XCTAssertEqual(v["color_space"], "bt709")
        XCTAssertEqual(v["color_transfer"], "bt709")
        XCTAssertEqual(v["color_primaries"], "bt709")
        XCTAssertEqual(v["color_range"], "tv")
        XCTAssertEqual(v["nb_frames"], "45")
        XCTAssertEqual(try TestSupport.ffprobe(out, "stream=codec_name", stream: "a:0")["codec_name"], "aac")
        // +faststart: the moov box comes before mdat.
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let moov = data.range(of: Data("moov".utf8))!.lowerBound, mdat = data.range(of: Data("mdat".utf8))!.lowerBound
        XCTAssertLessThan(moov, mdat)
        // No temporary file left beside it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("segue-") }, [])
    }
}
