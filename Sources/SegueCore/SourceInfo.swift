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
    /// Length of the video from its first frame, exact.
    public var duration: MediaTime
    /// Whether the file has an audio stream.
    public var hasAudio: Bool
    /// Presentation time of the first video frame in the file's own clock; clip times count from here,
    /// for audio too (so audio and video stay in step when their streams start at different times).
    public var firstFrameTime: MediaTime = .zero

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
