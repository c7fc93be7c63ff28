import XCTest
import SegueCore
import SegueEdit
import SegueGL
import SeguePipeline
import SegueTestSupport

/// Frames that need no compositing go to the encoder straight from the decoded planes (issue 14): the output files are
/// byte for byte the composited path's, on both backends, losslessly and with x264 at fixed settings.
final class DirectFrameTests: EndToEndTestCase {
    /// The file's encoded video packets, hashed one by one (`ffmpeg -c copy -f framemd5`): Matroska writes a random
    /// segment UID, so FFV1 files are compared by their packets; MP4 files by their bytes.
    func packets(_ file: String) throws -> Data {
        if !file.hasSuffix(".mkv") { return try Data(contentsOf: URL(fileURLWithPath: file)) }
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    func render(_ edit: Edit, backend: Backend, direct: Bool, name: String) throws -> (Data, [String]) {
        var o = RenderOptions()
        o.backend = backend
        o.audio = false
        o.verbose = true
        o.directFrames = direct
        let log = Collected<[String]>([])
        o.log = { line in log.update { $0.append(line) } }
        if backend == .gpu {
            do { _ = try RenderJob.makeRenderer(o) } catch {
                if TestSupport.inCI { XCTFail("GPU tests must run in CI: \(error)") }
                throw XCTSkip("no EGL context: \(error)")
            }
        }
        let out = path(name)
        try RenderJob.render(edit, to: out, options: o)
        return (try packets(out), log.value)
    }

    func directCount(_ log: [String]) -> Int? {
        guard let line = log.first(where: { $0.contains("needed no compositing") }) else { return nil }
        return Int(line.split(separator: " ")[1])
    }

    /// `--verbose`'s count of frames whose first layer was turned upright by libavfilter.
    func uprightCount(_ log: [String]) -> Int? {
        guard let line = log.first(where: { $0.contains("was turned upright") }) else { return nil }
        return Int(line.split(separator: " ")[1])
    }

    /// `clips` at 64×48, 30 fps, lossless, rendered with `--backend gpu` (gpu.mkv) and `auto` (auto.mkv), `--verbose`.
    /// - Returns: both logs, both files' frames (checked to number `frames` each), and their largest difference in codes.
    func renderAutoAndGPU(_ clips: [ClipSpec], frames: Int) throws -> (gpuLog: [String], log: [String], auto: [[UInt8]], gpu: [[UInt8]], worst: Int) {
        var edit = Edit(clips: clips)
        edit.renderSize = PixelSize(width: 64, height: 48)
        edit.frameRate = FrameRate(30)
        edit.output.codec = .ffv1
        let (_, gpuLog) = try render(edit, backend: .gpu, direct: true, name: "gpu.mkv")
        let (_, log) = try render(edit, backend: .auto, direct: true, name: "auto.mkv")
        let x = try TestSupport.decodeFrames(path("auto.mkv"), width: 64, height: 48), y = try TestSupport.decodeFrames(path("gpu.mkv"), width: 64, height: 48)
        XCTAssertEqual(x.count, frames)
        XCTAssertEqual(y.count, frames)
        var worst = 0
        for (p, q) in zip(x, y) { for i in p.indices { worst = max(worst, abs(Int(p[i]) - Int(q[i]))) } }
        return (gpuLog, log, x, y, worst)
    }

    /// Phone clips (display matrices of −90°, 90° and 180°) shown at scale 1 as a centred square: every frame is
    /// turned upright by libavfilter and sent to the encoder without compositing, byte-identical to the composited
    /// file on both backends, and equal to FFmpeg's own autorotate + crop (the oracle), frame for frame.
    func testRotatedClipsAtScaleOneAreDirectAndEqualFFmpegsAutorotate() throws {
        var clips: [String] = []
        for (k, degrees) in [-90, 90, 180].enumerated() {
            let stored = try bt709Clip("stored\(k).mp4", size: "64x48", source: ["testsrc2", "smptebars", "rgbtestsrc"][k])
            let rotated = path("rot\(k).mp4")
            try TestSupport.rotated(stored, degrees: degrees, to: rotated)
            clips.append(rotated)
            // FFmpeg's oracle: autorotate (transpose/hflip/vflip) then the centred 48×48 crop, decoded to yuv420p.
            let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", rotated, "-vf", "crop=48:48", "-pix_fmt", "yuv420p", "-f", "framemd5", "-"])
            XCTAssertEqual(r.status, 0, r.stderr)
            var one = Edit(clips: [clip(rotated)])
            one.renderSize = PixelSize(width: 48, height: 48)
            one.frameRate = FrameRate(30)
            one.output.codec = .ffv1
            let (_, log) = try render(one, backend: .cpu, direct: true, name: "one\(k).mkv")
            XCTAssertEqual(directCount(log), 30, "\(degrees)°: \(log)")
            XCTAssertEqual(uprightCount(log), 30, "\(degrees)°: \(log)")
            func md5s(_ text: String) -> [String] { text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) } }
            let ours = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path("one\(k).mkv"), "-pix_fmt", "yuv420p", "-f", "framemd5", "-"])
            XCTAssertEqual(md5s(ours.text).count, 30)
            XCTAssertEqual(md5s(ours.text), md5s(r.text), "\(degrees)°: Segue's direct frames against FFmpeg's autorotate + crop")
        }
        var edit = Edit(clips: clips.map { clip($0) })
        edit.renderSize = PixelSize(width: 48, height: 48)
        edit.frameRate = FrameRate(30)
        edit.output.codec = .ffv1
        for backend in [Backend.cpu, .gpu] {
            let (composited, plainLog) = try render(edit, backend: backend, direct: false, name: "rot-composited-\(backend).mkv")
            let (direct, log) = try render(edit, backend: backend, direct: true, name: "rot-direct-\(backend).mkv")
            XCTAssertEqual(uprightCount(plainLog), 0)
            XCTAssertEqual(directCount(log), 90, "\(backend): \(log)")
            XCTAssertEqual(uprightCount(log), 90, "\(backend): \(log)")
            XCTAssertTrue(direct == composited, "\(backend): turned direct frames must be byte-identical to composited ones")
        }
    }

    func testDirectFramesAreByteIdenticalToCompositing() throws {
        // 64×64 square edit at 30 fps: clip a 64×64 untouched (frames 0–29, the last 10 in the crossfade),
        // clip b 96×64 cropped to its centre at scale 1 (x offset 16), clip c 98×64 (odd offset 17: composited),
        // clip d rotated (composited).
        let a = try bt709Clip("a.mp4", size: "64x64")
        let b = try bt709Clip("b.mp4", size: "96x64", source: "smptebars")
        let c = try bt709Clip("c.mp4", size: "98x64")
        let d0 = try bt709Clip("d0.mp4", size: "64x64", source: "rgbtestsrc")
        let d = path("d.mp4")
        try TestSupport.rotated(d0, degrees: 90, to: d)
        var edit = Edit(clips: [clip(a), clip(b, tr(.crossfade, 1.0 / 3)), clip(c, tr(.wipe, 1.0 / 3)), clip(d, tr(.push, 1.0 / 3, .left))])
        edit.renderSize = PixelSize(width: 64, height: 64)
        edit.frameRate = FrameRate(30)
        // Frames: a 0–29, b from 20 (a transition of 1/3 s is 333 333 µs, so b's start lands 0.3 µs past frame 20 and
        // moves onto it: within the clips' timestamp tolerance, `Timeline.clipStarts`), c from 40, d from 60: a alone
        // 0–19 (20 frames), b alone 30–39 (10), c alone 50–59 (odd crop: composited), d alone 70–89 (turned upright,
        // 64×64 at scale 1: direct, issue 25).
        for codec in [OutputSettings.Codec.ffv1, .h264] {
            edit.output.codec = codec
            let ext = codec == .ffv1 ? "mkv" : "mp4"
            for backend in [Backend.cpu, .gpu] {
                let (composited, plainLog) = try render(edit, backend: backend, direct: false, name: "composited-\(backend).\(ext)")
                let (direct, log) = try render(edit, backend: backend, direct: true, name: "direct-\(backend).\(ext)")
                XCTAssertEqual(directCount(plainLog), 0)
                XCTAssertEqual(directCount(log), 20 + 10 + 20, "\(codec) \(backend): clip a alone (20), clip b alone (10), clip d alone (20); \(log)")
                XCTAssertEqual(uprightCount(log), 20, "\(codec) \(backend): \(log)")
                XCTAssertGreaterThan(direct.count, 1000, "\(codec) \(backend)")
                XCTAssertTrue(direct == composited, "\(codec) \(backend): direct frames must be byte-identical to composited ones")
            }
        }
    }

    /// Untagged SD clips are BT.601 (converted to BT.709 by compositing) and rotated or scaled clips need drawing:
    /// none of them take the direct path.
    func testFramesNeedingWorkAreComposited() throws {
        let sd = path("sd.mp4")
        try TestSupport.makeClip(sd, video: "testsrc2=s=64x64:r=30:d=0.5")
        var edit = Edit(clips: [clip(sd)])
        edit.output.codec = .ffv1
        let (_, log) = try render(edit, backend: .cpu, direct: true, name: "sd.mkv")
        XCTAssertEqual(directCount(log), 0, "an untagged 64×64 clip is BT.601: it must be converted")
        let hd = try bt709Clip("hd.mp4", size: "128x128")
        edit = Edit(clips: [clip(hd)])
        edit.renderSize = PixelSize(width: 64, height: 64)   // scaled down: drawn
        edit.output.codec = .ffv1
        let (_, log2) = try render(edit, backend: .cpu, direct: true, name: "scaled.mkv")
        XCTAssertEqual(directCount(log2), 0)
    }

    /// In an HDR edit no frame is direct: an SDR clip already in BT.709 4:2:0 at the render size still needs its colour
    /// stage (BT.2408: SDR white at 75 % HLG) and the 10-bit BT.2020 planes. Every frame is composited, and the file
    /// is 10-bit with SDR white (Y′ 235) at HLG code 721.
    func testNoDirectFramesInAnHDREdit() throws {
        let white = path("white.mp4")
        try TestSupport.makeClip(white, video: "color=c=white:s=64x64:r=30:d=0.5",
                                 extra: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"])
        var edit = Edit(clips: [clip(white)])
        edit.output.codec = .ffv1
        edit.output.dynamicRange = .hlg
        let (_, log) = try render(edit, backend: .cpu, direct: true, name: "hlg.mkv")
        XCTAssertEqual(directCount(log), 0, "an SDR clip in an HLG edit must be converted")
        XCTAssertEqual(try TestSupport.ffprobe(path("hlg.mkv"), "stream=pix_fmt")["pix_fmt"], "yuv420p10le")
        let frames = try TestSupport.decodeFrames(path("hlg.mkv"), width: 64, height: 64, pixFmt: "yuv420p10le")
        XCTAssertEqual(frames.count, 15)
        for f in frames { XCTAssertEqual(YUV420Image.sample(f, 64 * 32 + 32, bitDepth: 10), 721) }
    }

    /// A real phone clip (an iPhone 4S's 568×320 H.264, display matrix −90°, BT.709) as the square of its upright
    /// picture: every frame turned upright and direct, equal to FFmpeg's autorotate + crop frame for frame.
    func testARealPortraitPhoneClipIsTurnedNotComposited() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let phone = "\(media)/iphone4s_rot-90_audiofirst.mov"
        var edit = Edit(clips: [clip(phone, duration: 0.5)])
        edit.renderSize = PixelSize(width: 320, height: 320)
        edit.frameRate = FrameRate(30)
        edit.output.codec = .ffv1
        let (_, log) = try render(edit, backend: .cpu, direct: true, name: "phone.mkv")
        XCTAssertEqual(directCount(log), 15, "\(log)")
        XCTAssertEqual(uprightCount(log), 15, "\(log)")
        func md5s(_ args: [String]) throws -> [String] {
            let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error"] + args + ["-map", "0:v:0", "-pix_fmt", "yuv420p", "-f", "framemd5", "-"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
        }
        let ours = try md5s(["-i", path("phone.mkv")])
        XCTAssertEqual(ours.count, 15)
        XCTAssertEqual(ours, try md5s(["-i", phone, "-vf", "crop=320:320", "-frames:v", "15"]), "against FFmpeg's autorotate + crop")
    }

    /// A logo over a phone clip shown at scale 1 (issue 19's layers and issue 25's upright planes): every frame's first
    /// layer is turned and taken as planes, only the logo's rectangle drawn; `--verbose` counts both, on both
    /// backends, and the two backends' files differ by at most a code (the logo's blend).
    func testALogoOverATurnedClipBlendsOnlyTheLogo() throws {
        let stored = try bt709Clip("stored.mp4", size: "64x48")
        let phone = path("phone.mp4")
        try TestSupport.rotated(stored, degrees: -90, to: phone)
        let logo = path("logo.png")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=red@0.5:s=16x16,format=rgba", "-frames:v", "1", logo])
        var frames: [[[UInt8]]] = []
        for backend in ["cpu", "gpu"] {
            let out = path("logo-\(backend).mkv")
            let r = try segue(["render", phone, "--overlay", "\(logo):0.75,0.25,0.25", "--size", "48x48", "--codec", "ffv1", "--no-audio",
                               "--backend", backend, "--verbose", "--progress", "none", "-o", out])
            XCTAssertEqual(r.status, 0, r.stderr)
            let log = r.stderr.split(separator: "\n").map(String.init)
            XCTAssertEqual(directCount(log), 0, r.stderr)
            XCTAssertEqual(uprightCount(log), 30, r.stderr)
            XCTAssertTrue(r.stderr.contains("segue: 30 more had their first layer taken as planes"), r.stderr)
            frames.append(try TestSupport.decodeFrames(out, width: 48, height: 48, pixFmt: "yuv420p"))
        }
        XCTAssertEqual(frames[0].count, 30)
        for (a, b) in zip(frames[0], frames[1]) {
            XCTAssertLessThanOrEqual(zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 99, 1)
        }
    }

    /// `auto` on llvmpipe (issues 25 and 32): frames of built-in transitions (Segue's and FFmpeg's xfade ones) between
    /// BT.709 clips, clips scaled into the frame, and phone clips turned upright (at scale 1, and scaled: their chroma
    /// siting turned too) are drawn on the planes by the CPU renderer; `--verbose` says so and counts them, no GL
    /// context is made, and the file is within a code of the one `--backend gpu` draws (llvmpipe for every such frame).
    func testAutoDrawsTransitionsOnThePlanes() throws {
        let a = try bt709Clip("a.mp4", size: "64x48"), b = try bt709Clip("b.mp4", size: "64x48", source: "smptebars")
        let c = try bt709Clip("c.mp4", size: "64x48", source: "rgbtestsrc"), d = try bt709Clip("d.mp4", size: "80x48")
        let e = try bt709Clip("e.mp4", size: "64x48", source: "smptebars")
        // Phone clips: stored 48×64 with a quarter-turn display matrix (upright 64×48, scale 1), and stored 64×48 with
        // the other quarter turn (upright 48×64: filling the frame scales it by 4/3).
        let f0 = try bt709Clip("f0.mp4", size: "48x64", source: "rgbtestsrc"), f = path("f.mp4")
        try TestSupport.rotated(f0, degrees: 90, to: f)
        let g0 = try bt709Clip("g0.mp4", size: "64x48", source: "testsrc"), g = path("g.mp4")
        try TestSupport.rotated(g0, degrees: -90, to: g)
        let h = try bt709Clip("h.mp4", size: "32x24", source: "smptebars")   // upscaled 2×
        let (gpuLog, log, _, _, worst) = try renderAutoAndGPU([
            clip(a), clip(b, tr(.crossfade, 1.0 / 3)), clip(c, tr(.wipe, 1.0 / 3, .downRight)), clip(d, tr(.push, 1.0 / 3, .left)),
            clip(e, tr(.circleopen, 1.0 / 3)), clip(f, tr(.crossfade, 1.0 / 3)), clip(g, tr(.push, 1.0 / 3, .up)), clip(h, tr(.crossfade, 1.0 / 3)),
            clip(a, tr(.slideleft, 1.0 / 3)), clip(b, tr(.diagtl, 1.0 / 3)), clip(c, tr(.radial, 1.0 / 3)), clip(e, tr(.dissolve, 1.0 / 3)),
            clip(a, tr(.zoomin, 1.0 / 3)), clip(b, tr(.fadegrays, 1.0 / 3))],
            frames: 290)
        XCTAssertFalse(gpuLog.contains { $0.contains("backend auto") }, "\(gpuLog)")
        let line = try XCTUnwrap(log.first { $0.contains("segue: backend auto:") }, "\(log)")
        // 13 transitions of 10 frames, g alone and h alone (10 each), scaled.
        XCTAssertTrue(line.contains("the CPU draws 150 frames on the planes"), line)
        // Alone at scale 1: a 20 frames, b–f 10 each (f turned upright), and the six clips after h: 10 each but the last (20).
        XCTAssertEqual(directCount(log), 140, "\(log)")
        // Turned: f alone (a direct frame); the CPU reads the other turned layers as stored, row by row.
        XCTAssertEqual(uprightCount(log), 10, "\(log)")
        XCTAssertEqual(uprightCount(gpuLog), 10, "\(gpuLog)")
        // No frame needed OpenGL: where llvmpipe is the only GPU, its context was never made.
        if EGLSession.isSoftwareOnly() {
            XCTAssertTrue(line.contains("no GL context was made"), line)
            XCTAssertTrue(log.contains { $0.hasPrefix("segue: renderer cpu") }, "\(log)")
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// Where llvmpipe is the only GPU, an edit with a gl-transitions shader makes its context at once (the shader is
    /// compiled and tried before the first frame); the CPU still draws every other frame, llvmpipe only the shader's,
    /// and the file is within a code of `--backend gpu`'s (the shader's frames equal).
    func testAutoDrawsOnlyShaderFramesOnTheGPU() throws {
        guard EGLSession.isSoftwareOnly() else { throw XCTSkip("a GPU other than llvmpipe draws every frame under auto") }
        let a = try bt709Clip("a.mp4", size: "64x48"), b = try bt709Clip("b.mp4", size: "64x48", source: "smptebars")
        let c = try bt709Clip("c.mp4", size: "64x48", source: "rgbtestsrc")
        let shader = path("swirl.glsl")
        try Data("vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), smoothstep(0.0, 1.0, progress + uv.x - 0.5)); }\n".utf8)
            .write(to: URL(fileURLWithPath: shader))
        var t = tr(.glsl, 1.0 / 3)
        t.shader = try GLTransitionShader(path: shader, name: "swirl.glsl", field: "clips[2].transition.shader")
        let (gpuLog, log, x, y, worst) = try renderAutoAndGPU([clip(a), clip(b, tr(.wipeleft, 1.0 / 3)), clip(c, t)], frames: 70)
        XCTAssertFalse(gpuLog.contains { $0.contains("backend auto") }, "\(gpuLog)")
        let line = try XCTUnwrap(log.first { $0.contains("segue: backend auto:") }, "\(log)")
        XCTAssertTrue(line.contains("the CPU draws 10 frames on the planes"), line)
        XCTAssertTrue(line.contains("10 frames with gl-transitions shaders drawn by gpu (llvmpipe"), line)
        XCTAssertLessThanOrEqual(worst, 1)
        // The shader's frames are llvmpipe's on both: those are equal.
        for n in 40..<50 { XCTAssertEqual(x[n], y[n], "frame \(n)") }
    }

    /// `EGLSession.isSoftwareOnly` (which lets `auto` make no GL context) says what a session would be, without making
    /// one: where it says software only, the session made is a software rasteriser (texture limit 16384); a named
    /// device, the gbm platform or disabled EGL are never taken for one.
    func testSoftwareOnlyIsWhatASessionWouldBe() throws {
        XCTAssertFalse(EGLSession.isSoftwareOnly(EGLOptions(platform: .gbm)))
        XCTAssertFalse(EGLSession.isSoftwareOnly(EGLOptions(device: "0")))
        setenv("SEGUE_DISABLE_EGL", "1", 1)
        XCTAssertFalse(EGLSession.isSoftwareOnly())
        unsetenv("SEGUE_DISABLE_EGL")
        let gpu: GPURenderer
        do { gpu = try GPURenderer() } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI: \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
        if EGLSession.isSoftwareOnly() {
            XCTAssertTrue(gpu.isSoftwareRasteriser, gpu.name)
            XCTAssertEqual(gpu.maxPictureSize, 16384)
            XCTAssertTrue(EGLSession.isSoftwareOnly(EGLOptions(platform: .surfaceless)))
        } else if TestSupport.inCI {
            XCTFail("CI has no GPU: llvmpipe's device should be the only one (\(EGLSession.availableDevices()))")
        }
    }
}
