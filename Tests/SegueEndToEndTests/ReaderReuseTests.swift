import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// A file cut several times is opened once (issue 25): a passed clip's reader seeks to the next cut of the same file.
/// The frames are those of fresh opens: the same file packets as a render that opens every cut anew, and each cut
/// equal to the same cut rendered on its own (framemd5 of the decoded pictures).
final class ReaderReuseTests: EndToEndTestCase {
    func render(_ edit: Edit, reuse: Bool, name: String) throws -> [String] {
        var o = RenderOptions()
        o.backend = .cpu
        o.audio = false
        o.verbose = true
        o.reuseReaders = reuse
        let log = Collected<[String]>([])
        o.log = { line in log.update { $0.append(line) } }
        try RenderJob.render(edit, to: path(name), options: o)
        return log.value
    }

    /// framemd5 of the decoded pictures (the hash column only: the files' time bases differ).
    func pictures(_ file: String) throws -> [String] {
        try framemd5(file, "v").map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
    }

    func testAReusedReaderGivesTheFramesOfFreshOpens() throws {
        // 3 s of testsrc2 (a frame counter: every frame differs), a keyframe every 10 frames.
        let src = path("src.mp4")
        try TestSupport.makeClip(src, video: "testsrc2=s=64x48:r=30:d=3", extra: ["-g", "10"])
        // Cuts: from 2.0 s; back to 0.5 s (a seek backwards); on to 1.1 s (0.13 s ahead of where the reader stands:
        // decoded forward); on to 2.5 s (a seek forwards); then 0.2 s crossfading in from the last (both shown at
        // once: a second reader).
        let cuts: [(Double, Double)] = [(2.0, 0.5), (0.5, 0.5), (1.1, 0.4), (2.5, 0.3), (0.2, 0.6)]
        var edit = Edit(clips: cuts.enumerated().map { k, c in clip(src, k == 4 ? tr(.crossfade, 0.2) : nil, start: c.0, duration: c.1) })
        edit.renderSize = PixelSize(width: 64, height: 48)
        edit.frameRate = FrameRate(30)
        edit.output.codec = .ffv1
        let log = try render(edit, reuse: true, name: "reused.mkv")
        XCTAssertTrue(log.contains("segue: clips read through 2 file open(s); 3 clip(s) reused the reader of an earlier cut of the same file"), "\(log)")
        let fresh = try render(edit, reuse: false, name: "fresh.mkv")
        XCTAssertTrue(fresh.contains("segue: clips read through 5 file open(s); 0 clip(s) reused the reader of an earlier cut of the same file"), "\(fresh)")
        let reused = try pictures(path("reused.mkv"))
        XCTAssertEqual(reused.count, 15 + 15 + 12 + 9 + 18 - 6)
        XCTAssertEqual(reused, try pictures(path("fresh.mkv")))
        // Each hard cut on its own (a fresh open, seeked from the file's start) gives the same pictures as in the edit.
        var at = 0
        for (k, c) in cuts.prefix(3).enumerated() {
            var one = Edit(clips: [clip(src, start: c.0, duration: c.1)])
            one.renderSize = edit.renderSize
            one.frameRate = edit.frameRate
            one.output.codec = .ffv1
            _ = try render(one, reuse: true, name: "cut\(k).mkv")
            let alone = try pictures(path("cut\(k).mkv"))
            XCTAssertEqual(Array(reused[at..<(at + alone.count)]), alone, "cut \(k) from \(c.0) s")
            at += alone.count
        }
        XCTAssertEqual(at, 42)
    }
}
