import XCTest
import SegueCore
import SegueEdit
import SegueGL
import SegueMedia
import SeguePipeline
@testable import SegueFarm
import SegueReference
import SegueTestSupport

/// Stills through the whole pipeline (issue 12): decoded and uploaded once, reduced on the CPU when larger than the
/// GPU takes, mixed with video and music, rendered in chunks.
final class StillPipelineTests: EndToEndTestCase {
    func gpuRenderer() throws -> GPURenderer {
        do { return try GPURenderer() } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
    }

    func photo(_ name: String, size: String = "96x64", exif: Int? = nil) throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=\(size):d=1:r=1,drawbox=x=0:y=0:w=iw/3:h=ih/3:color=red:t=fill", "-frames:v", "1", "-q:v", "2", p])
        if let v = exif {
            XCTAssertEqual(try TestSupport.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=\(v)", p]).status, 0)
        }
        return p
    }

    /// A PNG whose alpha runs from 0 (left) to 255 (right) over a colour gradient.
    func sticker(_ name: String) throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=80x80:d=1:r=1,format=rgba,geq=r='X*3':g='Y*3':b=200:a='X*255/W'", "-frames:v", "1", p])
        return p
    }

    func testAStillIsDecodedOnceAndUploadedOnce() throws {
        let jpg = try photo("p.jpg", exif: 6)
        // The reader: one decode, and the same picture (same identity) at every time.
        let reader = try VideoReader(path: jpg)
        let first = try reader.picture(at: .zero)
        for k in 1...100 {
            try reader.seek(to: MediaTime(value: Int64(k), timescale: 30))
            XCTAssertEqual(try reader.picture(at: MediaTime(value: Int64(k), timescale: 30)).identity, first.identity)
        }
        XCTAssertNotEqual(first.identity, 0)
        XCTAssertEqual(reader.decodedFrames, 1)
        // The GPU: 60 frames of a 2 s still, one upload; the frames are those a fresh renderer draws.
        let gpu = try gpuRenderer()
        var edit = Edit(clips: [clip(jpg, duration: 2)])
        edit.renderSize = PixelSize(width: 48, height: 64)
        let timeline = try RenderJob.resolve(edit)
        let (images, decoded) = try RenderJob.renderFrames(timeline, frames: Array(0..<60), renderer: gpu)
        XCTAssertEqual(decoded, 1)
        XCTAssertEqual(gpu.uploads, 1)
        let fresh = try RenderJob.renderFrames(timeline, frames: [59], renderer: try GPURenderer()).images[0]
        XCTAssertEqual(images[59], fresh)
        XCTAssertEqual(images[0], images[59])
        // Into and out of a 25 fps video at 30 fps: each video frame once (some are shown twice), each still once, and
        // the video's pictures move from the incoming to the outgoing layer without a second upload.
        try TestSupport.makeClip(path("v.mp4"), video: "testsrc2=s=96x64:r=25:d=1")
        var mixed = Edit(clips: [clip(jpg, duration: 1), clip(path("v.mp4"), tr(.crossfade, 0.5)), clip(try sticker("s.png"), tr(.wipe, 0.5), duration: 1)])
        mixed.renderSize = PixelSize(width: 64, height: 64)
        mixed.frameRate = FrameRate(30)
        let t2 = try RenderJob.resolve(mixed)
        let counting = try gpuRenderer()
        let run = try RenderJob.renderFrames(t2, frames: Array(0..<t2.frameCount), renderer: counting)
        XCTAssertEqual(t2.frameCount, 60)
        XCTAssertEqual(run.decodedFrames, 25 + 2)
        XCTAssertEqual(counting.uploads, 25 + 2)
        // Bit-exact against a renderer that uploads every frame (pictures without identity).
        let plain = try gpuRenderer(), source = try RenderJob.renderFrames(t2, frames: [20, 40, 50], renderer: ReferenceRenderer())
        XCTAssertEqual(source.images.count, 3)
        for (k, n) in [20, 40, 50].enumerated() {
            let again = try RenderJob.renderFrames(t2, frames: [Int64(n)], renderer: plain).images[0]
            XCTAssertEqual(run.images[n], again, "frame \(n)")
            XCTAssertGreaterThanOrEqual(PlaneDifference(run.images[n].pixels, source.images[k].pixels).psnr, 45, "frame \(n) gpu vs cpu")
        }
    }

    func testPicturesLargerThanTheTextureLimitAreReducedNotRefused() throws {
        // 16400 pixels wide: over llvmpipe's GL_MAX_TEXTURE_SIZE (16384) and over libx264's largest width.
        let gpu = try gpuRenderer()
        XCTAssertEqual(gpu.maxPictureSize, 16384)
        // Shown at scale 1 (a 16384×32 crop of it): no prefilter, but the limit.
        let coded = PixelSize(width: 16400, height: 32)
        let shown = LayerGeometry.outputToSource(codedSize: coded, sar: 1, orientation: .identity, renderSize: PixelSize(width: 16384, height: 32), fit: .fill)
        XCTAssertNil(LayerGeometry.reducedSize(shown, codedSize: coded, maxSide: nil))
        XCTAssertEqual(LayerGeometry.reducedSize(shown, codedSize: coded, maxSide: 16384), PixelSize(width: 16384, height: 32))
        XCTAssertNil(LayerGeometry.reducedSize(shown, codedSize: PixelSize(width: 16384, height: 32), maxSide: 16384))
        let wide = path("wide.png")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=16400x32:c0=0x103050:c1=0xE0C080:x0=0:y0=0:x1=16400:y1=0:d=1:r=1", "-frames:v", "1", wide])
        let video = path("wide.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=16400x32:c0=0x103050:c1=0xE0C080:x0=0:y0=0:x1=16400:y1=0:d=0.2:r=10", "-c:v", "ffv1", video])
        for (input, backend) in [(wide, "auto"), (wide, "gpu"), (video, "gpu")] {
            // The oracle: FFmpeg's centre crop of the picture as stored (the gradient is smooth: reducing by 16 pixels
            // in 16400 changes next to nothing).
            let reference = try TestSupport.decodeFrames(input, width: 16384, height: 32, pixFmt: "rgb24", filter: "crop=16384:32")[0]
            let edit = path("edit-\(backend).json"), out = path("out-\(backend)-\(input.hasSuffix("png") ? "png" : "mkv").mkv")
            try Data("""
            {"clips": [{"path": "\(input)", "duration": 0.2}], "output": {"codec": "ffv1"}}
            """.utf8).write(to: URL(fileURLWithPath: edit))
            let r = try segue(["render", edit, "-o", out, "--backend", backend, "--no-audio"])
            XCTAssertEqual(r.status, 0, r.stderr)
            // auto where the only GPU is llvmpipe: the CPU draws it (it has no texture limit, and reads the picture whole).
            let drawer = backend == "auto" && EGLSession.isSoftwareOnly() ? "cpu" : "gpu"
            XCTAssertTrue(r.stderr.contains("rendered by \(drawer)"), r.stderr)
            XCTAssertEqual(try TestSupport.ffprobe(out, "stream=width,height")["width"], "16384")
            let frames = try TestSupport.decodeFrames(out, width: 16384, height: 32, pixFmt: "rgb24")
            XCTAssertFalse(frames.isEmpty)
            let psnr = PlaneDifference(frames[0], reference).psnr
            print("16400-wide \(input.hasSuffix("png") ? "photo" : "video") on --backend \(backend): \(String(format: "%.2f", psnr)) dB")
            XCTAssertGreaterThanOrEqual(psnr, 40)
        }
    }

    /// A photo + video + music "memory": a portrait JPEG (EXIF 6), a video with sound, a PNG with alpha, a HEIC.
    func memoryEdit(codec: String = "ffv1") throws -> String {
        _ = try photo("portrait.jpg", size: "120x90", exif: 6)
        try TestSupport.makeClip(path("clip.mp4"), video: "testsrc2=s=160x90:r=30:d=2", audio: "sine=f=660:d=2:r=48000")
        _ = try sticker("sticker.png")
        let png = try photo("for-heic.png", size: "128x96")
        XCTAssertEqual(try TestSupport.run("heif-enc", ["-q", "90", png, "-o", path("photo.heic")]).status, 0)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=10:r=44100", "-c:a", "aac", path("music.m4a")])
        let e = path("memory.json")
        try Data("""
        {"renderSize": {"width": 96, "height": 96}, "frameRate": 30, "background": "#204060",
         "clips": [{"path": "portrait.jpg", "duration": 1.5},
                   {"path": "clip.mp4", "transition": {"type": "crossfade", "duration": 0.5}},
                   {"path": "sticker.png", "duration": 1.5, "transition": {"type": "push", "duration": 0.5, "direction": "up"}},
                   {"path": "photo.heic", "duration": 1.5, "transition": {"type": "wipe", "duration": 0.5}}],
         "music": {"path": "music.m4a", "volume": 0.5, "duck": true},
         "output": {"codec": "\(codec)"}}
        """.utf8).write(to: URL(fileURLWithPath: e))
        return e
    }

    func testPhotoVideoAndMusicEditGPUMatchesCPU() throws {
        _ = try gpuRenderer()
        let edit = try EditFile.load(path: try memoryEdit())
        let gpu = try render(edit, to: path("gpu.mkv"), backend: .gpu)
        let cpu = try render(edit, to: path("cpu.mkv"), backend: .cpu)
        // 1.5 + 2 + 1.5 + 1.5 − 3 × 0.5 = 5 s → 150 frames.
        XCTAssertEqual(gpu.frames, 150)
        XCTAssertEqual(cpu.frames, 150)
        let g = try TestSupport.decodeFrames(path("gpu.mkv"), width: 96, height: 96), k = try TestSupport.decodeFrames(path("cpu.mkv"), width: 96, height: 96)
        TestSupport.assertYUVSequencesMatch(g, k, width: 96, height: 96, minPSNR: 45, label: "gpu vs cpu, photo + video + music")
        // Music plays under the stills: the first second (the photo alone) is not silent, and the audio lasts the edit.
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path("gpu.mkv"), "-f", "f32le", "-"])
        let stereo = r.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let left = stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
        XCTAssertEqual(left.count, 5 * 48000, accuracy: 1024)
        // lavfi's sine has amplitude 1/8; the mono music plays at full level in each channel, at volume 0.5: RMS
        // 0.0625/√2 = 0.0442 over the first 0.75 s (the photo alone: the ducking only starts as the video's sound nears, at 1 s).
        let first = left.prefix(36000)
        let rms = (first.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, first.count))).squareRoot()
        XCTAssertEqual(rms, 0.0625 / 2.0.squareRoot(), accuracy: 0.003, "music under the photo")
    }

    func testChunksAcrossStillsStitchToTheSinglePassAndThePlanKnowsTheBackground() throws {
        let edit = try memoryEdit()
        let plan = path("plan.json"), chunks = path("chunks")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "3", "-o", plan]).status, 0)
        let p = try ChunkPlanner.load(plan)
        for c in p.chunks {
            let r = try segue(["render", "--plan", plan, "--chunk", "\(c.index)", "-o", chunks, "--backend", "cpu"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(try segue(["render-audio", "--plan", plan, "-o", "\(chunks)/\(p.audio!.file)"]).status, 0)
        let stitched = path("stitched.mkv"), single = path("single.mkv")
        let s = try segue(["stitch", "--plan", plan, chunks, "-o", stitched])
        XCTAssertEqual(s.status, 0, s.stderr)
        XCTAssertEqual(try segue(["render", edit, "-o", single, "--backend", "cpu"]).status, 0)
        func md5(_ f: String, _ stream: String) throws -> [String] {
            try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", f, "-map", "0:\(stream)", "-f", "framemd5", "-"]).text
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        }
        let a = try md5(stitched, "v"), b = try md5(single, "v")
        XCTAssertEqual(a.count, 150)
        XCTAssertEqual(a, b, "chunked frames differ from the single pass")
        XCTAssertEqual(try md5(stitched, "a"), try md5(single, "a"), "audio differs")
        // The plan holds the edit, its background included: the edit file changed afterwards, the workers still render
        // the planned one.
        XCTAssertEqual(p.resolvedEdit["background"], .string("#204060"))
        let text = try String(contentsOfFile: edit, encoding: .utf8).replacingOccurrences(of: "#204060", with: "#ffffff")
        try text.write(toFile: edit, atomically: true, encoding: .utf8)
        let again = try segue(["render", "--plan", plan, "--chunk", "0", "-o", path("again"), "--backend", "cpu"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try md5(path("again/chunk_0000.mkv"), "v"), try md5("\(chunks)/chunk_0000.mkv", "v"))
    }
}
