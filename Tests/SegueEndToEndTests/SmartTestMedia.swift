import XCTest
import SegueCore
import SegueEdit
import SegueTestSupport

/// The media of the smart-rendering tests (SmartRenderTests, SmartPlaybackTests): H.264/HEVC sources with a keyframe
/// every second and the edit whose output has copied and encoded stretches.
extension EndToEndTestCase {
    /// A 4 s 320×180 25 fps H.264 clip with a keyframe every 25 frames (IDR only, closed GOPs), tagged BT.709, with a
    /// tone: `x264` options as given (B-pyramid, profile).
    func smartSource(_ name: String, _ x264: [String], picture: String = "testsrc2", encoder: String = "libx264") throws -> String {
        let p = path(name)
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "\(picture)=s=320x180:r=25:d=4",
                                               "-f", "lavfi", "-i", "sine=f=440:d=4", "-c:v", encoder, "-preset", "medium", "-pix_fmt", "yuv420p",
                                               "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-colorspace", "bt709", "-color_primaries", "bt709",
                                               "-color_trc", "bt709", "-color_range", "tv", "-c:a", "aac", "-shortest"] + x264 + [p])
        XCTAssertEqual(r.status, 0, r.stderr)
        return p
    }

    /// Each decoded frame's MD5 in display order (`-f framemd5`); `raw`: the file is raw 4:2:0 of that size.
    func md5s(_ file: String, raw size: String? = nil) throws -> [String] {
        let input = size.map { ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", $0] } ?? []
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error"] + input + ["-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
    }

    /// The mean over `frames` (output frame numbers) of the PSNR (Y′CbCr average, dB) of `file` against `reference`.
    func meanPSNR(_ file: String, _ reference: String, frames: [Int64]) throws -> Double {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-i", reference, "-lavfi", "[0:v][1:v]psnr=stats_file=-", "-f", "null", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var byFrame: [Int64: Double] = [:]
        for line in r.text.split(separator: "\n") {
            let fields = Dictionary(line.split(separator: " ").compactMap { f -> (String, String)? in
                let kv = f.split(separator: ":", maxSplits: 1)
                return kv.count == 2 ? (String(kv[0]), String(kv[1])) : nil
            }, uniquingKeysWith: { a, _ in a })
            if let n = fields["n"].flatMap({ Int64($0) }), let v = fields["psnr_avg"].flatMap({ Double($0) }) { byFrame[n - 1] = min(v, 100) }
        }
        let values = frames.compactMap { byFrame[$0] }
        XCTAssertEqual(values.count, frames.count)
        return values.reduce(0, +) / Double(max(1, values.count))
    }

    /// The edit: a cut into the middle of the first GOP (source frame 5), 56 frames, a 10-frame crossfade that starts one
    /// frame after the keyframe at source frame 50, then the source again from frame 25 for 50 frames.
    func smartCutsEdit(_ src: String) -> Edit {
        var edit = Edit(clips: [clip(src, start: 0.2, duration: 2.24), clip(src, tr(.crossfade, 0.4), start: 1.0, duration: 2.0)])
        edit.renderSize = PixelSize(width: 320, height: 180)
        edit.frameRate = FrameRate(25)
        edit.output.smart = true
        return edit
    }
}
