import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Whole renders through both backends (lossless FFV1), compared frame by frame on every plane.
final class BackendComparisonTests: EndToEndTestCase {
    func testGeneratedEditGPUMatchesCPUEveryFrame() throws {
        let a = path("a.mp4"), b = path("b_stored.mp4"), br = path("b.mp4"), c = path("c.mp4"), d = path("d.mp4")
        try TestSupport.makeClip(a, video: "testsrc2=s=200x120:r=30:d=2", audio: "sine=f=440:r=48000:d=2")
        try TestSupport.makeClip(b, video: "smptebars=s=160x90:r=25:d=2", audio: "sine=f=660:r=44100:d=2")
        try TestSupport.rotated(b, degrees: -90, to: br)
        try TestSupport.makeClip(c, video: "mandelbrot=s=120x120:r=30,trim=duration=2")
        try TestSupport.makeClip(d, video: "testsrc=s=128x96:r=30:d=2,hue=h=90")
        var edit = Edit(clips: [clip(a, start: 0.2, duration: 1.5), clip(br, tr(.crossfade, 0.5)), clip(c, tr(.push, 0.5, .left)), clip(d, tr(.wipe, 0.5, .downRight))])
        edit.renderSize = PixelSize(width: 128, height: 128)
        edit.frameRate = FrameRate(30)
        edit.output.codec = .ffv1
        let gpu = try render(edit, to: path("gpu.mkv"), backend: .gpu)
        let cpu = try render(edit, to: path("cpu.mkv"), backend: .cpu)
        // 1.5 + 2 + 2 + 2 - 1.5 = 6 s → 180 frames.
        XCTAssertEqual(gpu.frames, 180)
        XCTAssertEqual(cpu.frames, 180)
        let g = try TestSupport.decodeFrames(path("gpu.mkv"), width: 128, height: 128)
        let k = try TestSupport.decodeFrames(path("cpu.mkv"), width: 128, height: 128)
        XCTAssertEqual(g.count, 180)
        TestSupport.assertYUVSequencesMatch(g, k, width: 128, height: 128, minPSNR: 45, label: "gpu vs cpu, generated edit")
    }

    func testRealClipsGPUMatchesCPU() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        var edit = Edit(clips: [
            clip("\(media)/iphone4s_rot-90_audiofirst.mov", duration: 1.5),
            clip("\(media)/h264_640x360_23.976_aac48k.mp4", tr(.crossfade, 0.5)),
            clip("\(media)/vp9_odd_161x121.webm", tr(.push, 0.4, .up)),
            clip("\(media)/camera_mjpeg_320x240_pcm22k.avi", tr(.wipe, 0.5, .right), duration: 1.2),
        ])
        edit.square = true
        edit.renderSize = PixelSize(width: 160, height: 160)
        edit.output.codec = .ffv1
        let gpu = try render(edit, to: path("gpu.mkv"), backend: .gpu)
        let cpu = try render(edit, to: path("cpu.mkv"), backend: .cpu)
        XCTAssertEqual(gpu.frames, cpu.frames)
        // 1.5 + 1.001 + 1.0 + 1.2 - 1.4 = 3.301 s at 30000/1001 (highest nominal rate: the iPhone's 29.97) → 99 frames.
        XCTAssertEqual(gpu.timeline.frameRate, FrameRate(30000, 1001))
        XCTAssertEqual(gpu.frames, 99)
        let g = try TestSupport.decodeFrames(path("gpu.mkv"), width: 160, height: 160)
        let k = try TestSupport.decodeFrames(path("cpu.mkv"), width: 160, height: 160)
        TestSupport.assertYUVSequencesMatch(g, k, width: 160, height: 160, minPSNR: 45, label: "gpu vs cpu, real clips")
    }
}
