import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// A 27.5-minute edit of 300 clips: audio and video stay in step to the millisecond and end together.
final class LongEditSyncTests: EndToEndTestCase {
    func testThreeHundredClipsStayInSync() throws {
        // One 6 s clip: a white flash on frame 90 (3.0 s) and a 4 kHz beep starting at 3.0 s; tagged BT.709, so that
        // the frames outside transitions go to the encoder directly, as a phone's clips do (the test is about time).
        let c = path("flash.mp4")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=16x16:r=30:d=6,format=yuv420p,geq=lum='if(eq(N,90),235,16)':cb=128:cr=128",
                                "-f", "lavfi", "-i", "aevalsrc='0.5*sin(2*PI*4000*t)*between(t,3,3.05)':s=48000:d=6",
                                "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-colorspace", "bt709", "-color_primaries", "bt709",
                                "-color_trc", "bt709", "-c:a", "aac", "-b:a", "128k", c])
        var clips = [clip(c)]
        for k in 1..<300 { clips.append(clip(c, tr(k % 3 == 0 ? .wipe : .crossfade, 0.5))) }
        var e = Edit(clips: clips)
        e.frameRate = FrameRate(30)
        e.output.preset = "ultrafast"
        // Mono, as the clip's audio is and as the beeps are measured below: a stereo mix and AAC encode of 27.5 minutes
        // took as long again, and the channel count has nothing to do with time.
        e.audio.channels = 1
        let out = path("long.mp4")
        let r = try render(e, to: out, backend: .cpu)
        // 300 × 6 − 299 × 0.5 = 1650.5 s.
        XCTAssertEqual(r.timeline.duration, MediaTime(value: 3301, timescale: 2))
        XCTAssertEqual(r.frames, 49515)
        // Audio and video end within one AAC frame.
        let v = try TestSupport.ffprobe(out, "stream=duration")
        let a = try TestSupport.ffprobe(out, "stream=duration", stream: "a:0")
        let dv = try XCTUnwrap(Double(v["duration"] ?? "")), da = try XCTUnwrap(Double(a["duration"] ?? ""))
        XCTAssertEqual(dv, 1650.5, accuracy: 0.001)
        XCTAssertEqual(da, dv, accuracy: 1024.0 / 48000, "audio \(da) s vs video \(dv) s")
        // The audio as samples (decoded in the background meanwhile), mono.
        let pcm = Background { try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-map", "0:a", "-f", "f32le", "-ac", "1", "-"]) }
        // Flash frames: Y mean far above black.
        let frames = try TestSupport.decodeFrames(out, width: 16, height: 16, pixFmt: "gray")
        XCTAssertEqual(frames.count, 49515)
        let flashes = frames.indices.filter { i in frames[i].reduce(0) { $0 + Int($1) } / 256 > 128 }
        XCTAssertEqual(flashes.count, 300)
        // Beep onsets: the first sample above half the beep's amplitude after at least 1 s of quiet.
        let s: [Float] = try pcm.value().stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var onsets: [Int] = []
        var lastLoud = -48000
        for (k, x) in s.enumerated() where abs(x) > 0.25 {
            if k - lastLoud > 48000 { onsets.append(k) }
            lastLoud = k
        }
        XCTAssertEqual(onsets.count, 300)
        var worst = 0.0
        for (f, o) in zip(flashes, onsets) {
            let dt = Double(o) / 48000 - Double(f) / 30
            worst = max(worst, abs(dt))
        }
        print(String(format: "long edit: worst flash/beep offset %.3f ms over %d clips", worst * 1000, min(flashes.count, onsets.count)))
        XCTAssertLessThanOrEqual(worst, 0.001, "a beep is more than 1 ms away from its flash")
        // The last clip's flash is where the plan says: clip 299 starts at 299 × 5.5 s; + 3 s.
        XCTAssertEqual(flashes.last, Int((299 * 5.5 + 3) * 30))
    }
}
