import CFFmpeg
import Foundation
import SegueCore

/// `--preset high|medium|low`: the encoder settings of a live take (the seeds' `AVCaptureSession.sessionPreset`).
/// libx264 at a preset fast enough to keep up with 1080p30 on two cores, the quality set by the bit rate (average
/// bit rate with a VBV cap of 1.5× and a two-second buffer), scaled by the pixel rate from the 1080p30 figure.
///
/// Measured on the two-core development machine (libx264 alone, 1080p30 from raw frames, one run each, a shared
/// machine): veryfast 55 fps, superfast 89 fps, ultrafast 148 fps; hence veryfast is the fastest preset
/// `high` can use with room for decoding a live stream beside it (see docs/recording.md for the whole
/// recorder's numbers).
public enum LivePreset: String, Sendable, CaseIterable {
    case high, medium, low

    /// libx264's preset.
    public var x264Preset: String {
        switch self { case .high: return "veryfast"; case .medium: return "superfast"; case .low: return "ultrafast" }
    }
    /// Bit rate in bits per second at 1920×1080, 30 frames a second.
    public var bitRate1080p30: Int {
        switch self { case .high: return 8_000_000; case .medium: return 5_000_000; case .low: return 2_500_000 }
    }
    /// AAC bit rate (bits per second, stereo).
    public var audioBitRate: Int {
        switch self { case .high: return 192_000; case .medium: return 128_000; case .low: return 96_000 }
    }
    /// The bit rate for `size` at `fps`: the 1080p30 figure times the pixel rate's ratio, at least 200 kb/s.
    public func bitRate(size: PixelSize, fps: Double) -> Int {
        let ratio = Double(size.width * size.height) * max(1, fps) / (1920 * 1080 * 30)
        return max(200_000, Int(Double(bitRate1080p30) * ratio))
    }
}

extension LivePreset {
    /// The video encoder's set-up for a live take in `format`: the take's row's encoder and pixel format for SDR
    /// (libx264, yuv420p) at this preset, the bit rate for `size` at `frameRate` (`bitRate`, a VBV maximum of 1.5× and
    /// a two-second buffer), no B-frames (packets come out in presentation order, one frame behind at most), a
    /// keyframe at least every two seconds, IDR frames where one is forced (`forced-idr`: a segment's start), a short
    /// lookahead (10 frames).
    /// - Parameters:
    ///   - timeBase: the frames' timestamps' unit.
    ///   - frameRate: nominal, frames per second (0: unknown, taken as 30), for rate control and the keyframe interval.
    ///   - colour: the tags written (the source's, or the output's BT.709 for processed frames).
    func videoEncoding(format: RecordingFormat, size: PixelSize, timeBase: AVRational, frameRate: Double,
                       colour: (AVColorPrimaries, AVColorTransferCharacteristic, AVColorSpace, AVColorRange)) throws -> VideoEncoding {
        let fps = frameRate > 0 ? frameRate : 30
        var e = VideoEncoding(codec: format.take.defaultEncoders[.sdr]!, size: size,
                              pixelFormat: try Encoder.pixelFormat(format.take.pixelFormats[.sdr]!), timeBase: timeBase)
        e.frameRate = av_d2q(fps, 100_000)
        e.colour = colour
        let rate = bitRate(size: size, fps: fps)
        e.bitRate = (rate, rate * 3 / 2, min(Int(Int32.max), rate * 2))
        e.gopSize = max(1, Int((2 * fps).rounded(.down)))
        e.maxBFrames = 0
        e.options = [("preset", x264Preset), ("forced-idr", "1"), ("rc-lookahead", "10")]
        e.globalHeader = OutputFile.wantsGlobalHeader(format.take.container)
        return e
    }

    /// The audio encoder's set-up for a live take in `format`: the take's row's encoder and sample format (AAC,
    /// planar float) at `sampleRate` Hz, `audioBitRate` for stereo, half of it for mono.
    func audioEncoding(format: RecordingFormat, sampleRate: Int32, channels: Int) -> AudioEncoding {
        AudioEncoding(codec: format.take.audioCodec, sampleFormat: av_get_sample_fmt(format.take.audioSampleFormat), sampleRate: Int(sampleRate),
                      channels: channels, bitRate: channels == 1 ? audioBitRate / 2 : audioBitRate,
                      globalHeader: OutputFile.wantsGlobalHeader(format.take.container))
    }
}

/// Decoded audio → interleaved float at a fixed rate and channel count (libswresample), for a take's `AudioEncoder`.
final class LiveResampler {
    let swr: OpaquePointer
    let channels: Int
    let outRate: Int32
    init(from dec: UnsafeMutablePointer<AVCodecContext>, rate: Int32, channels: Int, path: String) throws {
        self.channels = channels
        outRate = rate
        swr = try AudioReader.resampler(from: dec, rate: rate, channels: channels, path: path)
    }
    deinit { var s: OpaquePointer? = swr; swr_free(&s) }

    /// The samples of `frame` (nil: what the resampler still holds), interleaved.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>?) throws -> [Float] {
        let count = frame?.pointee.nb_samples ?? 0
        let capacity = Int(swr_get_out_samples(swr, count)) + 32
        var out = [Float](repeating: 0, count: capacity * channels)
        let got: Int32 = try out.withUnsafeMutableBytes { raw in
            var ptr: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return try withUnsafeMutablePointer(to: &ptr) { pp in
                let input = frame?.pointee.extended_data.map { UnsafeMutablePointer<UnsafePointer<UInt8>?>(OpaquePointer($0)) }
                return try FF.check(swr_convert(swr, pp, Int32(capacity), input, count), "swr_convert")
            }
        }
        return Array(out[0..<(Int(got) * channels)])
    }
}
