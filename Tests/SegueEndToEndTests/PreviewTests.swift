import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueMedia
import SegueReference
import SegueTestSupport

/// `probe`, `plan`, `frame`, `sheet`, `compare` and progress output.
final class PreviewTests: EndToEndTestCase {
    func testProbeReportsRotationSARRateColourAndAudio() throws {
        let stored = path("stored.mp4"), rotated = path("rotated.mp4")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=1", "-f", "lavfi", "-i", "sine=f=440:r=44100:d=1",
                                "-filter_complex", "[1:a]pan=5.1|FL=c0|FR=c0|FC=c0|LFE=c0|BL=c0|BR=c0[a]", "-map", "0:v", "-map", "[a]",
                                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuvj420p", "-color_range", "pc",
                                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-aspect", "32:9",
                                "-c:a", "aac", stored])
        try TestSupport.rotated(stored, degrees: -90, to: rotated)
        let r = try segue(["probe", "--json", rotated])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reports = try JSONDecoder().decode([ProbeReport].self, from: r.stdout)
        let v = try XCTUnwrap(reports.first?.video)
        XCTAssertEqual(v.codec, "h264")
        XCTAssertEqual(v.codedWidth, 160)
        XCTAssertEqual(v.codedHeight, 90)
        XCTAssertEqual(v.rotation, -90)
        XCTAssertFalse(v.mirrored)
        XCTAssertEqual(v.sampleAspectRatio, "2:1")              // 160x90 shown at 32:9
        XCTAssertEqual(v.displayWidth, 90)                       // 320x90 turned a quarter
        XCTAssertEqual(v.displayHeight, 320)
        XCTAssertEqual(try XCTUnwrap(v.averageFrameRate), 25, accuracy: 0.01)
        XCTAssertFalse(v.variableFrameRate)
        XCTAssertEqual(v.colorMatrix, "bt709")
        XCTAssertEqual(v.colorRange, "full")
        XCTAssertEqual(v.matrixUsed, "BT.709")
        XCTAssertEqual(v.duration, 1, accuracy: 0.05)
        let a = try XCTUnwrap(reports.first?.audio.first)
        XCTAssertEqual(a.codec, "aac")
        XCTAssertEqual(a.sampleRate, 44100)
        XCTAssertEqual(a.channels, 6)
        XCTAssertEqual(a.layout, "5.1")
        // Text form too.
        let t = try segue(["probe", rotated])
        XCTAssertTrue(t.text.contains("rotation -90°") && t.text.contains("displayed 90x320"), t.text)
    }

    func testProbeOfRealPhoneClip() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let r = try segue(["probe", "--json", "\(media)/android12_portrait_4k60_rot-90.mp4", "\(media)/flir_1080x1440_portrait_vfr.mp4"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reports = try JSONDecoder().decode([ProbeReport].self, from: r.stdout)
        let phone = try XCTUnwrap(reports[0].video)
        XCTAssertEqual(phone.rotation, -90)
        XCTAssertEqual(phone.displayWidth, 2160)
        XCTAssertEqual(phone.displayHeight, 3840)
        XCTAssertEqual(phone.colorRange, "full")
        XCTAssertEqual(phone.matrixUsed, "BT.601")
        XCTAssertEqual(reports[0].audio.first?.sampleRate, 48000)
        XCTAssertTrue(try XCTUnwrap(reports[1].video).variableFrameRate)
    }

    /// Clips with a keyframe every 10 frames, so previews can seek.
    func makeEdit() throws -> (String, Edit) {
        let a = path("a.mp4"), b = path("b.mp4"), c = path("c.mp4")
        try TestSupport.makeClip(a, video: "testsrc2=s=128x72:r=30:d=3", extra: ["-g", "10"])
        try TestSupport.makeClip(b, video: "smptebars=s=128x72:r=30:d=3", extra: ["-g", "10"])
        try TestSupport.makeClip(c, video: "mandelbrot=s=128x72:r=30,trim=duration=3", extra: ["-g", "10"])
        let json = #"{"frameRate": 30, "clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "crossfade", "duration": 1}}, {"path": "c.mp4", "transition": {"type": "wipe", "duration": 0.5, "direction": "right"}}], "output": {"codec": "ffv1"}}"#
        let file = path("edit.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        return (file, try EditFile.load(path: file))
    }

    func testPlanMatchesTheRenderedTransitions() throws {
        let (file, edit) = try makeEdit()
        let r = try segue(["plan", "--json", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        let plan = try JSONDecoder().decode(TimelineReport.self, from: r.stdout)
        // 3 + 3 + 3 - 1.5 = 7.5 s = 225 frames; crossfade frames 60..<90, wipe 135..<150.
        XCTAssertEqual(plan.frameCount, 225)
        XCTAssertEqual(plan.width, 128)
        XCTAssertEqual(plan.clips.map(\.roll), ["A", "B", "A"])
        XCTAssertEqual(plan.clips.map(\.track), [0, 0, 0])
        XCTAssertEqual(plan.clips[1].transition?.firstFrame, 60)
        XCTAssertEqual(plan.clips[1].transition?.endFrame, 90)
        XCTAssertEqual(plan.clips[2].transition?.firstFrame, 135)
        XCTAssertEqual(plan.clips[2].transition?.endFrame, 150)
        // The render's pictures change from "only A" to "mixed" exactly at those frames.
        let collected = Collected<[Int64: RGBAImage]>([:])
        var o = RenderOptions()
        o.backend = .cpu
        o.audio = false
        o.onFrame = { n, img in if [59, 60, 61, 89, 90, 134, 135, 136, 149, 150].contains(n) { collected.update { $0[n] = img } } }
        try RenderJob.render(edit, to: path("full.mkv"), options: o)
        let images = collected.value
        // p = 0 on the first frame of each transition: only the outgoing clip.
        let pureA60 = try singleClipFrame(edit, clip: 0, at: 60)
        XCTAssertEqual(images[60]!.pixels, pureA60.pixels, "frame 60 (p = 0) shows only clip 0")
        XCTAssertNotEqual(images[61]!.pixels, try singleClipFrame(edit, clip: 0, at: 61).pixels, "frame 61 mixes")
        XCTAssertEqual(images[90]!.pixels, try singleClipFrame(edit, clip: 1, at: 90).pixels, "frame 90 shows only clip 1")
        XCTAssertEqual(images[135]!.pixels, try singleClipFrame(edit, clip: 1, at: 135).pixels, "wipe p = 0")
        XCTAssertEqual(images[150]!.pixels, try singleClipFrame(edit, clip: 2, at: 150).pixels, "after the wipe")
    }

    /// Output frame `n` drawn from clip `clip` alone (no transition), by the CPU reference.
    func singleClipFrame(_ edit: Edit, clip: Int, at n: Int64) throws -> RGBAImage {
        let t = try RenderJob.resolve(edit)
        let p = t.placements[clip]
        let layer = LayerPlan(clipIndex: clip, sourceTime: p.sourceStart + (t.time(ofFrame: n) - p.start), outputToSource: p.outputToSource)
        let reader = try VideoReader(path: p.spec.path)
        let picture = try reader.picture(at: layer.sourceTime)
        return try ReferenceRenderer().render(FramePlan(frame: n, time: t.time(ofFrame: n), from: layer, to: nil, transition: nil, progress: 0), from: picture, to: nil, renderSize: t.renderSize)
    }

    func testFrameEqualsTheFullRenderAndDecodesLittle() throws {
        let (file, edit) = try makeEdit()
        let frames = Collected<[Int64: RGBAImage]>([:])
        var o = RenderOptions()
        o.backend = .cpu
        o.audio = false
        o.onFrame = { n, img in if n == 75 || n == 140 || n == 200 { frames.update { $0[n] = img } } }
        try RenderJob.render(edit, to: path("full.mkv"), options: o)
        let full = frames.value
        let timeline = try RenderJob.resolve(edit)
        for n: Int64 in [75, 140, 200] {
            let (cpu, decoded) = try RenderJob.renderFrames(timeline, frames: [n], renderer: RenderJob.makeRenderer(o))
            XCTAssertEqual(cpu[0].pixels, full[n]!.pixels, "frame \(n): preview and full render differ")
            // At most two clips, each: its first frame + at most a GOP (10) from the keyframe before the target.
            XCTAssertLessThanOrEqual(decoded, 2 * (1 + 12), "frame \(n) decoded \(decoded) source frames")
            var g = o
            g.backend = .gpu
            let gpuRenderer: CompositeRenderer
            do { gpuRenderer = try RenderJob.makeRenderer(g) } catch {
                if TestSupport.inCI { XCTFail("no EGL in CI: \(error)") }
                continue
            }
            let (gpu, _) = try RenderJob.renderFrames(timeline, frames: [n], renderer: gpuRenderer)
            XCTAssertGreaterThanOrEqual(PlaneDifference(gpu[0].pixels, cpu[0].pixels).psnr, 45, "frame \(n) gpu vs cpu")
        }
        // Through the CLI: --at 4.67 s is frame 140; the PNG decodes to the same picture.
        let png = path("f.png")
        let r = try segue(["frame", file, "--at", "4.67", "--backend", "cpu", "-o", png])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("frame 140"), r.stderr)
        let decoded = try TestSupport.decodeFrames(png, width: 128, height: 72, pixFmt: "rgba")
        XCTAssertEqual(decoded.first, full[140]!.pixels)
    }

    func testSheetHasTilesInPlace() throws {
        let (file, _) = try makeEdit()
        let out = path("sheet.png")
        let r = try segue(["sheet", file, "--backend", "cpu", "--cols", "5", "--tile-width", "64", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Two transitions × 5 tiles; tiles 64x36 with 4 px gaps and a 30 px caption band (two 9 px labels 13 px apart):
        // 4 + 5 × 68 = 344 wide, 4 + 2 × (36 + 30 + 4) = 144 high.
        let probe = try TestSupport.ffprobe(out, "stream=width,height")
        XCTAssertEqual(probe["width"], "344")
        XCTAssertEqual(probe["height"], "144")
        let px = try XCTUnwrap(try TestSupport.decodeFrames(out, width: 344, height: 144, pixFmt: "rgba").first)
        func at(_ x: Int, _ y: Int) -> [UInt8] { Array(px[((y * 344 + x) * 4)..<((y * 344 + x) * 4 + 3)]) }
        XCTAssertEqual(at(1, 1), [24, 24, 24], "background in the gap")
        // Tile 4 of row 2 is the first frame after the wipe (the mandelbrot clip): not background.
        XCTAssertNotEqual(at(4 + 4 * 68 + 32, 64 + 18), [24, 24, 24])
        // Caption text (light pixels) in the band under the first tile.
        let band = (0..<60).flatMap { x in (40..<70).map { y in at(4 + x, y) } }
        XCTAssertTrue(band.contains { $0[0] > 200 }, "caption drawn")
    }

    /// A sheet of many transitions stays legible: each transition's tiles start a row of their own, captions never
    /// run into the next tile (long names are cut, keeping p), and `--at-progress` packs one tile per transition.
    func testSheetOfManyTransitionsStaysLegible() throws {
        let a = path("a.mp4"), b = path("b.mp4")
        try TestSupport.makeClip(a, video: "testsrc2=s=64x36:r=30:d=1", extra: ["-g", "10"])
        try TestSupport.makeClip(b, video: "smptebars=s=64x36:r=30:d=1", extra: ["-g", "10"])
        let kinds = ["smoothright", "fadeblack", "wipetl", "circleclose", "hrslice", "slideleft"]
        let clips = ([#"{"path": "a.mp4"}"#] + kinds.enumerated().map { k, name in
            #"{"path": "\#(k % 2 == 0 ? "b" : "a").mp4", "transition": {"type": "\#(name)", "duration": 0.4}}"#
        }).joined(separator: ", ")
        let file = path("many.json")
        try Data(#"{"frameRate": 30, "clips": [\#(clips)]}"#.utf8).write(to: URL(fileURLWithPath: file))
        let out = path("sheet.png")
        // Six transitions × (4 + 1 after) tiles, 64×36 and a 30 px band: one row each, 4 + 5 × 68 = 344 by 4 + 6 × 70 = 424.
        let r = try segue(["sheet", file, "--backend", "cpu", "--cols", "5", "--tile-width", "64", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try TestSupport.ffprobe(out, "stream=width,height"), ["width": "344", "height": "424"])
        let px = try XCTUnwrap(try TestSupport.decodeFrames(out, width: 344, height: 424, pixFmt: "rgba").first)
        func at(_ x: Int, _ y: Int) -> [UInt8] { Array(px[((y * 344 + x) * 4)..<((y * 344 + x) * 4 + 3)]) }
        for row in 0..<6 {
            XCTAssertNotEqual(at(4 + 32, 4 + row * 70 + 18), [24, 24, 24], "row \(row) starts with its transition's first tile")
            for col in 0..<5 {
                // The gap right of each tile, caption band included, stays background.
                for x in (4 + col * 68 + 64)..<(4 + col * 68 + 68) {
                    for y in (4 + row * 70)..<(4 + row * 70 + 66) { XCTAssertEqual(at(x, y), [24, 24, 24], "gap at \(x),\(y)"); if at(x, y) != [24, 24, 24] { return } }
                }
            }
        }
        // One tile per transition at p = 0.5, packed five to a row.
        let packed = try segue(["sheet", file, "--backend", "cpu", "--cols", "5", "--tile-width", "64", "--at-progress", "0.5", "-o", path("packed.png")])
        XCTAssertEqual(packed.status, 0, packed.stderr)
        XCTAssertTrue(packed.stderr.contains("6 tiles"), packed.stderr)
        XCTAssertEqual(try TestSupport.ffprobe(path("packed.png"), "stream=width,height"), ["width": "344", "height": "144"])
        XCTAssertEqual(try segue(["sheet", file, "--at-progress", "1.5", "-o", path("x.png")]).status, 2)
    }

    func testCompareIdenticalAndOffsetByOne() throws {
        let a = path("a.mkv"), b = path("b.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=1,format=yuv420p", "-c:v", "ffv1", a])
        try TestSupport.ffmpeg(["-i", a, "-vf", "lutyuv=y=val+1", "-c:v", "ffv1", b])
        let same = try segue(["compare", a, a, "--json"])
        XCTAssertEqual(same.status, 0, same.stderr)
        let s = try JSONSerialization.jsonObject(with: same.stdout) as! [String: Any]
        XCTAssertEqual(s["overall"] as? String, "inf")
        let diff = try segue(["compare", a, b, "--json"])
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let c = try decoder.decode(VideoComparison.self, from: diff.stdout)
        XCTAssertEqual(c.frames.count, 10)
        // testsrc2's luma never reaches 255 here, so every Y sample differs by exactly 1: 10·log10(255²) = 48.13 dB.
        XCTAssertEqual(c.frames[0].y, 48.13, accuracy: 0.01)
        XCTAssertTrue(c.frames[0].u.isInfinite)
        let strict = try segue(["compare", a, b, "--min-psnr", "50"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("--min-psnr"), strict.stderr)
        XCTAssertEqual(try segue(["compare", a, b, "--min-psnr", "45"]).status, 0)
    }

    func testCompareBackendsAndJSONProgress() throws {
        let (file, _) = try makeEdit()
        let r = try segue(["compare", "--backends", file, "--size", "64x36", "--min-psnr", "45"])
        if r.status != 0 && !TestSupport.inCI && r.stderr.contains("EGL") { throw XCTSkip("no EGL: \(r.stderr)") }
        XCTAssertEqual(r.status, 0, r.stderr + r.text)
        XCTAssertTrue(r.text.contains("225 frames compared"), r.text)
        let p = try segue(["render", file, "--size", "64x36", "--backend", "cpu", "--progress", "json", "-o", path("p.mkv")])
        XCTAssertEqual(p.status, 0, p.stderr)
        let lines = p.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        let events = try lines.map { try JSONDecoder().decode(RenderProgress.self, from: Data($0.utf8)) }
        XCTAssertGreaterThanOrEqual(events.count, 2)
        XCTAssertEqual(zip(events, events.dropFirst()).filter { $0.0.frame > $0.1.frame }.count, 0, "monotonic")
        XCTAssertEqual(events.last?.frame, 225)
        XCTAssertEqual(events.last?.total, 225)
        XCTAssertEqual(events.last?.stage, "done")
    }
}
