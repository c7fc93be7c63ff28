import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Pan and zoom as rendered: a feature of a photo moves along the closed form to a tenth of a pixel, monotonically,
/// on both renderers; a large zoom samples the full-resolution photo.
final class MotionRenderTests: EndToEndTestCase {
    /// Luma-weighted centroid (above `floor`) of an RGBA frame of a grey picture, in output pixels (centres at i + 0.5).
    func centroid(_ image: RGBAImage, floor: Double) -> (x: Double, y: Double) {
        var sw = 0.0, sx = 0.0, sy = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let w = max(0, Double(image.pixels[(y * image.width + x) * 4]) - floor)
                sw += w; sx += w * (Double(x) + 0.5); sy += w * (Double(y) + 0.5)
            }
        }
        return (sx / sw, sy / sw)
    }

    func testAFeatureFollowsTheClosedFormToATenthOfAPixel() throws {
        // A 1600×1200 grey photo with a soft blob (σ = 24 px) centred on pixel (480, 720), i.e. at (480.5, 720.5).
        let photo = path("blob.png")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=1600x1200:d=1,format=gray,geq=lum='40+200*exp(-((X-480)*(X-480)+(Y-720)*(Y-720))/(2*24*24))'",
                                "-frames:v", "1", photo])
        var c = ClipSpec(path: photo, duration: MediaTime(seconds: 2))
        let motion = Motion(from: Motion.Window(x: 0.5, y: 0.5, zoom: 1), to: Motion.Window(x: 0.35, y: 0.55, zoom: 1.6), easing: .easeInOut)
        c.motion = .windows(motion)
        var edit = Edit(clips: [c])
        edit.renderSize = PixelSize(width: 320, height: 240)
        edit.frameRate = FrameRate(30)
        let timeline = try RenderJob.resolve(edit)
        XCTAssertEqual(timeline.frameCount, 60)
        let px = 480.5 / 1600, py = 720.5 / 1200
        for backend in [Backend.cpu, .gpu] {
            var o = RenderOptions()
            o.backend = backend
            let renderer: CompositeRenderer
            do { renderer = try RenderJob.makeRenderer(o) } catch {
                if TestSupport.inCI { XCTFail("GPU tests must run in CI: \(error)") }
                throw XCTSkip("no EGL context: \(error)")
            }
            let frames = Array(Int64(0)..<60)
            let (images, _) = try RenderJob.renderFrames(timeline, frames: frames, renderer: renderer)
            var worst = 0.0, previous: (x: Double, y: Double)?
            for (n, image) in zip(frames, images) {
                // Closed form: the window (centre c, zoom z) at eased progress e = easeInOut(n / 60); the fitted photo is
                // 320 output pixels wide (scale 0.2), so the blob is at W/2 + (px − cx)·320·z, H/2 + (py − cy)·240·z.
                let w = motion.window(at: Double(n) / 60)
                let ex = 160 + (px - w.x) * 320 * w.zoom, ey = 120 + (py - w.y) * 240 * w.zoom
                let got = centroid(image, floor: 41)
                worst = max(worst, abs(got.x - ex), abs(got.y - ey))
                if let p = previous {
                    // The blob moves right and up steadily as the window pans left and down-zooms in: never back.
                    XCTAssertGreaterThanOrEqual(got.x, p.x - 0.005, "\(backend) frame \(n): x went back")
                }
                previous = got
            }
            print(String(format: "motion %@: worst centroid error %.4f px over 60 frames", "\(backend)", worst))
            XCTAssertLessThanOrEqual(worst, 0.1, "\(backend)")
        }
    }

    /// A zoom to 6× of a 2400×1800 photo in a 320×240 edit samples the full-resolution photo (shown at 0.73 of its
    /// size on the last frame): that frame matches FFmpeg's crop of the original, not an upscale of the photo reduced
    /// to the edit's size.
    func testLargeZoomIsSharp() throws {
        let photo = path("photo.png")
        // Fine detail: a pattern with a 19-pixel period, which survives at 0.73× but not at the edit's size (0.13×).
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=2400x1800:d=1,format=gray,geq=lum='128+100*sin(X/3)*sin(Y/3)'",
                                "-frames:v", "1", photo])
        var c = ClipSpec(path: photo, duration: MediaTime(seconds: 1))
        c.motion = .windows(Motion(from: .fit, to: Motion.Window(zoom: 6)))
        var edit = Edit(clips: [c])
        edit.renderSize = PixelSize(width: 320, height: 240)
        edit.frameRate = FrameRate(10)
        edit.output.codec = .ffv1
        let out = path("zoom.mkv")
        try render(edit, to: out, backend: .cpu, audio: false)
        // The last frame (n = 9): zoom 1 + 5·0.9 = 5.5, window 2400/5.5 wide.
        let z = 1 + 5 * 0.9, cw = 2400 / z, ch = 1800 / z
        let crop = String(format: "crop=%.4f:%.4f:%.4f:%.4f", cw, ch, (2400 - cw) / 2, (1800 - ch) / 2)
        let sharp = path("sharp.mkv"), blurred = path("blurred.mkv")
        try TestSupport.ffmpeg(["-i", photo, "-vf", "\(crop),scale=320:240:flags=bicubic,format=yuv420p", "-c:v", "ffv1", sharp])
        try TestSupport.ffmpeg(["-i", photo, "-vf", "scale=320:240:flags=area,crop=\(Int(320 / z)):\(Int(240 / z)),scale=320:240:flags=bicubic,format=yuv420p", "-c:v", "ffv1", blurred])
        let last = path("last.mkv")
        try TestSupport.ffmpeg(["-i", out, "-vf", "select=eq(n\\,9)", "-c:v", "ffv1", last])
        func ssim(_ a: String, _ b: String) throws -> Double {
            let r = try TestSupport.run("ffmpeg", ["-nostdin", "-i", a, "-i", b, "-lavfi", "ssim", "-f", "null", "-"])
            let range = try XCTUnwrap(r.stderr.range(of: #"All:[0-9.]+"#, options: .regularExpression), r.stderr)
            return Double(r.stderr[range].dropFirst(4))!
        }
        let s = try ssim(last, sharp), b = try ssim(last, blurred)
        print("large zoom: SSIM \(s) against the full-resolution crop, \(b) against an upscale of the reduced photo")
        XCTAssertGreaterThanOrEqual(s, 0.9)
        XCTAssertLessThan(b, 0.7, "the oracle tells them apart: the reduced photo has lost the detail")
    }
}
