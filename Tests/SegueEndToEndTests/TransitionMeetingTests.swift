import XCTest
import Foundation
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Where the transitions meet stills and HDR output in whole renders: a photo with EXIF orientation and a PNG with
/// alpha joined to a video by eased xfade transitions (one mixing in linear light), rendered in SDR and in an HLG
/// edit on both renderers.
final class TransitionMeetingTests: EndToEndTestCase {
    /// The edit: a portrait JPEG (EXIF 6) → a video by `circleopen` eased `ease-in`, the video → a PNG with alpha by
    /// `fadegrays` eased `ease-out` in linear light. 1 + 1.5 + 1 − 2 × 0.5 = 2.5 s, 75 frames at 30 fps.
    func edit(dynamicRange: String) throws -> String {
        let jpg = path("portrait.jpg")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=96x72:d=1:r=1,drawbox=x=0:y=0:w=iw/3:h=ih/3:color=red:t=fill",
                                "-frames:v", "1", "-q:v", "2", jpg])
        XCTAssertEqual(try TestSupport.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", jpg]).status, 0)
        try TestSupport.makeClip(path("clip.mp4"), video: "testsrc2=s=96x64:r=30:d=2")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x64:d=1:r=1,format=rgba,geq=r='X*4':g='Y*4':b=200:a='X*255/W'",
                                "-frames:v", "1", path("sticker.png")])
        let e = path("meeting-\(dynamicRange).json")
        try Data("""
        {"renderSize": {"width": 64, "height": 64}, "frameRate": 30, "background": "#204060",
         "clips": [{"path": "portrait.jpg", "duration": 1},
                   {"path": "clip.mp4", "duration": 1.5, "transition": {"type": "circleopen", "duration": 0.5, "easing": "ease-in"}},
                   {"path": "sticker.png", "duration": 1,
                    "transition": {"type": "fadegrays", "duration": 0.5, "easing": "ease-out", "blend": "linear", "params": {"phase": 0.3}}}],
         "output": {"codec": "ffv1", "dynamicRange": "\(dynamicRange)"}}
        """.utf8).write(to: URL(fileURLWithPath: e))
        return e
    }

    func testAStillWithAnEasedXfadeTransitionGPUMatchesCPUInSDRAndHLG() throws {
        for range in ["sdr", "hlg"] {
            let edit = try EditFile.load(path: try edit(dynamicRange: range))
            // The plan: the photo's transition frames follow ease-in (cubic-bezier(0.42, 0, 1, 1)), not time.
            let timeline = try RenderJob.resolve(edit)
            XCTAssertEqual(timeline.frameCount, 75)
            let into = timeline.transitionFrames(into: 1)
            XCTAssertEqual(into, 15..<30)
            let middle = timeline.plan(frame: 22)   // t = 22/30 s, 7/15 of the way through
            XCTAssertEqual(middle.transition?.kind, .circleopen)
            XCTAssertEqual(middle.progress, Easing.easeIn(7.0 / 15), accuracy: 1e-12)
            XCTAssertEqual(middle.progress, 0.2803, accuracy: 0.0001)   // ease-in(7/15), well below 7/15 = 0.467
            XCTAssertEqual(timeline.plan(frame: 0).colour.dynamicRange.rawValue, range)

            let gpu = try render(edit, to: path("gpu-\(range).mkv"), backend: .gpu, audio: false)
            let cpu = try render(edit, to: path("cpu-\(range).mkv"), backend: .cpu, audio: false)
            XCTAssertEqual(gpu.frames, 75)
            XCTAssertEqual(cpu.frames, 75)
            let format = range == "sdr" ? "yuv420p" : "yuv420p10le", bits = range == "sdr" ? 8 : 10
            XCTAssertEqual(try TestSupport.ffprobe(path("gpu-\(range).mkv"), "stream=pix_fmt")["pix_fmt"], format)
            let g = try TestSupport.decodeFrames(path("gpu-\(range).mkv"), width: 64, height: 64, pixFmt: format)
            let c = try TestSupport.decodeFrames(path("cpu-\(range).mkv"), width: 64, height: 64, pixFmt: format)
            XCTAssertEqual(g.count, 75)
            TestSupport.assertYUVSequencesMatch(g, c, width: 64, height: 64, minPSNR: 45, bitDepth: bits,
                                                label: "gpu vs cpu, photo → video → PNG, eased circleopen and linear fadegrays, \(range)")
            // The photo's frames before the transition are the same picture (decoded once, shown 15 times).
            XCTAssertEqual(g[0], g[14])
        }
    }
}
