import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SegueFarm
import SeguePipeline
import SegueTestSupport

/// Smart rendering (`--smart`, docs/smart-rendering.md): the untouched stretches of an H.264 source copied as its
/// packets, the rest encoded by libx264 set up to match.
final class SmartRenderTests: EndToEndTestCase {
    /// The progress reports of the last `render`.
    var progress: [RenderProgress] = []

    func render(_ edit: Edit, _ name: String) throws -> (RenderResult, [String]) {
        var o = RenderOptions()
        o.backend = .cpu
        o.verbose = true
        let log = Collected<[String]>([]), reports = Collected<[RenderProgress]>([])
        o.log = { line in log.update { $0.append(line) } }
        o.progress = { p in reports.update { $0.append(p) } }
        let r = try RenderJob.render(edit, to: path(name), options: o)
        progress = reports.value
        return (r, log.value)
    }

    /// x264 High with B-pyramids, High without, and Main: the plan copies the whole GOPs inside the untouched
    /// stretches (output frames 20–44 from source frames 25–49; 71–95 from 50–74) and encodes the rest with the reasons;
    /// the copied frames decode byte-identical to the source's; the output has the normal render's frame count and
    /// duration, decodes with `-xerror` without a message, and its encoded frames' mean PSNR against a lossless render
    /// is within 0.5 dB of the normal render's.
    func testCopiedStretchesAreTheSourcesFramesAndTheFileDecodesCleanly() throws {
        for (name, x264) in [("high-pyramid", ["-profile:v", "high"]), ("high-flat", ["-profile:v", "high", "-x264-params", "b-pyramid=none"]),
                             ("main", ["-profile:v", "main"])] {
            let src = try smartSource("\(name).mp4", x264)
            let edit = smartCutsEdit(src)
            let plan = try SmartPlan.make(try RenderJob.resolve(edit))
            let copied = plan.stretches.compactMap { s -> (Range<Int64>, Range<Int>)? in
                if case .copied(_, let k, _) = s.kind { return (s.frames, k) }
                return nil
            }
            XCTAssertEqual(copied.map(\.0), [20..<45, 71..<96], "\(name): \(plan.lines)")
            XCTAssertEqual(copied.map(\.1), [25..<50, 50..<75], "\(name): \(plan.lines)")
            let reasons = plan.stretches.map { s -> String in if case .encoded(let w) = s.kind { return "\(s.frames) \(w)" }; return "\(s.frames) copied" }
            XCTAssertEqual(reasons, ["0..<20 from the cut to the next keyframe", "20..<45 copied", "45..<46 after the last whole GOP", "46..<56 transition",
                                     "56..<71 from the cut to the next keyframe", "71..<96 copied"], name)
            XCTAssertEqual(plan.copiedFrames, 50)

            let (result, log) = try render(edit, "\(name)-smart.mp4")
            XCTAssertEqual(result.frames, 96)
            XCTAssertTrue(log.contains { $0.contains("smart: 50 of 96 frames copied") }, "\(name): \(log)")
            var plain = edit
            plain.output.smart = false
            let (normal, _) = try render(plain, "\(name)-normal.mp4")
            let out = try md5s(path("\(name)-smart.mp4")), whole = try md5s(src), ref = try md5s(path("\(name)-normal.mp4"))
            XCTAssertEqual(out.count, ref.count, name)
            XCTAssertEqual(Int64(out.count), normal.frames)
            for (frames, k) in copied {
                XCTAssertEqual(Array(out[Int(frames.lowerBound)..<Int(frames.upperBound)]), Array(whole[k]), "\(name): copied frames \(frames)")
            }
            // The same duration as the normal render's, video and file.
            for entry in ["duration", "nb_frames"] {
                let a = try TestSupport.ffprobe(path("\(name)-smart.mp4"), "stream=\(entry)")[entry]
                let b = try TestSupport.ffprobe(path("\(name)-normal.mp4"), "stream=\(entry)")[entry]
                XCTAssertEqual(a, ["duration": "3.840000", "nb_frames": "96"][entry], "\(name): stream \(entry)")
                XCTAssertEqual(a, b, "\(name): stream \(entry)")
            }
            let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", path("\(name)-smart.mp4"), "-f", "null", "-"])
            XCTAssertEqual(strict.status, 0, strict.stderr)
            XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "", "\(name): FFmpeg's messages decoding the smart render")
            // The encoded frames are as good as the normal render's: their mean PSNR against a lossless render within 0.5 dB.
            var lossless = plain
            lossless.output.codec = .ffv1
            lossless.output.codecFromFileName = false
            _ = try render(lossless, "\(name)-lossless.mkv")
            let encoded = plan.stretches.filter { !$0.isCopied }.flatMap { Array($0.frames) }
            XCTAssertEqual(encoded.count, 46)
            let smart = try meanPSNR(path("\(name)-smart.mp4"), path("\(name)-lossless.mkv"), frames: encoded)
            let usual = try meanPSNR(path("\(name)-normal.mp4"), path("\(name)-lossless.mkv"), frames: encoded)
            XCTAssertGreaterThan(smart, 35, name)
            XCTAssertLessThanOrEqual(abs(smart - usual), 0.5, "\(name): encoded stretches \(smart) dB, the normal render's \(usual) dB")
        }
    }

    /// The mean over `frames` (output frame numbers) of the PSNR (Y′CbCr average, dB) of `file` against `reference`.
    func meanPSNR(_ file: String, _ reference: String, frames: [Int64]) throws -> Double {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-i", reference, "-lavfi", "[0:v][1:v]psnr=stats_file=-", "-f", "null", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var byFrame: [Int64: Double] = [:]
        for line in r.text.split(separator: "\n") {
            let fields = Dictionary(line.split(separator: " ").compactMap { f -> (String, String)? in
                let kv = f.split(separator: ":", maxSplits: 1)
                return kv.count == 2 ? (String(kv[0]), String(kv[1])) : nil
            }, uniquingKeysWith: { a, _ in a })
            if let n = fields["n"].flatMap({ Int64($0) }), let v = fields["psnr_avg"].flatMap({ Double($0) }) { byFrame[n - 1] = min(v, 100) }
        }
        let values = frames.compactMap { byFrame[$0] }
        XCTAssertEqual(values.count, frames.count)
        return values.reduce(0, +) / Double(max(1, values.count))
    }

    /// The packet index of a 100-frame source with a keyframe every 25: four GOPs of 25 frames, each from an IDR
    /// picture; its avcC read back byte for byte, SPS and PPS id 0, so the encoder is given id 1; the frame rule.
    func testIndexOfASource() throws {
        let src = try smartSource("a.mp4", [])
        let s = try SmartIndex.read(path: src, policy: .default)
        XCTAssertNil(s.problem)
        XCTAssertEqual(s.codec, "h264")
        XCTAssertEqual(s.gops.map(\.frames), [0..<25, 25..<50, 50..<75, 75..<100])
        XCTAssertEqual(s.gops.map(\.packets), [0..<25, 25..<50, 50..<75, 75..<100])
        XCTAssertEqual(s.frameTimes.count, 100)
        XCTAssertEqual(s.frameTimes[25], MediaTime(seconds: 1))
        let c = try XCTUnwrap(AVCConfiguration(s.parameterSets))
        XCTAssertEqual(c.bytes, s.parameterSets)
        XCTAssertEqual(c.spsIDs, [0])
        XCTAssertEqual(c.ppsIDs, [0])
        XCTAssertEqual(c.lengthSize, 4)
        XCTAssertEqual(s.encoderOptions, ["profile": "high", "level": "1.2", "x264-params": "sps-id=1"])
        XCTAssertEqual(s.frameIndex(at: MediaTime(seconds: 0.2), slack: MediaTime(value: 1, timescale: 1000)), 5)
        XCTAssertEqual(s.frameIndex(at: MediaTime(value: 199, timescale: 1000), slack: .zero), 4)
    }

    /// HEVC from x265 with closed GOPs: the same stretches copied (byte-identical frames), the rest encoded by libx265
    /// with its parameter sets in band (`hev1`), decoding with `-xerror` silently; the same file rendered twice is the
    /// same bytes. With open GOPs (CRA keyframes) only the first picture is an IDR: nothing is copied, and the plan says why.
    func testHEVCClosedGOPsCopiedOpenGOPsSaid() throws {
        let closed = try smartSource("closed.mp4", ["-x265-params", "keyint=25:min-keyint=25:scenecut=0:no-open-gop=1:log-level=error", "-tag:v", "hvc1"],
                                encoder: "libx265")
        let edit = smartCutsEdit(closed)
        let plan = try SmartPlan.make(try RenderJob.resolve(edit))
        XCTAssertEqual(plan.stretches.filter(\.isCopied).map(\.frames), [20..<45, 71..<96], "\(plan.lines)")
        let (result, log) = try render(edit, "hevc.mp4")
        XCTAssertEqual(result.frames, 96)
        XCTAssertTrue(log.contains { $0.contains("smart: 50 of 96 frames copied") && $0.contains("libx265") }, "\(log)")
        let out = try md5s(path("hevc.mp4")), whole = try md5s(closed)
        XCTAssertEqual(out.count, 96)
        XCTAssertEqual(Array(out[20..<45]), Array(whole[25..<50]))
        XCTAssertEqual(Array(out[71..<96]), Array(whole[50..<75]))
        XCTAssertEqual(try TestSupport.ffprobe(path("hevc.mp4"), "stream=codec_tag_string")["codec_tag_string"], "hev1")
        let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", path("hevc.mp4"), "-f", "null", "-"])
        XCTAssertEqual(strict.status, 0, strict.stderr)
        XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "")
        _ = try render(edit, "hevc-again.mp4")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("hevc.mp4"))), try Data(contentsOf: URL(fileURLWithPath: path("hevc-again.mp4"))))

        let open = try smartSource("open.mp4", ["-x265-params", "keyint=25:min-keyint=25:scenecut=0:open-gop=1:log-level=error"], encoder: "libx265")
        let s = try SmartIndex.read(path: open, policy: .default)
        XCTAssertEqual(s.nonIDRKeyframes, 3)
        XCTAssertEqual(s.gops.map(\.frames), [0..<100])
        let openPlan = try SmartPlan.make(try RenderJob.resolve(smartCutsEdit(open)))
        XCTAssertEqual(openPlan.copiedFrames, 0)
        XCTAssertEqual(openPlan.mainReason, "no whole GOP (from an IDR picture to the next) inside the stretch")
    }

    /// Real files from `../shared/media` (skipped without them): a Pixel 7 clip (turned 180°, VFR) is encoded, "rotated
    /// source"; a 640×360 23.976 fps H.264 file from another encoder, tagged BT.709 by `h264_metadata` (its stream rate
    /// 2997/125, the output's 24000/1001), is copied whole, frame for frame.
    func testRealFiles() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("no ../shared/media") }
        let phone = "\(media)/pixel7_rot180_vfr_noaudio.mp4", plain = "\(media)/h264_640x360_23.976_aac48k.mp4"
        guard FileManager.default.fileExists(atPath: phone), FileManager.default.fileExists(atPath: plain) else { throw XCTSkip("no ../shared/media") }
        var turned = Edit(clips: [clip(phone)])
        turned.output.smart = true
        XCTAssertEqual(try SmartPlan.make(try RenderJob.resolve(turned)).mainReason, "rotated source")
        let tagged = path("tagged.mp4")
        try TestSupport.ffmpeg(["-i", plain, "-c", "copy", "-bsf:v", "h264_metadata=colour_primaries=1:transfer_characteristics=1:matrix_coefficients=1:video_full_range_flag=0",
                                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", tagged])
        var edit = Edit(clips: [clip(tagged)])
        edit.output.smart = true
        XCTAssertEqual(try SmartPlan.make(try RenderJob.resolve(edit)).lines, ["frames 0–23 copied from tagged.mp4 (its frames 0–23)", "24 frames copied, 0 encoded"])
        let (result, _) = try render(edit, "real.mp4")
        XCTAssertEqual(result.frames, 24)
        XCTAssertEqual(try md5s(path("real.mp4")), try md5s(tagged))
    }

    /// Two files with the same parameter sets (x264's, same settings, other pictures) are both copied into one output;
    /// a third whose parameter sets differ (Main rather than High) is encoded, saying why.
    func testSourcesWithTheSameParameterSetsAreCopiedOthersEncoded() throws {
        let a = try smartSource("a.mp4", []), b = try smartSource("b.mp4", [], picture: "smptehdbars"), c = try smartSource("c.mp4", ["-profile:v", "main"])
        XCTAssertEqual(try SmartIndex.read(path: a, policy: .default).parameterSets, try SmartIndex.read(path: b, policy: .default).parameterSets)
        var edit = Edit(clips: [clip(a, duration: 2), clip(b, duration: 2), clip(c, duration: 2)])
        edit.renderSize = PixelSize(width: 320, height: 180)
        edit.frameRate = FrameRate(25)
        edit.output.smart = true
        let plan = try SmartPlan.make(try RenderJob.resolve(edit))
        XCTAssertEqual(plan.lines, ["frames 0–49 copied from a.mp4 (its frames 0–49)", "frames 50–99 copied from b.mp4 (its frames 0–49)",
                                    "frames 100–149 encoded: its parameter sets differ from a.mp4's", "100 frames copied, 50 encoded"])
        let (result, _) = try render(edit, "two.mp4")
        XCTAssertEqual(result.frames, 150)
        let out = try md5s(path("two.mp4"))
        XCTAssertEqual(Array(out[0..<50]), Array(try md5s(a)[0..<50]))
        XCTAssertEqual(Array(out[50..<100]), Array(try md5s(b)[0..<50]))
        let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", path("two.mp4"), "-f", "null", "-"])
        XCTAssertEqual(strict.status, 0, strict.stderr)
        XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "")
    }

    /// A rotated source and a source of another size are not copied, and the plan says why.
    func testRotatedAndOtherSizeAreEncodedWithTheReason() throws {
        let src = try smartSource("a.mp4", [])
        let rotated = path("r.mp4")
        try TestSupport.rotated(src, degrees: 180, to: rotated)
        let small = path("small.mp4")
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", src, "-vf", "scale=160:90", "-c:v", "libx264", "-g", "25",
                                               "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", small])
        XCTAssertEqual(r.status, 0, r.stderr)
        var edit = Edit(clips: [clip(rotated, duration: 2), clip(small, duration: 2), clip(src, duration: 2)])
        edit.renderSize = PixelSize(width: 320, height: 180)
        edit.frameRate = FrameRate(25)
        edit.output.smart = true
        let plan = try SmartPlan.make(try RenderJob.resolve(edit))
        let lines = plan.lines
        XCTAssertEqual(lines, ["frames 0–49 encoded: rotated source", "frames 50–99 encoded: size differs from the output",
                               "frames 100–149 copied from a.mp4 (its frames 0–49)", "50 frames copied, 100 encoded"])
        let (result, log) = try render(edit, "mixed.mp4")
        XCTAssertEqual(result.frames, 150)
        XCTAssertTrue(log.contains { $0.contains("smart: 50 of 150 frames copied") }, "\(log)")
        // Progress over the whole output: never decreasing, the encoded frames 0–99 reported as they are drawn, ending
        // with "done" at 150 of 150.
        let frames = progress.map(\.frame)
        XCTAssertEqual(frames, frames.sorted(), "\(frames)")
        XCTAssertTrue(frames.contains { $0 > 0 && $0 <= 100 }, "\(frames)")
        XCTAssertEqual(progress.last.map { "\($0.stage) \($0.frame)/\($0.total)" }, "done 150/150")
        XCTAssertTrue(progress.allSatisfy { $0.total == 150 })
        let out = try md5s(path("mixed.mp4")), whole = try md5s(src)
        XCTAssertEqual(out.count, 150)
        XCTAssertEqual(Array(out[100..<150]), Array(whole[0..<50]))
        // With nothing to copy, a normal render and one line saying why.
        var turned = Edit(clips: [clip(rotated, duration: 1)])
        turned.renderSize = PixelSize(width: 320, height: 180)
        turned.frameRate = FrameRate(25)
        turned.output.smart = true
        let (plain, plainLog) = try render(turned, "turned.mp4")
        XCTAssertEqual(plain.frames, 25)
        XCTAssertEqual(plainLog.filter { $0.contains("--smart") }, ["segue: --smart: nothing can be copied (rotated source); rendered as usual"])
    }

    /// Two `segue render --smart --backend auto` processes of the cuts edit write the same bytes. Each encoded stretch
    /// has a libx264 of its own in one process; without zero-filled allocations (`HeapPolicy.zeroFillFromNow`, which the
    /// command otherwise leaves off) the stretches after the first came out with other bits from run to run.
    func testTwoSmartRendersOfTheCommandAreTheSameBytes() throws {
        let src = try smartSource("rep.mp4", ["-profile:v", "high"])
        let edit = """
        {"renderSize": {"width": 320, "height": 180}, "frameRate": 25, "output": {"smart": true},
         "clips": [{"path": "\(src)", "start": 0.2, "duration": 2.24},
                   {"path": "\(src)", "start": 1.0, "duration": 2.0, "transition": {"type": "crossfade", "duration": 0.4}}]}
        """
        try edit.write(toFile: path("rep.json"), atomically: true, encoding: .utf8)
        var bytes: [Data] = []
        for run in 0..<2 {
            let out = path("rep-\(run).mp4")
            let r = try TestSupport.run(TestSupport.segueBinary, ["render", path("rep.json"), "-o", out, "--backend", "auto", "--verbose"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("smart: 50 of 96 frames copied"), r.stderr)
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        XCTAssertGreaterThan(bytes[0].count, 10_000)
        XCTAssertEqual(bytes[0], bytes[1], "two smart renders of one edit differ")
    }

    /// `--smart` with another output format is refused, saying so; in a chunked render too.
    func testSmartWithAnotherCodecIsRefused() throws {
        let src = try smartSource("a.mp4", [])
        var edit = smartCutsEdit(src)
        edit.output.codec = .ffv1
        edit.output.codecFromFileName = false
        XCTAssertThrowsError(try render(edit, "x.mkv")) { error in
            XCTAssertTrue(error is UsageError, "\(error)")
            XCTAssertTrue("\(error)".contains("--smart copies H.264 and HEVC packets into MP4 output"), "\(error)")
            XCTAssertTrue("\(error)".contains("FFV1"), "\(error)")
        }
        // Chunked renders (farms, --cache) of it too.
        XCTAssertThrowsError(try ChunkPlanner.plan(edit, editPath: path("e.json"), chunks: 2)) { error in
            XCTAssertTrue("\(error)".contains("--smart copies H.264 and HEVC packets into MP4 output"), "\(error)")
        }
    }
}
