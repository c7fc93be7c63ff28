import XCTest
import Foundation
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// Where the transition table meets HDR output: transitions other than crossfade, push and wipe in HLG and PQ edits
/// (10-bit BT.2020 planes, HDR and SDR layers with their colour stages), xfade's Y′CbCr transitions on the 10-bit
/// codes, and linear-light mixing in the output's own light.
final class TransitionHDRTests: RendererTestCase {
    let hlg = YCbCrColour(matrix: .bt2020, range: .limited, transfer: .hlg, primaries: .bt2020)

    func flat10(_ y: Int, cb: Int = 512, cr: Int = 512) -> VideoPicture {
        PlanarPictures.planar(8, 8, bitDepth: 10, colour: hlg, y: { _, _ in y }, cb: { _, _ in cb }, cr: { _, _ in cr })
    }

    func plan(_ kind: TransitionKind, _ range: DynamicRange, progress: Double, blend: Blending = .gamma, easing: Easing = .linear,
              from: VideoPicture, to: VideoPicture, size: PixelSize) -> FramePlan {
        var t = Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1))
        t.blend = blend
        t.easing = easing
        let ccw = Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])
        var plan = FramePlan(frame: 0, time: .zero,
            from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: from.size, sar: 1, orientation: ccw, renderSize: size, fit: .fill)),
            to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: LayerGeometry.outputToSource(codedSize: to.size, sar: 1, orientation: .identity, renderSize: size, fit: .fit)),
            transition: t, progress: easing(progress))
        plan.colour = OutputColour(dynamicRange: range)
        return plan
    }

    /// Table transitions that are not crossfade, push or wipe, in HLG and PQ output, GPU against CPU: an HLG layer
    /// (rotated, resampled) into an SDR one (fitted, on the background), in gamma and in linear light, eased; every
    /// 10-bit plane ≥ 45 dB (of 1023), no sample more than 32 codes apart.
    func testTableTransitionsInHDROutputGPUMatchesCPU() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let base = PlanarPictures.textured(48, 32, seed: 41).planes.map { $0.bytes }
        let hlgPicture = PlanarPictures.planar(48, 32, bitDepth: 10, colour: hlg, y: { x, y in 4 * Int(base[0][y * 48 + x]) + (x & 3) },
                                               cb: { x, y in 4 * Int(base[1][y * 24 + x]) }, cr: { x, y in 4 * Int(base[2][y * 24 + x]) })
        let sdr = PlanarPictures.textured(30, 40, seed: 42)
        let size = PixelSize(width: 40, height: 30)
        let cases: [(TransitionKind, DynamicRange, Blending, Easing)] = [
            (.circleopen, .hlg, .gamma, .linear), (.circleopen, .hlg, .linear, .easeIn), (.fadegrays, .hlg, .gamma, .linear),
            (.distance, .pq, .gamma, .linear), (.dissolve, .pq, .linear, .linear), (.fadeblack, .hlg, .gamma, .easeOut),
            (.slideleft, .pq, .gamma, .linear)]
        var worst = Double.infinity
        for (kind, range, blend, easing) in cases {
            for p in [0.3, 0.62] {
                let plan = self.plan(kind, range, progress: p, blend: blend, easing: easing, from: hlgPicture, to: sdr, size: size)
                let label = "\(kind.rawValue) \(range) \(blend) p = \(p)"
                let g = try gpu.renderYUV420(plan, from: hlgPicture, to: sdr, renderSize: size)
                let c = try cpu.renderYUV420(plan, from: hlgPicture, to: sdr, renderSize: size)
                XCTAssertEqual(g.bitDepth, 10, label)
                XCTAssertEqual(c.bitDepth, 10, label)
                for (name, x, y) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                    let d = PlaneDifference(x, y, bitDepth: 10)
                    worst = min(worst, d.psnr)
                    XCTAssertTrue(d.psnr >= 45 && d.maxAbsDifference <= 32, "\(label) \(name): \(d)")
                }
            }
        }
        print(String(format: "table transitions in HDR output, GPU vs CPU: worst plane %.2f dB over %d plans", worst, cases.count * 2))
    }

    /// circleopen in an HLG edit selects samples exactly as in SDR: at p = 0 every sample is the outgoing HLG clip's own
    /// (its planes, untouched), at p = 1 the incoming one's, on both renderers.
    func testCircleOpenInHLGStartsAndEndsWithTheClipsOwnSamples() throws {
        let a = flat10(600, cb: 480, cr: 560), b = flat10(300, cb: 540, cr: 470)
        let size = PixelSize(width: 8, height: 8)
        func identity(_ clip: Int) -> LayerPlan { identityLayer(clip, size: size) }
        for r in try renderers() {
            for (p, expected) in [(0.0, a), (1.0, b)] {
                var plan = FramePlan(frame: 0, time: .zero, from: identity(0), to: identity(1),
                                     transition: Transition(kind: .circleopen, duration: MediaTime(value: 1, timescale: 1)), progress: p)
                plan.colour = OutputColour(dynamicRange: .hlg)
                let out = try r.renderYUV420(plan, from: a, to: b, renderSize: size)
                XCTAssertEqual(out.y, expected.planes[0].bytes, "\(r.name) p = \(p) Y")
                XCTAssertEqual(out.cb, expected.planes[1].bytes, "\(r.name) p = \(p) Cb")
                XCTAssertEqual(out.cr, expected.planes[2].bytes, "\(r.name) p = \(p) Cr")
            }
        }
    }

    /// Linear light in an HLG edit is the HLG display's light: black → HDR reference white (75 %, 203 cd/m²) at p = ½
    /// shows 101.6 cd/m², HLG signal 0.632, 10-bit luma code 64 + 876·0.632 = 618; mixing the signal gives 0.375,
    /// code 392.5. Chroma stays neutral (512).
    func testLinearLightInHLGMixesTheHLGDisplaysLight() throws {
        let black = flat10(64), white = flat10(64 + 657)   // 721: 75 % HLG
        let size = PixelSize(width: 8, height: 8)
        let half = HDRReference.hlgSignal(ofGreyNits: HDRReference.hlgGrey(657.0 / 876) / 2)
        XCTAssertEqual(half, 0.632, accuracy: 0.001)
        for r in try renderers() {
            for (blend, expected) in [(Blending.linear, 64 + 876 * half), (.gamma, 64 + 876 * 0.375)] {
                var plan = FramePlan(frame: 0, time: .zero, from: identityLayer(0, size: size), to: identityLayer(1, size: size),
                                     transition: { var t = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1)); t.blend = blend; return t }(),
                                     progress: 0.5)
                plan.colour = OutputColour(dynamicRange: .hlg)
                let out = try r.renderYUV420(plan, from: black, to: white, renderSize: size)
                for i in 0..<64 { XCTAssertEqual(Double(YUV420Image.sample(out.y, i, bitDepth: 10)), expected, accuracy: 1, "\(r.name) \(blend)") }
                for i in 0..<16 {
                    XCTAssertEqual(YUV420Image.sample(out.cb, i, bitDepth: 10), 512, "\(r.name) \(blend) Cb")
                    XCTAssertEqual(YUV420Image.sample(out.cr, i, bitDepth: 10), 512, "\(r.name) \(blend) Cr")
                }
            }
        }
    }

    /// xfade's Y′CbCr transitions use the output's codes: in a 10-bit edit fadegrays' grey has chroma 512/1023 (an
    /// 8-bit neutral, 128/255, would tint it to 514), so two greys stay neutral at every progress; and distance
    /// compares whole 10-bit codes.
    func testXfadeYCbCrTransitionsUseTheTenBitCodes() throws {
        let a = flat10(300), b = flat10(700)
        let size = PixelSize(width: 8, height: 8)
        for r in try renderers() {
            for kind in [TransitionKind.fadegrays, .fadefast, .distance] {
                for p in [0.1, 0.5, 0.85] {
                    var plan = FramePlan(frame: 0, time: .zero, from: identityLayer(0, size: size), to: identityLayer(1, size: size),
                                         transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1)), progress: p)
                    plan.colour = OutputColour(dynamicRange: .hlg)
                    let out = try r.renderYUV420(plan, from: a, to: b, renderSize: size)
                    for i in 0..<16 {
                        XCTAssertEqual(YUV420Image.sample(out.cb, i, bitDepth: 10), 512, "\(r.name) \(kind.rawValue) p = \(p) Cb")
                        XCTAssertEqual(YUV420Image.sample(out.cr, i, bitDepth: 10), 512, "\(r.name) \(kind.rawValue) p = \(p) Cr")
                    }
                    // distance: A and B are 400 codes apart (0.391): above P = 1 − p until p = 0.609, B shows alone.
                    if kind == .distance {
                        let y = YUV420Image.sample(out.y, 0, bitDepth: 10)
                        let P = 1 - p, expected = P >= 400.0 / 1023 ? 700 + (300 - 700) * P : 700
                        XCTAssertEqual(Double(y), expected, accuracy: 1, "\(r.name) distance p = \(p)")
                    }
                }
            }
        }
    }

    /// The first dissolve frame a renderer draws at a new size uploads xfade's noise table; the incoming clip's planes
    /// must stay on their texture units (the upload once landed on the unit of B's Cr plane, so a luma pass that reads
    /// chroma — a layer with a colour stage, here SDR into HLG — took the noise for B's Cr). At p = 1 dissolve shows B
    /// alone: exactly the frame of B without a transition, at two sizes in a row (the second is always a new one).
    func testDissolvesFirstFrameAtANewSizeReadsTheIncomingClipsOwnPlanes() throws {
        let gpu = try gpuRenderer()
        for (w, h) in [(16, 12), (18, 14)] {
            let size = PixelSize(width: w, height: h)
            let a = PlanarPictures.textured(w, h, seed: 51), b = PlanarPictures.textured(w, h, seed: 52)
            var dissolve = FramePlan(frame: 0, time: .zero, from: identityLayer(0, size: size), to: identityLayer(1, size: size),
                                     transition: Transition(kind: .dissolve, duration: MediaTime(value: 1, timescale: 1)), progress: 1)
            dissolve.colour = OutputColour(dynamicRange: .hlg)
            var alone = FramePlan(frame: 0, time: .zero, from: identityLayer(1, size: size), to: nil, transition: nil, progress: 0)
            alone.colour = OutputColour(dynamicRange: .hlg)
            let out = try gpu.renderYUV420(dissolve, from: a, to: b, renderSize: size)
            let expected = try gpu.renderYUV420(alone, from: b, to: nil, renderSize: size)
            for (name, got, want) in [("Y", out.y, expected.y), ("Cb", out.cb, expected.cb), ("Cr", out.cr, expected.cr)] {
                XCTAssertTrue(got == want, "\(size) \(name): \(PlaneDifference(got, want, bitDepth: 10))")
            }
        }
    }

    /// A gl-transitions shader in an HLG edit, whose layers run the colour stage and the 10-bit output pass, declaring
    /// the names HDR's shader code used before it took the segue_ prefix (`hable`, `gamutMap`, `encodeOutput`,
    /// `bytes10`, `HLG_A`, and a uniform `uOutputLuminance`): it mixes as the built-in crossfade does,
    /// within a code in luma and two in chroma (chroma sites lie between luma rows, where the glsl transition's
    /// filtered read interpolates and the built-in's exact read takes one texel).
    func testAGLTransitionsShaderWithHDRHelperNamesRendersInHLG() throws {
        let gpu = try gpuRenderer()
        let size = PixelSize(width: 16, height: 12)
        // Flat chroma: a glsl transition reads its layers filtered (it may move them), the built-in exactly; at texel
        // centres the two agree only where chroma does not vary within a 2×2 block.
        let a = PlanarPictures.planar(16, 12, bitDepth: 10, colour: hlg, y: { x, y in 200 + 30 * x + 7 * y }, cb: { _, _ in 480 }, cr: { _, _ in 560 })
        let b = PlanarPictures.planar(16, 12, y: { x, y in 30 + 11 * x + 5 * y }, cb: { _, _ in 150 }, cr: { _, _ in 100 })
        var t = Transition(kind: .glsl, duration: MediaTime(value: 1, timescale: 1))
        t.shader = try GLTransitionShader(source: """
            uniform float uOutputLuminance; // = 1.0
            const float HLG_A = 0.5;
            float hable(float x) { return x * uOutputLuminance; }
            vec3 gamutMap(vec3 c) { return c; }
            vec4 encodeOutput(vec4 c) { return c; }
            vec2 bytes10(float v) { return vec2(v); }
            vec4 transition(vec2 uv) {
                vec4 c = mix(getFromColor(uv), getToColor(uv), hable(progress) + bytes10(HLG_A).x - 0.5);
                return encodeOutput(vec4(gamutMap(c.rgb), c.a));
            }
            """, path: "/hdr-names.glsl", name: "hdr-names.glsl", field: "transition.shader")
        try gpu.prepare(for: [t], images: [:])
        for p in [0.25, 0.7] {
            var hosted = FramePlan(frame: 0, time: .zero, from: identityLayer(0, size: size), to: identityLayer(1, size: size), transition: t, progress: p)
            hosted.colour = OutputColour(dynamicRange: .hlg)
            var builtIn = FramePlan(frame: 0, time: .zero, from: identityLayer(0, size: size), to: identityLayer(1, size: size),
                                    transition: Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1)), progress: p)
            builtIn.colour = OutputColour(dynamicRange: .hlg)
            let g = try gpu.renderYUV420(hosted, from: a, to: b, renderSize: size)
            let c = try gpu.renderYUV420(builtIn, from: a, to: b, renderSize: size)
            XCTAssertEqual(g.bitDepth, 10)
            for (name, x, y) in [("Y", g.y, c.y), ("Cb", g.cb, c.cb), ("Cr", g.cr, c.cr)] {
                XCTAssertLessThanOrEqual(PlaneDifference(x, y, bitDepth: 10).maxAbsDifference, name == "Y" ? 1 : 2, "p = \(p) \(name)")
            }
        }
    }
}
