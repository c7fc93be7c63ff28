import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline
import SegueTestSupport

/// Interlaced clips (1080i/576i camcorders, DV, broadcast `.ts`): detected from the stream's field order and the
/// decoded frames' flags, deinterlaced with libavfilter's `bwdif`, one picture per field.
///
/// Oracles: FFmpeg's own `bwdif` on the same clip (`send_field` for a field-rate edit, `send_frame` for a
/// frame-rate edit), every frame, and FFmpeg's `idet` on the output. On the source `idet` finds every frame
/// interlaced. On a deinterlaced output it cannot find none: it judges a frame by how well the neighbouring
/// frames' lines fit between its own, and the first and last frame lack a neighbour, so with motion it flags them
/// whatever the deinterlacer (FFmpeg's own `bwdif` output too; here also the pictures of the first and last
/// source frame, which `bwdif` interpolates from one field alone); its multi-frame verdict then carries that
/// over the next three frames. So: every picture in between must be found progressive, and the multi-frame
/// summary may count only those edge pictures plus three as interlaced.
final class InterlaceTests: EndToEndTestCase {
    /// The issue's input (`testsrc2` at 50 fps woven into 25 interlaced frames, flagged TFF or BFF) at `size`,
    /// `seconds` long; H.264 unless `codec` says otherwise (e.g. `["-c:v", "mpeg2video", "-q:v", "2"]`).
    func interlacedClip(_ name: String, size: String = "320x240", rate: String = "50", seconds: Int = 2, bottomFirst: Bool = false,
                        codec: [String] = ["-c:v", "libx264", "-preset", "ultrafast"], extra: [String] = []) throws -> String {
        let p = path(name)
        let weave = bottomFirst ? "tinterlace=mode=interleave_bottom,setfield=bff" : "tinterlace=mode=interleave_top,setfield=tff"
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(rate):d=\(seconds)", "-vf", weave,
                                "-flags", "+ilme+ildct", "-top", bottomFirst ? "0" : "1"] + codec + extra + [p])
        return p
    }

    /// FFmpeg's `idet` on `file`: each frame's single-frame verdict ("tff", "bff", "progressive", "undetermined")
    /// and the multi-frame summary counts ("TFF", "BFF", "Progressive", "Undetermined").
    func idet(_ file: String) throws -> (frames: [String], multi: [String: Int]) {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "info", "-i", file,
                                               "-vf", "idet,metadata=mode=print:key=lavfi.idet.single.current_frame", "-f", "null", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var frames: [String] = [], multi: [String: Int] = [:]
        for line in r.stderr.split(separator: "\n") {
            if let v = line.components(separatedBy: "lavfi.idet.single.current_frame=").dropFirst().first { frames.append(v) }
            if let summary = line.components(separatedBy: "Multi frame detection:").dropFirst().first {
                // " TFF:     4 BFF:     0 Progressive:    96 Undetermined:     0"
                let words = summary.split(separator: " ")
                for (k, v) in zip(words, words.dropFirst()) where k.hasSuffix(":") { multi[String(k.dropLast())] = Int(v) }
            }
        }
        XCTAssertEqual(multi.count, 4, "no idet summary in: \(r.stderr.suffix(500))")
        return (frames, multi)
    }

    /// Asserts that `idet` finds every frame of `source` interlaced (`order`: "TFF" or "BFF") and none of the
    /// pictures of `output` between its first and last `edge` pictures (1 at the frame rate, 2 at the field rate:
    /// the first and last source frame's; see the class comment).
    func assertDeinterlaced(_ output: String, source: String, order: String, frames: Int, edge: Int,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let src = try idet(source)
        XCTAssertEqual(src.multi[order], src.frames.count, "idet on the source: \(src.multi)", file: file, line: line)
        XCTAssertGreaterThan(src.frames.count, 0, file: file, line: line)
        let out = try idet(output)
        XCTAssertEqual(out.frames.count, frames, "frames in \(output)", file: file, line: line)
        let inner = out.frames.dropFirst(edge).dropLast(edge)
        XCTAssertEqual(inner.filter { $0 == "tff" || $0 == "bff" }.count, 0, "idet finds interlaced frames in the output: \(out.frames)", file: file, line: line)
        let interlaced = (out.multi["TFF"] ?? frames) + (out.multi["BFF"] ?? frames)
        XCTAssertLessThanOrEqual(interlaced, 2 * edge + 3, "idet's multi-frame summary of the output: \(out.multi)", file: file, line: line)
        print("idet multi-frame detection: source \(src.multi.sorted { $0.key < $1.key }), Segue \(out.multi.sorted { $0.key < $1.key })")
    }

    /// FFmpeg's `bwdif` on `source` (untagged SD: then converted to BT.709 as Segue writes it), as yuv420p frames.
    func ffmpegBwdif(_ source: String, perField: Bool, width: Int, height: Int) throws -> [[UInt8]] {
        try TestSupport.decodeFrames(source, width: width, height: height,
                                     filter: "bwdif=mode=\(perField ? "send_field" : "send_frame"):parity=auto:deint=interlaced,\(TestSupport.bt601ToBT709)")
    }

    func render(_ source: String, fps: FrameRate?, backend: Backend, to name: String) throws -> String {
        var edit = Edit(clips: [clip(source)])
        edit.frameRate = fps
        edit.output.codec = .ffv1
        let out = path(name)
        try render(edit, to: out, backend: backend, audio: false)
        return out
    }

    // MARK: - Rendering

    func testTopFieldFirstAt25And50FPSMatchesFFmpegBwdif() throws {
        let src = try interlacedClip("tff.mp4")
        XCTAssertEqual(try VideoReader(path: src).info.fieldOrder, .topFieldFirst)
        // 25 fps (the clip's frame rate, the default): one picture per frame, the field shown first = send_frame.
        let at25 = try render(src, fps: nil, backend: .cpu, to: "tff25.mkv")
        try assertDeinterlaced(at25, source: src, order: "TFF", frames: 50, edge: 1)
        TestSupport.assertYUVSequencesMatch(try TestSupport.decodeFrames(at25, width: 320, height: 240),
                                            try ffmpegBwdif(src, perField: false, width: 320, height: 240),
                                            width: 320, height: 240, minPSNR: 40, label: "TFF at 25 fps vs bwdif send_frame")
        // 50 fps (the field rate): every field picture = send_field.
        let at50 = try render(src, fps: FrameRate(50), backend: .cpu, to: "tff50.mkv")
        try assertDeinterlaced(at50, source: src, order: "TFF", frames: 100, edge: 2)
        TestSupport.assertYUVSequencesMatch(try TestSupport.decodeFrames(at50, width: 320, height: 240),
                                            try ffmpegBwdif(src, perField: true, width: 320, height: 240),
                                            width: 320, height: 240, minPSNR: 40, label: "TFF at 50 fps vs bwdif send_field")
    }

    func testBottomFieldFirstAt50FPSMatchesFFmpegBwdif() throws {
        let src = try interlacedClip("bff.mp4", bottomFirst: true)
        // x264 writes the stream's field order as TT; the frames say bottom field first, and they win.
        XCTAssertEqual(try VideoReader(path: src).info.fieldOrder, .bottomFieldFirst)
        let at50 = try render(src, fps: FrameRate(50), backend: .cpu, to: "bff50.mkv")
        try assertDeinterlaced(at50, source: src, order: "BFF", frames: 100, edge: 2)
        TestSupport.assertYUVSequencesMatch(try TestSupport.decodeFrames(at50, width: 320, height: 240),
                                            try ffmpegBwdif(src, perField: true, width: 320, height: 240),
                                            width: 320, height: 240, minPSNR: 40, label: "BFF at 50 fps vs bwdif send_field")
    }

    /// MPEG-2 in MPEG-TS at 29.97i: 3003 ticks of 1/90000 s per frame, so the second field is 1501.5 ticks in,
    /// which only half units of the time base hold. A 59.94 fps edit shows every field picture.
    func testNTSCMPEG2TransportStreamAtTheFieldRate() throws {
        let src = try interlacedClip("ntsc.ts", rate: "60000/1001", seconds: 1, codec: ["-c:v", "mpeg2video", "-q:v", "2"])
        let at5994 = try render(src, fps: FrameRate(60000, 1001), backend: .cpu, to: "ntsc.mkv")
        try assertDeinterlaced(at5994, source: src, order: "TFF", frames: 60, edge: 2)
        TestSupport.assertYUVSequencesMatch(try TestSupport.decodeFrames(at5994, width: 320, height: 240),
                                            try ffmpegBwdif(src, perField: true, width: 320, height: 240),
                                            width: 320, height: 240, minPSNR: 40, label: "29.97i MPEG-2 at 59.94 fps vs bwdif send_field")
    }

    /// The issue's own input (720x576, 2 s) on the GPU backend (llvmpipe where there is no GPU), at the field rate.
    func testIssueClipOnTheGPU() throws {
        let src = try interlacedClip("i.mp4", size: "720x576", codec: ["-c:v", "libx264"])
        let at50 = try render(src, fps: FrameRate(50), backend: .gpu, to: "gpu50.mkv")
        try assertDeinterlaced(at50, source: src, order: "TFF", frames: 100, edge: 2)
        TestSupport.assertYUVSequencesMatch(try TestSupport.decodeFrames(at50, width: 720, height: 576),
                                            try ffmpegBwdif(src, perField: true, width: 720, height: 576),
                                            width: 720, height: 576, minPSNR: 40, label: "GPU, 576i at 50 fps vs bwdif send_field")
    }

    /// A progressive clip does not go near the deinterlacer: its 4:2:0 planes come out as stored.
    func testProgressiveClipIsUntouched() throws {
        let src = path("progressive.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=96x64:r=25:d=1,format=yuv420p", "-c:v", "ffv1",
                                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", src])
        let reader = try VideoReader(path: src)
        XCTAssertEqual(reader.info.fieldOrder, .progressive)
        XCTAssertFalse(reader.info.isInterlaced)
        XCTAssertNil(reader.info.fieldRate)
        let out = try render(src, fps: nil, backend: .cpu, to: "progressive-out.mkv")
        let stored = try TestSupport.decodeFrames(src, width: 96, height: 64)
        let rendered = try TestSupport.decodeFrames(out, width: 96, height: 64)
        XCTAssertEqual(rendered.count, 25)
        XCTAssertEqual(rendered, stored, "a progressive clip's planes must come out as stored")
    }

    /// A stream that switches from progressive to interlaced frames (a PAFF/MBAFF-style mix, here two H.264 streams
    /// joined in MPEG-TS): the progressive frames come out untouched, one picture each; the interlaced ones as two.
    func testProgressiveFramesOfAMixedStreamPassThrough() throws {
        let prog = path("prog.ts"), inter = try interlacedClip("inter.ts", seconds: 1)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast",
                                "-pix_fmt", "yuv420p", prog])
        let list = path("list.txt"), mixed = path("mixed.ts")
        try "file '\(prog)'\nfile '\(inter)'\n".write(toFile: list, atomically: true, encoding: .utf8)
        try TestSupport.ffmpeg(["-f", "concat", "-safe", "0", "-i", list, "-c", "copy", mixed])
        let out = try render(mixed, fps: FrameRate(50), backend: .cpu, to: "mixed50.mkv")
        let rendered = try TestSupport.decodeFrames(out, width: 320, height: 240)
        XCTAssertEqual(rendered.count, 100)
        let oracle = try ffmpegBwdif(mixed, perField: true, width: 320, height: 240)
        XCTAssertEqual(oracle.count, 75, "FFmpeg's bwdif: 25 progressive frames once, 25 interlaced frames twice")
        // At 50 fps a progressive 25 fps frame is shown twice; FFmpeg's bwdif gives it once. Segue starts its graph at
        // the first interlaced frame but feeds it the progressive frame before, as FFmpeg's graph had it: without
        // that, the first interlaced frame's second field came out at 43 dB (bwdif's temporal check reads it).
        let expected = oracle.prefix(25).flatMap { [$0, $0] } + oracle.dropFirst(25)
        TestSupport.assertYUVSequencesMatch(rendered, Array(expected), width: 320, height: 240, minPSNR: 60, label: "mixed stream vs bwdif")
        // The progressive part is untouched: the reader's pictures are the stored frames' planes, exactly.
        let deinterlaced = try VideoReader(path: mixed), stored = try VideoReader(path: mixed, deinterlace: false)
        XCTAssertEqual(deinterlaced.info.fieldOrder, .progressive, "the stream starts progressive (only later frames are flagged)")
        for k in 0..<25 {
            let t = MediaTime(value: Int64(k), timescale: 25)
            XCTAssertEqual(try deinterlaced.picture(at: t).planes.map(\.bytes), try stored.picture(at: t).planes.map(\.bytes), "progressive frame \(k)")
        }
    }

    // MARK: - Probe and seeking

    func testProbeReportsFieldOrder() throws {
        let tff = try interlacedClip("tff.mp4", seconds: 1)
        let bff = try interlacedClip("bff.mp4", seconds: 1, bottomFirst: true)
        // DV (PAL, bottom field first; the MOV stores its field order as "bt", the frames say bottom first).
        let dv = path("dv.mov")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=720x576:r=50:d=0.2", "-vf",
                                "tinterlace=mode=interleave_bottom,setfield=bff,format=yuv420p", "-c:v", "dvvideo", dv])
        let progressive = path("p.mp4")
        try TestSupport.makeClip(progressive, video: "testsrc2=s=64x48:r=25:d=0.2")
        let r = try segue(["probe", "--json", tff, bff, dv, progressive])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reports = try JSONDecoder().decode([ProbeReport].self, from: r.stdout)
        let v = try reports.map { try XCTUnwrap($0.video) }
        XCTAssertEqual(v.map(\.fieldOrder), ["top field first", "bottom field first", "bottom field first", "progressive"])
        XCTAssertEqual(v.map(\.interlaced), [true, true, true, false])
        XCTAssertEqual(v[0].deinterlacing, "bwdif, one picture per field")
        XCTAssertNil(v[3].deinterlacing)
        XCTAssertEqual(try XCTUnwrap(v[0].fieldRate), 50, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(v[0].averageFrameRate), 25, accuracy: 0.001, "the frame rate counts frames")
        let t = try segue(["probe", tff, bff, progressive])
        XCTAssertTrue(t.text.contains("interlaced, top field first; deinterlaced with bwdif, one picture per field (50 pictures/s)"), t.text)
        XCTAssertTrue(t.text.contains("interlaced, bottom field first;"), t.text)
        XCTAssertTrue(t.text.contains("\n    progressive\n"), t.text)
        // --verbose names it per clip.
        let v2 = try segue(["render", tff, "--size", "64x48", "--backend", "cpu", "--no-audio", "--verbose", "--progress", "none",
                            "-o", path("v.mp4")])
        XCTAssertEqual(v2.status, 0, v2.stderr)
        XCTAssertTrue(v2.stderr.contains("interlaced, top field first (deinterlaced with bwdif, one picture per field)"), v2.stderr)
    }

    /// A preview seeks to the keyframe before the picture it needs; bwdif reads the frames around each frame, so
    /// the reader lands a frame earlier still. Every checked frame equals the full render's, including pictures of
    /// keyframes (every 10th frame here) and both fields of a frame.
    func testFrameAfterSeekEqualsTheFullRender() throws {
        _ = try interlacedClip("gop.mp4", extra: ["-g", "10", "-keyint_min", "10", "-sc_threshold", "0"])
        let json = #"{"frameRate": 50, "clips": [{"path": "gop.mp4", "start": 0.2}], "output": {"codec": "ffv1"}}"#
        let file = path("edit.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let edit = try EditFile.load(path: file)
        // Output frame n shows source time 0.2 + n/50 s: frame 30 is source frame 20 (a keyframe), 31 its second field.
        let checked: [Int64] = [30, 31, 49, 50, 51, 70]
        let frames = Collected<[Int64: RGBAImage]>([:])
        var o = RenderOptions()
        o.backend = .cpu
        o.audio = false
        o.onFrame = { n, img in if checked.contains(n) { frames.update { $0[n] = img } } }
        try RenderJob.render(edit, to: path("full.mkv"), options: o)
        let full = frames.value
        XCTAssertEqual(full.count, checked.count)
        let timeline = try RenderJob.resolve(edit)
        for n in checked {
            let (one, _) = try RenderJob.renderFrames(timeline, frames: [n], renderer: RenderJob.makeRenderer(o))
            let d = PlaneDifference(one[0].pixels, full[n]!.pixels)
            XCTAssertEqual(d.maxAbsDifference, 0, "frame \(n): the preview differs from the full render (PSNR \(d.psnr) dB)")
        }
        // Field pictures differ from each other (the test would not notice a wrong field otherwise).
        XCTAssertNotEqual(full[30]!.pixels, full[31]!.pixels)
        // Through the CLI.
        let png = path("f.png")
        let r = try segue(["frame", file, "--frame", "31", "--backend", "cpu", "-o", png])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try TestSupport.decodeFrames(png, width: 320, height: 240, pixFmt: "rgba").first, full[31]!.pixels)
    }
}
