import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Every row of the output-format table, written and read back: the container, the video and audio codecs, the
/// pixel and sample formats the row names; the chunk plan records the format and stitch reads it from there.
final class OutputFormatRenderTests: EndToEndTestCase {
    func testEveryFormatWritesWhatItsRowSays() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=96x64:r=30:d=0.5", audio: "sine=f=440:d=0.5:r=48000")
        let containers = ["mp4": "mov,mp4,m4a,3gp,3g2,mj2", "matroska": "matroska,webm"]
        let videoCodecs = ["libx264": "h264", "libx265": "hevc", "ffv1": "ffv1"]
        for format in OutputFormat.all {
            for range in [DynamicRange.sdr, .hlg] {
                var edit = Edit(clips: [clip(path("a.mp4"))])
                edit.output.codec = format.codec
                edit.output.dynamicRange = range
                edit.output.preset = "ultrafast"
                let out = path("out-\(range.rawValue).\(format.extensions[0])")
                let r = try render(edit, to: out, backend: .cpu)
                XCTAssertEqual(r.frames, 15)
                let what = "\(format.name), \(range)"
                let v = try TestSupport.ffprobe(out, "stream=codec_name,pix_fmt,codec_tag_string:format=format_name")
                XCTAssertEqual(v["format_name"], containers[format.container], what)
                let codec = try XCTUnwrap(videoCodecs[format.videoEncoder(edit.output)])
                XCTAssertEqual(v["codec_name"], codec, what)
                XCTAssertEqual(v["pix_fmt"], format.pixelFormat(range), what)
                if let tag = format.codecTags[codec] { XCTAssertEqual(v["codec_tag_string"], tag, what) }
                let a = try TestSupport.ffprobe(out, "stream=codec_name,sample_fmt", stream: "a:0")
                XCTAssertEqual(a["codec_name"], format.audioCodec, what)
                XCTAssertEqual(a["sample_fmt"], format.audioSampleFormat, what)
            }
            // A file name of another format is refused up front, naming this one's extensions.
            var edit = Edit(clips: [clip(path("a.mp4"))])
            edit.output.codec = format.codec
            let other = OutputFormat.all.first { $0 != format }!
            XCTAssertThrowsError(try render(edit, to: path("wrong.\(other.extensions[0])"), backend: .cpu)) {
                XCTAssertTrue("\($0)".contains("give the output a \(format.extensionsInWords) name"), "\($0)")
                XCTAssertEqual(($0 as? SegueError)?.exitStatus, 2)
            }
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
        XCTAssertEqual(json["version"] as? Int, 2)
        var old = json
        old["version"] = 1
        old["format"] = nil
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: path("old.json")))
        XCTAssertThrowsError(try ChunkPlanner.load(path("old.json"))) {
            XCTAssertTrue("\($0)".contains("is plan format 1; this segue reads format 2: make the plan again"), "\($0)")
            XCTAssertEqual(($0 as? SegueError)?.exitStatus, 2)
        }
        // Stitch names the format's container for the output, from the plan.
        XCTAssertThrowsError(try Stitcher.stitch(plan, planPath: path("plan.json"), directory: path("chunks"), to: path("out.mp4"))) {
            XCTAssertTrue("\($0)".contains("the chunks are lossless FFV1 in Matroska: give the output a .mkv name"), "\($0)")
        }
    }
}
