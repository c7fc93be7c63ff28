import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline
import SegueTestSupport

/// Layers (issue 19) in whole renders against FFmpeg's own filters: picture-in-picture against `scale` + `overlay`,
/// a turned layer against `transpose`, a crop against `crop`, logos with alpha (VP9 in WebM, ProRes 4444, PNG)
/// against `overlay`; and what needs no oracle but exact values: opacity keyframes, gaps, fills.
final class LayerOracleTests: EndToEndTestCase {
    let w = 160, h = 120

    /// A BT.709-tagged clip (so FFmpeg's filters and Segue read the same matrix), 1 s at 30 fps.
    func clip709(_ name: String, _ source: String, extra: [String] = []) throws -> String {
        let p = path(name)
        try TestSupport.makeClip(p, video: source, extra: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-g", "10"] + extra)
        return p
    }
    var base: String { get throws { try clip709("base.mp4", "testsrc2=s=\(w)x\(h):r=30:d=1") } }
    var pip: String { get throws { try clip709("pip.mp4", "testsrc2=s=\(w)x\(h):r=30:d=1,hue=h=200,drawbox=x=20:y=16:w=40:h=30:color=yellow:t=fill") } }

    /// Every frame FFmpeg's `graph` makes of `inputs` (each with its input options), as yuv420p.
    func oracle(_ inputs: [(options: [String], path: String)], _ graph: String) throws -> [[UInt8]] {
        var args = ["-nostdin", "-v", "error"]
        for i in inputs { args += i.options + ["-i", i.path] }
        args += ["-filter_complex", graph + ",format=yuv420p[out]", "-map", "[out]", "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]
        let r = try TestSupport.run("ffmpeg", args)
        XCTAssertEqual(r.status, 0, r.stderr)
        let size = w * h * 3 / 2, bytes = [UInt8](r.stdout)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<($0 + size)]) }
    }

    /// Renders `edit` losslessly on `backend` and decodes its frames.
    func frames(_ edit: Edit, _ name: String, backend: Backend) throws -> [[UInt8]] {
        var e = edit
        e.output.codec = .ffv1
        try render(e, to: path(name), backend: backend, audio: false)
        return try TestSupport.decodeFrames(path(name), width: e.renderSize?.width ?? w, height: e.renderSize?.height ?? h)
    }

    func item(_ p: String, scale: Double = 1, x: Double = 0.5, y: Double = 0.5, rotation: Double = 0) -> ClipSpec {
        var c = ClipSpec(path: p)
        c.layer.scale = .constant(scale); c.layer.x = .constant(x); c.layer.y = .constant(y); c.layer.rotation = .constant(rotation)
        return c
    }

    /// A picture-in-picture as the issue has it (scale 0.25 at x 0.8, y 0.225: 40×30 at (108, 12)) and a layer turned
    /// 90° at 0.4 (64×48 turned, 48×64 at (56, 28)) against FFmpeg's scale (area) + transpose + overlay, every frame
    /// ≥ 35 dB, both backends. (Positions on even pixels: FFmpeg's 4:2:0 overlay puts chroma half a sample off at odd
    /// ones. Both layers are shown below half size, so Segue reduces them with the same area filter first.)
    func testPictureInPictureAndRotationMatchOverlay() throws {
        let base = try base, pip = try pip
        let cases: [(String, ClipSpec, String)] = [
            ("pip", item(pip, scale: 0.25, x: 0.8, y: 0.225), "[1:v]scale=40:30:flags=area[p];[0:v][p]overlay=108:12"),
            ("turned", item(pip, scale: 0.4, rotation: 90), "[1:v]scale=64:48:flags=area,transpose=clock[p];[0:v][p]overlay=56:28"),
        ]
        for (name, top, graph) in cases {
            let edit = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: base)]), VideoTrack(clips: [top])])
            let want = try oracle([([], base), ([], pip)], graph)
            XCTAssertEqual(want.count, 30)
            // auto: on llvmpipe the layers over planes are blended on the planes (`PlaneOverlays`, `withBasePlanes`).
            for backend in [Backend.gpu, .cpu, .auto] {
                let got = try frames(edit, "\(name)-\(backend).mkv", backend: backend)
                TestSupport.assertYUVSequencesMatch(got, want, width: w, height: h, minPSNR: 35, label: "\(name) on \(backend) vs FFmpeg overlay")
            }
        }
    }

    /// A crop of the upright picture's left and right quarters at half scale: an 80×120 picture at (40, 0), shown at
    /// its stored size, so every read is exact: against FFmpeg's crop + overlay.
    func testCropMatchesCrop() throws {
        let base = try base, pip = try pip
        var top = item(pip, scale: 0.5)
        top.layer.cropLeft = .constant(0.25); top.layer.cropRight = .constant(0.25)
        let edit = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: base)]), VideoTrack(clips: [top])])
        let want = try oracle([([], base), ([], pip)], "[1:v]crop=80:120:40:0[p];[0:v][p]overlay=40:0")
        for backend in [Backend.gpu, .cpu] {
            let got = try frames(edit, "crop-\(backend).mkv", backend: backend)
            TestSupport.assertYUVSequencesMatch(got, want, width: w, height: h, minPSNR: 50, label: "crop on \(backend) vs FFmpeg crop")
        }
    }

    /// Logos with alpha as people deliver them: VP9 with alpha in WebM (read through libvpx: FFmpeg's own VP9
    /// decoder drops the alpha), ProRes 4444 (yuva444p10le) and a PNG with alpha, each at its own size (40×30 at
    /// (100, 30)) over a moving clip: against FFmpeg's overlay, every frame ≥ 35 dB, both backends. `probe` says alpha.
    func testAlphaLogosMatchOverlay() throws {
        let base = try base
        // Smooth colours, so that what is compared is the blending: alpha 255 on the right half, a ramp on the left,
        // its edge between columns 19 and 20 (on a 4:2:0 block's edge: Segue takes chroma at each block's left-sited
        // site, FFmpeg's overlay averages the block's alpha; on a block's edge the two agree).
        let logo = "gradients=s=40x30:r=30:d=1:speed=0.05,format=yuva444p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(gte(X,20),255,255*Y/H)'"
        let tags = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        let vp9 = path("logo.webm"), prores = path("logo.mov"), png = path("logo.png")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", logo, "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-crf", "10", "-b:v", "0", "-deadline", "realtime",
                                "-auto-alt-ref", "0"] + tags + [vp9])
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", logo, "-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"] + tags + [prores])
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=40x30:r=1:d=1,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(gte(X,20),255,255*Y/H)'",
                                "-frames:v", "1", png])
        for (file, decoder) in [(vp9, ["-c:v", "libvpx-vp9"]), (prores, []), (png, [])] {
            let name = URL(fileURLWithPath: file).lastPathComponent
            XCTAssertTrue(try ProbeReport(path: file).video?.alpha == true, "\(name): probe says alpha")
            let edit = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: base)]),
                                     VideoTrack(clips: [{ var c = item(file, scale: 0.25, x: 0.75, y: 0.375); c.duration = MediaTime(seconds: 1); return c }()])])
            // The logo in the output's BT.709 limited range before FFmpeg blends it (a PNG is R′G′B′).
            let prepare = file == png ? "[1:v]scale=out_color_matrix=bt709:out_range=tv,format=yuva420p[l]" : "[1:v]format=yuva420p[l]"
            let want = Array(try oracle([([], base), (decoder, file)], prepare + ";[0:v][l]overlay=100:30").prefix(30))
            XCTAssertEqual(want.count, 30, name)
            // auto: on llvmpipe the layers over planes are blended on the planes (`PlaneOverlays`, `withBasePlanes`).
            for backend in [Backend.gpu, .cpu, .auto] {
                let got = try frames(edit, "\(name)-\(backend).mkv", backend: backend)
                TestSupport.assertYUVSequencesMatch(got, want, width: w, height: h, minPSNR: 35, label: "\(name) on \(backend) vs FFmpeg overlay")
            }
        }
    }

    /// Opacity keyframes 0 → 1 over a second: a white fill over black is half-way (Y 16 + 219/2) at the midpoint and
    /// follows the ramp; a gap shows the track below bit-exactly; a fill is its exact colour.
    func testOpacityGapsAndFills() throws {
        var fade = ClipSpec.fill(.white, duration: MediaTime(seconds: 1))
        fade.layer.opacity = .keyframes([Keyframe(time: .zero, value: 0), Keyframe(time: MediaTime(seconds: 1), value: 1)])
        var ramp = Edit(tracks: [VideoTrack(clips: [.fill(.black, duration: MediaTime(seconds: 1))]), VideoTrack(clips: [fade])])
        ramp.renderSize = PixelSize(width: 64, height: 48)
        ramp.frameRate = FrameRate(30)
        for backend in [Backend.gpu, .cpu] {
            let f = try frames(ramp, "ramp-\(backend).mkv", backend: backend)
            XCTAssertEqual(f.count, 30)
            for n in [0, 15, 29] {
                XCTAssertEqual(Double(f[n][64 * 20 + 30]), 16 + 219 * Double(n) / 30, accuracy: 1.0, "\(backend) frame \(n)")
            }
        }
        // A gap on the upper track: the lower track's frames exactly, on both backends.
        let base = try base, pip = try pip
        var later = item(pip, scale: 0.5)
        later.duration = MediaTime(seconds: 0.5)
        let gapped = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: base)]), VideoTrack(clips: [.gap(MediaTime(seconds: 0.5)), later])])
        for backend in [Backend.gpu, .cpu] {
            let alone = try frames(Edit(clips: [ClipSpec(path: base)]), "alone-\(backend).mkv", backend: backend)
            let layered = try frames(gapped, "gapped-\(backend).mkv", backend: backend)
            XCTAssertEqual(Array(layered[0..<15]), Array(alone[0..<15]), "\(backend): the gap shows the track below")
            XCTAssertNotEqual(layered[20], alone[20], "\(backend): after the gap the picture-in-picture shows")
        }
        // A fill: its exact BT.709 limited-range colour, as FFmpeg's color source converts it (Cb 155.53 → 156). On the
        // GPU within one code: llvmpipe's arithmetic gives 155 for that one (softpipe, Mesa's exact rasteriser, 156).
        var card = Edit(clips: [.fill(RGBColour(r: 0x33, g: 0x66, b: 0x99), duration: MediaTime(seconds: 0.2))])
        card.renderSize = PixelSize(width: 64, height: 48)
        let r = 0x33 / 255.0, g = 0x66 / 255.0, b = 0x99 / 255.0
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let expected = [16 + 219 * y, 128 + 224 * (b - y) / 1.8556, 128 + 224 * (r - y) / 1.5748].map { Int($0.rounded()) }
        let ff = try TestSupport.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0x336699:s=64x48:d=0.04", "-vf",
                                                 "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let oracle = [UInt8](ff.stdout)
        XCTAssertEqual(expected, [97, 156, 104])
        for backend in [Backend.gpu, .cpu] {
            let f = try frames(card, "card-\(backend).mkv", backend: backend)
            let slack = backend == .gpu ? 1 : 0
            for (k, plane) in [f[0][0..<(64 * 48)], f[0][(64 * 48)..<(64 * 48 + 32 * 24)], f[0][(64 * 48 + 32 * 24)...]].enumerated() {
                XCTAssertEqual(Set(plane).count, 1, "\(backend) plane \(k) is one colour")
                XCTAssertLessThanOrEqual(abs(Int(plane.first!) - expected[k]), slack, "\(backend) plane \(k): \(plane.first!), expected \(expected[k])")
            }
            XCTAssertLessThanOrEqual(zip(f[0], oracle).map { abs(Int($0) - Int($1)) }.max() ?? 99, 1, "\(backend) vs FFmpeg's color source")
        }
    }

    /// Three tracks: a moving clip, a picture-in-picture that slides (x keyframes) and crossfades into another, and a
    /// PNG logo with alpha: GPU against CPU ≥ 45 dB on every frame; chunked losslessly it is the single pass exactly.
    func testThreeTracksGPUAgainstCPUAndChunked() throws {
        let base = try base, pip = try pip
        let other = try clip709("other.mp4", "testsrc2=s=\(w)x\(h):r=30:d=1,hue=h=120")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=32x32:r=1:d=1,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*X/W'",
                                "-frames:v", "1", path("logo.png")])
        let e = path("three.json")
        try Data("""
        {"renderSize": {"width": \(w), "height": \(h)}, "frameRate": 30,
         "tracks": [
           {"clips": [{"path": "base.mp4"}, {"path": "base.mp4", "transition": {"type": "wipeleft", "duration": 0.3}}]},
           {"clips": [{"gap": 0.2},
                      {"path": "pip.mp4", "duration": 0.8, "layer": {"scale": 0.4, "y": 0.3,
                        "x": {"keyframes": [{"time": 0, "value": 0.25}, {"time": 0.8, "value": 0.75, "easing": "ease-in-out"}]}}},
                      {"path": "other.mp4", "duration": 0.7, "transition": {"type": "crossfade", "duration": 0.4},
                       "layer": {"scale": 0.4, "x": 0.75, "y": 0.3, "rotation": 10, "opacity": 0.9}}]},
           {"clips": [{"path": "logo.png", "at": 0.1, "duration": 1.4, "layer": {"scale": 0.15, "x": 0.9, "y": 0.85}}]}],
         "output": {"codec": "ffv1"}}
        """.utf8).write(to: URL(fileURLWithPath: e))
        _ = (base, pip, other)
        let edit = try EditFile.load(path: e)
        let timeline = try RenderJob.resolve(edit)
        XCTAssertEqual(timeline.frameCount, 51)   // 1 + 1 − 0.3 = 1.7 s
        XCTAssertEqual(timeline.plan(frame: 20).passes.count, 3)
        XCTAssertNotNil(timeline.plan(frame: 20).passes[1].transition)   // the crossfade inside track 1
        let g = try frames(edit, "three-gpu.mkv", backend: .gpu), c = try frames(edit, "three-cpu.mkv", backend: .cpu)
        XCTAssertEqual(g.count, 51)
        TestSupport.assertYUVSequencesMatch(g, c, width: w, height: h, minPSNR: 45, label: "three tracks, gpu vs cpu")
        // Chunked in 3 (seams at 17 and 34, inside the pictures' motion and the base's wipe): the single pass exactly.
        let plan = path("plan.json"), chunks = path("chunks")
        XCTAssertEqual(try segue(["plan", e, "--chunks", "3", "-o", plan, "--no-audio"]).status, 0)
        try FileManager.default.createDirectory(atPath: chunks, withIntermediateDirectories: true)
        try renderChunked(plan, chunks: chunks, out: path("chunked.mkv"))
        XCTAssertEqual(try framemd5(path("chunked.mkv"), "v"), try framemd5(path("three-cpu.mkv"), "v"))
    }

    /// `--overlay FILE:x,y,scale[,opacity]` on the command line: a track above the whole edit, lasting until its end;
    /// `plan` lists it; the frame outside the logo's box is the edit's without it.
    func testOverlayOption() throws {
        let base = try base
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-frames:v", "1", path("red.png")])
        let r = try segue(["render", base, "--overlay", path("red.png") + ":0.875,0.25,0.2", "--codec", "ffv1", "-o", path("o.mkv"), "--no-audio"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try segue(["render", base, "--codec", "ffv1", "-o", path("plain.mkv"), "--no-audio"]).status, 0)
        let o = try TestSupport.decodeFrames(path("o.mkv"), width: w, height: h), plain = try TestSupport.decodeFrames(path("plain.mkv"), width: w, height: h)
        XCTAssertEqual(o.count, 30)
        // The logo: 24×24 (0.2 of the 120-high square fitted to 160×120), centred at (140, 30).
        for n in [0, 29] {
            XCTAssertEqual(Double(o[n][30 * w + 140]), 16 + 219 * 0.2126, accuracy: 1, "red at frame \(n)")
            XCTAssertEqual(o[n][100 * w + 20], plain[n][100 * w + 20], "untouched elsewhere")
        }
        let plan = try segue(["plan", base, "--overlay", path("red.png") + ":0.875,0.25,0.2,0.5"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.text.contains("track 1 item 0 [A] red.png: still, shown 1.000 s") && plan.text.contains("opacity 0.5"), plan.text)
        XCTAssertNotEqual(try segue(["render", base, "--overlay", "x.png:0.5,0.5,0", "-o", path("bad.mp4")]).status, 0)
    }

    /// Real clips from ../shared/media in layers: a 23.976 fps landscape clip under a portrait phone clip (display
    /// matrix −90) as a picture-in-picture and an odd-sized VP9 clip turned 15°, on both backends, GPU against CPU
    /// ≥ 45 dB.
    func testRealClipsInLayers() throws {
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/media").standardized.path
        let names = ["h264_640x360_23.976_aac48k.mp4", "iphone4s_rot-90_audiofirst.mov", "vp9_odd_161x121.webm"]
        guard names.allSatisfy({ FileManager.default.fileExists(atPath: "\(media)/\($0)") }) else { throw XCTSkip("no ../shared/media") }
        let main = ClipSpec(path: "\(media)/\(names[0])", duration: MediaTime(seconds: 1))
        var phone = item("\(media)/\(names[1])", scale: 0.35, x: 0.8, y: 0.5)
        phone.duration = MediaTime(seconds: 1)
        var odd = item("\(media)/\(names[2])", scale: 0.3, x: 0.2, y: 0.3, rotation: 15)
        odd.duration = MediaTime(seconds: 0.8)
        odd.at = MediaTime(seconds: 0.2)
        var edit = Edit(tracks: [VideoTrack(clips: [main]), VideoTrack(clips: [phone]), VideoTrack(clips: [odd])])
        edit.renderSize = PixelSize(width: 320, height: 180)
        let t = try RenderJob.resolve(edit)
        XCTAssertEqual(t.frameRate, FrameRate(24000, 1001))   // the bottom track decides
        let g = try frames(edit, "real-gpu.mkv", backend: .gpu), c = try frames(edit, "real-cpu.mkv", backend: .cpu)
        XCTAssertEqual(g.count, Int(t.frameCount))
        TestSupport.assertYUVSequencesMatch(g, c, width: 320, height: 180, minPSNR: 45, label: "real clips in layers, gpu vs cpu")
    }
}
