import Foundation
import CFFmpeg
import SegueCore

/// What libavfilter's `ebur128` measured (ITU-R BS.1770-4 / EBU R128): the integrated loudness, LUFS (gated; −70
/// for silence), and the highest true peak of any channel (4× oversampled), dBTP (−∞ for silence).
public struct LoudnessMeasurement: Equatable, Sendable {
    public let integrated: Double
    public let truePeak: Double
}

/// Measures interleaved float audio with libavfilter's `ebur128` (`peak=true`, `metadata=1`: each 100 ms block's
/// running values in the frames' metadata, `lavfi.r128.I` and `lavfi.r128.true_peaks_chN`, linear). Feed it
/// everything, then `finish`.
public final class LoudnessMeter {
    private let chain: AudioFilterChain

    /// Throws `MediaError` (no `ebur128` in this FFmpeg).
    public init(sampleRate: Int32, channels: Int) throws {
        chain = try AudioFilterChain(sampleRate: sampleRate, channels: channels,
                                     filters: [("ebur128", "peak=true:metadata=1", "measure")], path: nil)
    }

    public func feed(_ samples: [Float]) throws { _ = try chain.process(samples) }

    /// Ends the stream and returns the measurement over all of it. Throws `MediaError`.
    public func finish() throws -> LoudnessMeasurement {
        _ = try chain.process(nil)
        return LoudnessMeter.measurement(chain.metadata, channels: chain.channels)
    }

    /// The measurement in `ebur128`'s metadata (`lavfi.r128.I`, the highest `lavfi.r128.true_peaks_chN`).
    static func measurement(_ m: [String: String], channels: Int) -> LoudnessMeasurement {
        let peak = (0..<channels).compactMap { m["lavfi.r128.true_peaks_ch\($0)"].flatMap(Double.init) }.max() ?? 0
        return LoudnessMeasurement(integrated: m["lavfi.r128.I"].flatMap(Double.init) ?? -70, truePeak: 20 * log10(peak))
    }
}

/// Brings audio to a `LoudnessTarget` once its integrated loudness is known (`LoudnessMeter`): one gain
/// (`target.integrated − measured`, libavfilter's `volume`), then a true-peak limiter: the audio oversampled 4×
/// (`aresample`), libavfilter's lookahead limiter `alimiter` (no auto-level, its delay compensated, so that sample k in
/// is sample k out), and back to the rate (`aresample`). The limiter's ceiling is `ceilingMargin` below the target's
/// true peak, room for what the return to the rate rebuilds between samples (measured up to 0.3 dB on full-band
/// noise). It runs after the gain, so where it works the loudness ends slightly lower than the target (only when the
/// gain alone would pass the true-peak limit).
public final class LoudnessNormaliser {
    private let chain: AudioFilterChain
    private let channels: Int
    private let total: Int64
    private var fed: Int64 = 0
    private var ended = false
    private var ahead: [Float] = []
    /// The gain applied, dB.
    public let gain: Double
    /// dB between the limiter's ceiling and the target true peak (a choice, see the type's description).
    public static let ceilingMargin = 0.5
    /// The oversampling of the limiter (BS.1770-4's true-peak meter oversamples 4× at 48 kHz).
    static let oversampling: Int32 = 4

    /// `total`: the samples the stream has (`next` gives exactly that many). Throws `MediaError` (a filter this FFmpeg
    /// lacks).
    public init(target: LoudnessTarget, measured: LoudnessMeasurement, sampleRate: Int32, channels: Int, total: Int64) throws {
        // Silence (ebur128's −70 floor) stays silence: no gain.
        gain = measured.integrated <= LoudnessTarget.integratedRange.lowerBound ? 0 : target.integrated - measured.integrated
        let ceiling = pow(10, (target.truePeak - LoudnessNormaliser.ceilingMargin) / 20)
        let up = sampleRate * LoudnessNormaliser.oversampling
        chain = try AudioFilterChain(sampleRate: sampleRate, channels: channels, filters: [
            ("volume", String(format: "volume=%.6fdB:precision=double", gain), "gain"),
            ("aresample", "\(up)", "up"),
            ("alimiter", String(format: "limit=%.9f:level=false:latency=1:attack=5:release=50", max(0.0625, ceiling)), "limit"),
            ("aresample", "\(sampleRate)", "down"),
        ], path: nil)
        self.channels = channels
        self.total = total
    }

    /// The next `count` samples (interleaved) of `input`'s normalised audio, reading from `input` as needed (in blocks
    /// of at most `count`); exactly `total` in all (the end is padded with silence should the filters give fewer).
    public func next(_ count: Int, reading input: (Int) throws -> [Float]) throws -> [Float] {
        let want = count * channels
        while ahead.count < want && !ended {
            if fed < total {
                let n = Int(min(Int64(max(count, 1024)), total - fed))
                ahead += try chain.process(try input(n))
                fed += Int64(n)
            } else {
                ahead += try chain.process(nil)
                ended = true
            }
        }
        if ahead.count < want { ahead += [Float](repeating: 0, count: want - ahead.count) }
        let out = Array(ahead[0..<want])
        ahead.removeFirst(want)
        return out
    }
}
