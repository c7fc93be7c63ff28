import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueMedia
import SegueTestSupport

/// Issue 22 #6: pictures larger than FFmpeg decodes (or than is worth holding whole) are read shrunk on load — a
/// 20000×20000 PNG row by row, a 30000×8000 JPEG panorama with DCT scaling — within a stated memory bound: the peak RSS
/// of the render stays under 400 MiB, and within 64 MiB of the same edit with a 640×640 picture (the full 20000² picture
/// alone would be 1.6 GB as RGBA). The pictures are made by Tests/Tools/make-large-stills.py (tiny on disk).
final class LargeStillTests: EndToEndTestCase {
    var script: String { TestSupport.packageRoot + "/Tests/Tools/make-large-stills.py" }

    /// Runs `segue args` and returns its peak resident set size in MiB (`getrusage(RUSAGE_CHILDREN)` of a python3
    /// wrapper that runs only it) and its result.
    func peakRSS(_ args: [String]) throws -> (mib: Double, result: TestSupport.ProcessResult) {
        let wrapper = "import resource, subprocess, sys\nr = subprocess.run(sys.argv[1:])\nprint(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\nsys.exit(r.returncode)"
        let r = try TestSupport.run("python3", ["-c", wrapper, TestSupport.segueBinary] + args)
        let kib = Double(r.text.split(separator: "\n").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "") ?? .nan
        return (kib / 1024, r)
    }

    func edit(_ picture: String, _ name: String) throws -> String {
        let json = #"{"clips": [{"path": "\#(picture)", "duration": 0.2}], "renderSize": {"width": 640, "height": 640}, "fit": "fit", "output": {"codec": "ffv1"}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func rgb(_ frame: [UInt8], _ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(frame[(y * 640 + x) * 3 + $0]) } }
    func assertColour(_ got: [Int], _ want: [Int], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for (g, w) in zip(got, want) { XCTAssertEqual(g, w, accuracy: 12, "\(what): \(got)", file: file, line: line) }
    }

    func testA20000SquarePNGAndA30000x8000JPEGAreReadShrunkWithinTheBound() throws {
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=640x640", "-frames:v", "1", path("small.png")])
        let baseline = try peakRSS(["render", try edit(path("small.png"), "small.json"), "-o", path("small.mkv"), "--no-audio"])
        XCTAssertEqual(baseline.result.status, 0, baseline.result.stderr)

        // The two pictures made at once.
        let script = self.script
        let made = try TestSupport.concurrentMap([["png", path("big.png"), "20000", "20000"], ["jpeg", path("pano.jpg"), "30000", "8000"]]) {
            try TestSupport.run("python3", [script] + $0)
        }
        for r in made { XCTAssertEqual(r.status, 0, r.stderr) }
        // FFmpeg itself refuses the PNG (over its 268-megapixel limit).
        XCTAssertNotEqual(try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path("big.png"), "-f", "null", "-"]).status, 0)
        let probe = try segue(["probe", path("big.png")])
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertTrue(probe.text.contains("coded 20000x20000"), probe.text)
        XCTAssertTrue(probe.text.contains("read shrunk on load"), probe.text)

        for (picture, out) in [("big.png", "big.mkv"), ("pano.jpg", "pano.mkv")] {
            let run = try peakRSS(["render", try edit(path(picture), "\(picture).json"), "-o", path(out), "--no-audio"])
            XCTAssertEqual(run.result.status, 0, run.result.stderr)
            print(String(format: "%@: peak RSS %.0f MiB (a 640x640 picture: %.0f MiB)", picture, run.mib, baseline.mib))
            XCTAssertLessThan(run.mib, 400, picture)
            XCTAssertLessThan(run.mib - baseline.mib, 64, "\(picture): \(run.mib) MiB against \(baseline.mib) MiB")
        }
        // The square PNG fills the frame: red left half with the green square, blue right half.
        let square = try TestSupport.decodeFrames(path("big.mkv"), width: 640, height: 640, pixFmt: "rgb24")[0]
        assertColour(rgb(square, 40, 40), [255, 0, 0], "PNG red")
        assertColour(rgb(square, 130, 250), [0, 255, 0], "PNG green square (64…192, 128…384)")
        assertColour(rgb(square, 500, 300), [0, 0, 255], "PNG blue")
        // The panorama (3.75:1) is 640x171 in the middle: bars above and below, the square at 64…192 x 285…353.
        let pano = try TestSupport.decodeFrames(path("pano.mkv"), width: 640, height: 640, pixFmt: "rgb24")[0]
        assertColour(rgb(pano, 300, 100), [0, 0, 0], "bar above")
        assertColour(rgb(pano, 300, 540), [0, 0, 0], "bar below")
        assertColour(rgb(pano, 20, 300), [255, 0, 0], "JPEG red")
        assertColour(rgb(pano, 128, 320), [0, 255, 0], "JPEG green square")
        assertColour(rgb(pano, 500, 320), [0, 0, 255], "JPEG blue")
    }

    /// Past the decompression-bomb limit (1 Gi pixels) a picture is refused from its header, before any decoding.
    func testAPictureOverTheLimitIsRefusedFromItsHeader() throws {
        // A PNG whose header says 40000x30000 (1.2 Gpx) and which holds almost nothing.
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func crc32(_ bytes: [UInt8]) -> UInt32 {   // PNG's CRC (ISO 3309), bit by bit
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return c ^ 0xFFFF_FFFF
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        let bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be(40000) + be(30000) + [8, 2, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x01]) + chunk("IEND", [])
        try Data(bomb).write(to: URL(fileURLWithPath: path("bomb.png")))
        // The decompression-bomb limit for pictures read shrunk on load is the input policy's (--max-megapixels;
        // ResourceLimits.maxLargeStillPixels, default 1000): refused from the header.
        var r = try segue(["render", path("bomb.png"), "-o", path("bomb.mp4")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("bomb.png has a 40000x30000 picture (1200 megapixels), over the limit of 1000 megapixels; raise it with --max-megapixels MEGAPIXELS (ResourceLimits.maxLargeStillPixels"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("bomb.mp4")))
        // A lower limit refuses a large still that the default reads shrunk on load, before decoding it.
        // (probe reports each refusal and ends with ProbeFailed, exit status 1, like any unreadable file)
        r = try segue(["probe", path("bomb.png"), "--max-megapixels", "100"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("probe refused"), r.stderr)
        XCTAssertTrue(r.stderr.contains("over the limit of 100 megapixels"), r.stderr)
    }
}
