import XCTest
import SegueCore
import SegueEdit
import SegueMedia
@testable import SeguePipeline
import SegueTestSupport

/// Blur and sharpen (issue 35 item 3): against FFmpeg's `gblur` and `unsharp` on a testsrc2 picture, on both
/// renderers; the GPU's frames against the CPU's; keyframed radius; inside a transition and on a text; bad values.
final class BlurEffectTests: EndToEndTestCase {
    let size = PixelSize(width: 160, height: 90)

    /// testsrc2 as an RGB PNG of the render size.
    func testsrc() throws -> String { try testsrc2PNG(size, name: "src.png") }

    /// Frame `n` of one still `path` with `effects` on `backend` (10 fps, 1 s).
    func frame(_ path: String, _ effects: [ItemEffect], _ n: Int64 = 0, backend: Backend) throws -> RGBAImage {
        try stillFrame(path, effects, size: size, frame: n, backend: backend)
    }

    /// R′G′B′ of `image` (RGBA) inside the frame less `margin` pixels on each side.
    func interior(_ pixels: [UInt8], channels: Int, margin: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in margin..<(size.height - margin) {
            for x in margin..<(size.width - margin) {
                let i = (y * size.width + x) * channels
                out += pixels[i..<(i + 3)]
            }
        }
        return out
    }

    /// FFmpeg's `filter` of `png`, RGB.
    func oracle(_ png: String, _ filter: String) throws -> [UInt8] {
        try TestSupport.decodeFrames(png, width: size.width, height: size.height, pixFmt: "rgb24", filter: filter)[0]
    }

    /// A Gaussian blur of σ 1.5 and 3 px against `gblur` (planar RGB, so each channel is blurred as it is here) away
    /// from the frame's edges (here transparent outside the picture, as CSS; gblur extends the edge), ≥ 35 dB on both
    /// renderers; the GPU's frame against the CPU's ≥ 45 dB over the whole frame.
    func testBlurMatchesFFmpegsGblur() throws {
        let png = try testsrc()
        for sigma in [1.5, 3] {
            let want = interior(try oracle(png, "format=gbrp,gblur=sigma=\(sigma):steps=4,format=rgb24"), channels: 3, margin: Int((3 * sigma).rounded(.up)) + 2)
            var frames: [Backend: RGBAImage] = [:]
            for backend in [Backend.cpu, .gpu] {
                let ours = try frame(png, [.blur(BlurEffect(radius: .constant(sigma)))], backend: backend)
                frames[backend] = ours
                let p = PlaneDifference(interior(ours.pixels, channels: 4, margin: Int((3 * sigma).rounded(.up)) + 2), want).psnr
                print("blur \(sigma) on \(backend): \(String(format: "%.2f", p)) dB against gblur")
                XCTAssertGreaterThanOrEqual(p, 35, "blur \(sigma) on \(backend)")
            }
            let same = PlaneDifference(frames[.gpu]!.pixels, frames[.cpu]!.pixels).psnr
            print("blur \(sigma): GPU against CPU \(String(format: "%.2f", same)) dB")
            XCTAssertGreaterThanOrEqual(same, 45)
            // The blur does blur: the unblurred picture is far from it.
            let plain = try frame(png, [], backend: .cpu)
            XCTAssertLessThan(PlaneDifference(plain.pixels, frames[.cpu]!.pixels).psnr, 30)
        }
    }

    /// A blur wider than 16 px is drawn at a reduced size (σ 24: a third, σ′ 7.98) and read back bilinearly: within
    /// 35 dB of the exact blur of σ 24 over the whole frame (same edges) on both renderers.
    func testAWideBlurDrawnReducedIsTheExactBlur() throws {
        let png = try testsrc()
        let exact = LayerFilter.blur(radius: 24).blurred(try frame(png, [], backend: .cpu))
        XCTAssertEqual(LayerFilter.blur(radius: 24).reduced(size).n, 3)
        for backend in [Backend.cpu, .gpu] {
            let ours = try frame(png, [.blur(BlurEffect(radius: .constant(24)))], backend: backend)
            let p = PlaneDifference(interior(ours.pixels, channels: 4, margin: 0), interior(exact.pixels, channels: 4, margin: 0)).psnr
            print("blur 24 reduced on \(backend): \(String(format: "%.2f", p)) dB against the exact blur")
            XCTAssertGreaterThanOrEqual(p, 35, "on \(backend)")
        }
    }

    /// An unsharp mask of amount 1 and radius √2 against FFmpeg's `unsharp=9:9:1:9:9:1` (its 9-tap window is a
    /// binomial of 8 steps: variance 8/4 = 2, σ = √2) on 4:4:4, where one linear filter on Y′, Cb and Cr is the same
    /// filter on R′G′B′: ≥ 35 dB away from the edges on both renderers (39.8 dB measured; what is left is where the
    /// overshoots are clamped: in limited-range Y′CbCr there, in R′G′B′ here; full range, which clamps them in Y′CbCr
    /// at once, gives 33.5 dB).
    func testSharpenMatchesFFmpegsUnsharp() throws {
        let png = try testsrc()
        let want = interior(try oracle(png, "format=yuv444p,unsharp=9:9:1:9:9:1,format=rgb24"), channels: 3, margin: 8)
        let plain = interior(try frame(png, [], backend: .cpu).pixels, channels: 4, margin: 8)
        for backend in [Backend.cpu, .gpu] {
            let ours = interior(try frame(png, [.sharpen(SharpenEffect(amount: .constant(1), radius: .constant(2.0.squareRoot())))], backend: backend).pixels,
                                channels: 4, margin: 8)
            let p = PlaneDifference(ours, want).psnr
            print("sharpen on \(backend): \(String(format: "%.2f", p)) dB against unsharp; the picture itself \(String(format: "%.2f", PlaneDifference(plain, want).psnr)) dB")
            XCTAssertGreaterThanOrEqual(p, 35, "sharpen on \(backend)")
            XCTAssertGreaterThan(p, PlaneDifference(plain, want).psnr + 3, "nearer unsharp's than the picture itself")
        }
    }

    /// A radius keyframed 0 → 4 over the item's second: frame 0 is the picture itself, frame 5 (t = 0.5 s) the blur
    /// of radius 2 exactly.
    func testKeyframedRadiusMovesAsLayerKeyframesDo() throws {
        let png = try testsrc()
        let ramp = BlurEffect(radius: .keyframes([Keyframe(time: .zero, value: 0), Keyframe(time: MediaTime(seconds: 1), value: 4)]))
        XCTAssertEqual(try frame(png, [.blur(ramp)], 0, backend: .cpu), try frame(png, [], 0, backend: .cpu))
        let halfway = try frame(png, [.blur(ramp)], 5, backend: .cpu)
        XCTAssertEqual(halfway, try frame(png, [.blur(BlurEffect(radius: .constant(2)))], 5, backend: .cpu))
        XCTAssertNotEqual(halfway, try frame(png, [.blur(BlurEffect(radius: .constant(2.5)))], 5, backend: .cpu))
    }

    /// A blurred still crossfading into a sharpened one under a blurred, dimmed title: the GPU draws what the CPU
    /// draws (≥ 45 dB) on frames before, inside and after the transition; the title's blur spreads its letters.
    func testBlurInATransitionAndOnTextOnBothRenderers() throws {
        let png = try testsrc()
        var a = ClipSpec(path: png); a.duration = MediaTime(seconds: 1)
        a.effects = [.blur(BlurEffect(radius: .constant(3)))]
        var b = ClipSpec(path: png); b.duration = MediaTime(seconds: 1)
        b.effects = [.sharpen(SharpenEffect(amount: .constant(0.8), radius: .constant(1)))]
        b.transition = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 2))
        var text = TextSpec(text: "BLUR")
        text.style.size = 40
        var title = ClipSpec(content: .text(text), duration: MediaTime(seconds: 1))
        var dim = ColourEffect()
        dim.brightness = .constant(0.8)
        title.effects = [.colour(dim), .blur(BlurEffect(radius: .constant(1.5)))]
        var edit = Edit(tracks: [VideoTrack(clips: [a, b]), VideoTrack(clips: [title])])
        edit.renderSize = size
        edit.frameRate = FrameRate(10)
        let cpu = try cpuFramesMatchingTheGPU(edit, [2, 7, 12])
        var sharpTitle = edit
        sharpTitle.tracks[1].clips[0].effects = [.colour(dim)]
        let sharp = try renderedFrames(sharpTitle, [2], backend: .cpu)[0]
        // Text pixels: more of the frame changed by the title when it is blurred (its letters spread).
        let bare = try frame(png, [.blur(BlurEffect(radius: .constant(3)))], 2, backend: .cpu)
        func touched(_ i: RGBAImage) -> Int { (0..<(size.width * size.height)).filter { abs(Int(i.pixels[$0 * 4]) - Int(bare.pixels[$0 * 4])) > 2 }.count }
        XCTAssertGreaterThan(touched(cpu[0]), touched(sharp) + 50, "the blurred title reaches further than the sharp one")
    }

    /// Real camera pictures (../shared/media: an MJPEG webcam clip and an H.263 phone clip, both noisy), fitted into
    /// 320 × 180 over their blurred fill, sharpened (amount 1, σ 1.5) and graded through a 17³ table at half strength:
    /// the GPU's frames within 45 dB of the CPU's (the unsharp mask doubles any difference in the layer drawn before
    /// it). The sharpen does sharpen: the frame without it is far from the one with it.
    func testSharpenedRealClipsMatchOnBothRenderers() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("no ../shared/media") }
        let grade = try cube("grade.cube", size: 17) { r, g, b in
            let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
            return (r * 0.6 + y * 0.45, g * 0.7 + y * 0.15 + 0.05, b * 0.55 + (1 - y) * 0.35)
        }
        for name in ["camera_mjpeg_320x240_pcm22k.avi", "h263_cif_sar12-11_aac8k.3gp"] {
            var item = ClipSpec(path: media + "/" + name)
            item.duration = MediaTime(seconds: 1)
            item.effects = [.sharpen(SharpenEffect(amount: .constant(1), radius: .constant(1.5))), .lut(LUTEffect(path: grade, strength: .constant(0.5)))]
            var edit = Edit(clips: [item])
            edit.renderSize = PixelSize(width: 320, height: 180)
            edit.frameRate = FrameRate(10)
            edit.fit = .fit
            edit.fitBackground = .blur
            print(name)
            let sharp = try cpuFramesMatchingTheGPU(edit, [0, 5, 9])
            edit.tracks[0].clips[0].effects.removeFirst()
            let plain = try renderedFrames(edit, [5], backend: .cpu)[0]
            XCTAssertLessThan(PlaneDifference(plain.pixels, sharp[1].pixels).psnr, 40, "\(name): the sharpen changes the picture")
        }
    }

    /// A negative radius, one over 250 px, and an amount below 0 are refused naming the field.
    func testBadValuesAreRefusedNamingTheField() throws {
        let png = try testsrc()
        for (effect, field) in [(#"{"type": "blur", "radius": -1}"#, "effects[0].radius"), (#"{"type": "blur", "radius": 1000}"#, "effects[0].radius"),
                                (#"{"type": "sharpen", "amount": -2}"#, "effects[0].amount"), (#"{"type": "blur"}"#, "effects[0]")] {
            let json = #"{"clips": [{"path": "\#(png)", "effects": [\#(effect)]}]}"#
            XCTAssertThrowsError(try EditFile.parse(data: Data(json.utf8), baseDirectory: dir), effect) { error in
                XCTAssertTrue("\(error)".contains(field), "\(error)")
            }
        }
    }
}
