import XCTest
import SegueEdit
import SegueCore
import SeguePipeline
import SegueTestSupport

/// Audio measurements shared by the audio tests: decoding with FFmpeg, tones, steps, RMS.
extension EndToEndTestCase {
    /// Decodes the first audio stream (or `map`) as interleaved float at 48 kHz with `channels` channels.
    /// (FFmpeg's own `-ac 2` puts a mono source at −3 dB in each channel: read mono sources with `channels: 1`.)
    func samples(_ file: String, channels: Int = 2, extra: [String] = [], map: String = "0:a:0") throws -> [Float] {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file] + extra + ["-map", map, "-f", "f32le", "-ac", "\(channels)", "-ar", "48000", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
    func rmsDB(_ a: [Float], _ b: [Float]) -> Double {
        let n = min(a.count, b.count)
        var s = 0.0
        for i in 0..<n { let d = Double(a[i] - b[i]); s += d * d }
        return 10 * log10(max(1e-30, s / Double(n)))
    }
    /// RMS in dBFS of channel `channel` of interleaved `x` (`channels` per sample) over samples `range`.
    func rmsDB(_ x: [Float], channel: Int, of channels: Int, _ range: Range<Int>) -> Double {
        let sum = range.reduce(0.0) { $0 + Double(x[$1 * channels + channel]) * Double(x[$1 * channels + channel]) }
        return 10 * log10(max(1e-30, sum / Double(range.count)))
    }
    /// The largest step `|x[k+1] − x[k]|` of channel `channel` for `k` in `range`.
    func largestStep(_ x: [Float], channel: Int = 0, of channels: Int = 2, _ range: Range<Int>) -> Double {
        range.reduce(0.0) { max($0, abs(Double(x[($1 + 1) * channels + channel]) - Double(x[$1 * channels + channel]))) }
    }
    /// A clip with a tone: 48 kHz unless given.
    func toneClip(_ name: String, freq: Int, seconds: Double, rate: Int = 48000, layout: String = "stereo") throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=32x32:r=30:d=\(seconds)",
                                "-f", "lavfi", "-i", "sine=f=\(freq):r=\(rate):d=\(seconds)", "-af", "aformat=channel_layouts=\(layout)",
                                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le", "-shortest", p])
        return p
    }
    /// A clip whose audio is `expression` (an `aevalsrc` expression of `t`, one per channel separated by `|`) at `rate`.
    func exprClip(_ name: String, _ expression: String, seconds: Double, rate: Int = 48000, codec: String = "pcm_s16le") throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=32x32:r=30:d=\(seconds)",
                                "-f", "lavfi", "-i", "aevalsrc='\(expression)':s=\(rate):d=\(seconds)",
                                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", codec, "-shortest", p])
        return p
    }
    /// Renders `edit` losslessly (FFV1 + float PCM) on the CPU and returns its audio, interleaved stereo at 48 kHz.
    func renderedAudio(_ edit: Edit, _ name: String) throws -> [Float] {
        var e = edit
        e.output.codec = .ffv1
        try render(e, to: path(name), backend: .cpu)
        return try samples(path(name))
    }
}
