import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueMedia
import SegueTestSupport

/// Issue 22 #1: which sample aspect ratio wins when the container and the codec disagree — the container's, when it is
/// set and sane (`av_guess_sample_aspect_ratio`, as players do) — in both directions in MP4, and Matroska's
/// DisplayWidth/DisplayHeight; `probe` shows both.
final class AspectRatioTests: EndToEndTestCase {
    /// A 128×96 clip whose H.264 VUI says `vui` (nil: none), remuxed with the container's aspect set by `-aspect`.
    func clip(_ name: String, vui: String?, aspect: String?) throws -> String {
        let raw = path("raw-\(name).mp4")
        try TestSupport.makeClip(raw, video: "testsrc2=s=128x96:r=30:d=0.5,gblur=sigma=2" + (vui.map { ",setsar=\($0)" } ?? ""), extra: ["-g", "5"])
        let out = path(name)
        try TestSupport.ffmpeg(["-i", raw, "-c", "copy"] + (aspect.map { ["-aspect", $0] } ?? []) + [out])
        return out
    }

    func testTheContainersAspectRatioWinsBothWaysAndProbeShowsBoth() throws {
        // MP4, codec 27:64 (a phone's VUI), container 1:1 (pasp): square, 128x96.
        let squareBox = try clip("square-pasp.mp4", vui: "27/64", aspect: "4:3")
        // MP4, codec square (VUI 1:1), container 4:3 (pasp): 171x96 displayed, 170x96 rendered.
        let wideBox = try clip("wide-pasp.mp4", vui: "1/1", aspect: "16:9")
        // Matroska, codec square, container DisplayWidth/DisplayHeight 2:1 (SAR 3:2): 192x96.
        let mkv = try clip("display.mkv", vui: "1/1", aspect: "2:1")
        // The oracle: what ffprobe says the stream's SAR is (the guess players use).
        XCTAssertEqual(try TestSupport.ffprobe(squareBox, "stream=sample_aspect_ratio")["sample_aspect_ratio"], "1:1")
        XCTAssertEqual(try TestSupport.ffprobe(wideBox, "stream=sample_aspect_ratio")["sample_aspect_ratio"], "4:3")
        XCTAssertEqual(try TestSupport.ffprobe(mkv, "stream=sample_aspect_ratio")["sample_aspect_ratio"], "3:2")
        for (file, used, container, codec, display) in [(squareBox, "1:1", "1:1", "27:64", (128, 96)), (wideBox, "4:3", "4:3", "1:1", (171, 96)),
                                                        (mkv, "3:2", "3:2", "1:1", (192, 96))] {
            let report = try ProbeReport(path: file)
            let v = try XCTUnwrap(report.video)
            XCTAssertEqual(v.sampleAspectRatio, used, file)
            XCTAssertEqual(v.containerSampleAspectRatio, container, file)
            XCTAssertEqual(v.codecSampleAspectRatio, codec, file)
            XCTAssertEqual([v.displayWidth, v.displayHeight], [display.0, display.1], file)
            XCTAssertTrue(report.text.contains("SAR \(used) (the container's \(container) wins; the codec says \(codec)"), report.text)
        }
        // Alone, each clip gets its displayed size (even) as the render size, and fills it as FFmpeg's scale does.
        for (file, size) in [(squareBox, PixelSize(width: 128, height: 96)), (wideBox, PixelSize(width: 170, height: 96)),
                             (mkv, PixelSize(width: 192, height: 96))] {
            var edit = Edit(clips: [ClipSpec(path: file)])
            edit.output.codec = .ffv1
            let out = path("out-\(URL(fileURLWithPath: file).lastPathComponent).mkv")
            let r = try render(edit, to: out, backend: .cpu, audio: false)
            XCTAssertEqual(r.timeline.renderSize, size, file)
            let ours = try TestSupport.decodeFrames(out, width: size.width, height: size.height, pixFmt: "rgb24")
            let oracle = try TestSupport.decodeFrames(file, width: size.width, height: size.height, pixFmt: "rgb24",
                                                      filter: "scale=\(size.width):\(size.height):flags=bilinear")
            TestSupport.assertRGBSequencesMatch(ours, oracle, width: size.width, minPSNR: 30, label: file)
        }
        // A codec value with no container value is used (the VUI alone).
        let vuiOnly = path("vui-only.ts")
        try TestSupport.makeClip(vuiOnly, video: "testsrc2=s=128x96:r=30:d=0.2,setsar=2/1")
        XCTAssertEqual(try ProbeReport(path: vuiOnly).video?.sampleAspectRatio, "2:1")
    }

    /// Every real clip in ../shared/media: the SAR Segue shows is the one ffprobe reports for the stream.
    func testRealClipsAgreeWithFFprobe() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("no ../shared/media") }
        let names = try FileManager.default.contentsOfDirectory(atPath: media).filter { name in [".mp4", ".mov", ".3gp", ".webm", ".avi", ".ts"].contains { name.hasSuffix($0) } }
        // ffprobe's answers, two processes at a time (a failure is kept for the files Segue reads).
        let sars = try TestSupport.concurrentMap(names.sorted()) { name in
            Result { try TestSupport.ffprobe("\(media)/\(name)", "stream=sample_aspect_ratio")["sample_aspect_ratio"] }
        }
        var checked = 0
        for (name, probed) in zip(names.sorted(), sars) {
            let file = "\(media)/\(name)"
            guard let report = try? ProbeReport(path: file), let v = report.video else { continue }
            let sar = try probed.get() ?? "1:1"
            XCTAssertEqual(v.sampleAspectRatio, ["0:1", "N/A"].contains(sar) ? "1:1" : sar, name)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }
}
