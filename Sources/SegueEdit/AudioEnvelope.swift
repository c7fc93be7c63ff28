import SegueCore

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

/// Ducking: lowers the music while the clips' audio is present, with look-ahead, so the music is already down
/// when the clips' audio begins.
///
/// Presence: the clip mix at sample `c` is present when the RMS of its loudest channel over the 20 ms window
/// centred on `c` (`[c − w/2, c + w/2)`, `w` = rate / 50) is above `threshold` (−40 dBFS by default). With `P` the
/// present samples, `a(s)` the distance from `s` to the next present sample and `r(s)` the distance back to the last
/// one (0 when `s` is present), the music gain is
///
///     g(s) = min(1, level + (1 − level) · min(a(s) / attack, r(s) / release))     (attack, release in samples)
///
/// so the gain falls linearly over the `attack` seconds *before* the clips' audio starts and reaches `level` when
/// it does, holds `level` while it lasts, and rises back to 1 over the `release` seconds after it ends (the slopes
/// of AVFoundation-style volume ramps, one full swing per `attack` or `release`). A render knows the future, so
/// this needs no guess: the caller feeds the clip mix `lookahead` samples ahead of the gains it asks for.
/// The gains depend only on the clip mix, never on how the caller splits its blocks.
public struct Ducker: Sendable {
    public let level: Double
    let attack: Int64, release: Int64
    let window: Int, half: Int
    let threshold: Double
    private var squares: [Double]
    private var index = 0
    private var sum = 0.0
    /// Clip-mix samples fed so far.
    private var fed: Int64 = 0
    /// Runs of present samples, `[start, end)`, oldest first; only the last run before the current sample is kept.
    private var runs: [(start: Int64, end: Int64)] = []
    /// The sample whose gain `nextGain()` returns next.
    private var current: Int64 = 0

    /// - Parameters:
    ///   - d: level (0…1) and attack, release (seconds).
    ///   - sampleRate: samples per second.
    ///   - threshold: the RMS (full scale = 1) above which the clips' audio counts as present; 0.01 = −40 dBFS.
    public init(_ d: Ducking, sampleRate: Int, threshold: Double = 0.01) {
        level = d.level
        attack = Int64((d.attack * Double(sampleRate)).rounded())
        release = Int64((d.release * Double(sampleRate)).rounded())
        window = max(1, sampleRate / 50)
        half = window / 2
        self.threshold = threshold
        squares = [Double](repeating: 0, count: window)
    }

    /// How many clip-mix samples past sample `s` must have been fed before `nextGain()` may return the gain of `s`:
    /// the attack plus the part of the presence window after its centre.
    public var lookahead: Int { Int(attack) + window - half }

    /// Feeds the next sample of the clip mix (the loudest channel's magnitude), in order from sample 0.
    public mutating func feed(_ x: Double) {
        let sq = x * x
        sum += sq - squares[index]
        squares[index] = sq
        index = (index + 1) % window
        // The window now ends at sample `fed`; its centre is `fed − (window − 1 − half)`.
        let centre = fed - Int64(window - 1 - half)
        fed += 1
        guard centre >= 0, (max(0, sum) / Double(window)).squareRoot() > threshold else { return }
        if let last = runs.last, last.end == centre { runs[runs.count - 1].end = centre + 1 } else { runs.append((centre, centre + 1)) }
    }

    /// The music gain for the next sample (0, 1, 2, … in turn). Requires `lookahead + 1` samples fed beyond the
    /// previous call's sample (callers feed silence past the end of the clips).
    public mutating func nextGain() -> Double {
        let s = current
        precondition(fed > s + Int64(lookahead), "the ducker needs \(lookahead) samples of look-ahead")
        current += 1
        // Drop runs that ended before the last one that ended at or before `s`.
        while runs.count > 1 && runs[1].end <= s { runs.removeFirst() }
        let span = 1 - level
        var g = 1.0
        for run in runs {
            if run.start <= s && s < run.end { return level }
            if run.end <= s {   // released from this run
                let r = s - (run.end - 1)
                g = min(g, release > 0 ? level + span * Double(r) / Double(release) : 1)
            } else {            // attacking towards this run
                let a = run.start - s
                g = min(g, attack > 0 ? level + span * Double(a) / Double(attack) : 1)
                break
            }
        }
        return min(1, g)
    }
}
