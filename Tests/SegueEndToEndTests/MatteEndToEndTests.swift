import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Track mattes (issue 35 item 6) in whole renders: a background colour, a BT.709 test clip above it, and above that
/// the matte — a grey ramp picture (luma) or a text item (alpha) — on both backends, frames as drawn (R′G′B′A).
final class MatteEndToEndTests: EndToEndTestCase {
    let background = "#285ac8"

    /// The edit: a fill of `background`, the clip, and `top` items (JSON) on the tracks above.
    func edit(clip: String, top: [String]) throws -> Edit {
        let tracks = [#"{"clips": [{"fill": "\#(background)", "duration": 0.2}]}"#, #"{"clips": [{"path": "\#(clip)", "duration": 0.2}]}"#]
            + top.map { #"{"clips": [\#($0)]}"# }
        let json = #"{"renderSize": {"width": 160, "height": 90}, "frameRate": 30, "tracks": [\#(tracks.joined(separator: ", "))]}"#
        return try EditFile.parse(data: Data(json.utf8), baseDirectory: dir)
    }

    /// A BT.709 clip of soft colour gradients, 1 s at 30 fps: every colour inside the gamut after 4:2:0 (a test pattern's
    /// saturated edges decode to R′G′B′ outside 0…1, which Segue composites unclamped, as it does for any opacity, and
    /// FFmpeg clamps first).
    func softClip() throws -> String {
        let p = path("clip.mp4")
        try TestSupport.makeClip(p, video: "gradients=s=160x90:r=30:d=1:c0=0x804020:c1=0x20a060:c2=0xc0c0a0:nb_colors=3:seed=1:speed=0.05",
                                 extra: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"])
        return p
    }

    func rgb(_ image: RGBAImage) -> [UInt8] { image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }

    /// A luma matte (a grey ramp PNG, black left to white right) against FFmpeg's `maskedmerge` of the same frame
    /// (base = the background colour, overlay = the frame the edit draws without the matte, mask = the ramp; gbrp,
    /// full range: mask / 256 with rounding) ≥ 40 dB and within 2 levels, on both backends; GPU = CPU ≥ 45 dB.
    func testLumaMatteMatchesMaskedmergeOnBothBackends() throws {
        let clip = try softClip()
        let ramp = path("ramp.png")
        let g = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "nullsrc=s=160x90,format=gray,geq=lum='floor(X*255/159)'",
                                               "-frames:v", "1", "-y", ramp])
        XCTAssertEqual(g.status, 0, g.stderr)
        let plain = try edit(clip: clip, top: [])
        let matted = try edit(clip: clip, top: [#"{"path": "ramp.png", "duration": 0.2, "matte": "luma"}"#])
        var cpuFrame: RGBAImage?
        for backend in [Backend.cpu, .gpu] {
            let below = try renderedFrames(plain, [3], backend: backend)[0], got = try renderedFrames(matted, [3], backend: backend)[0]
            try writePPM(below, to: path("below.ppm"))
            let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=0x285ac8:s=160x90", "-i", path("below.ppm"), "-i", ramp,
                                                   "-filter_complex", "[0:v]format=gbrp[b];[1:v]format=gbrp[o];[2:v]format=gbrp[m];[b][o][m]maskedmerge,format=rgb24",
                                                   "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let d = PlaneDifference(rgb(got), [UInt8](r.stdout))
            XCTAssertGreaterThanOrEqual(d.psnr, 40, "\(backend) vs maskedmerge: \(d)")
            XCTAssertLessThanOrEqual(d.maxAbsDifference, 2, "\(backend) vs maskedmerge: \(d)")
            if let c = cpuFrame {
                let d = PlaneDifference(c.pixels, got.pixels)
                XCTAssertGreaterThanOrEqual(d.psnr, 45, "GPU vs CPU: \(d)")
            }
            cpuFrame = got
        }
    }

    /// An alpha matte that is a text item: where the text is, the clip; elsewhere the background — the same text drawn
    /// white over black gives its alpha a, and the matted frame is a·clip + (1 − a)·background within 2 levels;
    /// alpha-inverted is the complement. On the CPU backend (the GPU's agreement is MatteRenderTests').
    func testTextAlphaMatte() throws {
        let clip = try softClip()
        let text = #""text": "SEGUE", "duration": 0.2, "style": {"size": 48, "weight": "bold"}"#
        let below = try renderedFrames(try edit(clip: clip, top: []), [3], backend: .cpu)[0].pixels
        var white = try edit(clip: clip, top: ["{\(text)}"])
        white.tracks[0].clips[0].content = .fill(.black)
        white.tracks[1].clips[0] = .fill(.black, duration: MediaTime(seconds: 0.2))
        let a = try renderedFrames(white, [3], backend: .cpu)[0].pixels
        XCTAssertGreaterThan(a.filter { $0 == 255 }.count, 500, "the text covers part of the frame")
        let bg: [Float] = [0x28, 0x5a, 0xc8]
        for (mode, invert) in [("alpha", false), ("alpha-inverted", true)] {
            let got = try renderedFrames(try edit(clip: clip, top: [#"{\#(text), "matte": "\#(mode)"}"#]), [3], backend: .cpu)[0].pixels
            var worst = 0
            for i in stride(from: 0, to: got.count, by: 4) {
                let m = invert ? 1 - Float(a[i]) / 255 : Float(a[i]) / 255
                for k in 0..<3 { worst = max(worst, abs(Int(got[i + k]) - Int((m * Float(below[i + k]) + (1 - m) * bg[k]).rounded()))) }
            }
            XCTAssertLessThanOrEqual(worst, 2, mode)
        }
    }

    /// A matte item's own audio is silent: over a 300 Hz clip, a 1000 Hz clip as a luma matte adds nothing at 1000 Hz
    /// (amplitude < 0.001); the same clip as an ordinary item does (> 0.05; a sine of 1/8 mixed in).
    func testMatteAudioIsSilent() throws {
        let base = try toneClip("base.mov", freq: 300, seconds: 0.5), top = try toneClip("top.mov", freq: 1000, seconds: 0.5)
        func amplitude(_ x: [Float], _ freq: Double) -> Double {
            var s = 0.0, c = 0.0
            let n = x.count / 2
            for k in 0..<n { let w = 2 * Double.pi * freq * Double(k) / 48000; s += Double(x[2 * k]) * sin(w); c += Double(x[2 * k]) * cos(w) }
            return 2 * (s * s + c * c).squareRoot() / Double(n)
        }
        var matte = ClipSpec(path: top)
        matte.matte = .luma
        for (name, item, heard) in [("matte", matte, false), ("plain", ClipSpec(path: top), true)] {
            let x = try renderedAudio(Edit(tracks: [VideoTrack(clips: [ClipSpec(path: base)]), VideoTrack(clips: [item])]), "\(name).mkv")
            XCTAssertGreaterThan(amplitude(x, 300), 0.05, name)
            let a = amplitude(x, 1000)
            if heard { XCTAssertGreaterThan(a, 0.05, name) } else { XCTAssertLessThan(a, 0.001, name) }
        }
    }
}
