import CFFmpeg
import SegueCore

/// Everything `segue probe` reports about a media file, as Segue sees it.
public struct ProbeReport: Codable, Sendable {
    public struct Video: Codable, Sendable {
        public var streamIndex: Int
        public var codec: String
        public var pixelFormat: String
        /// Stored size in pixels.
        public var codedWidth: Int, codedHeight: Int
        /// Display matrix rotation, counter-clockwise degrees (`av_display_rotation_get`); 0 without a matrix.
        public var rotation: Int
        public var mirrored: Bool
        /// Size as displayed (SAR applied, then rotated), pixels.
        public var displayWidth: Int, displayHeight: Int
        /// Sample aspect ratio "num:den": the one Segue shows the picture with (`SampleAspectRatio`: the container's
        /// when set and sane, else the codec's, else 1:1).
        public var sampleAspectRatio: String
        /// The container's SAR (MP4 `pasp`, Matroska `DisplayWidth`/`DisplayHeight`) and the codec's (H.264/HEVC VUI),
        /// each nil where unset; both given only when they disagree (`sampleAspectRatio` says which wins).
        public var containerSampleAspectRatio: String?
        public var codecSampleAspectRatio: String?
        /// `avg_frame_rate` and `r_frame_rate`, frames per second.
        public var averageFrameRate: Double?
        public var baseFrameRate: Double?
        /// True when the two disagree by more than 1 % (variable frame rate, as phones record).
        public var variableFrameRate: Bool
        /// Seconds from the first frame.
        public var duration: Double
        /// First frame's presentation time, seconds.
        public var firstPTS: Double
        public var colorMatrix: String
        public var colorRange: String
        public var colorPrimaries: String
        public var colorTransfer: String
        /// The matrix Segue uses to convert to RGB (untagged: BT.709 from 720 lines, else BT.601).
        public var matrixUsed: String
        /// The range, transfer and primaries Segue uses (the tag, the guess for an untagged clip, or the edit's
        /// `colour` override): "limited"/"full", "sdr"/"hlg"/"pq", "bt709"/"bt601"/"bt2020".
        public var rangeUsed: String
        public var transferUsed: String
        public var primariesUsed: String
        /// Which of matrix, range, transfer, primaries were guessed (untagged) and which the edit overrides.
        public var guessed: [String]
        public var overridden: [String]
        /// "progressive", "top field first" or "bottom field first" (`SourceInfo.fieldOrder`: the decoded frames'
        /// flags, else the stream's field order).
        public var fieldOrder: String
        public var interlaced: Bool
        /// How Segue reads an interlaced clip ("bwdif, one picture per field"); nil for a progressive one.
        public var deinterlacing: String?
        /// Pictures per second after deinterlacing (twice the frame rate); nil for a progressive clip.
        public var fieldRate: Double?
        /// The content's peak luminance from its metadata (MaxCLL, else the mastering display's maximum), cd/m².
        public var peakLuminance: Double?
        /// What Segue does to the colours of an HDR clip (or an SDR clip in other primaries) in an SDR edit
        /// (`ColourStage.summary`: "HDR (HLG), tone-mapped with bt2390 (1000 → 100 cd/m²), BT.2020 → BT.709 primaries");
        /// nil for an SDR BT.709 clip, which is converted by its matrix alone.
        public var colourStage: String?
        /// The Dolby Vision configuration record, and what Segue does with it (`DolbyVisionConfiguration.summary`).
        public var dolbyVision: DolbyVisionConfiguration?
        public var dolbyVisionNote: String?
        /// A still picture (JPEG, PNG, WebP, TIFF, HEIC/HEIF, …): shown for the clip's `duration`, by default
        /// `duration` seconds (`SourceInfo.defaultStillDuration`); it has no frame rate.
        public var still: Bool = false
        /// The EXIF orientation value (1…8) the picture carries, if any; `rotation` and `mirrored` show its effect.
        public var exifOrientation: Int?
        /// Where the orientation comes from when not from a display matrix ("EXIF orientation 6: rotate 90° clockwise",
        /// "HEIF irot/imir applied by libheif").
        public var orientationSource: String?
        /// Whether the picture has an alpha channel (drawn over the tracks below it, or the edit's background).
        public var alpha: Bool = false
        /// The rate the camera captured at, where the file records it (`SourceInfo.captureRate`), frames per second.
        public var captureRate: Double? = nil
        /// Where it comes from (`SourceInfo.captureRateSource`), and a malformed Samsung SEF trailer when ignored.
        public var captureRateSource: String? = nil
        /// The sections a phone's gallery plays slowed (Samsung's SEF `SlowMotion_Data`), reported, not applied.
        public var slowMotionSections: [String]? = nil
        /// How much slower than real time the file's frames already play (capture rate / stream rate, e.g. 8 for a
        /// 240 fps capture stamped at 30 fps); nil when not slowed (recorded in real time) or unknown.
        public var alreadySlowedBy: Double? = nil
        /// The rate its frames are stamped at (`"speed": "capture"` plays them at the edit's rate over this), e.g. "240/1".
        public var streamRate: String? = nil
    }
    public struct Audio: Codable, Sendable {
        /// The audio track number `clips[].audioTrack` takes: audio streams counted from 0 in file order.
        public var track: Int
        public var streamIndex: Int
        /// Flagged default (`AV_DISPOSITION_DEFAULT`).
        public var isDefault: Bool
        /// The track Segue plays when the edit names none (the first flagged default, else the first).
        public var playedByDefault: Bool
        public var codec: String
        public var sampleRate: Int
        public var channels: Int
        public var layout: String
    }
    public var path: String
    public var container: String
    public var duration: Double
    public var video: Video?
    public var audio: [Audio]

    /// Probes `path` (decoding its first video frame); `colourOverride` is the edit's `clips[].colour`, if any;
    /// `toneMap` the curve an HDR clip would be tone-mapped with; the file is opened under `policy`. `sequence`: `path`
    /// is a numbered picture pattern (`ImageSequencePattern`), read as an image sequence.
    /// - Throws: `MediaError` when the file cannot be opened, `InputRefused` or `LimitExceeded` when `policy` refuses it
    ///   (an HLS playlist named `holiday.mp4` is reported as what it is).
    public init(path: String, colourOverride: ColourOverride? = nil, toneMap: ToneMapCurve = .default, sequence: ImageSequence? = nil,
                policy: InputPolicy = .default) throws {
        _ = FF.setup
        self.path = path
        if let sequence {
            // An image sequence: what its first picture is, at the sequence's rate.
            let reader = try VideoReader(path: path, colourOverride: colourOverride, decoderThreads: 1, sequence: sequence, policy: policy)
            let info = reader.info
            container = info.imageSequence ?? "image sequence"
            duration = info.duration.seconds
            audio = []
            video = Video(sequence: reader, rate: sequence.rate)
            return
        }
        try MediaInput.check(path, policy: policy)
        if LottieAnimation.isLottie(path: path) {
            // A Lottie animation: a clip at its own rate, drawn by rlottie at the size it is shown.
            let reader = try VideoReader(path: path, colourOverride: colourOverride, policy: policy)
            let info = reader.info, lottie = reader.lottie!
            func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%g", v) }
            container = "lottie (\(lottie.kind), frames \(number(lottie.firstFrame))–\(number(lottie.firstFrame + Double(lottie.frameCount - 1))): \(lottie.frameCount) at \(lottie.rate) fps, "
                + "rlottie, drawn at the size it is shown)"
            duration = info.duration.seconds
            audio = []
            var video = Video(still: "lottie", pixelFormat: "rgba (rlottie, premultiplied)", info: info)
            video.still = false
            video.averageFrameRate = lottie.rate.framesPerSecond
            video.baseFrameRate = lottie.rate.framesPerSecond
            video.streamRate = lottie.rate.description
            self.video = video
            return
        }
        let large = SVGStill.isSVG(path: path) ? nil : try LargeStill.probe(path: path, policy: policy)
        if SVGStill.isSVG(path: path) || large != nil {
            // An SVG document (drawn by librsvg at the size it is shown) or a still too large to decode whole (its
            // header, and how it will be read).
            let info = try VideoReader(path: path, colourOverride: colourOverride, policy: policy).info
            container = large.map { ($0.format.hasPrefix("PNG") ? "png" : "jpeg") + " (" + (info.largeStill ?? "") + ")" }
                ?? "svg (librsvg, drawn at the size it is shown)"
            duration = info.duration.seconds
            audio = []
            video = large.map { Video(still: $0.format.hasPrefix("PNG") ? "png" : "mjpeg", pixelFormat: "rgba (\($0.format))", info: info) }
                ?? Video(still: "svg", pixelFormat: "rgba (librsvg, premultiplied)", info: info)
            return
        }
        if HEIF.isHEIF(path: path) {
            // HEIC/HEIF: read with libheif (FFmpeg 5.1 cannot); decoded as 8-bit R′G′B′A, transformations applied.
            let reader = try VideoReader(path: path, colourOverride: colourOverride, policy: policy)
            let info = reader.info, heif = reader.heif!
            container = "heif (libheif, \(heif.mimeType))"
            duration = info.duration.seconds
            audio = []
            video = Video(heif: heif, info: info)
            return
        }
        _ = FFmpegLog.takeRefusedPictureSize()
        let file: InputFile
        do { file = try InputFile(path: path, policy: policy) } catch let e as MediaError { throw VideoReader.pictureLimit(path, policy) ?? e }
        container = String(cString: file.ctx.pointee.iformat.pointee.name)
        duration = file.ctx.pointee.duration > 0 ? Double(file.ctx.pointee.duration) / 1_000_000 : 0
        audio = Audio.tracks(of: file)
        video = nil
        if file.bestStream(AVMEDIA_TYPE_VIDEO) != nil {
            let reader = try VideoReader(path: path, colourOverride: colourOverride, policy: policy)
            video = Video(stream: reader, toneMap: toneMap)
            if reader.info.isStill { duration = reader.info.duration.seconds }   // FFmpeg's image demuxers say one frame at 25 fps
        }
    }

    /// How interlaced clips are read (see `Deinterlacer`).
    public static let deinterlacing = "bwdif, one picture per field"

    /// A few lines for people.
    public var text: String {
        var s = "\(path)\n  container \(container), \(String(format: "%.3f", duration)) s\n"
        if let v = video {
            s += "  video #\(v.streamIndex): \(v.codec) \(v.pixelFormat), coded \(v.codedWidth)x\(v.codedHeight), SAR \(v.sampleAspectRatio)"
            if let c = v.containerSampleAspectRatio, let k = v.codecSampleAspectRatio {
                s += " (the container's \(c) wins; the codec says \(k), which players ignore, as Segue does)"
            }
            s += ", rotation \(v.rotation)°\(v.mirrored ? " mirrored" : "")"
            s += (v.orientationSource.map { " (\($0))" } ?? "") + ", displayed \(v.displayWidth)x\(v.displayHeight)\n"
            if v.still {
                s += String(format: "    still picture%@: decoded once, shown %.0f s unless the clip gives a duration\n",
                            v.alpha ? " with alpha" : "", v.duration)
            } else {
                s += String(format: "    frame rate %@ avg / %@ base%@, duration %.3f s, first PTS %.3f s\n",
                            v.averageFrameRate.map { String(format: "%.3f", $0) } ?? "?", v.baseFrameRate.map { String(format: "%.3f", $0) } ?? "?",
                            v.variableFrameRate ? " (variable)" : "", v.duration, v.firstPTS)
                if v.alpha { s += "    alpha: pictures drawn over the tracks below (premultiplied)\n" }
                if let c = v.captureRate {
                    s += String(format: "    captured at %g fps (%@), frames stamped at %@ fps: %@\n", c, v.captureRateSource ?? "?", v.streamRate ?? "?",
                                v.alreadySlowedBy.map { String(format: "already slowed down %g× in the file (as stored it plays at 1/%g of real time)", $0, $0) }
                                    ?? "recorded in real time (\"speed\": \"capture\" slows it: every frame once)")
                } else if let note = v.captureRateSource {
                    s += "    \(note)\n"
                }
                if let sections = v.slowMotionSections, !sections.isEmpty {
                    s += "    slow-motion sections the phone's gallery plays slowed (not applied): \(sections.joined(separator: ", "))\n"
                }
            }
            s += "    colour tags: matrix \(v.colorMatrix), range \(v.colorRange), primaries \(v.colorPrimaries), transfer \(v.colorTransfer)\n"
            s += "    colour used: matrix \(v.matrixUsed), range \(v.rangeUsed), primaries \(v.primariesUsed), transfer \(v.transferUsed)"
            if !v.guessed.isEmpty { s += " (guessed: \(v.guessed.joined(separator: ", ")))" }
            if !v.overridden.isEmpty { s += " (from the edit: \(v.overridden.joined(separator: ", ")))" }
            s += "\n"
            if !v.still {
                s += v.interlaced ? "    interlaced, \(v.fieldOrder); deinterlaced with \(v.deinterlacing ?? "?")"
                                    + (v.fieldRate.map { String(format: " (%g pictures/s)", $0) } ?? "") + "\n"
                                  : "    progressive\n"
            }
            if let p = v.peakLuminance { s += String(format: "    peak luminance %.0f cd/m² (metadata)\n", p) }
            if let c = v.colourStage { s += "    in an SDR edit: \(c)\n" }
            if let d = v.dolbyVisionNote { s += "    \(d)\n" }
        } else {
            s += "  no video stream\n"
        }
        for a in audio {
            s += "  audio track \(a.track) (stream #\(a.streamIndex)): \(a.codec) \(a.sampleRate) Hz, \(a.channels) ch" + (a.layout.hasSuffix("channels") ? "" : " (\(a.layout))")
            s += (a.isDefault ? ", flagged default" : "") + (a.playedByDefault && audio.count > 1 ? "; played unless the edit sets audioTrack" : "") + "\n"
        }
        if audio.isEmpty { s += "  no audio stream\n" }
        return s
    }
}

extension ProbeReport.Audio {
    /// The audio streams of `file`, in file order (track numbers from 0), the one played by default marked.
    fileprivate static func tracks(of file: InputFile) -> [ProbeReport.Audio] {
        var audio: [ProbeReport.Audio] = []
        let played = file.defaultAudioTrack
        for (track, i) in file.audioStreams.enumerated() {
            let st = file.stream(i).pointee
            let par = st.codecpar.pointee
            var buf = [CChar](repeating: 0, count: 128)
            var layout = par.ch_layout
            av_channel_layout_describe(&layout, &buf, 128)
            audio.append(ProbeReport.Audio(track: track, streamIndex: Int(i), isDefault: st.disposition & AV_DISPOSITION_DEFAULT != 0,
                                           playedByDefault: track == played, codec: String(cString: avcodec_get_name(par.codec_id)),
                                           sampleRate: Int(par.sample_rate), channels: Int(par.ch_layout.nb_channels),
                                           layout: buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }))
        }
        return audio
    }
}

extension ProbeReport.Video {
    /// An image sequence's video, from the first picture `reader` (opened on the sequence) decoded, at `rate`.
    fileprivate init(sequence reader: VideoReader, rate: FrameRate) {
        let info = reader.info, f = reader.current!.frame.ptr.pointee
        let used = reader.colour(of: reader.current!.frame)
        let format = av_get_pix_fmt_name(AVPixelFormat(rawValue: f.format)).map { String(cString: $0) } ?? "?"
        self.init(streamIndex: 0, codec: "pictures", pixelFormat: format, codedWidth: info.codedSize.width, codedHeight: info.codedSize.height,
                  rotation: 0, mirrored: false, displayWidth: info.displaySize.width, displayHeight: info.displaySize.height,
                  sampleAspectRatio: "1:1", averageFrameRate: rate.framesPerSecond, baseFrameRate: rate.framesPerSecond,
                  variableFrameRate: false, duration: info.duration.seconds, firstPTS: 0,
                  colorMatrix: av_color_space_name(f.colorspace).map { String(cString: $0) } ?? "unknown", colorRange: VideoReader.isFullRange(f) ? "full" : "limited",
                  colorPrimaries: av_color_primaries_name(f.color_primaries).map { String(cString: $0) } ?? "unknown",
                  colorTransfer: av_color_transfer_name(f.color_trc).map { String(cString: $0) } ?? "unknown",
                  matrixUsed: used.matrix.displayName, rangeUsed: used.range.rawValue, transferUsed: used.transfer.rawValue,
                  primariesUsed: used.primaries.rawValue, guessed: [], overridden: info.colourOverridden,
                  fieldOrder: FieldOrder.progressive.rawValue, interlaced: false, deinterlacing: nil, fieldRate: nil, alpha: info.hasAlpha)
    }

    /// A still read or drawn at the size it is shown (a large still, `LargeStill`; an SVG document, `SVGStill`), from the
    /// reader's `info` for it.
    fileprivate init(still codec: String, pixelFormat: String, info: SourceInfo) {
        self.init(streamIndex: 0, codec: codec, pixelFormat: pixelFormat,
                  codedWidth: info.codedSize.width, codedHeight: info.codedSize.height, rotation: info.orientation.rotationDegrees,
                  mirrored: info.orientation.isMirrored, displayWidth: info.displaySize.width, displayHeight: info.displaySize.height,
                  sampleAspectRatio: "1:1", averageFrameRate: nil, baseFrameRate: nil, variableFrameRate: false,
                  duration: info.duration.seconds, firstPTS: 0, colorMatrix: "n/a (R'G'B')", colorRange: "full", colorPrimaries: "unknown",
                  colorTransfer: "unknown", matrixUsed: "n/a", rangeUsed: "full", transferUsed: "sdr", primariesUsed: "bt709",
                  guessed: ["primaries", "transfer"], overridden: [], fieldOrder: FieldOrder.progressive.rawValue, interlaced: false,
                  deinterlacing: nil, fieldRate: nil, still: true, exifOrientation: info.exifOrientation,
                  orientationSource: info.orientationSource, alpha: info.hasAlpha)
    }

    /// A HEIF still as libheif read it (`VideoReader.heif`), with the reader's `info` for it.
    fileprivate init(heif: (mimeType: String, storedSize: PixelSize, bitDepth: Int), info: SourceInfo) {
        self.init(streamIndex: 0, codec: heif.mimeType == "image/avif" ? "av1" : "hevc", pixelFormat: "rgba (libheif, from \(heif.bitDepth)-bit)",
                  codedWidth: heif.storedSize.width, codedHeight: heif.storedSize.height, rotation: 0, mirrored: false,
                  displayWidth: info.displaySize.width, displayHeight: info.displaySize.height, sampleAspectRatio: "1:1",
                  averageFrameRate: nil, baseFrameRate: nil, variableFrameRate: false, duration: info.duration.seconds, firstPTS: 0,
                  colorMatrix: "n/a (R'G'B' from libheif)", colorRange: "full", colorPrimaries: "unknown", colorTransfer: "unknown",
                  matrixUsed: "n/a", rangeUsed: "full", transferUsed: "sdr", primariesUsed: "bt709", guessed: ["primaries", "transfer"], overridden: [],
                  fieldOrder: FieldOrder.progressive.rawValue, interlaced: false, deinterlacing: nil, fieldRate: nil,
                  still: true, exifOrientation: nil, orientationSource: info.orientationSource, alpha: info.hasAlpha)
    }

    /// The video stream FFmpeg reads, from `reader` (its first picture decoded): its tags, what Segue uses and
    /// guesses, and what it does to the colours of an HDR clip in an SDR edit tone-mapped with `toneMap`.
    fileprivate init(stream reader: VideoReader, toneMap: ToneMapCurve) {
        let info = reader.info
        let st = reader.file.stream(reader.streamIndex).pointee
        let f = reader.current!.frame.ptr.pointee
        func name(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "unknown" }
        // A still has no frame rate (FFmpeg's image demuxers say 25).
        let avg = st.avg_frame_rate.isValid && !info.isStill ? st.avg_frame_rate.double : nil
        let base = st.r_frame_rate.isValid && !info.isStill ? st.r_frame_rate.double : nil
        let sar = SampleAspectRatio(stream: reader.file.stream(reader.streamIndex), frame: reader.current!.frame.ptr)
        let used = reader.colour(of: reader.current!.frame)
        let overridden = info.colourOverridden
        let guessed = ProbeReport.Video.guessedColour(of: f).filter { !overridden.contains($0) }
        self.init(
            streamIndex: Int(reader.streamIndex), codec: String(cString: avcodec_get_name(st.codecpar.pointee.codec_id)),
            // As decoded (the deinterlacer may have converted the picture it gave, e.g. NV12 to yuv420p).
            pixelFormat: name(av_get_pix_fmt_name(reader.decoder.ctx.pointee.pix_fmt != AV_PIX_FMT_NONE
                                                  ? reader.decoder.ctx.pointee.pix_fmt : AVPixelFormat(rawValue: f.format))),
            codedWidth: info.codedSize.width, codedHeight: info.codedSize.height,
            rotation: info.orientation.rotationDegrees, mirrored: info.orientation.isMirrored,
            displayWidth: info.displaySize.width, displayHeight: info.displaySize.height,
            sampleAspectRatio: SampleAspectRatio.text(sar.used),
            containerSampleAspectRatio: sar.disagree ? sar.container.map(SampleAspectRatio.text) : nil,
            codecSampleAspectRatio: sar.disagree ? sar.codec.map(SampleAspectRatio.text) : nil,
            averageFrameRate: avg, baseFrameRate: base,
            variableFrameRate: avg != nil && base != nil && abs(avg! - base!) / base! > 0.01,
            duration: info.duration.seconds, firstPTS: info.firstFrameTime.seconds,
            colorMatrix: name(av_color_space_name(f.colorspace)),
            colorRange: VideoReader.isFullRange(f) ? "full" : (f.color_range == AVCOL_RANGE_MPEG ? "limited" : "limited (untagged)"),
            colorPrimaries: name(av_color_primaries_name(f.color_primaries)),
            colorTransfer: name(av_color_transfer_name(f.color_trc)),
            matrixUsed: used.matrix.displayName, rangeUsed: used.range.rawValue, transferUsed: used.transfer.rawValue,
            primariesUsed: used.primaries.rawValue, guessed: guessed, overridden: overridden,
            fieldOrder: info.fieldOrder.rawValue, interlaced: info.isInterlaced,
            deinterlacing: info.isInterlaced ? ProbeReport.deinterlacing : nil, fieldRate: info.fieldRate,
            peakLuminance: used.peakLuminance,
            colourStage: ColourStage(colour: used, output: OutputColour(dynamicRange: .sdr, toneMap: toneMap))?.summary,
            dolbyVision: info.dolbyVision, dolbyVisionNote: info.dolbyVision?.summary,
            still: info.isStill, exifOrientation: info.exifOrientation, orientationSource: info.orientationSource, alpha: info.hasAlpha)
        captureRate = info.captureRate
        captureRateSource = info.captureRateSource
        slowMotionSections = info.slowMotionSections.isEmpty ? nil : info.slowMotionSections
        streamRate = info.streamRate?.description
        if let c = info.captureRate, let r = info.streamRate {
            let slowed = c * Double(r.denominator) / Double(r.numerator)
            alreadySlowedBy = slowed > 1.01 ? (slowed * 1000).rounded() / 1000 : nil
        }
    }

    /// Which of matrix, range, transfer and primaries the decoded picture `f` leaves untagged (so Segue guesses them);
    /// a JPEG pixel format's range counts as tagged.
    private static func guessedColour(of f: AVFrame) -> [String] {
        var guessed: [String] = []
        if ColourTags.matrix(f.colorspace) == nil { guessed.append("matrix") }
        if f.color_range == AVCOL_RANGE_UNSPECIFIED && !VideoReader.isJPEGFormat(f) { guessed.append("range") }
        if ColourTags.transfer(f.color_trc) == nil { guessed.append("transfer") }
        if ColourTags.primaries(f.color_primaries) == nil { guessed.append("primaries") }
        return guessed
    }
}
