import SegueCore

/// The short fades that keep a hard cut from clicking.
///
/// At a cut (a join without a transition) the outgoing clip's audio ends wherever its waveform happens to be and
/// the incoming one starts wherever its waveform is, so the join steps from one value to the other: a click that
/// neither source has. Segue fades the outgoing clip out over its last `duration` (5 ms) and the incoming clip in
/// over its first 5 ms, linearly, on each clip's own samples, so nothing moves on the timeline (clip `i`'s first
/// sample stays at `round(T_i × rate)`). A step of up to the full amplitude `A` becomes at most `A / n` per sample
/// (`n` = 5 ms of samples: 240 at 48 kHz) on top of the signal's own step; for a tone of frequency `f` the largest
/// step is `2A·sin(πf/rate)`, so the fade adds no step larger than the tone's own for `f ≥ rate / (2π n)`
/// (32 Hz), whatever the phases at the cut.
///
/// No fade where the incoming clip continues the outgoing one: the same file and audio track, starting exactly
/// where the other ends (a clip split in two). The audio is then one continuous resampled stream.
/// A clip shorter than 10 ms fades over half its length. Transitions are crossfaded instead (`AudioCurve`);
/// the edit's own start and end are not faded.
public enum CutFade {
    /// 5 ms.
    public static let duration = MediaTime(value: 1, timescale: 200)

    /// Fade length in samples at `sampleRate` for a clip of `clipSamples` samples: `round(duration × rate)`,
    /// at most half the clip.
    public static func length(sampleRate: Int, clipSamples: Int64) -> Int64 {
        min(duration.rounded(toUnitsOf: Int64(sampleRate)), clipSamples / 2)
    }

    /// Gain of the `k`-th sample (0-based) counted from the clip's edge inwards, for a fade of `length` samples:
    /// `(k + ½) / length` inside the fade (sampled at the sample centres, so a fade-out mirrors a fade-in), 1 after.
    public static func gain(_ k: Int64, length: Int64) -> Double {
        k >= length ? 1 : (Double(k) + 0.5) / Double(length)
    }

    /// Whether clip `next` continues clip `previous` without a join in its audio: joined by a cut, the same file
    /// and audio track, and `next` starting in the source exactly (rational time) where `previous` ends.
    public static func continues(_ previous: Timeline.Placement, _ next: Timeline.Placement) -> Bool {
        next.spec.transition == nil && previous.spec.file != nil && previous.spec.file == next.spec.file && previous.audioTrack == next.audioTrack
            && previous.timeMap.isIdentity && next.timeMap.isIdentity && !previous.spec.reverse && !next.spec.reverse
            && previous.sourceStart + previous.duration == next.sourceStart
    }
}
