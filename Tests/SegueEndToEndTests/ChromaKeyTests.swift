import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// The `chromaKey` picture effect (issue 35 item 5) on a generated green-screen clip, 160×90: a testsrc2 disc with a
/// soft edge (5 px) moving over #00b140 (the pattern with no green of its own), BT.709 4:4:4, lossless. Its keyed area (alpha < ½) is within 1 % of FFmpeg's
/// `chromakey` (which averages its distance over 3 × 3 pixels: per sample the edge moves by a fraction of a pixel);
/// with spill suppression the edge carries no green above its red and blue; GPU and CPU agree; keyframes animate it.
final class ChromaKeyTests: EndToEndTestCase {
    let width = 160, height = 90

    /// The green-screen clip: 10 frames at 10 fps, the disc moving 6 px a frame; its pattern's green is the mean of its
    /// red and blue (so no green in it is the subject's own).
    func greenScreen() throws -> String {
        let p = path("greenscreen.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=0x00b140:s=\(width)x\(height):r=10:d=1,format=rgba[bg];"
                                + "testsrc2=s=\(width)x\(height):r=10:d=1,colorchannelmixer=gr=0.5:gg=0:gb=0.5,format=rgba,geq=r='r(X\\,Y)':g='g(X\\,Y)':b='b(X\\,Y)'"
                                + ":a='255*clip((28-hypot(X-50-6*N\\,Y-45))/5+0.5\\,0\\,1)'[fg];"
                                + "[bg][fg]overlay=format=rgb,scale=out_color_matrix=bt709:out_range=tv,format=yuv444p",
                                "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-colorspace", "bt709", "-color_primaries", "bt709",
                                "-color_trc", "bt709", "-color_range", "tv", p])
        return p
    }

    /// The clip keyed by `key` (a `chromaKey` entry's fields), over `below` (a fill) or over nothing (alpha kept).
    func edit(_ clip: String, key: String, below: String? = nil) throws -> Edit {
        let keyed = #"{"path": "\#(clip)", "effects": [{"type": "chromaKey", \#(key)}]}"#
        let tracks = (below.map { #"{"clips": [{"fill": "\#($0)", "duration": 1}]}, "# } ?? "") + #"{"clips": [\#(keyed)]}"#
        let json = #"{"tracks": [\#(tracks)], "renderSize": {"width": \#(width), "height": \#(height)}, "frameRate": 10"#
            + (below == nil ? #", "background": "transparent"}"# : "}")
        return try EditFile.parse(data: Data(json.utf8), baseDirectory: dir)
    }

    /// Pixels with alpha under ½ (`renderedFrames` gives straight RGBA when the background is transparent).
    func keyedArea(_ image: RGBAImage) -> Int { stride(from: 3, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count }

    func testKeyedAreaIsFFmpegsWithinOnePercentAndTheEdgeCarriesNoSpill() throws {
        let clip = try greenScreen()
        let frames: [Int64] = [0, 5, 9]
        let ffmpeg = try TestSupport.decodeFrames(clip, width: width, height: height, pixFmt: "gray",
                                                  filter: "format=yuva444p,chromakey=0x00b140:0.1:0.05,extractplanes=a")
        XCTAssertEqual(ffmpeg.count, 10)
        let keyed = try renderedFrames(try edit(clip, key: ##""colour": "#00b140", "similarity": 0.1, "smoothness": 0.05, "spill": 0.3"##), frames, backend: .cpu)
        let unsuppressed = try renderedFrames(try edit(clip, key: #""similarity": 0.1, "smoothness": 0.05, "spill": 0"#), frames, backend: .cpu)
        for (k, n) in frames.enumerated() {
            let want = ffmpeg[Int(n)].filter { $0 < 128 }.count, got = keyedArea(keyed[k])
            XCTAssertGreaterThan(want, width * height / 2, "frame \(n): the green screen is keyed out")
            XCTAssertLessThan(want, width * height - 1500, "frame \(n): the disc is kept")
            XCTAssertLessThanOrEqual(abs(got - want), want / 100, "frame \(n): keyed area \(got) px, FFmpeg's \(want) px")
            // Alpha itself: FFmpeg's within 2 codes on average (0.6…0.8 measured: its 3 × 3 average at the edge).
            let difference = zip(ffmpeg[Int(n)], stride(from: 3, to: keyed[k].pixels.count, by: 4).map { keyed[k].pixels[$0] })
                .map { abs(Int($0) - Int($1)) }.reduce(0, +)
            XCTAssertLessThanOrEqual(Double(difference) / Double(width * height), 2, "frame \(n): mean alpha difference from FFmpeg's")
            // The edge (alpha 0.1…0.9; straight colour): green at most 8 codes above red and blue once spill is
            // suppressed; without, the green screen shows through in much of it.
            var edge = 0, spilled = 0, spilledBefore = 0
            for i in stride(from: 0, to: keyed[k].pixels.count, by: 4) {
                let a = Int(keyed[k].pixels[i + 3])
                guard a >= 26, a <= 230 else { continue }
                edge += 1
                func excess(_ p: [UInt8]) -> Int { Int(p[i + 1]) - max(Int(p[i]), Int(p[i + 2])) }
                if excess(keyed[k].pixels) > 8 { spilled += 1 }
                if excess(unsuppressed[k].pixels) > 8 { spilledBefore += 1 }
            }
            XCTAssertGreaterThan(edge, 50, "frame \(n): the disc has a soft edge")
            XCTAssertEqual(spilled, 0, "frame \(n): \(spilled) of \(edge) edge pixels green")
            XCTAssertGreaterThan(spilledBefore, edge / 4, "frame \(n): without spill suppression the edge is green")
        }
    }

    func testKeyframedSimilarityKeysMoreAsItGrowsAndTheGPUDrawsWhatTheCPUDraws() throws {
        let clip = try greenScreen()
        // Similarity 0.02 → 0.3 over the second: at 0.3 the greys of the test pattern (0.22 from #00b140) go too.
        let key = #""similarity": {"keyframes": [{"time": 0, "value": 0.02}, {"time": 0.9, "value": 0.3}]}, "smoothness": 0.04"#
        let alpha = try renderedFrames(try edit(clip, key: key), [0, 9], backend: .cpu)
        XCTAssertGreaterThan(keyedArea(alpha[1]), keyedArea(alpha[0]) + 400, "keyed \(keyedArea(alpha[0])) → \(keyedArea(alpha[1])) px")
        // Over a purple fill, on both renderers: the keyed clip composited like any alpha.
        let over = try edit(clip, key: key + #", "spill": 0.2"#, below: "#804080")
        let cpu = try renderedFrames(over, [2, 7], backend: .cpu), gpu = try renderedFrames(over, [2, 7], backend: .gpu)
        for k in 0..<2 {
            var squared = 0.0
            for i in 0..<cpu[k].pixels.count where i % 4 != 3 {
                let d = Double(cpu[k].pixels[i]) - Double(gpu[k].pixels[i])
                squared += d * d
            }
            let psnr = 10 * log10(255 * 255 / max(squared / Double(width * height * 3), 1e-10))
            XCTAssertGreaterThanOrEqual(psnr, 45, "frame \(k): GPU vs CPU \(psnr) dB")
            // The keyed-out corner shows the fill.
            let p = cpu[k].pixel(150, 5)
            let got = [Int(p.0), Int(p.1), Int(p.2)], want = [128, 64, 128]
            XCTAssertTrue(zip(got, want).allSatisfy { abs($0 - $1) <= 2 }, "corner \(got), the fill \(want)")
        }
    }
}
