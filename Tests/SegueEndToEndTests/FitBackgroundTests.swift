import XCTest
import SegueCore
import SegueEdit
import SegueMedia
@testable import SeguePipeline
import SegueTestSupport

/// `fitBackground` (issue 35 item 4): a portrait picture fitted into a landscape frame over a blurred copy of itself
/// (against FFmpeg's cover scale and `gblur`) or over a colour, only under its item, with its transitions.
final class FitBackgroundTests: EndToEndTestCase {
    let size = PixelSize(width: 320, height: 180)

    /// testsrc2 at 90 × 160 (portrait) as an RGB PNG.
    func portrait() throws -> String { try testsrc2PNG(PixelSize(width: 90, height: 160), name: "portrait.png") }

    /// The portrait still for 1 s (10 fps) with `item` as its own fitBackground, under an edit `fit` "fit" with `edit`.
    func edit(_ edit: FitBackground?, item: FitBackground? = nil) throws -> Edit {
        var clip = ClipSpec(path: try portrait())
        clip.duration = MediaTime(seconds: 1)
        clip.fitBackground = item
        var e = Edit(clips: [clip])
        e.renderSize = size
        e.frameRate = FrameRate(10)
        e.fit = .fit
        e.fitBackground = edit
        return e
    }

    /// R′G′B′ of an RGBA frame in the columns `xs`.
    func columns(_ pixels: [UInt8], _ xs: [Range<Int>], channels: Int = 4) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<size.height { for r in xs { for x in r { let i = (y * size.width + x) * channels; out += pixels[i..<(i + 3)] } } }
        return out
    }

    /// The picture covers x 109.4…210.6 (90 × 160 scaled by 180/160). The bars (x < 104, x ≥ 216) are FFmpeg's
    /// `scale=…:force_original_aspect_ratio=increase,crop,gblur=sigma=9` (σ = 180 / 20) of it within 35 dB on both
    /// renderers (what differs: FFmpeg scales bicubic and blurs by its IIR approximation, Segue reads bilinear and
    /// blurs by the kernel; at σ 9 both are smooth); the picture's own columns are the picture itself, exactly the
    /// frame without a background; the GPU's frame is the CPU's ≥ 45 dB.
    func testBlurredBarsAreTheCoverScaledPictureBlurred() throws {
        let bars = [0..<104, 216..<320], centre = [112..<208]
        let oracle = try TestSupport.decodeFrames(try portrait(), width: size.width, height: size.height, pixFmt: "rgb24",
                                                  filter: "scale=320:180:force_original_aspect_ratio=increase,crop=320:180,format=gbrp,gblur=sigma=9:steps=4,format=rgb24")[0]
        var frames: [RGBAImage] = []
        for backend in [Backend.cpu, .gpu] {
            let plain = try renderedFrames(try edit(nil), [0], backend: backend)[0]
            let ours = try renderedFrames(try edit(.blur), [0], backend: backend)[0]
            frames.append(ours)
            let p = PlaneDifference(columns(ours.pixels, bars), columns(oracle, bars, channels: 3)).psnr
            print("fitBackground blur on \(backend): bars \(String(format: "%.2f", p)) dB against FFmpeg")
            XCTAssertGreaterThanOrEqual(p, 35, "bars on \(backend)")
            XCTAssertTrue(columns(ours.pixels, centre) == columns(plain.pixels, centre), "the picture itself on \(backend)")
            XCTAssertLessThan(PlaneDifference(columns(ours.pixels, bars), columns(plain.pixels, bars)).psnr, 20, "the bars are not black")
        }
        let same = PlaneDifference(frames[0].pixels, frames[1].pixels).psnr
        print("fitBackground blur: GPU against CPU \(String(format: "%.2f", same)) dB")
        XCTAssertGreaterThanOrEqual(same, 45)
    }

    /// A colour: the bars are exactly that colour, the item's own before the edit's; only while the item lasts (a
    /// second item without one has black bars); in a crossfade from it to that item the bars fade as the item does, and
    /// with the item's opacity keyframes.
    func testColourBarsAreThatColourAndFollowTheItem() throws {
        let grey = RGBColour(r: 0x20, g: 0x20, b: 0x20), red = RGBColour(r: 255, g: 0, b: 0)
        for backend in [Backend.cpu, .gpu] {
            for e in [try edit(.colour(grey)), try edit(.colour(red), item: .colour(grey))] {
                let frame = try renderedFrames(e, [3], backend: backend)[0]
                XCTAssertEqual(Set(columns(frame.pixels, [0..<104, 216..<320])), [0x20], "bars on \(backend)")
                XCTAssertEqual(frame.pixels[(90 * size.width + 160) * 4..<((90 * size.width + 160) * 4 + 3)],
                               try renderedFrames(edit(nil), [3], backend: backend)[0].pixels[(90 * size.width + 160) * 4..<((90 * size.width + 160) * 4 + 3)],
                               "the picture itself at the centre on \(backend)")
            }
        }
        // The item's opacity keyframes (1 → 0 over its second) fade its bars with it: half at 0.5 s.
        var fading = try edit(.colour(RGBColour(r: 200, g: 200, b: 200)))
        fading.tracks[0].clips[0].layer.opacity = .keyframes([Keyframe(time: .zero, value: 1), Keyframe(time: MediaTime(seconds: 1), value: 0)])
        for backend in [Backend.cpu, .gpu] {
            let half = try renderedFrames(fading, [5], backend: backend)[0]
            XCTAssertEqual(Int(half.pixels[(90 * size.width + 10) * 4]), 100, accuracy: 1, "bars at half opacity on \(backend)")
        }
        var e = try edit(nil, item: .colour(red))
        var second = ClipSpec(path: try portrait())
        second.duration = MediaTime(seconds: 1)
        second.transition = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 2))
        e.tracks[0].clips.append(second)
        for backend in [Backend.cpu, .gpu] {
            let f = try renderedFrames(e, [2, 7, 12], backend: backend)
            func bar(_ i: RGBAImage) -> [UInt8] { Array(i.pixels[(90 * size.width + 10) * 4..<((90 * size.width + 10) * 4 + 3)]) }
            XCTAssertEqual(bar(f[0]), [255, 0, 0], "red bars under the first item on \(backend)")
            // t = 0.7 s: 0.4 of the way through the crossfade (0.5…1 s), so 0.6 of the red.
            XCTAssertEqual(Int(bar(f[1])[0]), 153, accuracy: 2, "in the crossfade on \(backend): \(bar(f[1]))")
            XCTAssertEqual(bar(f[2]), [0, 0, 0], "no background under the second item on \(backend)")
        }
    }

    /// A value that is neither "blur" nor a colour is refused naming the field, on the edit and on an item.
    func testBadFitBackgroundIsRefusedNamingTheField() throws {
        let png = try portrait()
        for (json, field) in [(#"{"fit": "fit", "fitBackground": "blurry", "clips": [{"path": "\#(png)"}]}"#, "fitBackground"),
                              (#"{"fit": "fit", "clips": [{"path": "\#(png)", "fitBackground": 3}]}"#, "clips[0].fitBackground")] {
            XCTAssertThrowsError(try EditFile.parse(data: Data(json.utf8), baseDirectory: dir), json) { error in
                XCTAssertTrue("\(error)".contains(field), "\(error)")
            }
        }
        let ok = try EditFile.parse(data: Data(##"{"fit": "fit", "fitBackground": "#202020", "clips": [{"path": "\##(png)", "fitBackground": "blur"}]}"##.utf8), baseDirectory: dir)
        XCTAssertEqual(ok.fitBackground, .colour(RGBColour(r: 0x20, g: 0x20, b: 0x20)))
        XCTAssertEqual(ok.tracks[0].clips[0].fitBackground, .blur)
        // segue plan names each item's background (its own before the edit's); blur and sharpen among its effects.
        let file = path("edit.json")
        try ##"{"fit": "fit", "fitBackground": "#202020", "clips": [{"path": "\##(png)", "fitBackground": "blur", "effects": [{"type": "sharpen"}]}, {"path": "\##(png)"}]}"##
            .write(toFile: file, atomically: true, encoding: .utf8)
        let plan = try segue(["plan", file])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.text.contains("fit background blur"), plan.text)
        XCTAssertTrue(plan.text.contains("effects: sharpen amount 1, radius 1, fit background blur"), plan.text)
        XCTAssertTrue(plan.text.contains("fit background #202020"), plan.text)
    }
}
