import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueShaders
import SegueTestSupport

/// Blend modes (`LayerPlan.blend`, issue 35 item 7) drawn by both renderers: a two-pass frame (a gradient below, a
/// second pattern above with each mode, opacity 1 and 0.5) GPU against CPU ≥ 45 dB per mode; the CPU picture against
/// the W3C formula per pixel; and, for the modes whose definitions agree, against FFmpeg's `blend` filter on gbrp.
final class BlendRenderTests: RendererTestCase {
    let size = PixelSize(width: 64, height: 48)

    /// Red across and green down, each 64…240, blue 40 (the backdrop): never grey and never 0 or 1, where saturation,
    /// dodge and burn turn a level's rounding of the backdrop into a jump.
    var bottom: RGBAImage {
        RGBAImage(width: size.width, height: size.height, pixels: (0..<size.height).flatMap { y in (0..<size.width).flatMap { x -> [UInt8] in
            [UInt8(64 + x * 176 / (size.width - 1)), UInt8(64 + y * 176 / (size.height - 1)), 40, 255]
        } })
    }
    /// Bands of colour over a ramp the other way (the blended layer), every channel taking values below and above 0.5.
    var top: RGBAImage {
        RGBAImage(width: size.width, height: size.height, pixels: (0..<size.height).flatMap { y in (0..<size.width).flatMap { x -> [UInt8] in
            [UInt8(255 - x * 255 / (size.width - 1)), UInt8((x / 8 % 4) * 85), UInt8(y * 255 / (size.height - 1)), 255]
        } })
    }

    func plan(_ mode: BlendMode, opacity: Double) -> FramePlan {
        var above = identityLayer(1, size: size)
        above.blend = mode; above.opacity = opacity
        return FramePlan(frame: 0, time: .zero, renderSize: size, passes: [
            CompositePass(track: 0, from: identityLayer(0, size: size), to: nil, transition: nil, progress: 0),
            CompositePass(track: 1, from: above, to: nil, transition: nil, progress: 0),
        ])
    }

    func render(_ r: CompositeRenderer, _ mode: BlendMode, opacity: Double) throws -> RGBAImage {
        try r.render(plan(mode, opacity: opacity), pictures: [VideoPicture(bottom), VideoPicture(top)])
    }

    /// Every mode at opacity 1 and 0.5: the CPU picture is αs·B(Cb, Cs) + (1 − αs)·Cb at every pixel (within one
    /// level: 8-bit rounding of the inputs), and the GPU (llvmpipe) agrees with it ≥ 45 dB, within 3 levels (8 for dodge
    /// and burn, whose divisions magnify rounding near their edges).
    func testEveryModeOnBothRenderersMatchesTheFormula() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let b = bottom.pixels, t = top.pixels
        for mode in BlendMode.allCases {
            for opacity in [1.0, 0.5] {
                let c = try render(cpu, mode, opacity: opacity), g = try render(gpu, mode, opacity: opacity)
                var worst = 0
                for i in stride(from: 0, to: b.count, by: 4) {
                    let cb = SIMD3(Float(b[i]), Float(b[i + 1]), Float(b[i + 2])) / 255, cs = SIMD3(Float(t[i]), Float(t[i + 1]), Float(t[i + 2])) / 255
                    let want = Float(opacity) * mode.blend(cb, cs) + (1 - Float(opacity)) * cb
                    for k in 0..<3 { worst = max(worst, abs(Int(c.pixels[i + k]) - Int((want[k] * 255).rounded()))) }
                    XCTAssertEqual(c.pixels[i + 3], 255)
                }
                XCTAssertLessThanOrEqual(worst, 1, "\(mode.rawValue) opacity \(opacity): CPU against the formula")
                let d = PlaneDifference(c.pixels, g.pixels)
                XCTAssertGreaterThanOrEqual(d.psnr, 45, "\(mode.rawValue) opacity \(opacity): GPU vs CPU \(d)")
                // Dodge and burn divide by 1 − Cs and Cs: near their edges a rounding of the GPU's arithmetic grows tens of times.
                XCTAssertLessThanOrEqual(d.maxAbsDifference, [.colorDodge, .colorBurn].contains(mode) ? 8 : 3, "\(mode.rawValue) opacity \(opacity): GPU vs CPU \(d)")
            }
        }
        // A mode changes the picture: multiply is not normal.
        XCTAssertNotEqual(try render(cpu, .multiply, opacity: 1).pixels, try render(cpu, .normal, opacity: 1).pixels)
    }

    /// FFmpeg's `blend` filter (8-bit gbrp, top = the layer, bottom = the backdrop) for the modes whose formulas are
    /// W3C's: multiply, screen, darken, lighten, difference, exclusion, addition = add, and (names swapped) FFmpeg's
    /// overlay = hard-light, hardlight = overlay; ≥ 40 dB (FFmpeg's integer arithmetic truncates). Its softlight, dodge
    /// and burn are other formulas: not compared.
    func testSharedModesMatchFFmpegBlend() throws {
        let dir = TestSupport.tempDir("segue-blend")
        try writePPM(bottom, to: "\(dir)/bottom.ppm"); try writePPM(top, to: "\(dir)/top.ppm")
        let cpu = ReferenceRenderer()
        for (mode, name) in [(BlendMode.multiply, "multiply"), (.screen, "screen"), (.darken, "darken"), (.lighten, "lighten"),
                             (.difference, "difference"), (.exclusion, "exclusion"), (.add, "addition"),
                             // Swapped: FFmpeg's overlay tests the top input (W3C's hard-light), its hardlight the bottom (W3C's overlay).
                             (.hardLight, "overlay"), (.overlay, "hardlight")] {
            let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", "\(dir)/top.ppm", "-i", "\(dir)/bottom.ppm", "-filter_complex",
                                                   "[0:v]format=gbrp[t];[1:v]format=gbrp[b];[t][b]blend=all_mode=\(name),format=rgb24",
                                                   "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let want = [UInt8](r.stdout)
            let got = try render(cpu, mode, opacity: 1).pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
            XCTAssertEqual(want.count, got.count, name)
            let d = PlaneDifference(got, want)
            XCTAssertGreaterThanOrEqual(d.psnr, 40, "\(mode.rawValue) vs FFmpeg blend=\(name): \(d)")
        }
    }

    /// Video output (8-bit 4:2:0): every mode at opacity 1 and 0.5, GPU against CPU ≥ 45 dB on each plane; the CPU's luma
    /// against the luma of its R′G′B′A picture ≥ 35 dB (the backdrop is read back from 4:2:0 planes, so its chroma is
    /// a block's; not for dodge and burn, too steep for that); a mode changes the planes.
    func testEveryModeInVideoPlanesOnBothRenderers() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let pictures = [VideoPicture(bottom), VideoPicture(top)]
        let rowY = OutputYCbCr.sdr.y
        for mode in BlendMode.allCases {
            for opacity in [1.0, 0.5] {
                let c = try cpu.renderYUV420(plan(mode, opacity: opacity), pictures: pictures)
                let g = try gpu.renderYUV420(plan(mode, opacity: opacity), pictures: pictures)
                for (name, a, b) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                    let d = PlaneDifference(a, b)
                    XCTAssertGreaterThanOrEqual(d.psnr, 45, "\(mode.rawValue) opacity \(opacity) \(name): GPU vs CPU \(d)")
                }
                let rgba = try render(cpu, mode, opacity: opacity).pixels
                let lumaOfRGBA = stride(from: 0, to: rgba.count, by: 4).map { i -> UInt8 in
                    Unorm.code8(rowY[0] * Float(rgba[i]) / 255 + rowY[1] * Float(rgba[i + 1]) / 255 + rowY[2] * Float(rgba[i + 2]) / 255 + rowY[3])
                }
                // Dodge and burn divide by 1 − Cs and Cs: a backdrop read back from 4:2:0 moves them too far to compare.
                guard ![.colorDodge, .colorBurn].contains(mode) else { continue }
                let d = PlaneDifference(c.y, lumaOfRGBA)
                XCTAssertGreaterThanOrEqual(d.psnr, 35, "\(mode.rawValue) opacity \(opacity): planes' luma vs the picture's \(d)")
            }
        }
        XCTAssertNotEqual(try cpu.renderYUV420(plan(.multiply, opacity: 1), pictures: pictures).y,
                          try cpu.renderYUV420(plan(.normal, opacity: 1), pictures: pictures).y)
    }

    /// Outputs that keep alpha do not blend yet: a blended pass there is an edit error naming `layer.blend`, on both
    /// renderers; a normal one renders.
    func testAlphaOutputsRefuseABlendedPass() throws {
        for r in try renderers() {
            var p = plan(.screen, opacity: 1)
            p.keepsAlpha = true
            XCTAssertThrowsError(try r.renderYUV420(p, pictures: [VideoPicture(bottom), VideoPicture(top)], base: nil)) {
                XCTAssertEqual(($0 as? EditError)?.field, "layer.blend", "\(r.name)")
            }
            p = plan(.normal, opacity: 1)
            p.keepsAlpha = true
            XCTAssertNoThrow(try r.renderYUV420(p, pictures: [VideoPicture(bottom), VideoPicture(top)], base: nil))
        }
    }

    /// A pass without blend compiles the program it always did: `blend.glsl` and `BLEND` only in a blended pass's.
    func testNormalProgramsLeaveTheBlendCodeOut() throws {
        let v = ShaderLibrary.LayerVariant(kind: .planar8, exact: false)
        for output in [OutputPass.rgba, .luma, .chroma] {
            let normal = try XCTUnwrap(ShaderLibrary.fragmentSource(transition: "none", from: v, to: v, output: output, overBelow: true))
            XCTAssertFalse(normal.contains("#define BLEND"), "\(output)")
            XCTAssertFalse(normal.contains("vec4 segue_blendSource("), "\(output)")
            let screen = try XCTUnwrap(ShaderLibrary.fragmentSource(transition: "none", from: v, to: v, output: output, overBelow: true,
                                                                    blend: BlendMode.screen.shaderID))
            XCTAssertTrue(screen.contains("#define BLEND 2") && screen.contains("vec4 segue_blendSource("), "\(output)")
        }
    }
}
