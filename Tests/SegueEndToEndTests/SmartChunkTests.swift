import XCTest
import SegueCore
import SegueEdit
import SegueFarm
import SegueMedia
import SeguePipeline
import SegueTestSupport

/// Chunked smart renders (`--smart` with `--cache`/`--chunks` and `segue farm`, docs/farms.md): the chunks cut where
/// the smart plan may be cut, each a smart render of its frames, the stitch joining their packets through `SmartMux`.
final class SmartChunkTests: EndToEndTestCase {
    /// The cuts edit of SmartRenderTests (a 4 s x264 High source with a keyframe every 25 frames) as an edit file, and
    /// the same edit without `smart`.
    func writeEdits() throws -> (smart: String, plain: String, source: String) {
        let src = try smartSource("a.mp4", ["-profile:v", "high"])
        var edit = smartCutsEdit(src)
        try EditFileWriter.data(edit).write(to: URL(fileURLWithPath: path("smart.json")))
        edit.output.smart = false
        try EditFileWriter.data(edit).write(to: URL(fileURLWithPath: path("plain.json")))
        return (path("smart.json"), path("plain.json"), src)
    }

    /// `render --cache --chunks 3 --verbose`: (reused, rendered) as it says them.
    func cachedRender(_ edit: String, _ out: String, cache: String, chunks: Int = 3) throws -> [Int] {
        let r = try segue(["render", edit, "-o", out, "--cache", cache, "--chunks", String(chunks), "--backend", "cpu", "--verbose", "--progress", "none"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let line = r.stderr.split(separator: "\n").first { $0.contains("chunks reused,") }.map(String.init) ?? ""
        let numbers = line.split(separator: ":").last.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
        XCTAssertEqual(numbers.count, 3, r.stderr)
        return [numbers.first ?? -1, numbers.last ?? -1]
    }

    /// The plan cuts only where the smart plan may: at a copied stretch's first frame or IDR picture and where an
    /// encoded run starts (frames 0, 20, 45, 46, 71 here: the copy 20–45 runs from source frame 25 across the IDR
    /// picture of frame 50, output 45; the encoded run 46–70 holds the crossfade and is never cut).
    func testChunksAreCutWhereTheSmartPlanMayBeCut() throws {
        let (smart, _, _) = try writeEdits()
        let edit = try EditFile.load(path: smart)
        let timeline = try RenderJob.resolve(edit)
        let plan = try SmartPlan.make(timeline)
        XCTAssertEqual(plan.cutPoints, [0, 20, 45, 46, 71])
        func ranges(_ n: Int) throws -> [Range<Int64>] { try ChunkPlanner.plan(edit, editPath: smart, chunks: n).chunks.map { $0.start..<$0.end } }
        XCTAssertEqual(try ranges(3), [0..<20, 20..<71, 71..<96])
        XCTAssertEqual(try ranges(4), [0..<20, 20..<46, 46..<71, 71..<96])
        XCTAssertEqual(try ranges(6), [0..<20, 20..<46, 46..<71, 71..<96], "fewer chunks than asked where cut points are sparse")
        // A boundary inside an encoded run more than half a chunk (6 frames) from a cut point stays: 12 and 60.
        XCTAssertEqual(try ranges(8), [0..<12, 12..<20, 20..<45, 45..<46, 46..<60, 60..<71, 71..<96])
        // The chunk of frames 20–70: the copied stretch, then the encoded run, counted from the chunk's first frame.
        XCTAssertEqual(plan.pieces(in: 20..<71)?.map(\.frames), [0..<26, 26..<51])
        XCTAssertNil(plan.pieces(in: 20..<30), "a range that ends inside a copied stretch (not at a keyframe)")
        XCTAssertEqual(plan.pieces(in: 46..<60), [.encoded(frames: 0..<14, lookahead: 11)], "a chunk of a run continued in the next chunk")
        let p = try ChunkPlanner.plan(edit, editPath: smart, chunks: 3)
        XCTAssertEqual(p.smart?.copiedFrames, 51)
        XCTAssertEqual(p.smart?.source, path("a.mp4"))
        XCTAssertTrue(p.settings.hasSuffix(" smart"), p.settings)
        // The cache keys a smart chunk apart from the same frames of a normal render.
        var normal = edit
        normal.output.smart = false
        XCTAssertNotEqual(ChunkKeys(timeline: timeline, renderer: "cpu").key(of: 0..<20),
                          ChunkKeys(timeline: try RenderJob.resolve(normal), renderer: "cpu").key(of: 0..<20))
        // And by the encoder the encoded frames are matched with (the first copied file's, maybe in another chunk).
        let key = ChunkKeys(timeline: timeline, renderer: "cpu").description(of: 0..<20)
        XCTAssertTrue(key.contains("smart: libx264 level=1.2 profile=high x264-params=sps-id=1 sets="), key)
        // The stitch's avcC: each distinct set once; another set with an id already there is refused.
        let sets = try XCTUnwrap(AVCConfiguration(try XCTUnwrap(plan.matchedStream).parameterSets))
        XCTAssertEqual(sets.merging(sets), sets)
        var other = sets
        other.sps[0][other.sps[0].count - 1] ^= 1
        XCTAssertNil(sets.merging(other), "an SPS with id 0 that is not the copied stream's")
    }

    /// `render --cache --chunks 3` and `farm local --chunks 4` of the smart edit give the one-pass smart render's
    /// packets (so its decoded frames), the source's frames in the copied stretches, its frame count and duration, and
    /// decode with `-xerror` without a message. A second cached render reuses the 3 chunks; the same edit without
    /// `--smart` reuses none of them.
    func testChunkedSmartRendersAreTheOnePassRender() throws {
        let (smart, plain, src) = try writeEdits()
        let one = try segue(["render", smart, "-o", path("one.mp4"), "--backend", "cpu", "--progress", "none"])
        XCTAssertEqual(one.status, 0, one.stderr)
        let reference = try packetMD5s(path("one.mp4")), frames = try md5s(path("one.mp4")), source = try md5s(src)
        XCTAssertEqual(frames.count, 96)
        let cache = path("cache")
        XCTAssertEqual(try cachedRender(smart, path("cached.mp4"), cache: cache), [0, 3])
        let farm = try segue(["farm", "local", smart, "--chunks", "4", "--jobs", "2", "-o", path("farm.mp4"), "--backend", "cpu"])
        XCTAssertEqual(farm.status, 0, farm.stderr)
        XCTAssertTrue(farm.stderr.contains("in 4 chunks (smart: 51 frames copied, 45 encoded;"), farm.stderr)
        for out in ["cached.mp4", "farm.mp4"] {
            XCTAssertEqual(try packetMD5s(path(out)), reference, "\(out): the one-pass smart render's packets")
            let decoded = try md5s(path(out))
            XCTAssertEqual(decoded, frames, "\(out): the one-pass smart render's frames")
            XCTAssertEqual(Array(decoded[20..<46]), Array(source[25..<51]), "\(out): copied frames 20–45")
            XCTAssertEqual(Array(decoded[71..<96]), Array(source[50..<75]), "\(out): copied frames 71–95")
            for entry in ["duration", "nb_frames"] {
                XCTAssertEqual(try TestSupport.ffprobe(path(out), "stream=\(entry)")[entry], try TestSupport.ffprobe(path("one.mp4"), "stream=\(entry)")[entry], "\(out): \(entry)")
            }
            XCTAssertEqual(try TestSupport.ffprobe(path(out), "format=duration")["duration"], try TestSupport.ffprobe(path("one.mp4"), "format=duration")["duration"], out)
            let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", path(out), "-f", "null", "-"])
            XCTAssertEqual(strict.status, 0, strict.stderr)
            XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "", "\(out): FFmpeg's messages decoding it")
        }
        XCTAssertEqual(try framemd5(path("cached.mp4"), "a"), try framemd5(path("one.mp4"), "a"), "the audio")
        XCTAssertEqual(try cachedRender(smart, path("again.mp4"), cache: cache), [3, 0])
        XCTAssertEqual(try packetMD5s(path("again.mp4")), reference)
        XCTAssertEqual(try cachedRender(plain, path("plain.mp4"), cache: cache), [0, 3], "a render without --smart reuses no smart chunk")
        XCTAssertNotEqual(try md5s(path("plain.mp4")), frames)
    }

    /// `--chunks 8`: 7 chunks, one the copied IDR picture of frame 45 alone, the encoded runs 0–19 and 46–70 each
    /// cut in two (at 12 and 60, more than half a chunk from a cut point). The copied frames are the source's and the
    /// one-pass render's packets; the encoded frames are encoded otherwise (each part from an IDR picture) and as good:
    /// their mean PSNR against a lossless render within 0.5 dB of the one-pass render's.
    func testLongEncodedRunsAreCutInChunks() throws {
        let (smart, plain, src) = try writeEdits()
        let one = try segue(["render", smart, "-o", path("one.mp4"), "--backend", "cpu", "--progress", "none"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(try cachedRender(smart, path("eight.mp4"), cache: path("cache"), chunks: 8), [0, 7])
        let reference = try packetMD5s(path("one.mp4")), out = try packetMD5s(path("eight.mp4"))
        XCTAssertEqual(out.count, 96)
        let decoded = try md5s(path("eight.mp4")), source = try md5s(src)
        XCTAssertEqual(Array(decoded[20..<46]), Array(source[25..<51]))
        XCTAssertEqual(Array(decoded[71..<96]), Array(source[50..<75]))
        XCTAssertNotEqual(out, reference, "the split encoded runs are other packets")
        let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", path("eight.mp4"), "-f", "null", "-"])
        XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines) + "\(strict.status)", "0")
        XCTAssertEqual(try TestSupport.ffprobe(path("eight.mp4"), "stream=duration")["duration"], try TestSupport.ffprobe(path("one.mp4"), "stream=duration")["duration"])
        let lossless = try segue(["render", plain, "-o", path("lossless.mkv"), "--codec", "ffv1", "--backend", "cpu", "--progress", "none", "--no-audio"])
        XCTAssertEqual(lossless.status, 0, lossless.stderr)
        let encoded = Array(Int64(0)..<20) + Array(Int64(46)..<71)
        let chunked = try meanPSNR(path("eight.mp4"), path("lossless.mkv"), frames: encoded)
        let single = try meanPSNR(path("one.mp4"), path("lossless.mkv"), frames: encoded)
        XCTAssertGreaterThan(chunked, 35)
        XCTAssertLessThanOrEqual(abs(chunked - single), 0.5, "encoded frames: \(chunked) dB in 7 chunks, \(single) dB in one pass")
    }

    /// One copied stretch of three GOPs (the source from frame 5: frames 0–19 encoded, 20–94 copied from its frames
    /// 25–99) cut in 4 chunks at its keyframes (20, 45, 70): the one-pass render's packets, the source's frames.
    func testACopiedStretchIsCutAtItsKeyframes() throws {
        let src = try smartSource("a.mp4", ["-profile:v", "high"])
        var edit = Edit(clips: [clip(src, start: 0.2)])
        edit.renderSize = PixelSize(width: 320, height: 180)
        edit.frameRate = FrameRate(25)
        edit.output.smart = true
        try EditFileWriter.data(edit).write(to: URL(fileURLWithPath: path("long.json")))
        XCTAssertEqual(try ChunkPlanner.plan(edit, editPath: path("long.json"), chunks: 4).chunks.map { $0.start..<$0.end },
                       [0..<20, 20..<45, 45..<70, 70..<95])
        let one = try segue(["render", path("long.json"), "-o", path("one.mp4"), "--backend", "cpu", "--progress", "none"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(try cachedRender(path("long.json"), path("chunked.mp4"), cache: path("cache"), chunks: 4), [0, 4])
        let reference = try packetMD5s(path("one.mp4"))
        XCTAssertEqual(reference.count, 95)
        XCTAssertEqual(try packetMD5s(path("chunked.mp4")), reference)
        XCTAssertEqual(Array(try md5s(path("chunked.mp4"))[20..<95]), Array(try md5s(src)[25..<100]))
        let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", path("chunked.mp4"), "-f", "null", "-"])
        XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines) + "\(strict.status)", "0")
    }

    /// HEVC (x265; parameter sets in band), closed GOPs and open ones (CRA keyframes with RASL pictures: a copy starts
    /// at a CRA picture without them, made a broken link): `render --cache --chunks 3` gives the one-pass smart render's
    /// packets and frames and decodes with `-xerror` without a message. A copied chain of open GOPs is not cut.
    func testChunkedHEVCSmartRenderIsTheOnePassRender() throws {
        let sources: [(String, String, [Range<Int64>])] = [("closed", "no-open-gop=1", [20..<46, 71..<96]), ("open", "open-gop=1", [20..<46, 71..<94])]
        for (name, gop, copied) in sources {
            let src = try smartSource("\(name).mp4", ["-x265-params", "keyint=25:min-keyint=25:scenecut=0:\(gop):log-level=error", "-tag:v", "hvc1"],
                                      encoder: "libx265")
            let edit = smartCutsEdit(src)
            XCTAssertEqual(try SmartPlan.make(try RenderJob.resolve(edit)).stretches.filter(\.isCopied).map(\.frames), copied, name)
            try EditFileWriter.data(edit).write(to: URL(fileURLWithPath: path("\(name).json")))
            let one = try segue(["render", path("\(name).json"), "-o", path("\(name)-one.mp4"), "--backend", "cpu", "--progress", "none"])
            XCTAssertEqual(one.status, 0, one.stderr)
            XCTAssertEqual(try cachedRender(path("\(name).json"), path("\(name)-chunked.mp4"), cache: path("cache")), [0, 3], name)
            let reference = try packetMD5s(path("\(name)-one.mp4"))
            XCTAssertEqual(reference.count, 96)
            XCTAssertEqual(try packetMD5s(path("\(name)-chunked.mp4")), reference, name)
            XCTAssertEqual(try md5s(path("\(name)-chunked.mp4")), try md5s(path("\(name)-one.mp4")), name)
            XCTAssertEqual(try TestSupport.ffprobe(path("\(name)-chunked.mp4"), "stream=codec_tag_string")["codec_tag_string"], "hev1")
            let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", path("\(name)-chunked.mp4"), "-f", "null", "-"])
            XCTAssertEqual(strict.status, 0, strict.stderr)
            XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "", name)
            // The source from frame 5: copied from frame 25 to its end, a chain of GOPs; open ones are not cut (their
            // RASL pictures need the GOP before), closed ones are at each keyframe.
            var long = Edit(clips: [clip(src, start: 0.2)])
            long.renderSize = PixelSize(width: 320, height: 180)
            long.frameRate = FrameRate(25)
            long.output.smart = true
            XCTAssertEqual(try ChunkPlanner.plan(long, editPath: path("long.json"), chunks: 4).chunks.map { $0.start..<$0.end },
                           name == "open" ? [0..<20, 20..<95] : [0..<20, 20..<45, 45..<70, 70..<95], name)
        }
    }

    /// `segue plan --json` of a smart edit holds the smart plan: each stretch's frames, the copied ones' source and
    /// source frames, the encoded ones' reasons, and the counts.
    func testPlanJSONHoldsTheSmartPlan() throws {
        let (smart, plain, src) = try writeEdits()
        let r = try segue(["plan", smart, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.text.utf8)) as? [String: Any])
        XCTAssertNotNil(json["clips"], "the timeline report is still there")
        let plan = try XCTUnwrap(json["smart"] as? [String: Any])
        XCTAssertEqual(plan["copiedFrames"] as? Int, 51)
        XCTAssertEqual(plan["encodedFrames"] as? Int, 45)
        let stretches = try XCTUnwrap(plan["stretches"] as? [[String: Any]])
        XCTAssertEqual(stretches.map { "\($0["firstFrame"]!)-\($0["endFrame"]!) \($0["reason"] as? String ?? "copied")" },
                       ["0-20 from the cut to the next keyframe", "20-46 copied", "46-56 transition",
                        "56-71 from the cut to the next keyframe", "71-96 copied"])
        let copied = stretches.filter { $0["copied"] as? Bool == true }
        XCTAssertEqual(copied.map { $0["source"] as? String }, [src, src])
        XCTAssertEqual(copied.map { [$0["sourceFirstFrame"] as? Int, $0["sourceEndFrame"] as? Int] }, [[25, 51], [50, 75]])
        let without = try segue(["plan", plain, "--json"])
        XCTAssertEqual(without.status, 0, without.stderr)
        XCTAssertNil((try JSONSerialization.jsonObject(with: Data(without.text.utf8)) as? [String: Any])?["smart"])
    }
}
