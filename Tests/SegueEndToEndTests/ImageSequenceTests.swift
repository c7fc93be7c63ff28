import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueMedia
import SegueTestSupport

/// Issue 22 #5: image sequences (`"path": "frames/img_%04d.png"`, `"rate": 24`): the first number found, one picture per
/// frame, missing numbers per `missingFrames`; 16-bit PNG, TIFF, DPX and OpenEXR pictures; a shell glob of numbered
/// pictures on the command line warns and hints.
final class ImageSequenceTests: EndToEndTestCase {
    /// 48 pictures numbered from 1001 (as VFX pipelines number them), each its own colours (gradients whose hues
    /// depend on the frame number N), so that each output frame matches one picture only.
    func sequence(_ folder: String = "frames", count: Int = 48) throws -> String {
        try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: true)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x48:r=24,format=rgb24,geq=r='mod(N*5\\,200)+X/2':g='mod(N*11\\,200)+Y/2':b='mod(N*29\\,256)'",
                                "-frames:v", "\(count)", "-start_number", "1001", path("\(folder)/img_%04d.png")])
        return path("\(folder)/img_%04d.png")
    }
    func writeEdit(_ json: String, _ name: String = "edit.json") throws -> String {
        try Data(json.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }
    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double { PlaneDifference(a, b).psnr }

    func testFortyEightPNGsAtTwentyFourFPSAreFortyEightFramesEachOnce() throws {
        _ = try sequence()
        let edit = try writeEdit(#"{"clips": [{"path": "frames/img_%04d.png", "rate": 24}], "output": {"codec": "ffv1"}}"#)
        let r = try segue(["render", edit, "-o", path("out.mkv"), "--no-audio", "--verbose"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("image sequence img_%04d.png, pictures 1001–1048 (48 frames) at 24 fps"), r.stderr)
        XCTAssertTrue(r.stderr.contains("frame rate 24"), r.stderr)
        let frames = try TestSupport.decodeFrames(path("out.mkv"), width: 64, height: 48, pixFmt: "rgb24")
        XCTAssertEqual(frames.count, 48)
        // The 48 pictures as FFmpeg decodes them, in one run over the numbered files.
        let pictures = try TestSupport.decodeFrames(path("frames/img_%04d.png"), width: 64, height: 48, pixFmt: "rgb24", input: ["-start_number", "1001"])
        XCTAssertEqual(pictures.count, 48)
        for k in 0..<48 {
            // Frame k is picture 1001 + k, closer to it than to its neighbours (each shown once, none skipped).
            let own = psnr(frames[k], pictures[k])
            XCTAssertGreaterThanOrEqual(own, 38, "frame \(k)")
            for j in [k - 1, k + 1] where (0..<48).contains(j) { XCTAssertGreaterThan(own, psnr(frames[k], pictures[j]) + 3, "frame \(k) against picture \(1001 + j)") }
        }
        // The same pattern given on the command line (quoted): 24 fps by default, the same frames.
        let cli = try segue(["render", path("frames/img_%04d.png"), "-o", path("cli.mkv"), "--codec", "ffv1"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertEqual(try framemd5(path("cli.mkv"), "v:0").map { $0.split(separator: ",").last! }, try framemd5(path("out.mkv"), "v:0").map { $0.split(separator: ",").last! })
        // A rate of 12: each picture for two output frames at the edit's 24.
        let slow = try writeEdit(#"{"clips": [{"path": "frames/img_%04d.png", "rate": "12"}], "frameRate": 24, "output": {"codec": "ffv1"}}"#, "slow.json")
        XCTAssertEqual(try segue(["render", slow, "-o", path("slow.mkv"), "--no-audio"]).status, 0)
        let slowFrames = try TestSupport.decodeFrames(path("slow.mkv"), width: 64, height: 48, pixFmt: "rgb24")
        XCTAssertEqual(slowFrames.count, 96)
        XCTAssertEqual(slowFrames[20], slowFrames[21])
        XCTAssertGreaterThanOrEqual(psnr(slowFrames[21], pictures[10]), 38)
    }

    func testAGapInTheNumberingFollowsMissingFrames() throws {
        _ = try sequence(count: 20)
        try FileManager.default.removeItem(atPath: path("frames/img_1010.png"))
        try FileManager.default.removeItem(atPath: path("frames/img_1011.png"))
        // error (the default): refused, naming the numbers and the field that allows it.
        let strict = try writeEdit(#"{"clips": [{"path": "frames/img_%04d.png"}]}"#)
        let refused = try segue(["render", strict, "-o", path("no.mp4")])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("2 pictures are missing between img_1001.png and img_1020.png: 1010–1011"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\"missingFrames\": \"hold\" or \"black\""), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("no.mp4")))
        let pictures = try [1008, 1009, 1012].map { try TestSupport.decodeFrames(path("frames/img_\($0).png"), width: 64, height: 48, pixFmt: "rgb24")[0] }
        for policy in ["hold", "black"] {
            let e = try writeEdit(#"{"clips": [{"path": "frames/img_%04d.png", "missingFrames": "\#(policy)"}], "output": {"codec": "ffv1"}}"#, "\(policy).json")
            let r = try segue(["render", e, "-o", path("\(policy).mkv"), "--no-audio"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let frames = try TestSupport.decodeFrames(path("\(policy).mkv"), width: 64, height: 48, pixFmt: "rgb24")
            XCTAssertEqual(frames.count, 20, policy)
            XCTAssertGreaterThanOrEqual(psnr(frames[8], pictures[1]), 38, policy)     // 1009
            XCTAssertGreaterThanOrEqual(psnr(frames[11], pictures[2]), 38, policy)    // 1012
            for k in [9, 10] {                                                        // 1010, 1011
                if policy == "hold" {
                    XCTAssertEqual(frames[k], frames[8], "\(policy): frame \(k) holds 1009")
                } else {
                    XCTAssertLessThanOrEqual(frames[k].max()!, 1, "\(policy): frame \(k) is black")
                }
            }
        }
    }

    /// 16-bit PNG, 16-bit TIFF, DPX (FFmpeg decodes them to 16 bits a component) against FFmpeg's own decoding;
    /// OpenEXR (linear light) through the inverse BT.1886 EOTF: linear 0.180 shows as R′G′B′ 0.180^(1/2.4) = 0.490.
    func testSixteenBitPNGTIFFDPXAndOpenEXR() throws {
        try FileManager.default.createDirectory(atPath: path("fmt"), withIntermediateDirectories: true)
        let source = "testsrc2=s=64x48:r=24:d=0.125,gblur=sigma=1"
        for (name, args) in [("p_%03d.png", ["-pix_fmt", "rgb48be"]), ("t_%03d.tif", ["-c:v", "tiff", "-pix_fmt", "rgb48le"]),
                             ("d_%03d.dpx", ["-c:v", "dpx", "-pix_fmt", "rgb48le"])] {
            try TestSupport.ffmpeg(["-f", "lavfi", "-i", source] + args + [path("fmt/\(name)")])
            var edit = Edit(clips: [ClipSpec(path: path("fmt/\(name)"))])
            edit.clips[0].imageSequence = ImageSequence()
            edit.output.codec = .ffv1
            let r = try render(edit, to: path("\(name.prefix(1)).mkv"), backend: .gpu, audio: false)
            XCTAssertEqual(r.frames, 3, name)
            let ours = try TestSupport.decodeFrames(path("\(name.prefix(1)).mkv"), width: 64, height: 48, pixFmt: "rgb24")
            let oracle = try (1...3).map { try TestSupport.decodeFrames(path("fmt/" + name.replacingOccurrences(of: "%03d", with: String(format: "%03d", $0))),
                                                                         width: 64, height: 48, pixFmt: "rgb24")[0] }
            TestSupport.assertRGBSequencesMatch(ours, oracle, width: 64, minPSNR: 38, label: name)
        }
        // OpenEXR: grey 46/255 = 0.180 linear, the left half orange (1, 0.502, 0).
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=0x2E2E2E:s=64x48:r=24:d=0.125,drawbox=x=0:y=0:w=32:h=48:color=0xFF8000:t=fill",
                                "-c:v", "exr", "-pix_fmt", "gbrpf32le", path("fmt/e_%03d.exr")])
        var exr = Edit(clips: [ClipSpec(path: path("fmt/e_%03d.exr"))])
        exr.clips[0].imageSequence = ImageSequence()
        exr.output.codec = .ffv1
        XCTAssertEqual(try render(exr, to: path("e.mkv"), backend: .cpu, audio: false).frames, 3)
        let f = try TestSupport.decodeFrames(path("e.mkv"), width: 64, height: 48, pixFmt: "rgb24")[1]
        func rgb(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(f[(y * 64 + x) * 3 + $0]) } }
        for (x, y, want) in [(50, 20, [125, 125, 125]), (10, 20, [255, 191, 8])] {
            for (got, w) in zip(rgb(x, y), want) { XCTAssertEqual(got, w, accuracy: 3, "EXR pixel \(x),\(y): \(rgb(x, y))") }
        }
    }

    func testAGlobOnTheCommandLineWarnsAndTheFieldsAreChecked() throws {
        _ = try sequence(count: 12)
        let files = (1001...1012).map { path("frames/img_\($0).png") }
        let r = try segue(["plan"] + files)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: the 12 numbered pictures given (1001…1012) each became a still of 4 s (48 s in all)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("segue render '\(dir)/frames/img_%04d.png' (24 fps)"), r.stderr)
        XCTAssertTrue(r.text.contains("48.000 s"), r.text)
        // A few pictures (a slideshow) say nothing.
        XCTAssertFalse(try segue(["plan"] + files.prefix(3)).stderr.contains("warning"))
        // rate and missingFrames belong to a pattern; a pattern's folder must hold pictures.
        let wrong = try writeEdit(#"{"clips": [{"path": "frames/img_1001.png", "rate": 24}]}"#, "wrong.json")
        let w = try segue(["plan", wrong])
        XCTAssertEqual(w.status, 2, w.stderr)
        XCTAssertTrue(w.stderr.contains("clips[0].rate: applies to an image sequence"), w.stderr)
        let policy = try writeEdit(#"{"clips": [{"path": "frames/img_%04d.png", "missingFrames": "skip"}]}"#, "policy.json")
        XCTAssertTrue(try segue(["plan", policy]).stderr.contains("clips[0].missingFrames: must be error, hold or black"))
        let none = try writeEdit(#"{"clips": [{"path": "frames/shot_%04d.exr"}]}"#, "none.json")
        let n = try segue(["plan", none])
        XCTAssertEqual(n.status, 1, n.stderr)
        XCTAssertTrue(n.stderr.contains("no picture in \(dir)/frames is named shot_%04d.exr"), n.stderr)
        // The pattern itself.
        let p = try XCTUnwrap(ImageSequencePattern(path: "/a/b/img_%04d.png"))
        XCTAssertEqual([p.name(7), p.name(12345)], ["img_0007.png", "img_12345.png"])
        XCTAssertEqual([p.number(of: "img_0007.png"), p.number(of: "img_007.png"), p.number(of: "img_12345.png"), p.number(of: "x.png")], [7, nil, 12345, nil])
        XCTAssertEqual(ImageSequencePattern(path: "/a/100%%_%d.tif")?.name(3), "100%_3.tif")
        XCTAssertNil(ImageSequencePattern(path: "/a/img_%s.png"))
        XCTAssertNil(ImageSequencePattern(path: "/a/%d_%d.png"))
    }

    /// Image sequences under the input policy (docs/untrusted-edits.md): no pattern reaches FFmpeg (each picture is
    /// opened by its own name), a sequence is allowed without --allow-indirect-inputs, but its folder and every picture
    /// must lie inside --root (a picture that is a symbolic link out of it is refused), and the picture-size limit holds.
    func testSequencesObeyTheInputPolicy() throws {
        let root = path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = try sequence("root/frames", count: 6)
        _ = try sequence("outside", count: 6)
        let inside = try writeEdit(#"{"clips": [{"path": "frames/img_%04d.png", "rate": 24}], "output": {"codec": "ffv1"}}"#, "root/in.json")
        var r = try segue(["render", inside, "-o", path("root/in.mkv"), "--no-audio", "--root", root])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try TestSupport.decodeFrames(path("root/in.mkv"), width: 64, height: 48, pixFmt: "rgb24").count, 6)
        // A pattern outside the root: refused before anything is opened, naming the field.
        let out = try writeEdit(#"{"clips": [{"path": "../outside/img_%04d.png", "rate": 24}]}"#, "root/out.json")
        r = try segue(["render", out, "-o", path("root/out.mp4"), "--no-audio", "--root", root])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("clips[0].path") && r.stderr.contains("outside the root"), r.stderr)
        // One picture of a sequence inside the root is a symbolic link to a file outside it: refused when it is opened.
        try FileManager.default.removeItem(atPath: path("root/frames/img_1003.png"))
        try FileManager.default.createSymbolicLink(atPath: path("root/frames/img_1003.png"), withDestinationPath: path("outside/img_1003.png"))
        r = try segue(["render", inside, "-o", path("root/link.mkv"), "--no-audio", "--root", root])
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("img_1003.png") && r.stderr.contains("outside the root"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("root/link.mkv")))
        // The picture-size limit applies to each picture (64x48 is 0.003 megapixels).
        r = try segue(["render", inside, "-o", path("root/small.mkv"), "--no-audio",
                       "--max-megapixels", "0.001"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("over the limit of 0.001 megapixels"), r.stderr)
    }
}
