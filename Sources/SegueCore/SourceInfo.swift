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

    /// The rate the clip's timestamps show: one over the median spacing of its first 120 video packets' timestamps.
    /// Measured only when the average rate is implausible (`isPlausibleFrameRate`), nil otherwise.
    public var measuredFrameRate: Double?

    /// The fastest rate a clip's frames are taken to be spaced for: 240 fps (high-speed phone capture). A rate above it
    /// is a clock (a QuickTime timescale of 600 as `r_frame_rate`) or a broken field (a Matroska `DefaultDuration` of
    /// 1 ms reads as an average of 1000 fps), not frame spacing.
    public static let fastestFrameRate = 240.0

    /// Whether `rate` (frames per second) can be a clip's average frame rate: finite, positive, at most
    /// `fastestFrameRate`. Nil (unknown) counts as implausible.
    public static func isPlausibleFrameRate(_ rate: Double?) -> Bool {
        guard let r = rate else { return false }
        return r.isFinite && r > 0 && r <= fastestFrameRate
    }

    /// The rate the clip's frames are spaced for, for judging how long a frame lasts: the measured rate where there is
    /// one, else the average when plausible, else the base rate when plausible; nil for a still or when nothing is known.
    public var frameSpacingRate: Double? {
        if let m = measuredFrameRate, SourceInfo.isPlausibleFrameRate(m) { return m }
        if SourceInfo.isPlausibleFrameRate(nominalFrameRate) { return nominalFrameRate }
        return SourceInfo.isPlausibleFrameRate(baseFrameRate) ? baseFrameRate : nil
    }

    /// The output rate this clip asks for (`AVVideoComposition(propertiesOf:)` takes the track's minimum frame
    /// duration, i.e. its highest rate), or nil if nothing is known. See `defaultFrameRate` for the rule.
    public var standardFrameRate: FrameRate? { defaultFrameRate?.rate }

    /// The output rate this clip asks for, and why (for `--verbose`): its highest rate, as
    /// `AVVideoComposition(propertiesOf:)` takes the track's minimum frame duration, so that no frame is dropped.
    /// - The higher of its base rate (`r_frame_rate`: FFmpeg's estimate of the finest spacing of its timestamps,
    ///   a variable-frame-rate phone clip's capture clock) and its average rate (`avg_frame_rate`), each snapped
    ///   to a standard rate (23.976, 24, 25, 29.97, 30, 50, 59.94, 60) when within 1 % of one, else rounded to
    ///   whole frames per second, and capped at 60. So a clip on a 30 fps clock that averages 24 fps (frames
    ///   dropped) asks for 30, a Live Photo averaging 10.6 fps on a 29.97 fps clock for 29.97, a steady 15 fps
    ///   camera for 15, a 120 fps clip for 60.
    /// - An interlaced clip asks for its frame rate (25 for 50i), not its field rate.
    /// - A base rate above 240 fps is a clock, not frame spacing (a timescale of 600): it is ignored, and a
    ///   variable-frame-rate clip whose average is not a standard rate then asks for 30.
    /// - An average above 240 fps is implausible (a Matroska clip recorded at 30 fps whose `DefaultDuration` of 1 ms
    ///   reads as 1000 fps): the clip asks for the rate its timestamps show (`measuredFrameRate`, the median spacing),
    ///   else 30; its base rate, estimated from the same broken timestamps, is not trusted either.
    public var defaultFrameRate: (rate: FrameRate, reason: String)? {
        func valid(_ r: Double?) -> Double? { r.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }
        func isStandard(_ r: Double) -> Bool {
            let s = FrameRate.snapped(r, cap: 1000)
            return FrameRate.standard.contains(s) && abs(s.framesPerSecond - r) / r < 0.01
        }
        func f(_ r: Double?) -> String { r.map { String(format: "%.3f", $0) } ?? "?" }
        if let a = valid(nominalFrameRate), !SourceInfo.isPlausibleFrameRate(a) {
            if let m = valid(measuredFrameRate), SourceInfo.isPlausibleFrameRate(m) {
                let r = FrameRate.snapped(m)
                return (r, "its timestamps are spaced for \(r) fps\(m > 60.5 ? ", capped at 60" : "") (median spacing \(f(m)) fps; its average, \(f(a)) fps, is implausible)")
            }
            return (FrameRate(30), "its average rate, \(f(a)) fps, is implausible and its timestamps show no spacing: 30 fps")
        }
        let avg = valid(nominalFrameRate)
        var base = valid(baseFrameRate)
        // An interlaced clip counts whole frames: FFmpeg may give a field-coded stream's field rate as its base
        // rate (50 for 50i); the field rate is for edits that ask for it.
        if isInterlaced, let a = avg, let b = base, abs(b - 2 * a) / (2 * a) < 0.01 { base = a }
        let variable = avg != nil && base != nil && abs(base! - avg!) / avg! > 0.01
        let measured = "base \(f(base)), average \(f(avg)) fps\(variable ? ", variable frame rate" : "")"
        func result(_ r: Double, _ why: String) -> (FrameRate, String) {
            let s = FrameRate.snapped(r)
            let how = isStandard(r) ? "" : r > 60.5 ? ", capped at 60" : ", rounded"
            return (s, "\(why) \(s) fps\(how) (\(measured))")
        }
        if let b = base, b <= 240 {
            if let a = avg, a > b { return result(a, "its average rate is") }
            return result(b, "its frames are spaced for")
        }
        guard let a = avg else { return nil }
        if let b = base, variable, !isStandard(a) {
            return (FrameRate(30), "variable frame rate on an implausible \(f(b)) fps clock: 30 fps (\(measured))")
        }
        return result(a, "its average rate is")
    }
    /// Length of the video from its first frame, exact.
    public var duration: MediaTime
    /// Whether the file has an audio stream.
    public var hasAudio: Bool
    /// How many audio streams the file has (`clips[].audioTrack` counts them from 0, in file order).
    public var audioTrackCount = 0
    /// The audio track played when the edit names none: the first audio stream flagged default, else the first;
    /// nil without audio.
    public var defaultAudioTrack: Int?
    /// Presentation time of the first video frame in the file's own clock; clip times count from here,
    /// for audio too (so audio and video stay in step when their streams start at different times).
    public var firstFrameTime: MediaTime = .zero
    /// The colour the clip's pictures are converted with (tags, guesses for what is untagged, the edit's override),
    /// as its first frame says; nil when unknown.
    public var colour: YCbCrColour?
    /// Which of matrix, range, transfer, primaries the edit's `colour` override sets.
    public var colourOverridden: [String] = []

    /// How far a frame's timestamp may lie after a requested time and still count as "at or before" it
    /// (`timestampTolerance(timeBase:averageRate:baseRate:)`); zero until the clip is probed.
    public var timestampTolerance: MediaTime = .zero

    /// The rounding a stream's timestamps may carry: one tick of its time base, but at least 1 ms, and at most a
    /// quarter of its shortest frame interval. What the timeline allows where it compares a clip's media with a
    /// length (a clip starting or ending within it of an output frame); the frame rule adds a camera's late stamps to
    /// it (`frameRuleSlack`).
    ///
    /// Why: containers round timestamps to their clock. Matroska/WebM and FLV count whole milliseconds, so a 30 fps
    /// frame due at 2/30 s = 66.67 ms is stamped 67 ms, after the output frame that should show it; QuickTime files
    /// with a timescale of 600 round 29.97 fps frames by up to half a tick; an MPEG-TS remuxed from a Matroska file
    /// keeps the millisecond rounding in its 90 kHz clock. One tick covers rounding to nearest and rounding up; the
    /// 1 ms floor covers files whose fine clock carries an upstream millisecond rounding. The cap keeps the slack
    /// far below a frame interval (for 240 fps, 1.04 ms), so it never selects a later frame than the one due:
    /// a frame is shown at most that early (never more than 1/4 of a frame).
    /// - Parameters:
    ///   - timeBase: the stream's time base (seconds per tick).
    ///   - averageRate, baseRate: `avg_frame_rate`, `r_frame_rate` in frames per second; rates above 240 are taken
    ///     as a clock (a 600 fps `r_frame_rate` of a variable-frame-rate clip), not as frame spacing.
    public static func timestampTolerance(timeBase: MediaTime, averageRate: Double?, baseRate: Double?) -> MediaTime {
        let millisecond = MediaTime(value: 1, timescale: 1000)
        return capped(timeBase < millisecond ? millisecond : timeBase, averageRate: averageRate, baseRate: baseRate)
    }

    /// The slack of Segue's frame rule (`VideoReader`, `SmartStream.frameIndex`): how far after a requested time a
    /// frame's timestamp may lie and still be the frame shown then. `timestampTolerance` plus one tick of QuickTime's
    /// clock (1/600 s), at most a quarter of the shortest frame interval; zero where the tolerance is (frame times
    /// that are exact: stills, image sequences' own clock, Lottie).
    ///
    /// Why the 1/600 s: cameras stamp frames late on their own clock. An iPhone 4S clip's frames from the 26th on lie a
    /// whole 600 tick (1.67 ms) after k/30 s: within one tick in the phone's file, but remuxed by FFmpeg into MP4
    /// (timescale 19 200) they stay 1/600 s late, past the tolerance of that clock's tick (1 ms), and into Matroska up
    /// to 2 ms late (1/600 s, then rounded to the millisecond); with the tolerance alone such a file showed frame 24
    /// twice and never frame 25, and so on after every late frame (`ContainerTimingTests`).
    public var frameRuleSlack: MediaTime {
        guard MediaTime.zero < timestampTolerance else { return .zero }
        return Self.capped(timestampTolerance + MediaTime(value: 1, timescale: 600), averageRate: nominalFrameRate, baseRate: baseFrameRate)
    }

    /// `slack`, but at most a quarter of the shortest frame interval the rates say (rates above 240 fps ignored).
    static func capped(_ slack: MediaTime, averageRate: Double?, baseRate: Double?) -> MediaTime {
        let fastest = [averageRate, baseRate].compactMap { $0 }.filter { $0.isFinite && $0 > 0 && $0 <= 240 }.max()
        guard let r = fastest else { return slack }
        let quarter = MediaTime(value: 1_000_000, timescale: Int64((4_000_000 * r).rounded()))
        return quarter < slack ? quarter : slack
    }

    /// Progressive, or interlaced with its field order: from the stream's field order
    /// (`AVCodecParameters.field_order`: TT, BB, TB, BT) or, when the stream does not say, the first decoded frame
    /// flagged interlaced (`interlaced_frame`, `top_field_first`). Interlaced clips are deinterlaced by
    /// `SegueMedia` with libavfilter's `bwdif`, one picture per field.
    public var fieldOrder: FieldOrder = .progressive

    /// A still picture (JPEG, PNG, WebP, TIFF, HEIC/HEIF, … — FFmpeg's image demuxers, or libheif): one picture,
    /// decoded once, shown for the clip's whole `duration` (default `defaultStillDuration`). A still has no frame
    /// rate (`nominalFrameRate` and `baseFrameRate` are nil), no audio, and `start` makes no sense for it.
    public var isStill = false
    /// How long a still shows when the edit gives no `duration`: 4 s.
    public static let defaultStillDuration = MediaTime(value: 4, timescale: 1)
    /// Where `orientation` comes from, in words, when not from a video's display matrix: "EXIF orientation 6
    /// (rotate 90° clockwise)", or for HEIF "irot/imir applied by libheif"; nil otherwise.
    public var orientationSource: String?
    /// The EXIF `Orientation` value (1…8) the picture carries, if any.
    public var exifOrientation: Int?
    /// For a still too large to decode whole: how it is read, in words; nil for any other file.
    public var largeStill: String?
    /// The longest side a large still (`largeStill`) is decoded to, however large it is shown: what it holds in memory.
    public static let largeStillMaxSide = 8192
    /// The size of the picture the decoder holds: the stored size, or for a large still at most `largeStillMaxSide`
    /// on its long side.
    public var decodedSize: PixelSize {
        guard largeStill != nil, max(codedSize.width, codedSize.height) > SourceInfo.largeStillMaxSide else { return codedSize }
        let k = Double(SourceInfo.largeStillMaxSide) / Double(max(codedSize.width, codedSize.height))
        return PixelSize(width: max(1, Int((Double(codedSize.width) * k).rounded())), height: max(1, Int((Double(codedSize.height) * k).rounded())))
    }
    /// For an image sequence (a numbered picture pattern): what it is, in words ("image sequence img_%04d.png, pictures
    /// 1001–1048 (48 frames) at 24 fps"); nil for any other file.
    public var imageSequence: String?
    /// Whether the picture has an alpha channel; a still's is composited over the edit's `background` when decoded.
    public var hasAlpha = false

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
    /// The rate the stream's frames are spaced at, exactly (`r_frame_rate`, or `avg_frame_rate` when that is
    /// implausible: above 1000 fps or unknown); nil for a still or an unknown rate. A 240 fps phone recording
    /// stamped in real time says 240; one the phone already slowed to 30 fps says 30.
    public var streamRate: FrameRate?
    /// The rate the camera captured at, when the file says (`com.android.capture.fps`, Samsung's SEF slow-motion data
    /// or an Apple high-frame-rate track, see `captureRateSource`); nil otherwise. When it is above `streamRate` the
    /// file's frames are already slowed down (Android's MediaRecorder slow motion).
    public var captureRate: Double?
    /// Where `captureRate` comes from, in words ("com.android.capture.fps"; "Samsung SEF SlowMotion_Data, recorded in
    /// real time"; "an Apple high-frame-rate track, recorded in real time"); nil without one.
    public var captureRateSource: String?
    /// The sections a phone's gallery plays slowed, as the file lists them (Samsung's SEF `SlowMotion_Data`:
    /// "1.200–3.400 s at 1/8"); Segue reports them and does not apply them (`speed` does). Empty when there are none.
    public var slowMotionSections: [String] = []

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

/// How a clip's frames were scanned (FFmpeg's `AVFieldOrder`, reduced to the order in which the fields are shown).
public enum FieldOrder: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    /// Whole frames (also: the stream does not say and no decoded frame is flagged interlaced).
    case progressive
    /// Interlaced, the top field (the even lines, counted from 0) shown first: 1080i/576i broadcast and most AVCHD.
    case topFieldFirst = "top field first"
    /// Interlaced, the bottom field (the odd lines) shown first: PAL DV, most NTSC DV.
    case bottomFieldFirst = "bottom field first"

    /// "progressive", "interlaced, top field first", "interlaced, bottom field first".
    public var description: String { self == .progressive ? "progressive" : "interlaced, \(rawValue)" }
}
