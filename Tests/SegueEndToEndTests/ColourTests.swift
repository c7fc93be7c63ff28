import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Colour: inputs in BT.601 / BT.709, limited / full range come out as BT.709 limited-range Y′CbCr with the
/// expected values; 10-bit input matches FFmpeg's own conversion.
final class ColourTests: EndToEndTestCase {
    /// BT.709 limited-range Y′CbCr of full-range R′G′B′ (ITU-R BT.709-6 Table 3: Kr = 0.2126, Kb = 0.0722).
    func bt709Limited(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let (R, G, B) = (r / 255, g / 255, b / 255)
        let y = 0.2126 * R + 0.7152 * G + 0.0722 * B
        return (16 + 219 * y, 128 + 224 * (B - y) / 1.8556, 128 + 224 * (R - y) / 1.5748)
    }
    /// Full-range R′G′B′ of Y′CbCr in `matrix` (Kr, Kb) and range.
    func rgb(_ y: Double, _ cb: Double, _ cr: Double, kr: Double, kb: Double, full: Bool) -> (Double, Double, Double) {
        let Y = full ? y / 255 : (y - 16) / 219
        let Pb = full ? (cb - 128) / 255 : (cb - 128) / 224, Pr = full ? (cr - 128) / 255 : (cr - 128) / 224
        let R = Y + 2 * (1 - kr) * Pr, B = Y + 2 * (1 - kb) * Pb
        let G = (Y - kr * R - kb * B) / (1 - kr - kb)
        func c(_ v: Double) -> Double { min(255, max(0, v * 255)) }
        return (c(R), c(G), c(B))
    }

    func testKnownYCbCrInEachMatrixAndRange() throws {
        // A flat picture with known Y′CbCr in each case, tagged accordingly.
        let cases: [(name: String, matrix: String, range: String, kr: Double, kb: Double, full: Bool)] = [
            ("601-limited", "smpte170m", "tv", 0.299, 0.114, false), ("709-limited", "bt709", "tv", 0.2126, 0.0722, false),
            ("601-full", "smpte170m", "pc", 0.299, 0.114, true), ("709-full", "bt709", "pc", 0.2126, 0.0722, true),
        ]
        let (y, cb, cr) = (120.0, 90.0, 170.0)
        for c in cases {
            let src = path("\(c.name).mkv")
            // geq writes the planes directly, so the stored values are exactly (y, cb, cr).
            try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x48:r=10:d=0.3,format=\(c.full ? "yuvj444p" : "yuv444p"),geq=lum=\(Int(y)):cb=\(Int(cb)):cr=\(Int(cr))",
                                    "-c:v", "ffv1", "-colorspace", c.matrix, "-color_range", c.range, src])
            let expectedRGB = rgb(y, cb, cr, kr: c.kr, kb: c.kb, full: c.full)
            let e = bt709Limited(expectedRGB.0, expectedRGB.1, expectedRGB.2)
            for backend in [Backend.cpu, .gpu] {
                var edit = Edit(clips: [clip(src)])
                edit.output.codec = .ffv1
                let out = path("\(c.name)-\(backend).mkv")
                try render(edit, to: out, backend: backend, audio: false)
                let f = try XCTUnwrap(try TestSupport.decodeFrames(out, width: 64, height: 48).first)
                let (oy, ou, ov) = (Double(f[64 * 20 + 30]), Double(f[64 * 48 + 32 * 10 + 15]), Double(f[64 * 48 + 32 * 24 + 32 * 10 + 15]))
                XCTAssertEqual(oy, e.0, accuracy: 1.01, "\(c.name) \(backend) Y")
                XCTAssertEqual(ou, e.1, accuracy: 1.01, "\(c.name) \(backend) Cb")
                XCTAssertEqual(ov, e.2, accuracy: 1.01, "\(c.name) \(backend) Cr")
                let tags = try TestSupport.ffprobe(out, "stream=color_space,color_range,color_primaries,color_transfer")
                XCTAssertEqual(tags["color_space"], "bt709")
                XCTAssertEqual(tags["color_range"], "tv")
            }
        }
    }

    func testTenBitInputMatchesFFmpegsConversion() throws {
        let src = path("ten.mkv")
        // Smooth gradients: this checks the 10-bit read, not chroma edges (which the RGB intermediate softens).
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=128x72:r=10:d=0.5:speed=0.05,format=yuv420p10le", "-c:v", "ffv1", "-colorspace", "bt709", "-color_range", "tv", src])
        XCTAssertEqual(try TestSupport.ffprobe(src, "stream=pix_fmt")["pix_fmt"], "yuv420p10le")
        var edit = Edit(clips: [clip(src)])
        edit.output.codec = .ffv1
        try render(edit, to: path("ten.out.mkv"), backend: .gpu, audio: false)
        let ours = try TestSupport.decodeFrames(path("ten.out.mkv"), width: 128, height: 72)
        let ref = try TestSupport.decodeFrames(src, width: 128, height: 72,
                                               filter: "scale=in_color_matrix=bt709:out_color_matrix=bt709:in_range=tv:out_range=tv:flags=bicubic+accurate_rnd+full_chroma_int")
        TestSupport.assertYUVSequencesMatch(ours, ref, width: 128, height: 72, minPSNR: 40, label: "10-bit input vs FFmpeg's conversion")
    }
}
