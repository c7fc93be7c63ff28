/// What the renderer needs to know about a clip's media file, as probed by `SegueMedia`.
public struct SourceInfo: Equatable, Sendable {
    /// Stored picture size in pixels.
    public var codedSize: PixelSize
    /// Sample aspect ratio (pixel width / pixel height); 1 for square pixels.
    public var sampleAspectRatio: Double
    /// Orientation from the stream's display matrix (identity when it has none).
    public var orientation: Orientation
    /// Nominal frame rate (`avg_frame_rate`, else `r_frame_rate`), frames per second; nil if unknown.
    public var nominalFrameRate: Double?
    /// The stream's base rate (`r_frame_rate`), frames per second; nil if unknown. For variable-frame-rate
    /// phone clips this is the capture clock (29.97) while the average is lower; it can also be absurd (600).
    public var baseFrameRate: Double?

    /// The standard output rate this clip asks for: its average rate if that is within 1 % of a standard rate
    /// (23.976, 24, 25, 29.97, 30, 50, 59.94, 60); else its base rate if that is; else, for a variable-frame-rate
    /// clip, 30; else its average rounded to whole frames per second (at most 60). Nil if nothing is known.
    public var standardFrameRate: FrameRate? {
        func standard(_ r: Double?) -> FrameRate? {
            guard let r = r, r.isFinite, r > 0 else { return nil }
            let s = FrameRate.snapped(r)
            return FrameRate.standard.contains(s) && abs(s.framesPerSecond - r) / r < 0.01 ? s : nil
        }
        if let s = standard(nominalFrameRate) { return s }
        if let s = standard(baseFrameRate) { return s }
        guard let avg = nominalFrameRate, avg.isFinite, avg > 0 else { return nil }
        if let base = baseFrameRate, abs(base - avg) / avg > 0.01 { return FrameRate(30) }
        return FrameRate.snapped(avg)
    }
    /// Length of the video from its first frame, exact.
    public var duration: MediaTime
    /// Whether the file has an audio stream.
    public var hasAudio: Bool
    /// Presentation time of the first video frame in the file's own clock; clip times count from here,
    /// for audio too (so audio and video stay in step when their streams start at different times).
    public var firstFrameTime: MediaTime = .zero
    /// Progressive, or interlaced with its field order: from the stream's field order
    /// (`AVCodecParameters.field_order`: TT, BB, TB, BT) or, when the stream does not say, the first decoded frame
    /// flagged interlaced (`interlaced_frame`, `top_field_first`). Interlaced clips are deinterlaced by
    /// `SegueMedia` with libavfilter's `bwdif`, one picture per field.
    public var fieldOrder: FieldOrder = .progressive

    /// Whether the clip is interlaced (`fieldOrder` is not `.progressive`).
    public var isInterlaced: Bool { fieldOrder != .progressive }

    /// Pictures per second the reader delivers for an interlaced clip: one per field, twice its frame rate
    /// (`nominalFrameRate`, whole frames: 25 for 50i, so 50 here); nil for a progressive clip or an unknown rate.
    /// FFmpeg can report an interlaced stream's `r_frame_rate` (`baseFrameRate`) as this field rate (50 for 50i,
    /// typically H.264 coded as field pairs) while its average rate counts frames (25): a default rate rule that
    /// wants whole frames should use `nominalFrameRate`, and the field rate only when the edit asks for it.
    public var fieldRate: Double? {
        guard isInterlaced, let r = nominalFrameRate, r.isFinite, r > 0 else { return nil }
        return 2 * r
    }

    public init(codedSize: PixelSize, sampleAspectRatio: Double = 1, orientation: Orientation = .identity,
                nominalFrameRate: Double?, duration: MediaTime, hasAudio: Bool) {
        self.codedSize = codedSize; self.sampleAspectRatio = sampleAspectRatio; self.orientation = orientation
        self.nominalFrameRate = nominalFrameRate; self.duration = duration; self.hasAudio = hasAudio
    }

    /// Size as displayed: SAR applied, then turned by the orientation (rounded to whole pixels).
    public var displaySize: PixelSize {
        let w = Int((Double(codedSize.width) * sampleAspectRatio).rounded())
        return orientation.swapsAxes ? PixelSize(width: codedSize.height, height: w) : PixelSize(width: w, height: codedSize.height)
    }
}

/// How a clip's frames were scanned (FFmpeg's `AVFieldOrder`, reduced to the order in which the fields are shown).
public enum FieldOrder: String, Codable, Sendable, CustomStringConvertible {
    /// Whole frames (also: the stream does not say and no decoded frame is flagged interlaced).
    case progressive
    /// Interlaced, the top field (the even lines, counted from 0) shown first: 1080i/576i broadcast and most AVCHD.
    case topFieldFirst = "top field first"
    /// Interlaced, the bottom field (the odd lines) shown first: PAL DV, most NTSC DV.
    case bottomFieldFirst = "bottom field first"

    /// "progressive", "interlaced, top field first", "interlaced, bottom field first".
    public var description: String { self == .progressive ? "progressive" : "interlaced, \(rawValue)" }
}
