import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
@testable import SegueFarm
import SegueTestSupport

/// Every row of the output-format table, written and read back: the container, the video and audio codecs, the
/// pixel and sample formats the row names; the chunk plan records the format and stitch reads it from there.
final class OutputFormatRenderTests: EndToEndTestCase {
    /// Issue 22 #8: every row — H.264, FFV1, VP9 and AV1 in WebM, ProRes, GIF, PNG/TIFF/OpenEXR sequences — in every
    /// dynamic range it writes: the container, codec, pixel format and audio its row says, every frame decoded by FFmpeg
    /// and close to the source; a name of another format refused in one sentence.
    func testEveryFormatWritesWhatItsRowSays() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=96x64:r=30:d=0.5,gblur=sigma=1.5", audio: "sine=f=440:d=0.5:r=48000")
        let source = try TestSupport.decodeFrames(path("a.mp4"), width: 96, height: 64, pixFmt: "rgb24")
        // The R′G′B′ formats (PNG, TIFF, GIF) are converted from the composite's planes with full chroma interpolation:
        // their oracle is the lossless render's planes converted by FFmpeg the same way.
        var lossless = Edit(clips: [clip(path("a.mp4"))])
        lossless.output.codec = .ffv1
        try render(lossless, to: path("lossless.mkv"), backend: .cpu, audio: false)
        let conversion = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path("lossless.mkv"), "-vf",
                                                        "scale=in_color_matrix=bt709:in_range=tv:out_range=pc:flags=bicubic+full_chroma_int+full_chroma_inp+accurate_rnd+bitexact,format=rgb24",
                                                        "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let planes = [UInt8](conversion.stdout)
        let converted = stride(from: 0, to: planes.count, by: 96 * 64 * 3).map { Array(planes[$0..<($0 + 96 * 64 * 3)]) }
        XCTAssertEqual(converted.count, 15)
        let containers = ["mp4": "mov,mp4,m4a,3gp,3g2,mj2", "matroska": "matroska,webm", "webm": "matroska,webm", "mov": "mov,mp4,m4a,3gp,3g2,mj2",
                          "gif": "gif", "image2": "image2"]
        let videoCodecs = ["libx264": "h264", "libx265": "hevc", "ffv1": "ffv1", "libvpx-vp9": "vp9", "libaom-av1": "av1", "prores_ks": "prores",
                           "gif": "gif", "png": "png", "tiff": "tiff", "exr": "exr"]
        // What FFmpeg's decoders give back where it is not what was encoded.
        let decoded = ["pal8": "bgra", "yuv422p10le": "yuv422p10le"]
        // Closeness to the source (lossy 4:2:0 at crf 18), or for R′G′B′ formats to the converted planes (exact but for
        // rounding; a 256-colour palette).
        let minimum: [OutputSettings.Codec: Double] = [.gif: 24, .png: 45, .tiff: 45]
        // The formats at once, as many as there are cores (each its own files; the library renders at once as a
        // library user's may).
        nonisolated(unsafe) let test = self
        _ = try TestSupport.concurrentMap(OutputFormat.all) { format in
            try test.checkFormat(format, source: source, converted: converted, containers: containers, videoCodecs: videoCodecs,
                                 decoded: decoded, minimum: minimum)
        }
        // No codec named and a name no format takes: the name is blamed, not a --codec nobody gave.
        XCTAssertThrowsError(try render(Edit(clips: [clip(path("a.mp4"))]), to: path("out.xyz"), backend: .cpu)) {
            XCTAssertTrue("\($0)".hasPrefix("out.xyz: its name says no format Segue writes; name the output for one, or give --codec (the formats: h264 .mp4"), "\($0)")
            XCTAssertEqual(($0 as? SegueError)?.exitStatus, 2)
        }
        // Without a codec named, the file name chooses: .webm is VP9, a numbered .tif pattern a TIFF sequence.
        let byName = try render(Edit(clips: [clip(path("a.mp4"))]), to: path("chosen.webm"), backend: .cpu)
        XCTAssertEqual(byName.timeline.output.codec, .vp9)
        XCTAssertEqual(try TestSupport.ffprobe(path("chosen.webm"), "stream=codec_name")["codec_name"], "vp9")
        // OpenEXR holds linear light: its values are the BT.1886 EOTF of the composite (checked in AlphaOutputTests).
    }

    /// `testEveryFormatWritesWhatItsRowSays` for one format: each of its dynamic ranges, and a name of another
    /// format refused.
    func checkFormat(_ format: OutputFormat, source: [[UInt8]], converted: [[UInt8]], containers: [String: String],
                     videoCodecs: [String: String], decoded: [String: String], minimum: [OutputSettings.Codec: Double]) throws {
        for range in [DynamicRange.sdr, .hlg] where format.dynamicRanges.contains(range) {
            var edit = Edit(clips: [clip(path("a.mp4"))])
            edit.output.codec = format.codec
            edit.output.dynamicRange = range
            edit.output.preset = "ultrafast"
            let out = format.isImageSequence ? path("seq-\(format.codec)-\(range.rawValue)/%04d.\(format.extensions[0])")
                                             : path("out-\(format.codec)-\(range.rawValue).\(format.extensions[0])")
            let r = try render(edit, to: out, backend: .cpu)
            XCTAssertEqual(r.frames, 15)
            let what = "\(format.name), \(range)"
            let file = format.isImageSequence ? out.replacingOccurrences(of: "%04d", with: "0001") : out
            if format.isImageSequence {
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: (out as NSString).deletingLastPathComponent).sorted(),
                               (1...15).map { String(format: "%04d.\(format.extensions[0])", $0) }, what)
            }
            let v = try TestSupport.ffprobe(file, "stream=codec_name,pix_fmt,codec_tag_string:format=format_name")
            XCTAssertEqual(v["format_name"].map { format.isImageSequence ? "image2" : $0 }, containers[format.container].map { format.isImageSequence ? "image2" : $0 }, what)
            let codec = try XCTUnwrap(videoCodecs[format.videoEncoder(edit.output)])
            XCTAssertEqual(v["codec_name"], codec, what)
            let written = try XCTUnwrap(format.pixelFormat(range))
            if format.codec != .exr { XCTAssertEqual(v["pix_fmt"], decoded[written] ?? written, what) }
            if let tag = format.codecTags[codec] { XCTAssertEqual(v["codec_tag_string"], tag, what) }
            let a = try TestSupport.ffprobe(out, "stream=codec_name,sample_rate", stream: "a:0")
            if format.hasAudio {
                XCTAssertEqual(a["codec_name"], ["libopus": "opus"][format.audioCodec] ?? format.audioCodec, what)
                XCTAssertEqual(a["sample_rate"], "48000", what)
            } else {
                XCTAssertNil(a["codec_name"], "\(what) has no audio")
            }
            if range == .sdr && format.codec != .exr {
                let frames = try TestSupport.decodeFrames(out, width: 96, height: 64, pixFmt: "rgb24")
                let rgb = [OutputSettings.Codec.png, .tiff, .gif].contains(format.codec)
                TestSupport.assertRGBSequencesMatch(frames, rgb ? converted : source, width: 96, minPSNR: minimum[format.codec] ?? 32, label: what)
            }
        }
        // A file name of another format is refused up front, in one sentence naming what this one needs.
        var edit = Edit(clips: [clip(path("a.mp4"))])
        edit.output.codec = format.codec
        edit.output.codecFromFileName = false
        let other = format.codec == .h264 ? "wrong.gif" : "wrong.mp4"
        XCTAssertThrowsError(try render(edit, to: path(other), backend: .cpu)) {
            XCTAssertTrue("\($0)".hasPrefix("--codec \(format.codec.rawValue) writes \(format.name), which needs a \(format.extensionsInWords)"), "\($0)")
            XCTAssertEqual(($0 as? SegueError)?.exitStatus, 2)
        }
    }

    /// What browsers play from WebM (the checks a `<video>` element depends on, read with ffprobe and the file's
    /// elements): the DocType "webm", VP9 profile 0 in 4:2:0 8-bit (or AV1), Opus audio, Cues for seeking, every
    /// frame decodable without a message.
    func assertPlaysInBrowsers(webm file: String, line: UInt = #line) throws {
        let f = try TestSupport.ffprobe(file, "format=format_name:stream=codec_name,profile,pix_fmt")
        XCTAssertTrue(["vp9", "av1"].contains(f["codec_name"] ?? ""), "\(f)", line: line)
        if f["codec_name"] == "vp9" { XCTAssertEqual(f["profile"], "Profile 0", line: line) }
        XCTAssertEqual(f["pix_fmt"], "yuv420p", line: line)
        XCTAssertEqual(try TestSupport.ffprobe(file, "stream=codec_name", stream: "a:0")["codec_name"], "opus", line: line)
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        // EBML DocType (0x4282) "webm", and the Cues element (0x1C53BB6B) that seeking uses.
        XCTAssertNotNil(data.range(of: Data([0x42, 0x82, 0x84]) + Data("webm".utf8)), "DocType webm", line: line)
        XCTAssertNotNil(data.range(of: Data([0x1C, 0x53, 0xBB, 0x6B])), "Cues", line: line)
        let decode = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-f", "null", "-"])
        XCTAssertEqual(decode.status, 0, line: line)
        XCTAssertEqual(decode.stderr, "", line: line)
    }

    func testTheWebMPlaysInBrowsers() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=96x64:r=30:d=1", audio: "sine=f=440:d=1:r=48000")
        for codec in ["vp9", "av1"] {
            let r = try segue(["render", path("a.mp4"), "-o", path("\(codec).webm"), "--codec", codec])
            XCTAssertEqual(r.status, 0, r.stderr)
            try assertPlaysInBrowsers(webm: path("\(codec).webm"))
        }
    }

    /// The plan records the output format; a plan of format 1 (which did not) is refused, saying so.
    func testThePlanRecordsTheFormat() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=96x64:r=30:d=0.5")
        let editPath = path("edit.json")
        try Data(#"{"clips": [{"path": "a.mp4"}], "output": {"codec": "ffv1"}}"#.utf8).write(to: URL(fileURLWithPath: editPath))
        let plan = try ChunkPlanner.plan(try EditFile.load(path: editPath), editPath: editPath, chunks: 2, audio: false)
        XCTAssertEqual(plan.format, .ffv1)
        XCTAssertEqual(plan.chunks.map(\.file), ["chunk_0000.mkv", "chunk_0001.mkv"])
        try ChunkPlanner.write(plan, to: path("plan.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("plan.json")))) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "ffv1")
        XCTAssertEqual(json["version"] as? Int, 3)
        var old = json
        old["version"] = 1
        old["format"] = nil
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: path("old.json")))
        XCTAssertThrowsError(try ChunkPlanner.load(path("old.json"))) {
            XCTAssertTrue("\($0)".contains("is plan format 1; this segue reads format 3: make the plan again"), "\($0)")
            XCTAssertEqual(($0 as? SegueError)?.exitStatus, 2)
        }
        // Stitch names the format's container for the output, from the plan.
        XCTAssertThrowsError(try Stitcher.stitch(plan, planPath: path("plan.json"), directory: path("chunks"), to: path("out.mp4"))) {
            XCTAssertTrue("\($0)".contains("the chunks are lossless FFV1 in Matroska: give the output a .mkv name"), "\($0)")
        }
    }
}
