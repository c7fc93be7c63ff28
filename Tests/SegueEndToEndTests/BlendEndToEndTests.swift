import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Blend modes (issue 35 item 7) in a whole render: a grey fill below an orange fill multiplied over it, lossless, on
/// both backends: every pixel's planes are the multiply's colour, (128, 128, 128)·(255, 128, 0)/255 = (128, 64, 0), as
/// the output's Y′CbCr.
final class BlendEndToEndTests: EndToEndTestCase {
    /// The same with a LUT on the blended layer (an identity table: the same colours): its 3D texture and the
    /// blended pass's backdrop once shared a texture unit, `GL_INVALID_OPERATION` at the draw on the GPU.
    func testMultipliedFillWithALUTRendersOnBothBackends() throws {
        try checkMultipliedFill(lut: try cube("identity.cube", size: 2) { ($0, $1, $2) })
    }

    func testMultipliedFillRendersAsTheFormulaOnBothBackends() throws {
        try checkMultipliedFill(lut: nil)
    }

    func checkMultipliedFill(lut: String?) throws {
        var top = ClipSpec.fill(RGBColour(r: 255, g: 128, b: 0), duration: MediaTime(seconds: 0.2))
        top.layer.blend = .multiply
        if let lut { top.effects = [.lut(LUTEffect(path: lut))] }
        var edit = Edit(tracks: [VideoTrack(clips: [ClipSpec.fill(RGBColour(r: 128, g: 128, b: 128), duration: MediaTime(seconds: 0.2))]),
                                 VideoTrack(clips: [top])])
        edit.renderSize = PixelSize(width: 64, height: 48)
        edit.output.codec = .ffv1
        let rgb = SIMD3<Float>(128, 128 * 128 / 255, 0) / 255
        let f = OutputYCbCr.sdr
        func code(_ row: [Float]) -> Int { Int(Unorm.code8(row[0] * rgb.x + row[1] * rgb.y + row[2] * rgb.z + row[3])) }
        for backend in [Backend.cpu, .gpu] {
            let out = path("multiply-\(backend.rawValue).mkv")
            try render(edit, to: out, backend: backend, audio: false)
            let frames = try TestSupport.decodeFrames(out, width: 64, height: 48)
            XCTAssertFalse(frames.isEmpty)
            let frame = frames[0]
            let y = frame[0..<(64 * 48)], cb = frame[(64 * 48)..<(64 * 48 + 32 * 24)], cr = frame[(64 * 48 + 32 * 24)...]
            for (name, plane, want) in [("Y", y, code(f.y)), ("Cb", cb, code(f.cb)), ("Cr", cr, code(f.cr))] {
                let worst = plane.map { abs(Int($0) - want) }.max() ?? 99
                XCTAssertLessThanOrEqual(worst, 1, "\(backend) \(name): want \(want), got \(Set(plane).sorted())")
            }
        }
    }
}
