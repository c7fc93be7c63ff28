import SegueCore
import SegueMedia

/// Joins the clips' audio on the timeline, sample-exact, crossfades it over each transition, fades it briefly at
/// each hard cut, and mixes the background music (ramps, ducking) under it.
///
/// Clip `i` occupies output samples `[S_i, E_i)` with `S_i = round(T_i × rate)` and `E_i = round((T_i + D_i) × rate)`
/// (exact rational arithmetic; nothing accumulates), read from its audio track (`Placement.audioTrack`). Over the
/// overlap `[S_i, E_{i-1})` of a transition, at `p = (s − S_i) / (E_{i-1} − S_i)` (shaped by the transition's
/// `audioEasing` when it has one, never by the picture's `easing`), the gains are the transition's `AudioCurve`
/// (linear: `1 − p` and `p`; equal-power: `cos(pπ/2)` and `sin(pπ/2)`), times each clip's `volume`.
/// At a cut, the clip before fades out over its last 5 ms and the clip after fades in over its first 5 ms
/// (`CutFade`), unless the second continues the first. A clip without audio contributes silence.
/// Music: `volume × ramps(s) × duck(s)`, the ducking gain computed from the clip mix with look-ahead (`Ducker`):
/// the mixer computes the clip mix that far ahead of the samples it returns.
///
/// The output depends only on the timeline, not on the sizes of the blocks asked for: the single-pass render
/// (a frame's worth at a time) and the separate audio pass (a second at a time) write the same samples.
/// Readers are opened when needed and closed after (memory stays bounded).
final class AudioMixer {
    let timeline: Timeline
    let rate: Int32
    let channels: Int
    let starts: [Int64]
    let ends: [Int64]
    /// Cut-fade lengths in samples at each clip's start and end (0: none).
    let fadeIn: [Int64]
    let fadeOut: [Int64]
    private var readers: [Int: AudioReader] = [:]
    private var finishedClips = Set<Int>()
    /// Samples returned so far.
    private(set) var position: Int64 = 0
    /// The clip mix is computed up to here; `[position, mixed)` is held in `ahead` from `aheadOffset`, interleaved.
    private var mixed: Int64 = 0
    private var ahead: [Float] = []
    private var aheadOffset = 0
    // Music.
    let music: MusicSpec?
    private var musicReader: AudioReader?
    private var musicEnded = false
    private var reopenedEmpty = false
    let ramps: RampEnvelope?
    private var ducker: Ducker?

    init(timeline: Timeline, music: MusicSpec?, sampleRate: Int32, channels: Int) {
        self.timeline = timeline
        rate = sampleRate
        self.channels = channels
        let starts = timeline.placements.map { $0.start.rounded(toUnitsOf: Int64(sampleRate)) }
        let ends = timeline.placements.map { $0.end.rounded(toUnitsOf: Int64(sampleRate)) }
        self.starts = starts
        self.ends = ends
        let p = timeline.placements
        func cut(_ i: Int) -> Bool { i > 0 && i < p.count && p[i].spec.transition == nil && !CutFade.continues(p[i - 1], p[i]) }
        func length(_ i: Int) -> Int64 { CutFade.length(sampleRate: Int(sampleRate), clipSamples: ends[i] - starts[i]) }
        fadeIn = p.indices.map { cut($0) ? length($0) : 0 }
        fadeOut = p.indices.map { cut($0 + 1) ? length($0) : 0 }
        self.music = music
        ramps = music.map { RampEnvelope($0.ramps, editDuration: timeline.duration, sampleRate: Int(sampleRate)) }
        ducker = music?.duck.map { Ducker($0, sampleRate: Int(sampleRate)) }
    }

    /// Gain of clip `i` at output sample `s` (within `[S_i, E_i)`): volume × transition curves × cut fades.
    func gain(clip i: Int, sample s: Int64) -> Float {
        let placement = timeline.placements[i]
        var g = placement.spec.volume
        if i > 0, let t = placement.spec.transition, s < ends[i - 1] {
            let len = ends[i - 1] - starts[i]
            if len > 0 { g *= t.audioCurve.gains((t.audioEasing ?? .linear)(Double(s - starts[i]) / Double(len))).in }
        }
        if i + 1 < starts.count, let t = timeline.placements[i + 1].spec.transition, s >= starts[i + 1] {
            let len = ends[i] - starts[i + 1]
            if len > 0 { g *= t.audioCurve.gains((t.audioEasing ?? .linear)(Double(s - starts[i + 1]) / Double(len))).out }
        }
        if fadeIn[i] > 0 { g *= CutFade.gain(s - starts[i], length: fadeIn[i]) }
        if fadeOut[i] > 0 { g *= CutFade.gain(ends[i] - 1 - s, length: fadeOut[i]) }
        return Float(g)
    }

    /// The next `count` output samples, interleaved.
    func next(_ count: Int) throws -> [Float] {
        let a = position, b = position + Int64(count)
        let need = b + Int64(ducker?.lookahead ?? 0)
        if mixed < need {
            let block = try mixClips(from: mixed, count: Int(need - mixed))
            if ducker != nil {
                for k in 0..<Int(need - mixed) {
                    var peak: Float = 0
                    for c in 0..<channels { peak = max(peak, abs(block[k * channels + c])) }
                    ducker!.feed(Double(peak))
                }
            }
            ahead += block
            mixed = need
        }
        var out = Array(ahead[aheadOffset..<(aheadOffset + count * channels)])
        aheadOffset += count * channels
        // Drop what was returned once it is most of the buffer (a long attack keeps seconds ahead).
        if aheadOffset * 2 > ahead.count { ahead.removeFirst(aheadOffset); aheadOffset = 0 }
        if let m = music { try mixMusic(m, into: &out, from: a, count: count) }
        position = b
        return out
    }

    /// The clips' audio for output samples `[a, a + count)`, interleaved; called with consecutive ranges.
    private func mixClips(from a: Int64, count: Int) throws -> [Float] {
        let b = a + Int64(count)
        var out = [Float](repeating: 0, count: count * channels)
        for (i, p) in timeline.placements.enumerated() where starts[i] < b && a < ends[i] && !finishedClips.contains(i) {
            guard p.source.hasAudio else { continue }
            let reader: AudioReader
            if let r = readers[i] { reader = r } else {
                guard let r = try AudioReader(path: p.spec.path, videoOrigin: p.source.firstFrameTime, start: p.sourceStart,
                                              sampleRate: rate, channels: channels, track: p.audioTrack, policy: timeline.inputPolicy) else { continue }
                // Position the reader at the first sample we need (normally the clip's first sample).
                if a > starts[i] { _ = try r.read(Int(a - starts[i])) }
                readers[i] = r
                reader = r
            }
            let lo = max(a, starts[i]), hi = min(b, ends[i])
            let samples = try reader.read(Int(hi - lo))
            for s in lo..<hi {
                let g = gain(clip: i, sample: s)
                let k = Int(s - lo) * channels, o = Int(s - a) * channels
                for c in 0..<channels { out[o + c] += samples[k + c] * g }
            }
            if hi == ends[i] { readers[i] = nil; finishedClips.insert(i) }
        }
        return out
    }

    private func mixMusic(_ m: MusicSpec, into out: inout [Float], from a: Int64, count: Int) throws {
        // Song samples, looping from `start` when asked.
        var song: [Float] = []
        while song.count < count * channels && !musicEnded {
            if musicReader == nil {
                musicReader = try AudioReader(path: m.path, videoOrigin: .zero, start: m.start, sampleRate: rate, channels: channels,
                                              policy: timeline.inputPolicy)
                if musicReader == nil { musicEnded = true; break }
            }
            let got = try musicReader!.readAvailable(count - song.count / channels)
            if got.isEmpty {
                musicReader = nil
                // Stop at the end unless looping; a reopened song that yields nothing at all also stops.
                if !m.loop || reopenedEmpty { musicEnded = true } else { reopenedEmpty = true }
            } else {
                reopenedEmpty = false
                song += got
            }
        }
        if song.count < count * channels { song += [Float](repeating: 0, count: count * channels - song.count) }
        for k in 0..<count {
            let s = a + Int64(k)
            var g = m.volume * (ramps?.gain(at: s) ?? 1)
            if ducker != nil { g *= ducker!.nextGain() }
            let gf = Float(g)
            for c in 0..<channels { out[k * channels + c] += song[k * channels + c] * gf }
        }
    }
}
