import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SegueGL
import SegueText
@testable import SeguePipeline
@testable import SegueFarm
import SegueTestSupport

/// Titles and captions in whole renders (issue 21), against independent oracles: tesseract reads titles back in three
/// scripts, HarfBuzz's own hb-view measures the Arabic, FFmpeg's `subtitles` filter draws the same ASS file; caption
/// cues on exactly their frames; fades, slides, a lower third with a box and an outline on both renderers; white
/// text at SDR reference white in an HLG edit.
final class TextRenderTests: EndToEndTestCase {
    /// A title `text` over a `fill`, `size` pixels, black on white unless said.
    func title(_ text: String, size: Double = 60, colour: TextColour = .black, fill: RGBColour = .white, render: PixelSize = PixelSize(width: 640, height: 360),
               seconds: Double = 1) -> Edit {
        var spec = TextSpec(text: text)
        spec.style.size = size
        spec.style.colour = colour
        var edit = Edit(tracks: [VideoTrack(clips: [.fill(fill, duration: MediaTime(seconds: seconds))]),
                                 VideoTrack(clips: [ClipSpec(content: .text(spec), duration: MediaTime(seconds: seconds))])])
        edit.renderSize = render
        return edit
    }

    /// Frame `n` of `edit` as the GPU draws it (the CPU with `backend`), R′G′B′A.
    func frame(_ edit: Edit, _ n: Int64 = 0, backend: Backend = .gpu) throws -> RGBAImage {
        try renderedFrames(edit, [n], backend: backend)[0]
    }

    /// The columns of `image` holding ink (R′ under 128), first to last.
    func inkColumns(_ px: [UInt8], width: Int, height: Int, channels: Int) -> ClosedRange<Int>? {
        var cols: [Int] = []
        for x in 0..<width where (0..<height).contains(where: { px[($0 * width + x) * channels] < 128 }) { cols.append(x) }
        return cols.first.map { $0...cols.last! }
    }

    /// Tesseract (eng, ara, chi_sim) reads each title back exactly from a 640×360 frame; the Arabic title's joined
    /// letters are as wide as hb-view (HarfBuzz's own renderer) draws the same string in the same font at the same size,
    /// within 10 %.
    func testOCRReadsTitlesInThreeScriptsAndArabicMatchesHarfBuzz() throws {
        for (text, lang) in [("Summer 2026", "eng"), ("مرحبا بالعالم", "ara"), ("你好世界", "chi_sim")] {
            let image = try frame(title(text))
            let png = path("title-\(lang).png")
            try StillImage.writePNG(image, to: png)
            let r = try TestSupport.run("tesseract", [png, "-", "-l", lang, "--psm", "7"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let read = r.text.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(lang == "chi_sim" ? read.replacingOccurrences(of: " ", with: "") : read, text, "tesseract -l \(lang)")
            guard lang == "ara" else { continue }
            // The font Segue chose for the Arabic letters (fontconfig fallback from Noto Sans), drawn by hb-view.
            let layout = try TextEngine().layoutText(TextSpec(text: text), renderSize: image.size)
            let arabic = try XCTUnwrap(layout.fonts.first { $0.family.contains("Arabic") }, "\(layout.fonts)")
            let hb = path("hb-view.png")
            let v = try TestSupport.run("hb-view", ["--font-file=\(arabic.path)", "--face-index=\(arabic.index)", "--font-size=60", "--margin=8",
                                                    "-O", "png", "-o", hb, text])
            XCTAssertEqual(v.status, 0, v.stderr)
            let dims = try TestSupport.ffprobe(hb, "stream=width,height")
            let w = Int(dims["width"]!)!, h = Int(dims["height"]!)!
            let oracle = try TestSupport.decodeFrames(hb, width: w, height: h, pixFmt: "gray")[0]
            let theirs = try XCTUnwrap(inkColumns(oracle, width: w, height: h, channels: 1))
            let ours = try XCTUnwrap(inkColumns(image.pixels, width: image.width, height: image.height, channels: 4))
            let a = Double(ours.count), b = Double(theirs.count)
            print("Arabic title: \(Int(a)) px wide, hb-view \(Int(b)) px (\(arabic))")
            XCTAssertEqual(a, b, accuracy: 0.1 * b, "the Arabic title's width against hb-view's")
        }
    }

    /// Latin, Arabic and emoji in one title: the emoji in colour in the rendered frame (its yellow), the text in the
    /// fonts fontconfig found for each.
    func testEmojiInColourInAFrame() throws {
        let image = try frame(title("Hi مرحبا 😀", size: 48, colour: .white, fill: RGBColour(r: 0, g: 0, b: 80)))
        var yellow = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i] > 200 && image.pixels[i + 1] > 150 && image.pixels[i + 2] < 90 { yellow += 1 }
        XCTAssertGreaterThan(yellow, 300, "no colour emoji in the frame")
    }

    /// Rendered frames (luma only) of `edit` on `backend`, lossless.
    func lumaFrames(_ edit: Edit, _ name: String, backend: Backend) throws -> [[UInt8]] {
        var e = edit
        e.output.codec = .ffv1
        try render(e, to: path(name), backend: backend, audio: false)
        let size = e.renderSize!
        return try TestSupport.decodeFrames(path(name), width: size.width, height: size.height, pixFmt: "gray")
    }

    /// SRT and WebVTT cues appear on exactly the output frames whose time lies in [start, end) — at 10 fps, 0.25–0.75 s
    /// is frames 3…7, 1.0–1.5 s frames 10…14, 0.35–0.8 s frames 4…7 — on both renderers.
    func testSubRipAndWebVTTCuesOnExactlyTheirFrames() throws {
        let srt = path("cues.srt"), vtt = path("cues.vtt")
        try "1\n00:00:00,250 --> 00:00:00,750\nFirst\n\n2\n00:00:01,000 --> 00:00:01,500\nSecond\n".write(toFile: srt, atomically: true, encoding: .utf8)
        try "WEBVTT\n\n00:00.350 --> 00:00.800\nThird\n\n00:01.900 --> 00:05.000 line:10%\nFourth\n".write(toFile: vtt, atomically: true, encoding: .utf8)
        for (file, want) in [(srt, Set(3...7).union(10...14)), (vtt, Set(4...7).union([19]))] {
            var edit = Edit(clips: [.fill(.black, duration: MediaTime(seconds: 2))])
            edit.renderSize = PixelSize(width: 160, height: 90)
            edit.frameRate = FrameRate(10)
            edit.captions = CaptionSpec(path: file)
            for backend in [Backend.gpu, .cpu] {
                let frames = try lumaFrames(edit, "cues-\(backend).mkv", backend: backend)
                XCTAssertEqual(frames.count, 20)
                let shown = Set(frames.indices.filter { frames[$0].contains { $0 > 128 } })
                XCTAssertEqual(shown, want, "\(file) on \(backend)")
            }
        }
    }

    /// An ASS file (two styles, italics, a fade, a positioned and turned line) over a clip against FFmpeg's `subtitles`
    /// filter on the same clip (the same libass, the same fonts through fontconfig): every frame ≥ 30 dB.
    func testASSMatchesFFmpegSubtitlesFilter() throws {
        let w = 192, h = 108
        let base = path("base.mp4")
        try TestSupport.makeClip(base, video: "testsrc2=s=\(w)x\(h):r=30:d=1", extra: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-g", "10"])
        let ass = path("subs.ass")
        try """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 192
        PlayResY: 108
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Noto Sans,16,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,1.5,1,2,8,8,8,1
        Style: Top,Noto Sans,13,&H0000FFFF,&H000000FF,&H00400000,&H80000000,-1,0,0,0,100,100,0,0,1,1,0,8,8,8,6,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.12,0:00:00.85,Default,,0,0,0,,Hello, {\\i1}world{\\i0}!
        Dialogue: 0,0:00:00.20,0:00:00.95,Top,,0,0,0,,{\\fad(200,200)}Fading at the top
        Dialogue: 0,0:00:00.40,0:00:00.90,Default,,0,0,0,,{\\pos(60,50)\\frz15}Turned
        """.write(toFile: ass, atomically: true, encoding: .utf8)
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", base, "-vf", "subtitles=\(ass),format=yuv420p",
                                               "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let size = w * h * 3 / 2, bytes = [UInt8](r.stdout)
        let want = stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<($0 + size)]) }
        XCTAssertEqual(want.count, 30)
        var edit = Edit(clips: [clip(base)])
        edit.captions = CaptionSpec(path: ass)
        edit.output.codec = .ffv1
        for backend in [Backend.gpu, .cpu] {
            try render(edit, to: path("ass-\(backend).mkv"), backend: backend, audio: false)
            let got = try TestSupport.decodeFrames(path("ass-\(backend).mkv"), width: w, height: h)
            TestSupport.assertYUVSequencesMatch(got, want, width: w, height: h, minPSNR: 30, label: "ASS on \(backend) vs FFmpeg subtitles")
        }
    }

    /// A title fading in (opacity keyframes 0 → 1 over 0.4 s) while sliding up (y keyframes 0.75 → 0.5, ease-out) with
    /// a soft shadow; a lower third with a rounded box and an outline: GPU against CPU ≥ 45 dB every frame; frame 0 of
    /// the fade shows nothing of the title; the slide puts the title where its keyframes say.
    func testFadingSlidingTitleAndLowerThirdOnBothRenderers() throws {
        let w = 192, h = 108
        let base = path("base.mp4")
        try TestSupport.makeClip(base, video: "testsrc2=s=\(w)x\(h):r=30:d=0.5", extra: ["-g", "10"])
        var fade = TextSpec(text: "Summer 2026")
        fade.style.size = 22
        fade.style.shadow = TextShadow(x: 1.5, y: 1.5, blur: 2)
        var title = ClipSpec(content: .text(fade), duration: MediaTime(seconds: 0.5))
        title.layer.opacity = .keyframes([Keyframe(time: .zero, value: 0), Keyframe(time: MediaTime(seconds: 0.4), value: 1)])
        title.layer.y = .keyframes([Keyframe(time: .zero, value: 0.75, easing: .easeOut), Keyframe(time: MediaTime(seconds: 0.4), value: 0.5)])
        var third = TextSpec(text: "Ada Lovelace\nMathematician")
        third.style.size = 11
        third.style.align = .left
        third.style.outline = TextOutline(width: 1, colour: .black)
        third.style.box = TextBox(colour: TextColour(RGBColour(r: 16, g: 32, b: 64)), padding: 4, radius: 3)
        var lower = ClipSpec(content: .text(third), duration: MediaTime(seconds: 0.5))
        lower.layer.x = .constant(0.05); lower.layer.y = .constant(0.8)
        let cases: [(String, ClipSpec)] = [("fade", title), ("lower", lower)]
        for (name, item) in cases {
            var edit = Edit(tracks: [VideoTrack(clips: [clip(base)]), VideoTrack(clips: [item])])
            edit.output.codec = .ffv1
            var frames: [Backend: [[UInt8]]] = [:]
            for backend in [Backend.gpu, .cpu] {
                try render(edit, to: path("\(name)-\(backend).mkv"), backend: backend, audio: false)
                frames[backend] = try TestSupport.decodeFrames(path("\(name)-\(backend).mkv"), width: w, height: h)
            }
            TestSupport.assertYUVSequencesMatch(frames[.gpu]!, frames[.cpu]!, width: w, height: h, minPSNR: 45, label: "\(name): GPU vs CPU")
            var untitled = Edit(clips: [clip(base)])
            untitled.output.codec = .ffv1
            try render(untitled, to: path("plain.mkv"), backend: .gpu, audio: false)
            let plain = try TestSupport.decodeFrames(path("plain.mkv"), width: w, height: h)
            if name == "fade" {
                XCTAssertTrue(frames[.gpu]![0] == plain[0], "opacity 0 on the first frame: the clip alone")
                // Where the title is: its rows differ from the clip's. At 0.4 s (frame 12) and after, centred on y 0.5.
                for (n, y) in [(12, 0.5), (14, 0.5)] {
                    let rows = (0..<h).filter { r in (0..<w).contains { abs(Int(frames[.gpu]![n][r * w + $0]) - Int(plain[n][r * w + $0])) > 40 } }
                    XCTAssertEqual(Double(rows.first! + rows.last!) / 2, y * Double(h), accuracy: 3, "frame \(n): title rows \(rows.first!)…\(rows.last!)")
                }
            } else {
                // Inside the plate, left of the text: the box colour, opaque (BT.709 limited Y′ of #102040 is 42.5).
                let y0 = Int(0.8 * Double(h)) - 2, x0 = Int(0.05 * Double(w)) + 1
                XCTAssertEqual(Double(frames[.gpu]![3][y0 * w + x0]), 42.5, accuracy: 2, "box colour")
            }
        }
    }

    /// White text in an HLG edit sits at SDR reference white (203 cd/m², BT.2408: HLG signal 0.75, 10-bit limited
    /// Y′ = 64 + 0.75 × 876 = 721); in an SDR edit at 235. Both renderers.
    func testWhiteTextAtReferenceWhiteInHLG() throws {
        for (range, want) in [(DynamicRange.hlg, 721.0), (.sdr, 235.0)] {
            var edit = title("WWW", size: 40, colour: .white, fill: .black, render: PixelSize(width: 160, height: 90), seconds: 0.1)
            edit.output.dynamicRange = range
            edit.output.codec = .ffv1
            for backend in [Backend.gpu, .cpu] {
                let out = path("white-\(range)-\(backend).mkv")
                try render(edit, to: out, backend: backend, audio: false)
                let tenBit = range != .sdr
                let f = try TestSupport.decodeFrames(out, width: 160, height: 90, pixFmt: tenBit ? "yuv420p10le" : "yuv420p")[0]
                let peak = (0..<(160 * 90)).map { tenBit ? Int(f[2 * $0]) | Int(f[2 * $0 + 1]) << 8 : Int(f[$0]) }.max()!
                XCTAssertEqual(Double(peak), want, accuracy: 2, "white text in \(range) on \(backend)")
            }
        }
    }

    /// A text item is rasterised once for its whole time (one picture, one identity: the GPU uploads it once), not per
    /// frame.
    func testTextIsRasterisedOnce() throws {
        var edit = title("Once", size: 30, seconds: 1)
        edit.tracks[1].clips[0].layer.opacity = .keyframes([Keyframe(time: .zero, value: 0.2), Keyframe(time: MediaTime(seconds: 1), value: 1)])
        let t = try RenderJob.resolve(edit)
        let source = FrameSource(timeline: t)
        var identities = Set<UInt64>()
        for n in 0..<t.frameCount {
            let (plan, pictures) = try source.frame(n)
            for (layer, picture) in zip(plan.layers, pictures) where layer.content == .text { identities.insert(picture.identity) }
        }
        XCTAssertEqual(source.textPicturesMade, 1)
        XCTAssertEqual(identities.count, 1)
    }

    /// An edit with a title and SubRip and ASS captions chunked in 3 (seams inside the title and a cue) is the single
    /// pass exactly; editing the caption file invalidates the chunk plan. ASS events that collide: libass raises the
    /// second above the first and keeps it there after the first ends, which the third chunk (from 0.667 s, only the
    /// second showing) draws as the single pass does (libass replays the frames since the events began).
    func testChunkedTextIsTheSinglePass() throws {
        func ass(_ name: String, _ events: [String]) throws {
            try (["[Script Info]", "ScriptType: v4.00+", "PlayResX: 160", "PlayResY: 90", "", "[Events]", "Format: Layer, Start, End, Style, Text"]
                 + events.map { "Dialogue: 0,\($0)" }).joined(separator: "\n").write(toFile: path(name), atomically: true, encoding: .utf8)
        }
        try ass("collide.ass", ["0:00:00.00,0:00:00.50,Default,First below", "0:00:00.20,0:00:00.95,Default,Second raised"])
        try "1\n00:00:00,200 --> 00:00:00,900\nAcross a seam\n".write(toFile: path("subs.srt"), atomically: true, encoding: .utf8)
        try ass("subs.ass", ["0:00:00.10,0:00:00.80,Default,{\\fad(200,0)}Fading in"])
        for subs in ["subs.srt", "subs.ass", "collide.ass"] {
            let e = path("text-\(subs).json")
            try """
            {"renderSize": {"width": 160, "height": 90}, "frameRate": 30, "output": {"codec": "ffv1"}, "captions": "\(subs)",
             "tracks": [{"clips": [{"fill": "#203040", "duration": 1}]},
                        {"clips": [{"text": "Title", "duration": 1, "style": {"size": 20},
                                    "layer": {"opacity": {"keyframes": [{"time": 0, "value": 0}, {"time": 0.6, "value": 1}]}}}]}]}
            """.write(toFile: e, atomically: true, encoding: .utf8)
            let single = try segue(["render", e, "-o", path("single.mkv"), "--backend", "cpu", "--no-audio"])
            XCTAssertEqual(single.status, 0, single.stderr)
            let plan = path("plan-\(subs).json"), chunks = path("chunks-\(subs)")
            let p = try segue(["plan", e, "--chunks", "3", "-o", plan, "--no-audio"])
            XCTAssertEqual(p.status, 0, p.stderr)
            try FileManager.default.createDirectory(atPath: chunks, withIntermediateDirectories: true)
            try renderChunked(plan, chunks: chunks, out: path("chunked.mkv"))
            XCTAssertEqual(try framemd5(path("chunked.mkv"), "v"), try framemd5(path("single.mkv"), "v"), subs)
        }
        try "1\n00:00:00,200 --> 00:00:00,900\nEdited\n".write(toFile: path("subs.srt"), atomically: true, encoding: .utf8)
        let p = try segue(["plan", path("text-subs.srt.json"), "--chunks", "3", "-o", path("plan2.json"), "--no-audio"])
        XCTAssertEqual(p.status, 0, p.stderr)
        XCTAssertNotEqual(try ChunkPlanner.load(path("plan2.json")).editHash, try ChunkPlanner.load(path("plan-subs.srt.json")).editHash)
    }

    /// The command line: `--title` and `--captions` on clips; `plan` lists the title and the cues; `sheet` shows them;
    /// a missing font is a warning naming it and the font used; a caption file that does not parse is an edit error
    /// (exit 2) with its line.
    func testCommandLine() throws {
        let base = path("clip.mp4")
        try TestSupport.makeClip(base, video: "testsrc2=s=160x90:r=10:d=2")
        let srt = path("subs.srt")
        try "1\n00:00:00,500 --> 00:00:01,000\nHello\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let plan = try segue(["plan", base, "--title", "Part one: intro:1.5", "--title", "Next", "--captions", srt])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.text.contains("track 1 item 0 [A] text \"Part one: intro\" (Noto Sans 7.5 px"), plan.text)
        XCTAssertTrue(plan.text.contains("timeline 0.000–1.500 s, frames 0–14"), plan.text)
        XCTAssertTrue(plan.text.contains("track 1 item 1 [B] text \"Next\""), plan.text)
        XCTAssertTrue(plan.text.contains("cue 1 (line 1) 0.500–1.000 s, frames 5–9: Hello"), plan.text)
        let json = try segue(["plan", base, "--captions", srt, "--json"])
        let report = try JSONDecoder().decode(TimelineReport.self, from: json.stdout)
        XCTAssertEqual(report.captions.map(\.text), ["Hello"])
        XCTAssertEqual(report.captionFormat, "srt")
        let sheet = try segue(["sheet", base, "--title", "Hello:1", "--captions", srt, "-o", path("sheet.png"), "--backend", "cpu"])
        XCTAssertEqual(sheet.status, 0, sheet.stderr)
        XCTAssertTrue(sheet.stderr.contains(", 2 tiles"), sheet.stderr)
        let edit = path("font.json")
        try #"{"renderSize": {"width": 160, "height": 90}, "clips": [{"text": "Hi", "duration": 1, "style": {"font": "Nope Sans Nowhere"}}]}"#
            .write(toFile: edit, atomically: true, encoding: .utf8)
        let warned = try segue(["plan", edit])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("warning: font \"Nope Sans Nowhere\" not found: using Noto Sans (/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf) instead"),
                      warned.stderr)
        try "1\n00:00:00,500 --> 00:00:01,000\nHello\n\n2\n00:00:02,000 -> 00:00:03,000\nBroken\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let bad = try segue(["render", base, "--captions", srt, "-o", path("out.mp4")])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("captions.path: subs.srt line 6: expected the time range of cue 2"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.mp4")))
    }

    /// `segue sheet` draws its labels through the text module: a title in Chinese and English is read back by
    /// tesseract (chi_sim + eng) from the caption band under its tile, as written ("text 再见 and goodbye!", not
    /// upper-cased, nothing dropped); the time label above it reads "0.47 s #14" (its middle frame).
    func testSheetLabelsKeepEveryScript() throws {
        let edit = path("title.json")
        try Data(##"{"renderSize": {"width": 320, "height": 180}, "frameRate": 30, "tracks": [{"clips": [{"fill": "#203040", "duration": 1}]}, {"clips": [{"text": "再见 and goodbye!", "duration": 1}]}]}"##.utf8)
            .write(to: URL(fileURLWithPath: edit))
        let sheet = path("sheet.png")
        let r = try segue(["sheet", edit, "--backend", "cpu", "--tile-width", "480", "-o", sheet])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssert(r.stderr.contains("1 tiles"), r.stderr)
        // Tile 480×270 at (4, 4); labels of 24 px on lines 34 px apart below it (`SheetLabels`).
        func read(_ line: Int, _ lang: String) throws -> String {
            let crop = path("line\(line).png")
            try TestSupport.ffmpeg(["-i", sheet, "-vf", "crop=480:36:4:\(4 + 270 + line * 34),format=gray,negate,scale=iw*2:ih*2", crop])
            let t = try TestSupport.run("tesseract", [crop, "-", "-l", lang, "--psm", "7"])
            XCTAssertEqual(t.status, 0, t.stderr)
            return t.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try read(1, "chi_sim+eng").replacingOccurrences(of: " ", with: ""), "text再见andgoodbye!")
        // Tesseract reads "0.47 s" as "0.475": the time, then the frame number.
        let time = try read(0, "eng").replacingOccurrences(of: " ", with: "")
        XCTAssert(time.hasPrefix("0.47") && time.hasSuffix("#14"), time)
    }
}
