import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Issue 22 #2: a stream whose pictures change size (or SAR) mid-way has every picture fitted by its own size to the
/// render size — the planner's geometry for the decoded picture (`Timeline.plan(frame:pictures:)`) — and `--verbose`
/// says where it changed. Oracles: FFmpeg's CLI, which reconfigures its filters at each change.
final class SizeChangeTests: EndToEndTestCase {
    /// `parts` (lavfi sources) encoded with libx264 one after the other into one H.264 stream in MPEG-TS (a broadcast
    /// capture, a concatenation), 30 fps, tagged BT.709 (so that FFmpeg's RGB conversion, BT.601 for untagged video,
    /// matches); each part is also left in its own `NAME-K.ts`.
    func concatenatedH264(_ name: String, _ parts: [String]) throws -> String {
        var raw = Data()
        for (k, p) in parts.enumerated() {
            let piece = path("\(name)-\(k).h264")
            try TestSupport.ffmpeg(["-f", "lavfi", "-i", p, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "6", "-bf", "0",
                                    "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", piece])
            try TestSupport.ffmpeg(["-framerate", "30", "-i", piece, "-c", "copy", path("\(name)-\(k).ts")])
            raw += try Data(contentsOf: URL(fileURLWithPath: piece))
        }
        try raw.write(to: URL(fileURLWithPath: path("\(name).h264")))
        let out = path("\(name).ts")
        try TestSupport.ffmpeg(["-framerate", "30", "-i", path("\(name).h264"), "-c", "copy", out])
        return out
    }

    func testATSStreamFrom1280x720To640x480IsPillarboxedFromTheChange() throws {
        let ts = try concatenatedH264("hd-then-sd", ["testsrc2=s=1280x720:r=30:d=0.4,gblur=sigma=3", "testsrc2=s=640x480:r=30:d=0.4,gblur=sigma=1.5"])
        let out = path("fit.mkv")
        let r = try segue(["render", ts, "--fit", "fit", "--codec", "ffv1", "--no-audio", "--verbose", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("render size 1280x720"), r.stderr)
        XCTAssertTrue(r.stderr.contains("clip 0 (hd-then-sd.ts): the picture changes from 1280x720 to 640x480 at 0.400 s of the source; each picture is fitted by its own size"), r.stderr)
        let ours = try TestSupport.decodeFrames(out, width: 1280, height: 720, pixFmt: "rgb24")
        let oracle = try TestSupport.decodeFrames(ts, width: 1280, height: 720, pixFmt: "rgb24",
                                                  filter: "scale=1280:720:force_original_aspect_ratio=decrease:flags=bilinear,pad=1280:720:(ow-iw)/2:(oh-ih)/2")
        XCTAssertEqual(ours.count, 24)
        XCTAssertEqual(oracle.count, 24)
        // The second part: 960x720 in the middle, black bars of 160 pixels left and right.
        TestSupport.assertRGBSequencesMatch(Array(ours[12...]), Array(oracle[12...]), width: 1280, minPSNR: 35, label: "640x480 part, pillarboxed")
        TestSupport.assertRGBSequencesMatch(Array(ours[..<12]), Array(oracle[..<12]), width: 1280, minPSNR: 35, label: "1280x720 part")
        let last = ours[23]
        for (x, y) in [(10, 360), (150, 100), (1130, 600), (1270, 10)] {
            let i: Int = (y * 1280 + x) * 3
            let brightest: Int = Int(max(last[i], last[i + 1], last[i + 2]))
            XCTAssertLessThanOrEqual(brightest, 1, "bar at \(x),\(y)")
        }
    }

    /// A browser's WebM recording (VP9) whose resolution changes, filled (the default), and an H.264 stream whose SAR
    /// changes at the same size, fitted.
    func testVP9ResizeAndASARChange() throws {
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=0.3,gblur=sigma=1.5", "-c:v", "libvpx-vp9", "-deadline", "realtime",
                                "-cpu-used", "8", "-b:v", "2M", path("a.webm")])
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=96x96:r=30:d=0.3,gblur=sigma=1.5", "-c:v", "libvpx-vp9", "-deadline", "realtime",
                                "-cpu-used", "8", "-b:v", "2M", path("b.webm")])
        try Data("file a.webm\nfile b.webm\n".utf8).write(to: URL(fileURLWithPath: path("list.txt")))
        try TestSupport.ffmpeg(["-f", "concat", "-i", path("list.txt"), "-c", "copy", path("ab.webm")])
        var edit = Edit(clips: [ClipSpec(path: path("ab.webm"))])
        edit.output.codec = .ffv1
        let r = try render(edit, to: path("ab.mkv"), backend: .gpu, audio: false)
        XCTAssertEqual(r.timeline.renderSize, PixelSize(width: 160, height: 120))
        let ours = try TestSupport.decodeFrames(path("ab.mkv"), width: 160, height: 120, pixFmt: "rgb24")
        let oracle = try TestSupport.decodeFrames(path("ab.webm"), width: 160, height: 120, pixFmt: "rgb24",
                                                  filter: "scale=160:120:force_original_aspect_ratio=increase:flags=bilinear,crop=160:120")
        XCTAssertEqual(ours.count, 18)
        TestSupport.assertRGBSequencesMatch(ours, oracle, width: 160, minPSNR: 33, label: "VP9 160x120 then 96x96, filled")

        let sar = try concatenatedH264("sar", ["testsrc2=s=128x96:r=30:d=0.2,gblur=sigma=1.5", "testsrc2=s=128x96:r=30:d=0.2,gblur=sigma=1.5,setsar=2/1"])
        var fit = Edit(clips: [ClipSpec(path: sar)])
        fit.fit = .fit
        fit.output.codec = .ffv1
        let s = try render(fit, to: path("sar.mkv"), backend: .gpu, audio: false)
        XCTAssertEqual(s.timeline.renderSize, PixelSize(width: 128, height: 96))
        let sarOurs = try TestSupport.decodeFrames(path("sar.mkv"), width: 128, height: 96, pixFmt: "rgb24")
        // The second half is 256x96 displayed: letterboxed to 128x48 in the middle. FFmpeg's CLI reconfigures its
        // filters when the size changes but not the SAR: each part is decoded on its own.
        let sarOracle = try (0..<2).flatMap { k in
            try TestSupport.decodeFrames(path("sar-\(k).ts"), width: 128, height: 96, pixFmt: "rgb24",
                                         filter: "scale=iw*sar:ih,setsar=1,scale=128:96:force_original_aspect_ratio=decrease:flags=bilinear,pad=128:96:(ow-iw)/2:(oh-ih)/2")
        }
        XCTAssertEqual(sarOurs.count, 12)
        TestSupport.assertRGBSequencesMatch(sarOurs, sarOracle, width: 128, minPSNR: 30, label: "SAR 1:1 then 2:1, fitted")
    }
}
