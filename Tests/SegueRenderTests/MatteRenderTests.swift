import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueShaders
import SegueTestSupport

/// Track mattes (`CompositePass.matte`, issue 35 item 6) drawn by both renderers: a frame of three pictures (a solid
/// colour below, a pattern above it, the matte masking the pattern) against FFmpeg's `maskedmerge`, against the
/// formula per pixel, inverted modes against plain ones, a matte's opacity and position, and GPU against CPU ≥ 45 dB
/// in pictures and in video planes.
final class MatteRenderTests: RendererTestCase {
    let size = PixelSize(width: 160, height: 90)

    func image(_ pixel: (Int, Int) -> [UInt8]) -> RGBAImage {
        RGBAImage(width: size.width, height: size.height, pixels: (0..<size.height).flatMap { y in (0..<size.width).flatMap { x in pixel(x, y) } })
    }
    /// The tracks below: one colour.
    var bottom: RGBAImage { image { _, _ in [40, 90, 200, 255] } }
    /// The masked track: bands of colour over a ramp.
    var clip: RGBAImage { image { x, y in [UInt8(255 - x * 255 / (size.width - 1)), UInt8((x / 10 % 4) * 85), UInt8(y * 255 / (size.height - 1)), 255] } }
    /// A luma matte: grey from black (left) to white (right), opaque.
    var ramp: RGBAImage { image { x, _ in let g = UInt8(x * 255 / (size.width - 1)); return [g, g, g, 255] } }
    /// An alpha matte: red whose alpha runs from 0 (top) to 1 (bottom), premultiplied (its luma is 0.2126 of its alpha).
    var redAlpha: RGBAImage { image { _, y in let a = UInt8(y * 255 / (size.height - 1)); return [a, 0, 0, a] } }

    func plan(_ mode: MatteMode, matte: LayerPlan? = nil) -> FramePlan {
        FramePlan(frame: 0, time: .zero, renderSize: size, passes: [
            CompositePass(track: 0, from: identityLayer(0, size: size), to: nil, transition: nil, progress: 0),
            CompositePass(track: 1, from: identityLayer(1, size: size), to: nil, transition: nil, progress: 0,
                          matte: PassMatte(layer: matte ?? identityLayer(2, size: size), mode: mode, track: 2)),
        ])
    }

    func render(_ r: CompositeRenderer, _ mode: MatteMode, matte: RGBAImage, layer: LayerPlan? = nil) throws -> RGBAImage {
        try r.render(plan(mode, matte: layer), pictures: [VideoPicture(bottom), VideoPicture(clip), VideoPicture(matte)])
    }

    /// The largest difference of `got` from `m·clip + (1 − m)·bottom` per colour channel, with `m(i)` the mask at pixel
    /// `i`; alpha stays opaque.
    func worst(_ got: RGBAImage, _ m: (Int) -> Float) -> Int {
        let c = clip.pixels, b = bottom.pixels
        var worst = 0
        for i in stride(from: 0, to: c.count, by: 4) {
            let w = m(i / 4)
            for k in 0..<3 { worst = max(worst, abs(Int(got.pixels[i + k]) - Int((w * Float(c[i + k]) + (1 - w) * Float(b[i + k])).rounded()))) }
            worst = max(worst, 255 - Int(got.pixels[i + 3]))
        }
        return worst
    }

    /// A luma matte against FFmpeg's `maskedmerge` (gbrp: base = the colour below, overlay = the pattern, mask = the
    /// grey ramp in every plane; full range, so the matte's BT.709 Y′ is its grey). maskedmerge computes
    /// `base + ((overlay − base)·mask + 128) >> 8` (mask / 256, not / 255): ≥ 40 dB and within 2 levels. The CPU
    /// picture is the formula within 1 level; luma-inverted is the same with 1 − m.
    func testLumaMatteMatchesFFmpegMaskedmerge() throws {
        let dir = TestSupport.tempDir("segue-matte")
        try writePPM(bottom, to: "\(dir)/bottom.ppm"); try writePPM(clip, to: "\(dir)/clip.ppm"); try writePPM(ramp, to: "\(dir)/ramp.ppm")
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", "\(dir)/bottom.ppm", "-i", "\(dir)/clip.ppm", "-i", "\(dir)/ramp.ppm",
                                               "-filter_complex", "[0:v]format=gbrp[b];[1:v]format=gbrp[o];[2:v]format=gbrp[m];[b][o][m]maskedmerge,format=rgb24",
                                               "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let cpu = ReferenceRenderer()
        let got = try render(cpu, .luma, matte: ramp)
        let rgb = got.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let want = [UInt8](r.stdout)
        XCTAssertEqual(rgb.count, want.count)
        let d = PlaneDifference(rgb, want)
        XCTAssertGreaterThanOrEqual(d.psnr, 40, "luma matte vs maskedmerge: \(d)")
        XCTAssertLessThanOrEqual(d.maxAbsDifference, 2, "luma matte vs maskedmerge: \(d)")
        let g = ramp.pixels
        XCTAssertLessThanOrEqual(worst(got) { Float(g[$0 * 4]) / 255 }, 1)
        XCTAssertLessThanOrEqual(worst(try render(cpu, .lumaInverted, matte: ramp)) { 1 - Float(g[$0 * 4]) / 255 }, 1)
        // The matte changes the picture: the left edge is the colour below, the right edge the pattern.
        XCTAssertEqual(Array(got.pixels[0..<3]), [40, 90, 200])
        XCTAssertEqual(Array(got.pixels[(size.width - 1) * 4..<(size.width - 1) * 4 + 3]), Array(clip.pixels[(size.width - 1) * 4..<(size.width - 1) * 4 + 3]))
    }

    /// An alpha matte (a picture with alpha): m is its alpha, not its luma; alpha-inverted gives the complement
    /// (the two pictures sum to pattern + colour below, within 2 levels); luma of the same picture is 0.2126 of it.
    func testAlphaMatteAndInvertedVariants() throws {
        let cpu = ReferenceRenderer()
        let a = redAlpha.pixels
        let alpha = try render(cpu, .alpha, matte: redAlpha), inverted = try render(cpu, .alphaInverted, matte: redAlpha)
        XCTAssertLessThanOrEqual(worst(alpha) { Float(a[$0 * 4 + 3]) / 255 }, 1)
        XCTAssertLessThanOrEqual(worst(inverted) { 1 - Float(a[$0 * 4 + 3]) / 255 }, 1)
        XCTAssertLessThanOrEqual(worst(try render(cpu, .luma, matte: redAlpha)) { 0.2126 * Float(a[$0 * 4]) / 255 }, 1)
        let c = clip.pixels, b = bottom.pixels
        var sum = 0
        for i in 0..<c.count where i % 4 != 3 { sum = max(sum, abs(Int(alpha.pixels[i]) + Int(inverted.pixels[i]) - Int(c[i]) - Int(b[i]))) }
        XCTAssertLessThanOrEqual(sum, 2, "alpha + alpha-inverted = pattern + below")
        // Top row: alpha 0 shows the colour below; bottom row the pattern.
        XCTAssertEqual(Array(alpha.pixels[0..<3]), [40, 90, 200])
        XCTAssertEqual(Array(inverted.pixels[0..<3]), Array(c[0..<3]))
    }

    /// The matte's layer is read like any layer: its opacity scales m, and moved right by 40 pixels (a transform of
    /// its geometry) the mask moves with it (transparent, m = 0, where the matte does not reach).
    func testMatteOpacityAndPositionMoveTheMask() throws {
        let cpu = ReferenceRenderer()
        let g = ramp.pixels, W = size.width
        var half = identityLayer(2, size: size)
        half.opacity = 0.5
        XCTAssertLessThanOrEqual(worst(try render(cpu, .luma, matte: ramp, layer: half)) { 0.5 * Float(g[$0 * 4]) / 255 }, 1)
        let moved = LayerPlan(clipIndex: 2, sourceTime: .zero, outputToSource: Affine2D.translation(-40, 0).then(identityLayer(2, size: size).outputToSource))
        XCTAssertLessThanOrEqual(worst(try render(cpu, .luma, matte: ramp, layer: moved)) { i in
            let x = i % W - 40
            return x < 0 ? 0 : Float(g[(i - 40) * 4]) / 255
        }, 1)
    }

    /// Every mode, GPU (llvmpipe) against CPU: ≥ 45 dB in R′G′B′A pictures and in each plane of 8-bit 4:2:0 video.
    func testEveryModeOnBothRenderers() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        for mode in MatteMode.allCases {
            for matte in [ramp, redAlpha] {
                let d = PlaneDifference(try render(cpu, mode, matte: matte).pixels, try render(gpu, mode, matte: matte).pixels)
                XCTAssertGreaterThanOrEqual(d.psnr, 45, "\(mode.rawValue): GPU vs CPU \(d)")
                let pictures = [VideoPicture(bottom), VideoPicture(clip), VideoPicture(matte)]
                let c = try cpu.renderYUV420(plan(mode), pictures: pictures), v = try gpu.renderYUV420(plan(mode), pictures: pictures)
                for (name, a, b) in [("Y", c.y, v.y), ("Cb", c.cb, v.cb), ("Cr", c.cr, v.cr)] {
                    let d = PlaneDifference(a, b)
                    XCTAssertGreaterThanOrEqual(d.psnr, 45, "\(mode.rawValue) \(name): GPU vs CPU \(d)")
                }
            }
        }
    }

    /// Outputs that keep alpha (a transparent picture below, so the composite's alpha is the masked clip's: m) and HDR
    /// 10-bit planes: the CPU's alpha plane is the ramp within one code; GPU against CPU ≥ 45 dB on every plane.
    func testAlphaAndTenBitPlanesOnBothRenderers() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let clear = image { _, _ in [0, 0, 0, 0] }
        var p = plan(.luma)
        p.keepsAlpha = true
        let pictures = [VideoPicture(clear), VideoPicture(clip), VideoPicture(ramp)]
        let c = try cpu.renderYUV420(p, pictures: pictures), g = try gpu.renderYUV420(p, pictures: pictures)
        let alpha = try XCTUnwrap(c.alpha)
        let want = (0..<size.width * size.height).map { ramp.pixels[$0 * 4] }
        XCTAssertLessThanOrEqual(PlaneDifference(alpha, want).maxAbsDifference, 1, "alpha = m")
        for (name, a, b) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr), ("A", alpha, g.alpha ?? [])] {
            XCTAssertGreaterThanOrEqual(PlaneDifference(a, b).psnr, 45, "alpha output \(name): GPU vs CPU")
        }
        var hdr = plan(.alphaInverted)
        hdr.colour = OutputColour(dynamicRange: .pq)
        let ten = [VideoPicture(bottom), VideoPicture(clip), VideoPicture(redAlpha)]
        let c10 = try cpu.renderYUV420(hdr, pictures: ten), g10 = try gpu.renderYUV420(hdr, pictures: ten)
        XCTAssertEqual(c10.bitDepth, 10)
        for (name, a, b) in [("Y", c10.y, g10.y), ("Cb", c10.cb, g10.cb), ("Cr", c10.cr, g10.cr)] {
            XCTAssertGreaterThanOrEqual(PlaneDifference(a, b, bitDepth: 10).psnr, 45, "PQ \(name): GPU vs CPU")
        }
    }

    /// A masked pass in a transition (its pictures: from, to, then the matte): a wipe halfway between the pattern and
    /// a white picture, masked by the ramp, GPU against CPU ≥ 45 dB; on the CPU the left edge (m = 0) is the colour
    /// below and the right edge (m = 1) one of the wipe's pictures, unmixed.
    func testMaskedTransitionOnBothRenderers() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let wipe = Transition(kind: .wipe, duration: MediaTime(value: 1, timescale: 1), direction: .left)
        let p = FramePlan(frame: 0, time: .zero, renderSize: size, passes: [
            CompositePass(track: 0, from: identityLayer(0, size: size), to: nil, transition: nil, progress: 0),
            CompositePass(track: 1, from: identityLayer(1, size: size), to: identityLayer(3, size: size), transition: wipe, progress: 0.5,
                          matte: PassMatte(layer: identityLayer(2, size: size), mode: .luma, track: 2)),
        ])
        let white = image { _, _ in [255, 255, 255, 255] }
        let pictures = [VideoPicture(bottom), VideoPicture(clip), VideoPicture(white), VideoPicture(ramp)]
        let c = try cpu.render(p, pictures: pictures), g = try gpu.render(p, pictures: pictures)
        XCTAssertGreaterThanOrEqual(PlaneDifference(c.pixels, g.pixels).psnr, 45, "GPU vs CPU")
        XCTAssertEqual(Array(c.pixels[0..<3]), [40, 90, 200], "m = 0 at the left edge")
        let right = (size.width - 1) * 4
        let got = Array(c.pixels[right..<right + 3])
        XCTAssertTrue(got == [255, 255, 255] || got == Array(clip.pixels[right..<right + 3]), "m = 1 at the right edge: one of the wipe's pictures, \(got)")
    }

    /// A pass without a matte compiles the program it always did; a matte's program includes the layer a third time.
    func testProgramsIncludeTheMatteOnlyWhenMasked() throws {
        let v = ShaderLibrary.LayerVariant(kind: .planar8, exact: false)
        let plain = try XCTUnwrap(ShaderLibrary.fragmentSource(transition: "none", from: v, to: v, output: .luma, overBelow: true))
        XCTAssertFalse(plain.contains("#define MATTE") || plain.contains("vec4 getMatteColor("))
        let masked = try XCTUnwrap(ShaderLibrary.fragmentSource(transition: "none", from: v, to: v, output: .luma, overBelow: true,
                                                                matte: (v, MatteMode.lumaInverted.shaderID)))
        XCTAssertTrue(masked.contains("#define MATTE 4") && masked.contains("vec4 getMatteColor("))
    }
}
