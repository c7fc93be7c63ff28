import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline
import SegueTestSupport

/// Decoded pixel formats: which reach the renderers as decoded planes and which through libswscale's RGBA (those
/// with alpha too, premultiplied), and that each renders the same on both backends and like FFmpeg's own conversion.
final class InputFormatTests: EndToEndTestCase {
    func testEachPixelFormatReadsAndRendersOnBothBackends() throws {
        // (pix_fmt, the picture Segue reads, range tag)
        let cases: [(String, String, String)] = [
            ("yuv420p", "yuv 4:2:0 8-bit", "tv"), ("nv12", "nv12", "tv"), ("nv21", "nv21", "tv"),
            ("yuv422p", "yuv 4:2:2 8-bit", "tv"), ("yuv444p", "yuv 4:4:4 8-bit", "tv"), ("yuvj422p", "yuv 4:2:2 8-bit", "pc"),
            ("yuv422p10le", "yuv 4:2:2 10-bit", "tv"), ("yuv444p12le", "yuv 4:4:4 12-bit", "tv"),
            ("rgb24", "rgba", "pc"), ("gray", "rgba", "tv"), ("yuva420p", "rgba", "tv"),
        ]
        // The sources made, and the renders decoded, by FFmpeg processes at once, as many as there are cores; Segue
        // renders each in turn.
        let dir = self.dir
        let sources = try TestSupport.concurrentMap(cases) { fmt, _, range in
            // NUT stores every raw format but not the range; Matroska keeps the range of the full-range case.
            let src = "\(dir)/\(fmt).\(fmt == "yuvj422p" ? "mkv" : "nut")"
            // Smooth content: this checks the reads, not how 4:4:4 → 4:2:0 filters sharp colour edges.
            try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=64x48:r=10:d=0.3:speed=0.1:seed=7,format=\(fmt)", "-c:v", "rawvideo",
                                    "-colorspace", "bt709", "-color_range", range, src])
            return src
        }
        for ((fmt, expected, _), src) in zip(cases, sources) {
            let reader = try VideoReader(path: src)
            XCTAssertEqual(try reader.picture(at: .zero).formatDescription, expected, fmt)
            var edit = Edit(clips: [clip(src)])
            edit.output.codec = .ffv1
            try render(edit, to: path("\(fmt)-gpu.mkv"), backend: .gpu, audio: false)
            try render(edit, to: path("\(fmt)-cpu.mkv"), backend: .cpu, audio: false)
        }
        let decoded = try TestSupport.concurrentMap(Array(zip(cases.map(\.0), sources))) { fmt, src in
            // A format with alpha (yuva420p; `gradients` makes α 236…255) is drawn over the background (black), as
            // FFmpeg's overlay draws it.
            let convert = "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+full_chroma_int"
            return (gpu: try TestSupport.decodeFrames("\(dir)/\(fmt)-gpu.mkv", width: 64, height: 48),
                    cpu: try TestSupport.decodeFrames("\(dir)/\(fmt)-cpu.mkv", width: 64, height: 48),
                    ffmpeg: try TestSupport.decodeFrames(src, width: 64, height: 48,
                        filter: fmt.hasPrefix("yuva") ? "color=black:s=64x48:r=10 [bg]; [bg][in] overlay=shortest=1:format=rgb, \(convert) [out]" : convert))
        }
        for ((fmt, _, _), (g, c, ref)) in zip(cases, decoded) {
            XCTAssertEqual(g.count, 3, fmt)
            TestSupport.assertYUVSequencesMatch(g, c, width: 64, height: 48, minPSNR: 45, label: "\(fmt): gpu vs cpu")
            TestSupport.assertYUVSequencesMatch(g, ref, width: 64, height: 48, minPSNR: 40, label: "\(fmt): gpu vs FFmpeg's conversion")
        }
    }
}
