import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline
import SegueTestSupport

/// Every built-in that re-derives an FFmpeg `xfade` transition (`TransitionKind.xfadeName`), against
/// `xfade=transition=NAME` itself on the same two clips: seven frames spread over the transition, each plane
/// ≥ 35 dB PSNR against xfade's, and the GPU against the CPU reference ≥ 45 dB.
///
/// The clips are 96×64, 30 fps, tagged BT.709 limited range, so that the output's Y′CbCr is the input's and
/// xfade's planes can be compared directly. xfade works in 4:4:4: its inputs are upsampled with
/// `scale=flags=neighbor` (pixel (x, y) takes chroma sample (x/2, y/2)), and its output is compared in 4:2:0 taking
/// the chroma of pixel (2i, 2j), the pixel whose decision Segue's chroma sample takes (`segue_pixel`).
final class XfadeOracleTests: EndToEndTestCase {
    let W = 96, H = 64
    /// Output frames 15 … 44 are the transition (p = (n − 15)/30); these five spread over it, plus 18 and 24 (p = 0.1,
    /// 0.3), where xfade's single-precision arithmetic gives pixelize larger blocks than exact arithmetic would
    /// (ceil(50 · (1 − (1 − 0.1f))) = 6, not 5): the GPU must compute xfade's progress as xfade does (on the host, so
    /// that the shader compiler cannot fold 1 − (1 − p) into p; before, frame 18 measured 24.6 dB on the GPU).
    let frames: [Int64] = [15, 18, 22, 24, 30, 37, 44]

    func testEveryXfadeTransitionMatchesXfade() throws {
        let a = path("a.mp4"), b = path("b.mp4")
        let tags = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        try TestSupport.makeClip(a, video: "testsrc2=s=\(W)x\(H):r=30:d=1.5", extra: tags)
        try TestSupport.makeClip(b, video: "testsrc=s=\(W)x\(H):r=30:d=1.5,hue=h=150", extra: tags)
        let sources = [try probeSource(path: a), try probeSource(path: b)]
        let base = Edit(clips: [clip(a), clip(b, tr(.crossfade, 1))])
        let timeline = try Timeline(edit: base, sources: sources)
        XCTAssertEqual(timeline.transitionFrames(into: 1), 15..<45)
        let readers = [try VideoReader(path: a), try VideoReader(path: b)]
        var pictures: [Int64: (VideoPicture, VideoPicture)] = [:]
        for n in frames {
            let plan = timeline.plan(frame: n)
            pictures[n] = (try readers[0].picture(at: plan.from.sourceTime), try readers[1].picture(at: plan.to!.sourceTime))
        }
        var options = RenderOptions()
        options.backend = .cpu
        let cpu = try RenderJob.makeRenderer(options)
        options.backend = .gpu
        let gpu: CompositeRenderer
        do { gpu = try RenderJob.makeRenderer(options) } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
        // xfade's frames of every transition, two FFmpeg processes at a time, in the background while Segue renders.
        let rows = TransitionTable.rows.filter { $0.kind.xfadeName != nil }
        let jobs = rows.map { ($0.kind.xfadeName!, $0.xfadeOnFullRange) }
        let (w, h) = (W, H)
        let xfade = Background { try TestSupport.concurrentMap(jobs) { name, fullRange in
            try Self.xfadeFrames(name, a, b, fullRange: fullRange, width: w, height: h)
        } }
        // Ours, CPU and GPU, of each transition at each of the frames.
        var renders: [[(plan: FramePlan, cpu: YUV420Image, gpu: YUV420Image)]] = []
        for row in rows {
            renders.append(try frames.map { n in
                let plan0 = timeline.plan(frame: n)
                let plan = FramePlan(frame: n, time: plan0.time, from: plan0.from, to: plan0.to,
                                     transition: Transition(kind: row.kind, duration: MediaTime(value: 1, timescale: 1)), progress: plan0.progress)
                let (pa, pb) = pictures[n]!
                return (plan, try cpu.renderYUV420(plan, from: pa, to: pb, renderSize: timeline.renderSize),
                        try gpu.renderYUV420(plan, from: pa, to: pb, renderSize: timeline.renderSize))
            })
        }
        var report: [String] = []
        for (row, (oracle, rendered)) in zip(rows, zip(try xfade.value(), renders)) {
            let name = row.kind.xfadeName!
            XCTAssertEqual(oracle.count, 60, "\(name): xfade's frame count")
            var worst = (oracle: Double.infinity, gpu: Double.infinity)
            for (n, (plan, c, g)) in zip(frames, rendered) where Int(n) < oracle.count {
                let x = oracle[Int(n)]
                for (plane, ours, theirs) in [("Y", c.y, x.y), ("Cb", c.cb, x.cb), ("Cr", c.cr, x.cr)] {
                    let d = PlaneDifference(kept(ours, plane, row, plan.progress), kept(theirs, plane, row, plan.progress))
                    worst.oracle = min(worst.oracle, d.psnr)
                    XCTAssertGreaterThanOrEqual(d.psnr, 35, "\(name) frame \(n) (p = \(plan.progress)) \(plane) vs xfade: \(d) (x \(d.worstIndex % (plane == "Y" ? W : W / 2)), y \(d.worstIndex / (plane == "Y" ? W : W / 2)))")
                }
                for (plane, x, y) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                    let d = PlaneDifference(x, y)
                    worst.gpu = min(worst.gpu, d.psnr)
                    XCTAssertGreaterThanOrEqual(d.psnr, 45, "\(name) frame \(n) \(plane) GPU vs CPU: \(d)")
                }
            }
            report.append(String(format: "%@ %.1f/%.1f", name, worst.oracle, worst.gpu))
        }
        XCTAssertEqual(report.count, rows.count)
        print("xfade oracle, worst plane PSNR vs xfade / GPU vs CPU (dB): " + report.joined(separator: ", "))
    }

    /// The samples of a plane the oracle comparison keeps: all, but those where xfade is plainly wrong (`xfadeWrong`).
    func kept(_ samples: [UInt8], _ plane: String, _ row: TransitionTestRow, _ p: Double) -> [UInt8] {
        guard let wrong = row.xfadeWrong?.at else { return samples }
        let w = plane == "Y" ? W : W / 2, scale = plane == "Y" ? 1 : 2
        return samples.enumerated().filter { !wrong(($0.offset % w) * scale, ($0.offset / w) * scale, p) }.map(\.element)
    }

    /// xfade's 60 output frames for `name` (transition from 0.5 s for 1 s) of the W×H clips, as 4:2:0 planes sampled as
    /// described above.
    static func xfadeFrames(_ name: String, _ a: String, _ b: String, fullRange: Bool, width W: Int, height H: Int) throws -> [(y: [UInt8], cb: [UInt8], cr: [UInt8])] {
        let to444 = fullRange ? "scale=flags=neighbor:in_range=tv:out_range=pc,format=yuvj444p" : "scale=flags=neighbor,format=yuv444p"
        let back = fullRange ? ",scale=flags=neighbor:in_range=pc:out_range=tv,format=yuv444p" : ""
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", a, "-i", b, "-filter_complex",
                                               "[0:v]\(to444)[a];[1:v]\(to444)[b];[a][b]xfade=transition=\(name):duration=1:offset=0.5\(back)",
                                               "-f", "rawvideo", "-pix_fmt", "yuv444p", "-"])
        guard r.status == 0 else { throw NSError(domain: "ffmpeg", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        let bytes = [UInt8](r.stdout), plane = W * H
        return stride(from: 0, to: bytes.count - 3 * plane + 1, by: 3 * plane).map { o in
            func sub(_ k: Int) -> [UInt8] {
                var out = [UInt8](repeating: 0, count: plane / 4)
                for j in 0..<(H / 2) { for i in 0..<(W / 2) { out[j * (W / 2) + i] = bytes[o + k * plane + (2 * j) * W + 2 * i] } }
                return out
            }
            return (Array(bytes[o..<(o + plane)]), sub(1), sub(2))
        }
    }
}
