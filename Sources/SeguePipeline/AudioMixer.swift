import SegueCore
import SegueEdit
import SegueMedia

/// Mixes the edit's audio, sample-exact: every video track's clips (each track joined as one sequence: crossfaded over
/// its transitions, faded briefly at its hard cuts), every audio track's items likewise, and the background music
/// (ramps, ducking) under them — AVFoundation's audio mix of all a composition's tracks.
///
/// Item `i` of a track occupies output samples `[S_i, E_i)` with `S_i = round(T_i × rate)` and
/// `E_i = round((T_i + D_i) × rate)` (exact rational arithmetic; nothing accumulates), read from its audio track
/// (`Placement.audioTrack`). Over the overlap `[S_i, E_{i-1})` of a transition with the item before it on its track,
/// at `p = (s − S_i) / (E_{i-1} − S_i)` (shaped by the transition's `audioEasing` when it has one, never by the
/// picture's `easing`), the gains are the transition's `AudioCurve` (linear: `1 − p` and `p`; equal-power:
/// `cos(pπ/2)` and `sin(pπ/2)`), times each item's `volume` and its `ramps` (`RampEnvelope`, from the item's first
/// sample). At a cut between two adjacent files of a track, the item before fades out over its last 5 ms and the item
/// after fades in over its first 5 ms (`CutFade`), unless the second continues the first; an item after a gap, or
/// placed with `at`, starts as recorded. An item without audio, a gap, a fill and a `volume` of 0 contribute nothing.
/// Music: `volume × ramps(s) × duck(s)`, the ducking gain computed with look-ahead (`Ducker`) from the mix of
/// everything that ducks it: the video tracks' audio and the audio tracks that do not say `"duck": false`.
///
/// The output depends only on the timeline, not on the sizes of the blocks asked for: the single-pass render
/// (a frame's worth at a time) and the separate audio pass (a second at a time) write the same samples.
/// Readers are opened when needed and closed after (memory stays bounded).
package final class AudioMixer {
    /// One item's audio on the output timeline.
    struct Voice {
        let placement: Timeline.Placement
        /// `[start, end)` in output samples.
        let start: Int64, end: Int64
        /// The transition into this item and the sample where the item before it ends (the overlap is `[start, previousEnd)`).
        let into: (transition: Transition, previousEnd: Int64)?
        /// The transition out of it (into the next item) and the sample where the next item starts.
        let out: (transition: Transition, nextStart: Int64)?
        /// Cut-fade lengths in samples at its start and end (0: none).
        let fadeIn: Int64, fadeOut: Int64
        /// The item's own gain ramps, from its first sample.
        let ramps: RampEnvelope?
        /// Whether the music ducks under it.
        let ducks: Bool
    }

    let timeline: Timeline
    let rate: Int32
    let channels: Int
    let voices: [Voice]
    private var readers: [Int: SampleSource] = [:]
    private var finished = Set<Int>()
    /// Samples returned so far.
    package private(set) var position: Int64 = 0
    /// The mix is computed up to here; `[position, mixed)` is held in `ahead` from `aheadOffset`, interleaved.
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

    package init(timeline: Timeline, music: MusicSpec?, sampleRate: Int32, channels: Int) {
        self.timeline = timeline
        rate = sampleRate
        self.channels = channels
        func samples(_ t: MediaTime) -> Int64 { t.rounded(toUnitsOf: Int64(sampleRate)) }
        var voices: [Voice] = []
        func sequence(_ items: [Timeline.Placement], ducks: Bool) {
            for (i, p) in items.enumerated() {
                // Silent: no audio, volume 0, a frozen frame, a track matte, or a retimed clip whose pitch is "mute".
                guard p.isMedia, p.source.hasAudio, p.spec.volume > 0, p.spec.freeze == nil, p.spec.matte == nil,
                      p.spec.pitch != .mute || (p.timeMap.isIdentity && !p.spec.reverse) else { continue }
                let start = samples(p.start), end = samples(p.end)
                let previous = i > 0 ? items[i - 1] : nil, next = i + 1 < items.count ? items[i + 1] : nil
                // A cut: the item before is a file ending exactly where this one starts, joined without a transition.
                func cut(_ a: Timeline.Placement?, _ b: Timeline.Placement?) -> Bool {
                    guard let a, let b, a.isMedia, b.isMedia, b.spec.transition == nil, a.end == b.start else { return false }
                    return !CutFade.continues(a, b)
                }
                let length = CutFade.length(sampleRate: Int(sampleRate), clipSamples: end - start)
                voices.append(Voice(placement: p, start: start, end: end,
                                    into: p.spec.transition.flatMap { t in previous.map { (t, samples($0.end)) } },
                                    out: next.flatMap { n in n.spec.transition.map { ($0, samples(n.start)) } },
                                    fadeIn: cut(previous, p) ? length : 0, fadeOut: cut(p, next) ? length : 0,
                                    ramps: p.spec.ramps.isEmpty ? nil : RampEnvelope(p.spec.ramps, editDuration: p.duration, sampleRate: Int(sampleRate)),
                                    ducks: ducks))
            }
        }
        for members in timeline.tracks { sequence(members.map { timeline.placements[$0] }, ducks: true) }
        for track in timeline.audioTracks { sequence(track.items.map { timeline.audioPlacements[$0] }, ducks: track.duck) }
        self.voices = voices
        self.music = music
        ramps = music.map { RampEnvelope($0.ramps, editDuration: timeline.duration, sampleRate: Int(sampleRate)) }
        ducker = music?.duck.map { Ducker($0, sampleRate: Int(sampleRate)) }
    }

    /// Gain of voice `v` at output sample `s` (within `[start, end)`): volume × transition curves × cut fades × ramps.
    func gain(_ v: Voice, sample s: Int64) -> Float {
        var g = v.placement.spec.volume
        if let (t, previousEnd) = v.into, s < previousEnd {
            let len = previousEnd - v.start
            if len > 0 { g *= t.audioCurve.gains((t.audioEasing ?? .linear)(Double(s - v.start) / Double(len))).in }
        }
        if let (t, nextStart) = v.out, s >= nextStart {
            let len = v.end - nextStart
            if len > 0 { g *= t.audioCurve.gains((t.audioEasing ?? .linear)(Double(s - nextStart) / Double(len))).out }
        }
        if v.fadeIn > 0 { g *= CutFade.gain(s - v.start, length: v.fadeIn) }
        if v.fadeOut > 0 { g *= CutFade.gain(v.end - 1 - s, length: v.fadeOut) }
        if let r = v.ramps { g *= r.gain(at: s - v.start) }
        return Float(g)
    }

    /// The next `count` output samples, interleaved.
    package func next(_ count: Int) throws -> [Float] {
        let a = position, b = position + Int64(count)
        let need = b + Int64(ducker?.lookahead ?? 0)
        if mixed < need {
            let (keyed, other) = try mixVoices(from: mixed, count: Int(need - mixed))
            if ducker != nil {
                for k in 0..<Int(need - mixed) {
                    var peak: Float = 0
                    for c in 0..<channels { peak = max(peak, abs(keyed[k * channels + c])) }
                    ducker!.feed(Double(peak))
                }
            }
            ahead += other.isEmpty ? keyed : zip(keyed, other).map { $0 + $1 }
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

    /// The voices' audio for output samples `[a, a + count)`, interleaved: those the music ducks under (`keyed`), and
    /// the others (empty when there are none); called with consecutive ranges.
    private func mixVoices(from a: Int64, count: Int) throws -> (keyed: [Float], other: [Float]) {
        let b = a + Int64(count)
        var keyed = [Float](repeating: 0, count: count * channels)
        var other = voices.contains(where: { !$0.ducks }) ? [Float](repeating: 0, count: count * channels) : []
        for (i, v) in voices.enumerated() where v.start < b && a < v.end && !finished.contains(i) {
            let reader: SampleSource
            if let r = readers[i] { reader = r } else {
                guard let r = try open(v) else { finished.insert(i); continue }
                // Position the reader at the first sample we need (normally the item's first sample).
                if a > v.start { _ = try r.read(Int(a - v.start)) }
                readers[i] = r
                reader = r
            }
            let lo = max(a, v.start), hi = min(b, v.end)
            let samples = try reader.read(Int(hi - lo))
            if v.ducks {
                add(samples, v, lo, hi, a, into: &keyed)
            } else {
                add(samples, v, lo, hi, a, into: &other)
            }
            if hi == v.end { readers[i] = nil; finished.insert(i) }
        }
        return (keyed, other)
    }

    /// The samples of voice `v` from its first, at the output's rate: its file's audio, retimed when the clip is
    /// (`RetimedAudio`: speed, ramp, reverse; pitch kept or following), nil when the file has none.
    private func open(_ v: Voice) throws -> SampleSource? {
        let p = v.placement
        let retimed = !p.timeMap.isIdentity || p.spec.reverse
        let constant: Double? = p.timeMap.isConstant ? p.timeMap.speed(at: .zero) : nil
        let follow = retimed && p.spec.pitch == .follow
        // Varispeed at a constant speed S: the source resampled to rate / S and played at rate.
        let readerRate = follow && constant != nil ? Int32((Double(rate) / constant!).rounded()) : rate
        guard let base = try AudioReader(path: p.spec.path, videoOrigin: p.source.firstFrameTime, start: p.sourceStart,
                                         sampleRate: readerRate, channels: channels, track: p.audioTrack, policy: timeline.inputPolicy) else { return nil }
        guard retimed else { return base }
        var source: SampleSource = base
        if p.spec.reverse {
            source = try BufferedSamples.reversed(base, frames: Int(p.sourceDuration.rounded(toUnitsOf: Int64(readerRate))), channels: channels)
        }
        let map = p.timeMap, r = Int64(rate)
        let mapping: @Sendable (Int64) -> Int64
        if follow && constant != nil {
            mapping = { n in n }
        } else {
            mapping = { n in map.sourceOffset(at: MediaTime(value: n, timescale: r)).rounded(toUnitsOf: r) }
        }
        return try RetimedAudio(source: source, sampleRate: rate, channels: channels, total: v.end - v.start,
                                mode: follow ? .follow : .keep, constantSpeed: constant, slowest: map.slowest, path: p.spec.path,
                                sourceSample: mapping)
    }

    private func add(_ samples: [Float], _ v: Voice, _ lo: Int64, _ hi: Int64, _ a: Int64, into out: inout [Float]) {
        for s in lo..<hi {
            let g = gain(v, sample: s)
            let k = Int(s - lo) * channels, o = Int(s - a) * channels
            for c in 0..<channels { out[o + c] += samples[k + c] * g }
        }
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
