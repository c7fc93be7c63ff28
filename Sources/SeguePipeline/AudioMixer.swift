import SegueCore
import SegueMedia

/// Joins the clips' audio on the timeline, sample-exact, with linear crossfades over each transition.
///
/// Clip `i` occupies output samples `[S_i, E_i)` with `S_i = round(T_i × rate)` and `E_i = round((T_i + D_i) × rate)`
/// (rounding in exact rational arithmetic; nothing accumulates). Over the overlap `[S_i, E_{i-1})` of a transition the
/// incoming clip's gain is `p = (s − S_i) / (E_{i-1} − S_i)` and the outgoing clip's `1 − p`. A clip without audio
/// contributes silence. Readers are opened when their clip starts and closed when it ends (memory stays bounded).
final class AudioMixer {
    let timeline: Timeline
    let rate: Int32
    let starts: [Int64]
    let ends: [Int64]
    private var readers: [Int: AudioReader] = [:]
    private var finishedClips = Set<Int>()
    private(set) var position: Int64 = 0

    init(timeline: Timeline, sampleRate: Int32) {
        self.timeline = timeline
        rate = sampleRate
        starts = timeline.placements.map { $0.start.rounded(toUnitsOf: Int64(sampleRate)) }
        ends = timeline.placements.map { $0.end.rounded(toUnitsOf: Int64(sampleRate)) }
    }

    /// Gain of clip `i` at output sample `s` (within `[S_i, E_i)`).
    func gain(clip i: Int, sample s: Int64) -> Float {
        var g: Float = 1
        if i > 0, timeline.placements[i].spec.transition != nil, s < ends[i - 1] {
            let len = ends[i - 1] - starts[i]
            if len > 0 { g *= Float(Double(s - starts[i]) / Double(len)) }
        }
        if i + 1 < starts.count, timeline.placements[i + 1].spec.transition != nil, s >= starts[i + 1] {
            let len = ends[i] - starts[i + 1]
            if len > 0 { g *= 1 - Float(Double(s - starts[i + 1]) / Double(len)) }
        }
        return g
    }

    /// The next `count` output samples (interleaved stereo).
    func next(_ count: Int) throws -> [Float] {
        let a = position, b = position + Int64(count)
        var out = [Float](repeating: 0, count: count * 2)
        for (i, p) in timeline.placements.enumerated() where starts[i] < b && a < ends[i] && !finishedClips.contains(i) {
            guard p.source.hasAudio else { continue }
            let reader: AudioReader
            if let r = readers[i] { reader = r } else {
                guard let r = try AudioReader(path: p.spec.path, videoOrigin: p.source.firstFrameTime, start: p.sourceStart, sampleRate: rate) else { continue }
                // Position the reader at the first sample we need (normally the clip's first sample).
                if a > starts[i] { _ = try r.read(Int(a - starts[i])) }
                readers[i] = r
                reader = r
            }
            let lo = max(a, starts[i]), hi = min(b, ends[i])
            let samples = try reader.read(Int(hi - lo))
            for s in lo..<hi {
                let g = gain(clip: i, sample: s)
                let k = Int(s - lo), o = Int(s - a)
                out[2 * o] += samples[2 * k] * g
                out[2 * o + 1] += samples[2 * k + 1] * g
            }
            if hi == ends[i] { readers[i] = nil; finishedClips.insert(i) }
        }
        position = b
        return out
    }
}
