/// Music gain from volume ramps, in output samples.
///
/// Ramps are placed at `round(start × rate)` (a negative start counts back from the edit's end) and last
/// `round(duration × rate)` samples; within a ramp the gain moves linearly from `from` to `to`
/// (`from + (to − from)·k / length` at the ramp's k-th sample). Before the first ramp the gain is 1; after a
/// ramp it holds that ramp's `to` until the next one starts (AVFoundation's `setVolumeRamp` behaviour).
public struct RampEnvelope: Sendable {
    struct Segment { let start: Int64, length: Int64, from: Double, to: Double }
    let segments: [Segment]

    /// - Parameters:
    ///   - editDuration: the edit's length (for negative starts).
    ///   - sampleRate: samples per second.
    public init(_ ramps: [VolumeRamp], editDuration: MediaTime, sampleRate: Int) {
        segments = ramps.map { r in
            let t = r.start < .zero ? editDuration + r.start : r.start
            return Segment(start: t.rounded(toUnitsOf: Int64(sampleRate)), length: max(1, r.duration.rounded(toUnitsOf: Int64(sampleRate))),
                           from: r.from, to: r.to)
        }.sorted { $0.start < $1.start }
    }

    /// Gain at output sample `s`.
    public func gain(at s: Int64) -> Double {
        var g = 1.0
        for seg in segments {
            if s < seg.start { break }
            if s < seg.start + seg.length { return seg.from + (seg.to - seg.from) * Double(s - seg.start) / Double(seg.length) }
            g = seg.to
        }
        return g
    }
}

/// Ducking: lowers the music while the clips' audio is present.
///
/// Presence: the RMS of the clip mix over the last `window` samples (20 ms) is above `threshold`
/// (−40 dBFS by default). The gain then slews linearly towards `level`, covering the full 1 → `level` span in
/// `attack` seconds, and back towards 1 in `release` seconds once the clips fall silent.
public struct Ducker: Sendable {
    public let level: Double
    let down: Double, up: Double
    let window: Int
    let threshold: Double
    private var squares: [Double]
    private var index = 0
    private var sum = 0.0
    /// The current gain (1 = not ducked).
    public private(set) var gain = 1.0

    public init(_ d: Ducking, sampleRate: Int, threshold: Double = 0.01) {
        level = d.level
        let span = max(1e-9, 1 - d.level)
        down = d.attack > 0 ? span / (d.attack * Double(sampleRate)) : span
        up = d.release > 0 ? span / (d.release * Double(sampleRate)) : span
        window = max(1, sampleRate / 50)
        self.threshold = threshold
        squares = [Double](repeating: 0, count: window)
    }

    /// Feeds one sample of the clip mix (the loudest channel's magnitude) and returns the music gain for it.
    public mutating func next(_ x: Double) -> Double {
        let sq = x * x
        sum += sq - squares[index]
        squares[index] = sq
        index = (index + 1) % window
        let rms = (max(0, sum) / Double(window)).squareRoot()
        if rms > threshold { gain = max(level, gain - down) } else { gain = min(1, gain + up) }
        return gain
    }
}
