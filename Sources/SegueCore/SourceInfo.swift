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
    /// The colour of the first picture as Segue converts it (its tags, the guesses for what is untagged, the edit's
    /// `colour` override); nil when not probed.
    public var colour: YCbCrColour?
    /// The stream's Dolby Vision configuration record, if it has one.
    public var dolbyVision: DolbyVisionConfiguration?

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
