import SegueCore
import SegueEdit
import SegueMedia

/// The output's audio: the edit's mix (`AudioMixer`), normalised to the edit's loudness target when it has one
/// (`OutputSettings.loudness`): a first pass of the mixer over the whole edit measures its integrated loudness and
/// true peak (`LoudnessMeter`), then the render's pass goes through one gain and a true-peak limiter
/// (`LoudnessNormaliser`). The single-pass render and a farm's audio pass both mix the whole edit here, so a chunked
/// render is measured over the whole edit, never per chunk.
package final class OutputAudio {
    private let mixer: AudioMixer
    private let normaliser: LoudnessNormaliser?
    /// The whole edit's samples (per channel): `frameCount` frames at the frame rate, rounded to samples.
    package let total: Int64
    /// What the mix measured before normalisation; nil without a loudness target.
    package let measured: LoudnessMeasurement?
    /// The normalisation's gain, dB (0 without a loudness target).
    package var gain: Double { normaliser?.gain ?? 0 }
    /// Samples returned so far.
    package private(set) var position: Int64 = 0

    /// Throws `MediaError` (a clip's audio unreadable during the measuring pass, a filter this FFmpeg lacks).
    package init(timeline: Timeline) throws {
        let rate = Int32(timeline.audio.sampleRate), channels = timeline.audio.channels
        total = MediaTime(frame: timeline.frameCount, rate: timeline.frameRate).rounded(toUnitsOf: Int64(rate))
        mixer = AudioMixer(timeline: timeline, music: timeline.music, sampleRate: rate, channels: channels)
        guard let target = timeline.output.loudness else { measured = nil; normaliser = nil; return }
        let meter = try LoudnessMeter(sampleRate: rate, channels: channels)
        let pass = AudioMixer(timeline: timeline, music: timeline.music, sampleRate: rate, channels: channels)
        while pass.position < total { try meter.feed(try pass.next(Int(min(total - pass.position, Int64(rate))))) }
        let m = try meter.finish()
        measured = m
        normaliser = try LoudnessNormaliser(target: target, measured: m, sampleRate: rate, channels: channels, total: total)
    }

    /// The next `count` output samples, interleaved.
    package func next(_ count: Int) throws -> [Float] {
        defer { position += Int64(count) }
        guard let n = normaliser else { return try mixer.next(count) }
        return try n.next(count) { try mixer.next($0) }
    }
}
