import CFFmpeg
import SegueCore

/// Interleaved float samples read in order, exactly as many as asked (silence past the end).
public protocol SampleSource: AnyObject {
    func read(_ count: Int) throws -> [Float]
}

extension AudioReader: SampleSource {}

/// Samples held in memory (a clip's audio reversed), read in order.
public final class BufferedSamples: SampleSource {
    private var samples: [Float]
    private var position = 0
    let channels: Int
    public init(_ samples: [Float], channels: Int) { self.samples = samples; self.channels = channels }
    public func read(_ count: Int) throws -> [Float] {
        let n = count * channels, end = min(samples.count, position + n)
        var out = Array(samples[min(position, samples.count)..<end])
        position = end
        if out.count < n { out += [Float](repeating: 0, count: n - out.count) }
        return out
    }
    /// `count` frames of `source` read whole and reversed in time (each frame's channels kept in order).
    public static func reversed(_ source: SampleSource, frames count: Int, channels: Int) throws -> BufferedSamples {
        let forward = try source.read(count)
        var back = [Float](repeating: 0, count: forward.count)
        for k in 0..<count {
            for c in 0..<channels { back[k * channels + c] = forward[(count - 1 - k) * channels + c] }
        }
        return BufferedSamples(back, channels: channels)
    }
}

/// libavfilter's `atempo` in a chain of its own (`AudioFilterChain`): `atempo=0.5 … (fixed stages) → atempo=T`,
/// interleaved float at one rate and channel count. Changes tempo without changing pitch (WSOLA); each `atempo`
/// takes 0.5…100, so slower tempos are a chain of fixed 0.5 stages before the variable one, whose tempo can change
/// while it runs (`setTempo`, the filter's `tempo` command).
final class TempoFilter {
    private let chain: AudioFilterChain
    /// The product of the fixed stages (0.5^k): the variable stage runs at `tempo / fixed`.
    let fixed: Double
    private let path: String

    /// A graph for tempos down to `slowest` (its fixed 0.5 stages chosen for that), starting at `tempo`.
    /// Throws `MediaError` (no `atempo` in this FFmpeg, a graph libavfilter refuses).
    init(sampleRate: Int32, channels: Int, tempo: Double, slowest: Double, path: String) throws {
        self.path = path
        var stages = 0
        while 0.5 > slowest * pow(2, Double(stages)) + 1e-12 { stages += 1 }
        let fixed = pow(0.5, Double(stages))
        self.fixed = fixed
        chain = try AudioFilterChain(sampleRate: sampleRate, channels: channels,
                                     filters: (0..<stages).map { ("atempo", "tempo=0.5", "half\($0)") }
                                         + [("atempo", String(format: "tempo=%.9f", min(100, max(0.5, tempo / fixed))), "tempo")],
                                     path: path)
    }

    /// Sets the tempo (source seconds per output second) from now on. Wraps `avfilter_graph_send_command`.
    func setTempo(_ tempo: Double) throws {
        let value = String(format: "%.9f", min(100, max(0.5, tempo / fixed)))
        var response = [CChar](repeating: 0, count: 64)
        try FF.check(avfilter_graph_send_command(chain.graph.graph, "tempo", "tempo", value, &response, 64, 0), "avfilter_graph_send_command(atempo)", path: path)
    }

    /// Feeds interleaved samples (or, with `nil`, the end of the stream) and returns what the filter gives back.
    func process(_ samples: [Float]?) throws -> [Float] { try chain.process(samples) }
}

/// A retimed clip's audio (`"speed"`, ramps, `"reverse"`), at the output's rate: `total` output samples, where output
/// sample n plays the source around sample `sourceSample(n)` (the time map at n / rate, times the rate, from the
/// used range's start).
///
/// - `keep` (pitch kept): the source through `atempo`, block by block (1024 output samples), each block's tempo the
///   source samples its span covers over its length — exact for a constant speed, the ramp's mean speed per block on
///   a ramp. `atempo` keeps its own running position, so output and timeline stay in step; the last samples are
///   padded or cut to `total`.
/// - `follow` (varispeed): a constant speed S reads the source resampled by libswresample to `rate / S` and plays it
///   at `rate` (band-limited); a ramp resamples block by block through libswresample's compensation (each block's
///   ratio its source span over its length).
public final class RetimedAudio: SampleSource {
    public enum Mode: Sendable { case keep, follow }
    let source: SampleSource
    let channels: Int
    let total: Int64
    let sourceSample: @Sendable (Int64) -> Int64
    let constant: Double?
    private var tempo: TempoFilter?
    private var resampler: OpaquePointer?
    private var produced: Int64 = 0
    private var consumed: Int64 = 0
    private var ahead: [Float] = []
    private var finished = false
    private let block: Int64 = 1024
    let mode: Mode

    /// - Parameters:
    ///   - source: the used range of the source's audio from its first sample, at the output's rate (for `follow`
    ///     at a constant speed S: at `rate / S`, read as if at `rate`).
    ///   - constantSpeed: the speed when it does not change (then `follow` needs nothing more), nil for a ramp.
    ///   - slowest: the slowest speed the item plays at (sets `atempo`'s fixed stages).
    public init(source: SampleSource, sampleRate: Int32, channels: Int, total: Int64, mode: Mode, constantSpeed: Double?,
                slowest: Double, path: String, sourceSample: @escaping @Sendable (Int64) -> Int64) throws {
        self.source = source; self.channels = channels; self.total = total; self.mode = mode
        self.constant = constantSpeed; self.sourceSample = sourceSample
        switch mode {
        case .keep:
            tempo = try TempoFilter(sampleRate: sampleRate, channels: channels, tempo: constantSpeed ?? 1, slowest: min(slowest, 1), path: path)
        case .follow where constantSpeed == nil:
            var outLayout = AVChannelLayout(), inLayout = AVChannelLayout()
            av_channel_layout_default(&outLayout, Int32(channels))
            av_channel_layout_default(&inLayout, Int32(channels))
            defer { av_channel_layout_uninit(&outLayout); av_channel_layout_uninit(&inLayout) }
            var swr: OpaquePointer? = nil
            try FF.check(swr_alloc_set_opts2(&swr, &outLayout, AV_SAMPLE_FMT_FLT, sampleRate, &inLayout, AV_SAMPLE_FMT_FLT, sampleRate, 0, nil),
                         "swr_alloc_set_opts2", path: path)
            av_opt_set_int(UnsafeMutableRawPointer(swr), "force_resampling", 1, 0)
            do { try FF.check(swr_init(swr), "swr_init", path: path) } catch { swr_free(&swr); throw error }
            resampler = swr
        case .follow:
            break
        }
    }
    deinit { swr_free(&resampler) }

    /// The next `count` output samples, interleaved.
    public func read(_ count: Int) throws -> [Float] {
        let want = count * channels
        while ahead.count < want && produced < total {
            let n = min(block, total - produced)
            let upTo = sourceSample(produced + n)
            let m = Int(max(0, upTo - consumed))
            let input = m > 0 ? try source.read(m) : []
            consumed += Int64(m)
            switch mode {
            case .keep:
                if constant == nil { try tempo!.setTempo(Double(m) / Double(n)) }
                ahead += try tempo!.process(input)
            case .follow:
                if let swr = resampler {
                    ahead += try compensated(swr, input, inputFrames: m, outputFrames: Int(n))
                } else {
                    ahead += input   // already resampled to rate / S: played at rate, it lasts D / S
                }
            }
            produced += n
            if produced >= total, mode == .keep, !finished {
                finished = true
                ahead += try tempo!.process(nil)
            }
        }
        if ahead.count < want { ahead += [Float](repeating: 0, count: want - ahead.count) }
        let out = Array(ahead[0..<want])
        ahead.removeFirst(want)
        return out
    }

    /// `inputFrames` through libswresample as `outputFrames` (`swr_set_compensation`: the ratio of this block).
    private func compensated(_ swr: OpaquePointer, _ input: [Float], inputFrames m: Int, outputFrames n: Int) throws -> [Float] {
        if m != n { try FF.check(swr_set_compensation(swr, Int32(n - m), Int32(n)), "swr_set_compensation", path: nil) }
        let capacity = Int(swr_get_out_samples(swr, Int32(m))) + n + 64
        var out = [Float](repeating: 0, count: capacity * channels)
        let got: Int32 = input.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                var o: UnsafeMutablePointer<UInt8>? = dst.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var i: UnsafePointer<UInt8>? = m > 0 ? src.baseAddress!.assumingMemoryBound(to: UInt8.self) : nil
                return swr_convert(swr, &o, Int32(capacity), &i, Int32(m))
            }
        }
        try FF.check(got, "swr_convert", path: nil)
        return Array(out[0..<(Int(got) * channels)])
    }
}
