import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Large downscales are prefiltered (issue 14): a layer shown at less than half its size is reduced with
/// libswscale's area filter before it is sampled, on both backends. Without it, bilinear sampling of a 3840×2160
/// zone plate at 540×540 aliases into moiré (SSIM 0.75 against FFmpeg's area scaling); with it, ≥ 0.98.
final class PrefilterTests: EndToEndTestCase {
    /// SSIM (all planes) of `a` against `b`, from FFmpeg's `ssim` filter.
    func ssim(_ a: String, _ b: String) throws -> Double {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-i", a, "-i", b, "-lavfi", "ssim", "-f", "null", "-"])
        guard let range = r.stderr.range(of: #"All:[0-9.]+"#, options: .regularExpression) else {
            XCTFail("no SSIM in: \(r.stderr)"); return 0
        }
        return Double(r.stderr[range].dropFirst(4))!
    }

    func testZonePlateAt540IsSharpAndFreeOfMoire() throws {
        // A zone plate whose rings reach 2.9 rad/pixel at the corners of a 3840×2160 frame (near its Nyquist limit).
        let zone = path("zone.mp4")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=3840x2160:d=0.1:r=10,geq=lum='128+100*sin(((X-1920)*(X-1920)+(Y-1080)*(Y-1080))/1400)':cb=128:cr=128",
                                "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", zone])
        let turned = path("zone-rot.mp4")
        try TestSupport.rotated(zone, degrees: 90, to: turned)
        // Oracles: FFmpeg's area scaling to the shown size, then the centre crop (after autorotation); made in the
        // background while Segue renders.
        let oracle = path("oracle.mkv"), oracleTurned = path("oracle-rot.mkv")
        let oracles = Background {
            try TestSupport.ffmpeg(["-i", zone, "-vf", "scale=960:540:flags=area,crop=540:540", "-c:v", "ffv1", oracle])
            try TestSupport.ffmpeg(["-i", turned, "-vf", "scale=540:960:flags=area,crop=540:540", "-c:v", "ffv1", oracleTurned])
        }
        for (clipPath, reference, label) in [(zone, oracle, "landscape"), (turned, oracleTurned, "rotated 90°")] {
            var edit = Edit(clips: [clip(clipPath)])
            edit.renderSize = PixelSize(width: 540, height: 540)
            edit.output.codec = .ffv1
            for backend in [Backend.cpu, .gpu] {
                let out = path("out-\(label.prefix(4))-\(backend).mkv")
                try render(edit, to: out, backend: backend, audio: false)
                try oracles.value()
                let s = try ssim(out, reference)
                print("prefilter \(label) \(backend): SSIM \(s)")
                XCTAssertGreaterThanOrEqual(s, 0.98, "\(label) \(backend)")
            }
        }
    }

    func testPrefilterSizeRule() {
        // 3840×2160 filling 540×540: shown at 960×540 (scale ¼ on both axes).
        let m = LayerGeometry.outputToSource(codedSize: PixelSize(width: 3840, height: 2160), sar: 1, orientation: .identity,
                                             renderSize: PixelSize(width: 540, height: 540), fit: .fill)
        XCTAssertEqual(LayerGeometry.prefilterSize(m, codedSize: PixelSize(width: 3840, height: 2160)), PixelSize(width: 960, height: 540))
        // A quarter turn: the stored axes swap roles.
        let r = LayerGeometry.outputToSource(codedSize: PixelSize(width: 3840, height: 2160), sar: 1, orientation: Orientation(a: 0, b: 1, c: -1, d: 0),
                                             renderSize: PixelSize(width: 540, height: 540), fit: .fill)
        XCTAssertEqual(LayerGeometry.prefilterSize(r, codedSize: PixelSize(width: 3840, height: 2160)), PixelSize(width: 960, height: 540))
        // At half size or more nothing is reduced (bilinear sampling does not skip samples there).
        let half = LayerGeometry.outputToSource(codedSize: PixelSize(width: 1920, height: 1080), sar: 1, orientation: .identity,
                                                renderSize: PixelSize(width: 960, height: 540), fit: .fill)
        XCTAssertNil(LayerGeometry.prefilterSize(half, codedSize: PixelSize(width: 1920, height: 1080)))
        // Stretch: only the axis below ½ is reduced.
        let s = LayerGeometry.outputToSource(codedSize: PixelSize(width: 1000, height: 1000), sar: 1, orientation: .identity,
                                             renderSize: PixelSize(width: 800, height: 100), fit: .stretch)
        XCTAssertEqual(LayerGeometry.prefilterSize(s, codedSize: PixelSize(width: 1000, height: 1000)), PixelSize(width: 1000, height: 100))
    }
}
