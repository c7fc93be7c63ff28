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
            XCTAssertEqual(copied.map(\.0), [20..<46, 71..<96], "\(name): \(plan.lines)")
            XCTAssertEqual(copied.map(\.1), [25..<51, 50..<75], "\(name): \(plan.lines)")
            let reasons = plan.stretches.map { s -> String in if case .encoded(let w) = s.kind { return "\(s.frames) \(w)" }; return "\(s.frames) copied" }
            XCTAssertEqual(reasons, ["0..<20 from the cut to the next keyframe", "20..<46 copied", "46..<56 transition",
                                     "56..<71 from the cut to the next keyframe", "71..<96 copied"], name)
            XCTAssertEqual(plan.copiedFrames, 51)

            let (result, log) = try render(edit, "\(name)-smart.mp4")
            XCTAssertEqual(result.frames, 96)
            XCTAssertTrue(log.contains { $0.contains("smart: 51 of 96 frames copied") }, "\(name): \(log)")
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
            XCTAssertEqual(encoded.count, 45)
            let smart = try meanPSNR(path("\(name)-smart.mp4"), path("\(name)-lossless.mkv"), frames: encoded)
            let usual = try meanPSNR(path("\(name)-normal.mp4"), path("\(name)-lossless.mkv"), frames: encoded)
            XCTAssertGreaterThan(smart, 35, name)
            XCTAssertLessThanOrEqual(abs(smart - usual), 0.5, "\(name): encoded stretches \(smart) dB, the normal render's \(usual) dB")
        }
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
    /// same bytes. With open GOPs (x265's default: CRA keyframes whose two or three RASL pictures reference the GOP before),
    /// a copy starts at a CRA picture without its RASL pictures (their frames encoded), the CRA made a broken link:
    /// the copied frames are the source's, byte for byte, and FFmpeg decodes the file silently.
    func testHEVCClosedAndOpenGOPsCopied() throws {
        let closed = try smartSource("closed.mp4", ["-x265-params", "keyint=25:min-keyint=25:scenecut=0:no-open-gop=1:log-level=error", "-tag:v", "hvc1"],
                                encoder: "libx265")
        let edit = smartCutsEdit(closed)
        let plan = try SmartPlan.make(try RenderJob.resolve(edit))
        XCTAssertEqual(plan.stretches.filter(\.isCopied).map(\.frames), [20..<46, 71..<96], "\(plan.lines)")
        let (result, log) = try render(edit, "hevc.mp4")
        XCTAssertEqual(result.frames, 96)
        XCTAssertTrue(log.contains { $0.contains("smart: 51 of 96 frames copied") && $0.contains("libx265") }, "\(log)")
        try assertCopied(path("hevc.mp4"), of: closed, plan: plan, frames: 96)
        XCTAssertEqual(try TestSupport.ffprobe(path("hevc.mp4"), "stream=codec_tag_string")["codec_tag_string"], "hev1")
        _ = try render(edit, "hevc-again.mp4")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("hevc.mp4"))), try Data(contentsOf: URL(fileURLWithPath: path("hevc-again.mp4"))))

        let open = try smartSource("open.mp4", ["-x265-params", "keyint=25:min-keyint=25:scenecut=0:open-gop=1:log-level=error"], encoder: "libx265")
        let s = try SmartIndex.read(path: open, policy: .default)
        XCTAssertEqual(s.nonIDRKeyframes, 3)
        // Decoding order: the IDR picture's GOP shows frames 0–22; each CRA picture (frames 25, 50, 75) is followed by
        // its RASL pictures, the two or three frames before it.
        XCTAssertEqual(s.gops.map(\.frames), [0..<23, 23..<47, 47..<73, 73..<100])
        XCTAssertEqual(s.gops.map(\.startFrames), [0..<23, 25..<47, 50..<73, 75..<100])
        XCTAssertEqual(s.gops.map(\.skippedAtStart), [0, 2, 3, 2])
        let openEdit = smartCutsEdit(open)
        let openPlan = try SmartPlan.make(try RenderJob.resolve(openEdit))
        let copied = openPlan.stretches.compactMap { st -> String? in
            if case .copied(_, let k, _) = st.kind { return "\(st.frames) from \(k)" }
            return nil
        }
        // Output frames 0–45 show source frames 5–50, 46–55 the crossfade, 56–95 source frames 35–74: copies start at
        // the CRA pictures of frames 25 and 50 (without their RASL pictures), the first to frame 50 (the next CRA
        // picture and its RASL pictures, which decode after the GOP before), the second before the RASL pictures of
        // frame 75's CRA picture, frames 73–74, whose CRA picture is not shown.
        XCTAssertEqual(copied, ["20..<46 from 25..<51", "71..<94 from 50..<73"], "\(openPlan.lines)")
        _ = try render(openEdit, "hevc-open.mp4")
        try assertCopied(path("hevc-open.mp4"), of: open, plan: openPlan, frames: 96)
    }

    /// x264 with 10 s GOPs (a keyframe every 250 frames, B-pyramids): the first 10 s GOP is copied whole, frame for
    /// frame, up to a crossfade; the frames after it, inside the next 10 s GOP, are encoded, and the file decodes silently.
    func testTenSecondGOPs() throws {
        let src = path("gop10.mp4")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=12", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
                                "-g", "250", "-keyint_min", "250", "-sc_threshold", "0", "-colorspace", "bt709", "-color_primaries", "bt709",
                                "-color_trc", "bt709", "-color_range", "tv", src])
        var edit = Edit(clips: [clip(src, start: 0, duration: 10.4), clip(src, tr(.crossfade, 0.4), start: 10, duration: 1.6)])
        edit.renderSize = PixelSize(width: 320, height: 180)
        edit.frameRate = FrameRate(25)
        edit.output.smart = true
        let plan = try SmartPlan.make(try RenderJob.resolve(edit))
        XCTAssertEqual(try SmartIndex.read(path: src, policy: .default).gops.map(\.frames), [0..<250, 250..<300])
        XCTAssertEqual(plan.lines, ["frames 0–249 copied from gop10.mp4 (its frames 0–249)", "frames 250–259 encoded: transition",
                                    "frames 260–289 encoded: no keyframe inside the stretch to start a copy at", "250 frames copied, 40 encoded"])
        _ = try render(edit, "gop10-smart.mp4")
        try assertCopied(path("gop10-smart.mp4"), of: src, plan: plan, frames: 290, secondDecoder: false)
    }

    /// A source that says nothing of its colour, 1280×720 (read as BT.709 limited range): its whole GOPs are copied
    /// and the other frames encoded untagged too, so that a player guesses the same for all of them — every frame of
    /// the output, copied or encoded, has no colour description, and the copied ones are the source's.
    func testUntaggedHDSourceIsCopiedAndEncodedUntagged() throws {
        let src = path("untagged.mp4")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1280x720:r=25:d=3", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
                                "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", src])
        XCTAssertEqual(try TestSupport.ffprobe(src, "stream=color_space")["color_space"], "unknown")
        var edit = Edit(clips: [clip(src, start: 0.2, duration: 2.6)])
        edit.output.smart = true
        let plan = try SmartPlan.make(try RenderJob.resolve(edit))
        XCTAssertEqual(plan.lines, ["frames 0–19 encoded: from the cut to the next keyframe", "frames 20–63 copied from untagged.mp4 (its frames 25–68)",
                                    "frames 64–64 encoded: after the last packet whose frames are all shown", "44 frames copied, 21 encoded"])
        XCTAssertEqual(plan.streams[src]?.encoderOptions["colorspace"], "unspecified")
        _ = try render(edit, "untagged-smart.mp4")
        try assertCopied(path("untagged-smart.mp4"), of: src, plan: plan, frames: 65, secondDecoder: false)
        let r = try TestSupport.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=color_space,color_primaries,color_transfer",
                                                "-of", "csv=p=0", path("untagged-smart.mp4")])
        let tags = r.text.split(separator: "\n").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
        XCTAssertEqual(tags.count, 65)
        XCTAssertEqual(Set(tags), ["unknown,unknown,unknown"], "every frame untagged")
    }

    /// H.264 with open GOPs (x264 `open-gop`: keyframes after the first are recovery points, not IDR pictures, and
    /// the B-frames after them reference the GOP before) is copied only from its IDR picture: the cuts edit copies
    /// nothing and says why; the whole file, from its first frame, is copied whole (its last GOPs open).
    func testH264OpenGOPsAreCopiedOnlyFromTheIDRPicture() throws {
        let src = try smartSource("open264.mp4", ["-x264-params", "open-gop=1"])
        let s = try SmartIndex.read(path: src, policy: .default)
        XCTAssertEqual(s.nonIDRKeyframes, 3)
        XCTAssertEqual(s.gops.map(\.frames), [0..<100])
        let cuts = try SmartPlan.make(try RenderJob.resolve(smartCutsEdit(src)))
        XCTAssertEqual(cuts.copiedFrames, 0)
        XCTAssertEqual(cuts.mainReason, "no keyframe inside the stretch to start a copy at")
        XCTAssertTrue(cuts.lines.contains("frames 0–45 encoded: no keyframe inside the stretch to start a copy at"), "\(cuts.lines)")
        try assertCopiedWhole(src, frames: 100)
    }

    /// A smart render of all of `source` (`frames` frames) copies it whole, frame for frame, decoding silently.
    func assertCopiedWhole(_ source: String, frames n: Int) throws {
        var whole = Edit(clips: [clip(source)])
        whole.output.smart = true
        let plan = try SmartPlan.make(try RenderJob.resolve(whole))
        let name = URL(fileURLWithPath: source).lastPathComponent
        XCTAssertEqual(plan.lines, ["frames 0–\(n - 1) copied from \(name) (its frames 0–\(n - 1))", "\(n) frames copied, 0 encoded"])
        _ = try render(whole, "\(name)-whole.mp4")
        try assertCopied(path("\(name)-whole.mp4"), of: source, plan: plan, frames: n, secondDecoder: false)
    }

    /// `file` has `frames` frames; its copied stretches (`plan`) decode to `source`'s frames byte for byte; it decodes
    /// with FFmpeg's `-xerror` without a message, and (HEVC, 320×180, `secondDecoder`) libde265 decodes the copied
    /// frames as it decodes them in the source.
    func assertCopied(_ file: String, of source: String, plan: SmartPlan, frames: Int, secondDecoder: Bool = true) throws {
        let out = try md5s(file), whole = try md5s(source)
        XCTAssertEqual(out.count, frames)
        for st in plan.stretches {
            guard case .copied(_, let k, _) = st.kind else { continue }
            XCTAssertEqual(Array(out[Int(st.frames.lowerBound)..<Int(st.frames.upperBound)]), Array(whole[k]), "copied frames \(st.frames)")
        }
        let strict = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", file, "-f", "null", "-"])
        XCTAssertEqual(strict.status, 0, strict.stderr)
        XCTAssertEqual(strict.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "", "FFmpeg's messages decoding \(file)")
        // A second decoder, libde265's (`make test` installs it): the copied frames as it decodes them in the source
        // (libde265 1.0.11 decodes x265's RASL pictures otherwise than FFmpeg, in the source as in the copy).
        guard secondDecoder else { return }
        func de265(_ mp4: String) throws -> [String] {
            let annexB = mp4 + ".hevc", yuv = mp4 + ".yuv"
            XCTAssertEqual(try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", mp4, "-map", "0:v", "-c", "copy", "-bsf:v", "hevc_mp4toannexb", "-f", "hevc", annexB]).status, 0)
            let r = try TestSupport.run("libde265-dec265", ["-q", "-o", yuv, annexB])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try md5s(yuv, raw: "320x180")
        }
        let theirs = try de265(file), theirSource = try de265(source)
        XCTAssertEqual(theirs.count, frames)
        for st in plan.stretches {
            guard case .copied(_, let k, _) = st.kind else { continue }
            XCTAssertEqual(Array(theirs[Int(st.frames.lowerBound)..<Int(st.frames.upperBound)]), Array(theirSource[k]), "libde265: copied frames \(st.frames)")
        }
    }

    /// Real files from `../shared/media` (skipped without them): a Pixel 7 clip (turned 180°, VFR) is encoded, "rotated
    /// source"; a 640×360 23.976 fps H.264 file from another encoder, tagged BT.709 by `h264_metadata` (its stream rate
    /// 2997/125, the output's 24000/1001), is copied whole, frame for frame; an iPhone 4S clip cut into mid-GOP has its
    /// later GOPs copied, byte for byte, and decodes silently; an untagged Android 1080p clip is copied.
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

        // An iPhone 4S clip (H.264 Baseline, 568×320, 30 fps, IDR pictures at frames 0, 30 and 60), its display
        // matrix taken off by a remux (the packets are the phone's): cut in at frame 27, the GOPs from frame 30 to the end copied.
        let iphone = "\(media)/iphone4s_rot-90_audiofirst.mov"
        guard FileManager.default.fileExists(atPath: iphone) else { return }
        let upright = path("iphone.mov")
        try TestSupport.ffmpeg(["-i", iphone, "-c", "copy", "-metadata:s:v:0", "rotate=0", upright])
        var cut = Edit(clips: [clip(upright, start: 0.902)])
        cut.output.smart = true
        // Its frames are 1/30 s apart (from frame 25 on 1/600 s late: the cut, at frame 27, allows for it); the stream says 30000/1001.
        cut.frameRate = FrameRate(30)
        let plan = try SmartPlan.make(try RenderJob.resolve(cut))
        XCTAssertEqual(plan.lines, ["frames 0–2 encoded: from the cut to the next keyframe", "frames 3–38 copied from iphone.mov (its frames 30–65)",
                                    "36 frames copied, 3 encoded"])
        _ = try render(cut, "iphone-smart.mp4")
        try assertCopied(path("iphone-smart.mp4"), of: upright, plan: plan, frames: 39, secondDecoder: false)

        // An Android phone's 1080p clip that says nothing of its colour (read as BT.709): copied as it is.
        let android = "\(media)/android6_1080p_3frames.mp4"
        guard FileManager.default.fileExists(atPath: android) else { return }
        try assertCopiedWhole(android, frames: 3)
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
            XCTAssertTrue(r.stderr.contains("smart: 51 of 96 frames copied"), r.stderr)
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
