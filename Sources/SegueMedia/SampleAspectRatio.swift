import CFFmpeg

/// Which sample aspect ratio (SAR: pixel width / pixel height) a picture is shown with, when the container and the
/// codec disagree.
///
/// The rule is FFmpeg's `av_guess_sample_aspect_ratio` (libavformat/utils.c), which players and AVFoundation follow
/// too: the container's value (MP4/MOV `pasp`, Matroska `DisplayWidth`/`DisplayHeight`, AVI's `vprp`…: the stream's
/// `sample_aspect_ratio`) when it is set and sane, else the codec's (H.264/HEVC VUI, MPEG-4 Part 2's `par`: the
/// frame's `sample_aspect_ratio`), else square pixels. "Sane" adds one bound to FFmpeg's "positive": within 1:16 …
/// 16:1 (no camera or format has pixels further from square; a value past it is a broken field, and is ignored as an
/// unset one is). So a phone clip whose H.264 VUI says 27:64 while its MP4 `pasp` says 1:1 is shown square, as every
/// player shows it.
struct SampleAspectRatio {
    /// The value used.
    let used: AVRational
    /// The container's value and the codec's, nil where unset or not sane.
    let container: AVRational?
    let codec: AVRational?

    /// The bound of a sane SAR (and its inverse): 16.
    static let saneLimit = 16.0

    /// The SAR of `frame` (the codec's value, per picture) in `stream` (the container's); without a frame, the
    /// stream's codec parameters stand for the codec.
    init(stream: UnsafePointer<AVStream>, frame: UnsafePointer<AVFrame>?) {
        func sane(_ r: AVRational) -> AVRational? {
            var n: Int32 = 0, d: Int32 = 0
            guard r.num > 0, r.den > 0 else { return nil }
            av_reduce(&n, &d, Int64(r.num), Int64(r.den), Int64(Int32.max))
            let v = Double(n) / Double(d)
            return v >= 1 / SampleAspectRatio.saneLimit && v <= SampleAspectRatio.saneLimit ? AVRational(num: n, den: d) : nil
        }
        container = sane(stream.pointee.sample_aspect_ratio)
        codec = sane(frame?.pointee.sample_aspect_ratio ?? stream.pointee.codecpar.pointee.sample_aspect_ratio)
        used = container ?? codec ?? AVRational(num: 1, den: 1)
    }

    /// Whether the container and the codec both say, and differ.
    var disagree: Bool {
        guard let c = container, let k = codec else { return false }
        return Int64(c.num) * Int64(k.den) != Int64(k.num) * Int64(c.den)
    }

    static func text(_ r: AVRational) -> String { "\(r.num):\(r.den)" }
}
