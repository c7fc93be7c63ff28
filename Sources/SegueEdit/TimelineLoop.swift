import SegueCore

// Looped items (`ClipSpec.loop`, the edit file's `"loop": true`): the source plays from `start` to its end, then again
// from `start`, for as long as the item lasts.
extension Timeline {
    /// `offset` brought into 0 ..< `period` (exactly: `offset − ⌊offset / period⌋ · period`); `offset` itself when the
    /// period is not positive.
    static func wrapped(_ offset: MediaTime, period: MediaTime) -> MediaTime {
        guard MediaTime.zero < period else { return offset }
        let turns = offset.floored(toUnitsOf: period.timescale, per: period.value)
        return offset - period * turns
    }

    /// Checks that `spec` (whose `loop` is set) can loop over its source `src`: a file with time (not a still) and no
    /// audio, played forwards, not frozen.
    /// - Throws: `EditError` naming `field.loop`.
    static func checkLoop(_ spec: ClipSpec, _ src: SourceInfo, field f: String, name: String) throws {
        let why: String? = src.isStill ? "is a still picture: it has no time to loop"
            : spec.freeze != nil ? "is frozen: a held frame does not loop"
            : spec.reverse ? "plays in reverse, which does not loop; leave one out"
            : src.hasAudio ? "has audio, which does not loop: only a file without audio loops (a Lottie animation, a silent clip)"
            : nil
        if let why { throw EditError("\(f).loop", "\(name) \(why)") }
    }
}
