import XCTest
import SegueCore
import SegueEdit
import SegueMedia
@testable import SeguePipeline
import SegueTestSupport

/// Picture effects (issue 35, items 1 and 2): `.cube` tables against FFmpeg's `lut3d`/`lut1d`, the colour functions
/// against the W3C Filter Effects formulas (written out in Python from the spec, not from Segue's code), exposure and
/// white balance, keyframed strength, effects on text, fills and inside transitions, both renderers, and the errors.
final class PictureEffectTests: EndToEndTestCase {
    let size = PixelSize(width: 160, height: 90)

    /// testsrc2 as an RGB PNG: flat colours, ramps and edges.
    func picture() throws -> String { try testsrc2PNG(size, name: "in.png") }

    /// The still `path` with `effects`, frame 0 on `backend`.
    func still(_ path: String, _ effects: [ItemEffect], backend: Backend) throws -> RGBAImage {
        try stillFrame(path, effects, size: size, backend: backend)
    }

    /// FFmpeg's picture of `png` through `filter`, RGBA.
    func ffmpeg(_ png: String, _ filter: String) throws -> [UInt8] {
        let out = path("ff.png")
        let r = try TestSupport.run("ffmpeg", ["-loglevel", "error", "-y", "-i", png, "-vf", filter, out])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try TestSupport.decodeFrames(out, width: size.width, height: size.height, pixFmt: "rgba")[0]
    }

    /// PSNR over R, G and B.
    func rgbPSNR(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let rgb = { (p: [UInt8]) in p.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }
        return PlaneDifference(rgb(a), rgb(b)).psnr
    }

    /// A 33³ grade, a 65³ channel mix, a 1D curve of 1024 entries and a table over the domain 0…2 (DOMAIN_MIN/MAX):
    /// each within 45 dB of FFmpeg's `lut3d=interp=tetrahedral` / `lut1d=interp=linear` on both renderers; Resolve's
    /// `LUT_3D_INPUT_RANGE 0 2` reads as that domain.
    func testLUTsMatchFFmpeg() throws {
        let png = try picture()
        let grade = try cube("grade.cube", size: 33, header: ["TITLE \"grade\"", "# a warm grade"]) { r, g, b in
            (min(1, pow(r, 0.8) * 0.95 + 0.05 * g), pow(g, 1.15), b * 0.8 + 0.1)
        }
        let mix = try cube("mix.cube", size: 65) { r, g, b in (0.6 * r + 0.3 * g + 0.1 * b, 0.2 * r + 0.7 * g + 0.1 * b, 1 - b) }
        let curve = try cube("curve.cube", size: 1024, is3D: false) { r, g, b in (sqrt(r), g * g, 1 - b) }
        let domain = try cube("domain.cube", size: 17, header: ["DOMAIN_MIN 0 0 0", "DOMAIN_MAX 2 2 2"]) { r, g, b in (min(1, r), min(1, 2 * g), b / 2) }
        for (file, filter) in [(grade, "lut3d=file=\(grade):interp=tetrahedral"), (mix, "lut3d=file=\(mix):interp=tetrahedral"),
                               (curve, "lut1d=file=\(curve):interp=linear"), (domain, "lut3d=file=\(domain):interp=tetrahedral")] {
            let oracle = try ffmpeg(png, filter)
            for backend in [Backend.cpu, .gpu] {
                let ours = try still(png, [.lut(LUTEffect(path: file))], backend: backend)
                let p = rgbPSNR(ours.pixels, oracle)
                print("\(file.split(separator: "/").last!) on \(backend): \(String(format: "%.2f", p)) dB against FFmpeg")
                XCTAssertGreaterThanOrEqual(p, 45, "\(file) on \(backend)")
            }
        }
        let range = try cube("range.cube", size: 17, header: ["LUT_3D_INPUT_RANGE 0 2"]) { r, g, b in (min(1, r), min(1, 2 * g), b / 2) }
        XCTAssertEqual(try still(png, [.lut(LUTEffect(path: range))], backend: .cpu), try still(png, [.lut(LUTEffect(path: domain))], backend: .cpu))
    }

    /// Brightness, contrast, saturation and hue against the W3C Filter Effects Level 1 definitions of `brightness()`,
    /// `contrast()`, `saturate()` and `hue-rotate()` (feComponentTransfer linear, feColorMatrix saturate and hueRotate,
    /// each result clamped), applied in that order to the sRGB-encoded values by a Python script written from the
    /// spec: ≥ 40 dB on both renderers.
    func testColourFunctionsMatchTheW3CFormulas() throws {
        let png = try picture()
        let script = path("w3c.py")
        try """
        import sys, math, subprocess
        png, out, b, k, s, h = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:7])
        raw = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
        clamp = lambda x: min(1.0, max(0.0, x))
        S = [[0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s],
             [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s],
             [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s]]
        a = math.radians(h); co, si = math.cos(a), math.sin(a)
        A = [[0.213, 0.715, 0.072]] * 3
        C = [[0.787, -0.715, -0.072], [-0.213, 0.285, -0.072], [-0.213, -0.715, 0.928]]
        N = [[-0.213, -0.715, 0.928], [0.143, 0.140, -0.283], [-0.787, 0.715, 0.072]]
        H = [[A[r][c] + co * C[r][c] + si * N[r][c] for c in range(3)] for r in range(3)]
        def matrix(m, v): return [clamp(sum(m[r][c] * v[c] for c in range(3))) for r in range(3)]
        result = bytearray()
        for i in range(0, len(raw), 3):
            v = [x / 255 for x in raw[i:i + 3]]
            v = [clamp(x * b) for x in v]                        # brightness(): feFuncX type=linear slope=b
            v = [clamp(x * k + (0.5 - 0.5 * k)) for x in v]      # contrast(): slope=k intercept=-(0.5*k)+0.5
            v = matrix(S, v)                                     # saturate(): feColorMatrix type=saturate
            v = matrix(H, v)                                     # hue-rotate(): feColorMatrix type=hueRotate
            result += bytes(int(math.floor(x * 255 + 0.5)) for x in v)
        open(out, "wb").write(result)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        for (b, k, s, h) in [(1.3, 0.7, 1.6, 45.0), (0.8, 1.4, 0.3, 200.0), (1, 1, 0, 0)] {
            let out = path("w3c.rgb")
            let r = try TestSupport.run("python3", [script, png, out, "\(b)", "\(k)", "\(s)", "\(h)"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let oracle = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
            var effect = ColourEffect()
            effect.brightness = .constant(b); effect.contrast = .constant(k); effect.saturation = .constant(s); effect.hue = .constant(h)
            for backend in [Backend.cpu, .gpu] {
                let ours = try still(png, [.colour(effect)], backend: backend).pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
                let p = PlaneDifference(ours, oracle).psnr
                print("colour \(b) \(k) \(s) \(h) on \(backend): \(String(format: "%.2f", p)) dB against the W3C formulas")
                XCTAssertGreaterThanOrEqual(p, 40, "brightness \(b) contrast \(k) saturation \(s) hue \(h) on \(backend)")
            }
        }
    }

    /// A fill of one grey through `effect`, frame `n` of a 1 s edit at 10 fps, on `backend`: its centre pixel.
    func fillPixel(_ grey: UInt8, _ effects: [ItemEffect], frame n: Int64 = 0, backend: Backend = .cpu) throws -> SIMD3<Int> {
        var item = ClipSpec.fill(RGBColour(r: grey, g: grey, b: grey), duration: MediaTime(seconds: 1))
        item.effects = effects
        var edit = Edit(clips: [item])
        edit.renderSize = PixelSize(width: 32, height: 16)
        edit.frameRate = FrameRate(10)
        let p = try renderedFrames(edit, [n], backend: backend)[0].pixels
        let i = (8 * 32 + 16) * 4
        return SIMD3(Int(p[i]), Int(p[i + 1]), Int(p[i + 2]))
    }

    /// Exposure is in stops of linear light (BT.1886): +1 doubles it; temperature warms a grey (R > G > B) keeping its
    /// luminance; keyframed LUT strength mixes from the picture (0) to the table's colours (1) on the keyframes' values.
    func testExposureWhiteBalanceAndKeyframedStrength() throws {
        var e = ColourEffect()
        e.exposure = .constant(1)
        let lit = try fillPixel(100, [.colour(e)])
        let want = Int((pow(pow(100.0 / 255, 2.4) * 2, 1 / 2.4) * 255).rounded())
        XCTAssertEqual(lit.x, want, accuracy: 1, "exposure +1 of code 100")
        e = ColourEffect()
        e.temperature = .constant(0.6)
        let warm = try fillPixel(128, [.colour(e)])
        XCTAssertTrue(warm.x > warm.y && warm.y > warm.z, "\(warm)")
        let linear = { (v: Int) in pow(Double(v) / 255, 2.4) }
        let y = 0.2126 * linear(warm.x) + 0.7152 * linear(warm.y) + 0.0722 * linear(warm.z)
        XCTAssertEqual(y, linear(128), accuracy: 0.01 * linear(128), "white balance keeps a grey's luminance")

        let invert = try cube("invert.cube", size: 2) { r, g, b in (1 - r, 1 - g, 1 - b) }
        let strength = Animated.keyframes([Keyframe(time: .zero, value: 0), Keyframe(time: MediaTime(seconds: 1), value: 1)])
        for backend in [Backend.cpu, .gpu] {
            XCTAssertEqual(try fillPixel(40, [.lut(LUTEffect(path: invert, strength: strength))], frame: 0, backend: backend).x, 40)
            XCTAssertEqual(try fillPixel(40, [.lut(LUTEffect(path: invert, strength: strength))], frame: 5, backend: backend).x, 128, accuracy: 1,
                           "half strength: half-way from 40 to 215 on \(backend)")
            XCTAssertEqual(try fillPixel(40, [.lut(LUTEffect(path: invert, strength: strength))], frame: 9, backend: backend).x, 198, accuracy: 1,
                           "0.9 strength on \(backend)")
        }
    }

    /// Effects on a text item and inside a crossfade, and colour then LUT in list order: the GPU draws what the CPU
    /// draws (≥ 45 dB), and the text's white is halved by brightness ½.
    func testEffectsOnTextAndInTransitionsOnBothRenderers() throws {
        let png = try picture()
        var dim = ColourEffect()
        dim.brightness = .constant(0.5)
        var text = TextSpec(text: "EFFECTS")
        text.style.size = 30
        var title = ClipSpec(content: .text(text), duration: MediaTime(seconds: 1))
        title.effects = [.colour(dim)]
        var a = ClipSpec(path: png); a.duration = MediaTime(seconds: 1)
        var graded = ColourEffect()
        graded.saturation = .constant(0); graded.hue = .constant(90)
        var b = ClipSpec(path: png); b.duration = MediaTime(seconds: 1)
        b.effects = [.colour(graded), .lut(LUTEffect(path: try cube("warm.cube", size: 9) { r, g, bb in (min(1, r * 1.1), g, bb * 0.9) }))]
        b.transition = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 2))
        var edit = Edit(tracks: [VideoTrack(clips: [a, b]), VideoTrack(clips: [title])])
        edit.renderSize = size
        edit.frameRate = FrameRate(10)
        let cpu = try cpuFramesMatchingTheGPU(edit, [2, 7, 12])
        var plain = edit
        plain.tracks[1].clips[0].effects = []
        let undimmed = try renderedFrames(plain, [2], backend: .cpu)[0]
        // Where the undimmed title is white, the dimmed one is half as bright over black-free testsrc2? Compare the text's peak.
        let peaks = (0..<(size.width * size.height)).filter { undimmed.pixels[$0 * 4] == 255 && undimmed.pixels[$0 * 4 + 1] == 255 && undimmed.pixels[$0 * 4 + 2] == 255 }
        XCTAssertFalse(peaks.isEmpty)
        let dimmed = peaks.map { Int(cpu[0].pixels[$0 * 4 + 1]) }
        XCTAssertTrue(dimmed.contains { abs($0 - 128) <= 1 }, "the title's white at brightness ½ (\(dimmed.prefix(8)))")
    }

    /// Vignette: over a white picture each pixel is 255 · (1 − amount · smoothstep(radius, 1, d)), d its centre's
    /// distance from the picture's centre over the half-diagonal (within 1 code: the picture is read at pixel centres),
    /// on both renderers; a keyframed amount of 0 leaves the picture as it is.
    func testVignetteDarkensTowardsTheCorners() throws {
        let white = path("white.png")
        let r = try TestSupport.run("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=white:s=\(size.width)x\(size.height),format=rgb24",
                                               "-frames:v", "1", white])
        XCTAssertEqual(r.status, 0, r.stderr)
        let amount = 0.8, radius = 0.4
        var want = [UInt8]()
        for y in 0..<size.height {
            for x in 0..<size.width {
                let u = (Double(x) + 0.5) / Double(size.width) * 2 - 1, v = (Double(y) + 0.5) / Double(size.height) * 2 - 1
                let d = (u * u + v * v).squareRoot() / 2.0.squareRoot()
                let t = min(max((d - radius) / (1 - radius), 0), 1)
                let value = 255 * (1 - amount * t * t * (3 - 2 * t))
                want += [UInt8(value.rounded()), UInt8(value.rounded()), UInt8(value.rounded())]
            }
        }
        let effect = ItemEffect.vignette(VignetteEffect(amount: .constant(amount), radius: .constant(radius)))
        for backend in [Backend.cpu, .gpu] {
            let ours = try still(white, [effect], backend: backend).pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
            let worst = zip(ours, want).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "vignette on \(backend)")
            XCTAssertEqual(ours[0], UInt8((255 * (1 - amount * 0.99)).rounded()), accuracy: 6, "the corner on \(backend)")
        }
        let none = try still(white, [.vignette(VignetteEffect(amount: .constant(0), radius: .constant(0)))], backend: .cpu)
        XCTAssertTrue(none.pixels.allSatisfy { $0 == 255 })
    }

    /// A malformed or oversized `.cube` file is an edit error naming the effect's field, the file, the line and what is
    /// wrong; so is a missing one; an HDR output refuses picture effects.
    func testMalformedTablesAndHDRAreRefused() throws {
        let png = try picture()
        for (text, line, words) in [("LUT_3D_SIZE 129\n", 1, "2…65"), ("LUT_3D_SIZE 2\n0 0 0\n1 1\n", 3, "three numbers"),
                                    ("LUT_3D_SIZE 2\n0 0 0\n", 2, "ends after 1 entries where its size gives 8"), ("LUT_3D_SIZ 2\n", 1, "unknown keyword"),
                                    ("LUT_1D_SIZE 2\nDOMAIN_MIN 1 1 1\nDOMAIN_MAX 0 0 0\n0 0 0\n1 1 1\n", 3, "not above its minimum")] {
            let file = path("bad.cube")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            var item = ClipSpec(path: png)
            item.effects = [.lut(LUTEffect(path: file))]
            XCTAssertThrowsError(try RenderJob.resolve(Edit(clips: [item]))) { e in
                XCTAssertEqual((e as? EditError)?.field, "clips[0].effects[0].path")
                XCTAssertTrue("\(e)".contains("bad.cube line \(line): "), "\(e)")
                XCTAssertTrue("\(e)".contains(words), "\(e)")
            }
        }
        var item = ClipSpec(path: png)
        item.effects = [.lut(LUTEffect(path: path("missing.cube")))]
        XCTAssertThrowsError(try RenderJob.resolve(Edit(clips: [item]))) { e in XCTAssertTrue("\(e)".contains("missing.cube"), "\(e)") }

        var e = ColourEffect()
        e.saturation = .constant(2)
        var hdr = Edit(clips: [ClipSpec.fill(RGBColour(r: 255, g: 0, b: 0), duration: MediaTime(seconds: 0.2))])
        hdr.clips[0].effects = [.colour(e)]
        hdr.renderSize = PixelSize(width: 32, height: 16)
        hdr.output.dynamicRange = .hlg
        XCTAssertThrowsError(try render(hdr, to: path("hdr.mov"), backend: .cpu, audio: false)) { e in
            XCTAssertEqual((e as? EditError)?.field, "effects", "\(e)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("hdr.mov")))
    }

    /// The edit file's effects: parsed in order, shown by `segue plan`, written back by `segue resolve`.
    func testEditFilePlanAndResolve() throws {
        let png = try picture()
        _ = try cube("grade.cube", size: 2) { r, g, b in (r, g, b) }
        let edit = path("edit.json")
        try """
        {"renderSize": {"width": 160, "height": 90},
         "clips": [{"path": "in.png", "duration": 1, "effects": [
           {"type": "colour", "brightness": 1.2, "hue": {"keyframes": [{"time": 0, "value": 0}, {"time": 1, "value": 90}]}},
           {"type": "lut", "path": "grade.cube", "strength": 0.5}]},
           {"text": "Hi", "duration": 1, "effects": [{"type": "colour", "saturation": 0}]}]}
        """.write(toFile: edit, atomically: true, encoding: .utf8)
        _ = png
        let plan = try segue(["plan", edit])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.text.contains("effects: colour brightness 1.2, hue 0@0s → 90@1s; lut grade.cube strength 0.5"), plan.text)
        XCTAssertTrue(plan.text.contains("effects: colour saturation 0"), plan.text)
        let resolved = try segue(["resolve", edit, "-o", path("resolved.json")])
        XCTAssertEqual(resolved.status, 0, resolved.stderr)
        let again = try EditFile.load(path: path("resolved.json"))
        XCTAssertEqual(again.clips[0].pictureEffects.map(\.kind), [.colour, .lut])
        XCTAssertEqual(again.clips[1].pictureEffects.map(\.kind), [.colour])
    }
}
