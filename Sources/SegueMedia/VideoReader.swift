import CFFmpeg
import SegueCore

/// Reads a clip's video as stored pictures at requested source times: `picture(at:)` gives the decoded planes
/// (no pixel conversion for the Y′CbCr formats the renderers take), `frame(at:)` an RGBA conversion.
///
/// Source frame rule: for source time `s` (seconds from the clip's first frame), the picture is the last decoded
/// frame whose PTS − first PTS ≤ `s + ε`, where ε (`SourceInfo.frameRuleSlack`: one tick of the stream's time base,
/// at least 1 ms, plus 1/600 s, at most a quarter frame) absorbs the container's rounding of timestamps (Matroska
/// stamps a 30 fps frame due at 66.67 ms as 67 ms) and a camera's late stamps (an iPhone's, 1/600 s late). This
/// holds for variable frame rates too. Past the last
/// frame, the last frame is held. Times must be requested in non-decreasing order after a `seek`.
///
/// Interlaced clips (see `SourceInfo.fieldOrder`) are deinterlaced with libavfilter's `bwdif`, one picture per
/// field (`Deinterlacer`): a 50i clip gives 50 pictures a second, at each frame's PTS and half-way to the next.
/// PTS inside the reader count half units of the stream time base so that those field pictures are exact.
///
/// Colour: the stream's matrix (BT.601/BT.709/BT.2020 from `AVFrame.colorspace`; unspecified → BT.709 at
/// ≥ 720 lines, else BT.601), range and chroma siting travel with each `VideoPicture`; the RGBA conversion
/// (libswscale) uses the same matrix and range.
///
/// Still pictures (`isStill`: a file FFmpeg reads with one of its image demuxers — JPEG, PNG, WebP, TIFF, BMP, …
/// — or a HEIC/HEIF/AVIF file, read with libheif) go through the same reader: the picture is decoded once, when the
/// reader opens, and every time gives that same picture (same `VideoPicture.identity`, so the GPU uploads it once).
/// Its EXIF orientation becomes `info.orientation` (`ExifOrientation`).
///
/// Alpha: a stream or still whose pixel format has alpha (`info.hasAlpha`) gives RGBA pictures with premultiplied
/// alpha (`keepsAlpha`), which the renderers draw over what is below them. VP8/VP9 in WebM/Matroska store alpha in a
/// side channel (`alpha_mode` 1) that FFmpeg's own decoders drop: such streams are decoded with libvpx.
public final class VideoReader {
    public let path: String
    public private(set) var info = SourceInfo(codedSize: PixelSize(width: 0, height: 0), nominalFrameRate: nil, duration: .zero, hasAudio: false)
    /// A still picture: decoded once, the same picture at every time (see above).
    public let isStill: Bool
    /// For a HEIF file: libheif's MIME type and the size as stored (before `irot`/`imir`); nil for FFmpeg's files.
    public private(set) var heif: (mimeType: String, storedSize: PixelSize, bitDepth: Int)?
    /// PTS of the first picture, in half units of the stream time base (`timeBase / 2`, see `decodeNext`).
    private(set) var firstPTS: Int64 = 0
    /// ε of the frame rule (`SourceInfo.timestampTolerance`).
    private var tolerance: MediaTime = .zero
    /// The rules the file (and whatever it pulls in) was opened under: its picture-size limit applies to every
    /// picture decoded.
    public let policy: InputPolicy
    /// For an image sequence (a numbered picture pattern): its pictures, read one file per frame.
    let sequenceReader: ImageSequenceReader?
    /// For a still too large to decode whole (`LargeStill`): read shrunk on load, at each size a layer asks for.
    let largeStill: LargeStill?
    /// For an SVG document (`SVGStill`): drawn by librsvg at each size a layer shows it at.
    let svg: SVGStill?
    /// For a Lottie animation (`LottieAnimation`): read as a sequence of frames at its rate, each drawn by rlottie at the
    /// size a layer shows it at.
    let lottie: LottieAnimation?
    /// The frames read one at a time as a sequence: an image sequence's or a Lottie animation's.
    var pictureSequence: PictureSequence? { sequenceReader ?? lottie }
    /// The demuxer and decoder; nil for a HEIF file (read with libheif, decoded once in `init`) and an image sequence.
    let file: InputFile!
    let streamIndex: Int32
    let timeBase: AVRational
    let decoder: Decoder!
    let packet = Packet()
    var current: (rel: MediaTime, frame: Frame)?
    var pending: (rel: MediaTime, frame: Frame)?
    var ended = false
    var scaler: Scaler?
    var scalerKey: (Int32, Int32, Int32, Int32, Int32) = (0, 0, -1, -1, -1)
    /// Frames decoded so far (for tests and `--verbose`).
    public private(set) var decodedFrames = 0
    /// Packets the decoder rejected as corrupt.
    public private(set) var corruptPackets = 0
    /// Whether interlaced frames are deinterlaced (one picture per field) or read as stored.
    let deinterlaces: Bool
    /// The deinterlacer and the pictures it has given but `decodeNext` has not returned yet.
    var fields = FieldPictures()

    /// Replaces the stream's colour tags (and the guesses for untagged clips) where set: the edit's `clips[].colour`.
    public let colourOverride: ColourOverride?

    /// How the frames are decoded: `.cuda` when asked for and the device opened, else `.none` (software).
    public let hardware: HardwareDecoding
    /// Why hardware decoding asked for is not used (no device, no driver), or nil.
    public let hardwareProblem: String?
    /// Frames that came from the hardware decoder (downloaded to system memory).
    public private(set) var hardwareFrames = 0

    /// Opens `path`'s best video stream and decodes its first picture. `colourOverride` replaces the stream's colour
    /// tags. With `deinterlace` (the default), frames flagged interlaced are deinterlaced with `bwdif`, one picture
    /// per field; without it every frame is read as stored (for comparing files). `hardware` asks for an FFmpeg hwaccel (falling back to software decoding, with `hardwareProblem` set,
    /// where the device cannot be opened; codecs without that hwaccel decode in software too). Throws `MediaError`
    /// when the file cannot be opened, has no video stream, or yields no decodable frame. `decoderThreads`: libavcodec's thread count
    /// (0: its own choice; 1 for a reader that only needs the first picture, which then decodes one frame rather than
    /// one per frame thread).
    public init(path: String, colourOverride: ColourOverride? = nil, hardware: HardwareDecoding = .none, deinterlace: Bool = true,
                decoderThreads: Int32 = 0, sequence: ImageSequence? = nil, policy: InputPolicy = .default) throws {
        self.path = path
        self.colourOverride = colourOverride
        self.deinterlaces = deinterlace
        self.policy = policy
        if let sequence {
            // A numbered picture pattern: one picture file per frame at the sequence's rate (`ImageSequenceReader`).
            _ = FF.setup
            let reader = try ImageSequenceReader(path: path, sequence: sequence, policy: policy)
            sequenceReader = reader
            largeStill = nil; svg = nil; lottie = nil
            file = nil; decoder = nil; streamIndex = -1; timeBase = reader.timeBase
            self.hardware = .none; hardwareProblem = nil
            isStill = false
            try readFirstSequencePicture(reader, sequence: sequence)
            return
        }
        // Before anything reads it (libheif's and libpng's checks read its first bytes): a FIFO would block.
        try MediaInput.check(path, policy: policy)
        sequenceReader = nil
        if LottieAnimation.isLottie(path: path) {
            // A Lottie animation: a clip at its own rate, whose frames rlottie draws at the size each layer shows them.
            _ = FF.setup
            let animation = try LottieAnimation(path: path, policy: policy)
            lottie = animation; svg = nil; largeStill = nil
            file = nil; decoder = nil; streamIndex = -1; timeBase = animation.timeBase
            self.hardware = .none; hardwareProblem = nil
            isStill = false
            try readFirstLottieFrame(animation)
            return
        }
        lottie = nil
        // SVG: drawn from its vectors by librsvg at the size each layer shows it (`SVGStill`), never by FFmpeg. A PNG or
        // JPEG too large to decode whole: only its header is read here; each picture a layer asks for is decoded
        // shrunk to that size (`VideoReaderPictures.swift`). For either, a 1×1 frame stands for it meanwhile.
        svg = SVGStill.isSVG(path: path) ? try SVGStill(path: path, policy: policy) : nil
        largeStill = svg == nil ? try LargeStill.probe(path: path, policy: policy) : nil
        if svg != nil || largeStill != nil {
            _ = FF.setup
            file = nil; decoder = nil; streamIndex = -1; timeBase = AVRational(num: 1, den: 1)
            self.hardware = .none; hardwareProblem = nil
            isStill = true
            if let svg { info = try standIn(svg.size, hasAlpha: true) } else { try standInForLargeStill(largeStill!) }
            return
        }
        if HEIF.isHEIF(path: path) {
            // HEIC/HEIF: FFmpeg 5.1 cannot read it; libheif decodes the primary image once, transformations applied.
            _ = FF.setup
            let handle = try HEIFContext(path: path).primaryImage()
            // The sizes libheif read from the file's boxes, checked before a pixel is decoded.
            for size in [handle.size, handle.storedSize] where size.width * size.height > policy.limits.maxPicturePixels {
                throw LimitExceeded.picture(path, size, policy.limits)
            }
            let frame = try handle.decodeRGBA()
            file = nil; decoder = nil; streamIndex = -1; timeBase = AVRational(num: 1, den: 1)
            self.hardware = .none; hardwareProblem = nil
            isStill = true
            takeHEIFPicture(frame, of: handle)
            return
        }
        let (input, vi) = try VideoReader.openVideoStream(path: path, policy: policy)
        file = input
        streamIndex = vi
        let st = input.stream(vi)
        timeBase = st.pointee.time_base
        isStill = VideoReader.isImageDemuxer(String(cString: input.ctx.pointee.iformat.pointee.name))
        let (device, problem) = VideoReader.hardwareDevice(hardware)
        self.hardware = device == nil ? .none : hardware
        hardwareProblem = problem
        decoder = try Decoder(stream: st, path: path, threads: decoderThreads, hardware: device, name: VideoReader.alphaDecoder(st),
                              maxPixels: policy.limits.maxPicturePixels)
        try readFirstPicture(of: st)
    }

    /// Decodes an image sequence's first picture (the time origin) and describes the sequence in `info`.
    /// - Throws: `MediaError` when no picture of it decodes.
    private func readFirstSequencePicture(_ reader: ImageSequenceReader, sequence: ImageSequence) throws {
        guard let first = try decodeNext() else { throw MediaError(path: path, function: nil, message: "image sequence: no picture could be decoded") }
        firstPTS = first.pts
        current = (.zero, first.frame)
        let f = first.frame.ptr.pointee
        let rate = sequence.rate
        info = SourceInfo(codedSize: PixelSize(width: Int(f.width), height: Int(f.height)),
                          sampleAspectRatio: f.sample_aspect_ratio.isValid ? f.sample_aspect_ratio.double : 1,
                          nominalFrameRate: rate.framesPerSecond, duration: MediaTime(frame: Int64(reader.count), rate: rate), hasAudio: false)
        info.baseFrameRate = rate.framesPerSecond
        info.timestampTolerance = SourceInfo.timestampTolerance(timeBase: rate.frameDuration, averageRate: rate.framesPerSecond, baseRate: nil)
        info.hasAlpha = Frame.hasAlpha(AVPixelFormat(rawValue: f.format))
        info.imageSequence = "image sequence \(reader.pattern), pictures \(reader.first)–\(reader.last) (\(reader.count) frames"
            + (reader.missing.isEmpty ? "" : ", \(reader.missing.count) missing: \(sequence.missingFrames == .hold ? "the picture before held" : "black")")
            + ") at \(rate) fps"
        tolerance = info.frameRuleSlack
        info.colour = colour(of: first.frame)
    }

    /// Takes a Lottie animation's first frame (a stand-in: frames are drawn when asked for) and describes the animation
    /// in `info`: its size, its rate exactly, its duration, alpha; no timestamp tolerance (its frame times are exact).
    private func readFirstLottieFrame(_ animation: LottieAnimation) throws {
        guard let first = try decodeNext() else { throw MediaError(path: path, function: nil, message: "the Lottie animation has no frame") }
        firstPTS = first.pts
        current = (.zero, first.frame)
        let rate = animation.rate
        info = SourceInfo(codedSize: animation.size, nominalFrameRate: rate.framesPerSecond, duration: animation.duration, hasAudio: false)
        info.baseFrameRate = rate.framesPerSecond
        info.streamRate = rate
        info.hasAlpha = true
        info.colour = colour(of: first.frame)
    }

    /// Holds a 1×1 stand-in picture for a still drawn or decoded at each size asked for (an SVG document, a large
    /// still); returns the description of a still of `size`.
    private func standIn(_ size: PixelSize, hasAlpha: Bool) throws -> SourceInfo {
        let stand = try Frame.allocated(width: 1, height: 1, format: AV_PIX_FMT_RGBA)
        stand.ptr.pointee.color_range = AVCOL_RANGE_JPEG
        current = (.zero, stand)
        ended = true
        var still = SourceInfo(codedSize: size, nominalFrameRate: nil, duration: SourceInfo.defaultStillDuration, hasAudio: false)
        still.isStill = true
        still.hasAlpha = hasAlpha
        still.colour = colour(of: stand)
        return still
    }

    /// Holds a 1×1 stand-in picture for a still too large to decode whole; describes the still (its header) in `info`.
    private func standInForLargeStill(_ large: LargeStill) throws {
        var still = try standIn(large.size, hasAlpha: large.hasAlpha)
        if let v = large.exifOrientation, let o = Orientation(exifOrientation: v) {
            still.orientation = o
            still.exifOrientation = v
            still.orientationSource = "EXIF orientation \(v): \(Orientation.exifDescription(v))"
        }
        still.largeStill = "\(large.format) read shrunk on load (libpng row by row / libjpeg DCT scaling), at most \(LargeStill.maxSide) pixels a side"
        info = still
    }

    /// Holds a HEIF file's one picture, `frame` (decoded by libheif from `handle`), and describes it in `info`.
    private func takeHEIFPicture(_ frame: Frame, of handle: HEIFImageHandle) {
        current = (.zero, frame)
        ended = true
        decodedFrames = 1
        heif = (HEIF.mimeType(path: path), handle.storedSize, handle.lumaBits)
        var still = SourceInfo(codedSize: handle.size, nominalFrameRate: nil, duration: SourceInfo.defaultStillDuration, hasAudio: false)
        still.isStill = true
        still.hasAlpha = handle.hasAlpha
        still.orientationSource = "HEIF irot/imir applied by libheif" + (handle.storedSize != handle.size ? ", stored \(handle.storedSize)" : "")
        still.colour = colour(of: frame)
        info = still
    }

    /// Opens `path` with FFmpeg and finds its best video stream, whose declared size is checked against `policy`'s
    /// picture limit before any picture is decoded. Returns the file and the stream's index.
    /// - Throws: `LimitExceeded` (libavutil refused a picture larger than the limit, or the declared size passes it), else
    ///   `MediaError` (the file cannot be opened, or has no video stream: the message says when it is audio only).
    private static func openVideoStream(path: String, policy: InputPolicy) throws -> (InputFile, Int32) {
        _ = FFmpegLog.takeRefusedPictureSize()
        let file: InputFile
        do { file = try InputFile(path: path, policy: policy) } catch let e as MediaError {
            throw VideoReader.pictureLimit(path, policy) ?? e
        }
        guard let vi = file.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw VideoReader.pictureLimit(path, policy)
                ?? MediaError(path: path, function: nil, message: file.bestStream(AVMEDIA_TYPE_AUDIO) == nil ? "has no video stream (and no audio)"
                              : "has no video stream: it is audio only. To hear it, put it on an audio track (\"audioTracks\": "
                              + "[{\"clips\": [{\"path\": ...}]}] in an edit file) or play it as music (--music FILE, or \"music\" in an edit file)")
        }
        let st = file.stream(vi)
        // The size the container or the stream's header declares, checked before any picture is decoded.
        let declared = PixelSize(width: Int(st.pointee.codecpar.pointee.width), height: Int(st.pointee.codecpar.pointee.height))
        if declared.width * declared.height > policy.limits.maxPicturePixels { throw LimitExceeded.picture(path, declared, policy.limits) }
        return (file, vi)
    }

    /// The shared device for `hardware` decoding (nil for `.none`), or why it cannot be opened.
    private static func hardwareDevice(_ hardware: HardwareDecoding) -> (device: HardwareDevice?, problem: String?) {
        var device: HardwareDevice?
        var problem: String?
        if hardware != .none {
            switch HardwareDevice.shared(hardware) {
            case .success(let d): device = d
            case .failure(let e): problem = e.message
            }
        }
        return (device, problem)
    }

    /// Sets up the reading of stream `st` (the other streams discarded, the deinterlacer told the field order), decodes
    /// its first picture (which fixes the time origin and proves the stream decodes) and describes the stream in `info`.
    /// - Throws: `LimitExceeded` or `MediaError` when no frame decodes.
    private func readFirstPicture(of st: UnsafeMutablePointer<AVStream>) throws {
        // Discard other streams so that demuxing skips them cheaply.
        for i in 0..<Int32(file.ctx.pointee.nb_streams) where i != streamIndex { file.stream(i).pointee.discard = AVDISCARD_ALL }
        fields.declared = FieldPictures.fieldOrder(st.pointee.codecpar.pointee.field_order)
        fields.active = deinterlaces && fields.declared != .progressive
        let avg = st.pointee.avg_frame_rate
        if avg.isValid { fields.seekMargin = MediaTime(value: 2 * Int64(avg.den), timescale: Int64(avg.num)) }
        // First frame: fixes the time origin and proves the stream decodes.
        guard let first = try decodeNext() else {
            throw VideoReader.pictureLimit(path, policy) ?? MediaError(path: path, function: nil, message: "no video frame could be decoded")
        }
        firstPTS = first.pts
        current = (.zero, first.frame)
        if isStill { ended = true }   // decoded once: nothing more is read
        try describeStream(st, first: first.frame)
    }

    /// Fills `info` for stream `st` from its first picture `first`: size and aspect ratio, orientation, frame rates,
    /// duration, alpha, colour (with the edit's override), field order and Dolby Vision.
    private func describeStream(_ st: UnsafeMutablePointer<AVStream>, first: Frame) throws {
        let f = first.ptr.pointee
        // The container's SAR when it is set and sane, else the codec's (`SampleAspectRatio`).
        let sar = SampleAspectRatio(stream: st, frame: first.ptr).used.double
        let (orientation, exif) = displayOrientation(of: st, first: first)
        let rate = nominalFrameRate(of: st)
        // An average no camera records (a Matroska DefaultDuration of 1 ms reads as 1000 fps): what the timestamps show.
        var measured: (rate: Double, interval: Int64)? = nil
        if !isStill, !SourceInfo.isPlausibleFrameRate(rate) { measured = try medianFrameInterval() }
        let firstTime = MediaTime(value: firstPTS * Int64(timeBase.num), timescale: 2 * Int64(timeBase.den))
        let duration = try clipDuration(of: st, firstTime: firstTime, rate: rate, minimumPacketDuration: measured?.interval ?? 0)
        let hasAudio = file.bestStream(AVMEDIA_TYPE_AUDIO) != nil
        info = SourceInfo(codedSize: PixelSize(width: Int(f.width), height: Int(f.height)), sampleAspectRatio: sar,
                          orientation: orientation, nominalFrameRate: rate, duration: duration, hasAudio: hasAudio)
        info.audioTrackCount = file.audioStreams.count
        info.defaultAudioTrack = file.defaultAudioTrack
        info.firstFrameTime = firstTime
        info.measuredFrameRate = measured?.rate
        if isStill {
            info.isStill = true
            info.firstFrameTime = .zero
            info.exifOrientation = exif
            info.orientationSource = exif.map { "EXIF orientation \($0): \(Orientation.exifDescription($0))" }
        } else {
            info.baseFrameRate = st.pointee.r_frame_rate.isValid ? st.pointee.r_frame_rate.double : nil
            info.timestampTolerance = SourceInfo.timestampTolerance(
                timeBase: MediaTime(value: Int64(timeBase.num), timescale: Int64(timeBase.den)),
                averageRate: st.pointee.avg_frame_rate.isValid ? st.pointee.avg_frame_rate.double : nil, baseRate: info.baseFrameRate)
        }
        info.hasAlpha = Frame.hasAlpha(AVPixelFormat(rawValue: f.format))
        if !isStill { describeRecordedRates(of: st) }
        tolerance = info.frameRuleSlack
        info.colour = colour(of: first)
        if let o = colourOverride {
            info.colourOverridden = [("matrix", o.matrix != nil), ("range", o.range != nil), ("transfer", o.transfer != nil),
                                     ("primaries", o.primaries != nil)].filter(\.1).map(\.0)
        }
        info.fieldOrder = fields.fieldOrder
        info.dolbyVision = VideoReader.dolbyVision(st)
    }

    /// How the picture is turned for display: the stream's display matrix, or for a still its EXIF orientation (from
    /// the decoded frame's metadata, else the file), which is also returned.
    private func displayOrientation(of st: UnsafeMutablePointer<AVStream>, first: Frame) -> (Orientation, exif: Int?) {
        var orientation = Orientation.identity
        if let m = segue_stream_display_matrix(st) {
            orientation = Orientation(displayMatrix: Array(UnsafeBufferPointer(start: m, count: 9)))
        }
        var exif: Int?
        if isStill {
            exif = ExifOrientation.fromMetadata(first) ?? ExifOrientation.fromFile(path: path, codec: st.pointee.codecpar.pointee.codec_id)
            if let v = exif, let o = Orientation(exifOrientation: v) { orientation = o }
        }
        return (orientation, exif)
    }

    /// The stream's frame rate, frames per second: its average, else its base rate; nil for a still (FFmpeg's image
    /// demuxers report 25) or when neither is valid.
    private func nominalFrameRate(of st: UnsafeMutablePointer<AVStream>) -> Double? {
        var rate: Double? = nil
        if isStill {} // a still has no frame rate (FFmpeg's image demuxers report 25)
        else if st.pointee.avg_frame_rate.isValid { rate = st.pointee.avg_frame_rate.double }
        else if st.pointee.r_frame_rate.isValid { rate = st.pointee.r_frame_rate.double }
        return rate
    }

    /// The clip's duration from its first frame (`firstTime`): a still's default; else the stream's own if the container
    /// records it, else the end of the last video packet (containers disagree on what their own duration field means;
    /// a packet lasts at least `minimumPacketDuration`), else the container's, else one frame at `rate` (30 fps
    /// without one). Never zero or less (1/30 s then).
    private func clipDuration(of st: UnsafeMutablePointer<AVStream>, firstTime: MediaTime, rate: Double?, minimumPacketDuration: Int64) throws -> MediaTime {
        var duration: MediaTime
        let startTime = st.pointee.start_time != FF.noPTS ? st.pointee.start_time : firstPTS / 2
        if isStill {
            duration = SourceInfo.defaultStillDuration
        } else if st.pointee.duration > 0 && st.pointee.duration != FF.noPTS {
            duration = MediaTime(value: st.pointee.duration + startTime, timescale: Int64(timeBase.den)) * Int64(timeBase.num) - firstTime
        } else if let end = try lastPacketEnd(minimumDuration: minimumPacketDuration) {
            duration = MediaTime(value: end, timescale: Int64(timeBase.den)) * Int64(timeBase.num) - firstTime
        } else if file.ctx.pointee.duration > 0 {
            duration = MediaTime(value: file.ctx.pointee.duration, timescale: 1_000_000)
        } else {
            duration = MediaTime(value: 1, timescale: Int64(rate.map { max(1, Int($0.rounded())) } ?? 30))
        }
        if !(MediaTime.zero < duration) { duration = MediaTime(value: 1, timescale: 30) }
        return duration
    }

    /// Sets `info`'s rate the frames are stamped at (the base rate when at most 1000 fps, else the average) and the
    /// rate the camera captured at, where the file records it (docs/time.md, "Slow motion from phones"):
    /// - Android: `com.android.capture.fps` in the stream's or the file's metadata (MediaRecorder's udta key);
    /// - Samsung: an SEF trailer with `SlowMotion_Data` (`SamsungSEF`): recorded in real time, so the capture rate is
    ///   the stream rate, and the sections the gallery slows are kept in `slowMotionSections`; a malformed trailer is
    ///   ignored (the file still plays) and said in `captureRateSource`;
    /// - Apple: a track above `SlowMotion.highFrameRate` in a file whose `com.apple.quicktime.make` is Apple (iPhone
    ///   slow motion is recorded in real time at 120 or 240 fps; the section Photos slows is not in a form read here).
    private func describeRecordedRates(of st: UnsafeMutablePointer<AVStream>) {
        let r = st.pointee.r_frame_rate, a = st.pointee.avg_frame_rate
        if r.isValid, r.double <= 1000 { info.streamRate = FrameRate(r.num, r.den) } else if a.isValid { info.streamRate = FrameRate(a.num, a.den) }
        func tag(_ key: String) -> String? {
            for dict in [st.pointee.metadata, file.ctx.pointee.metadata] {
                if let t = av_dict_get(dict, key, nil, 0) { return String(cString: t.pointee.value) }
            }
            return nil
        }
        let stamped = info.streamRate.map { Double($0.numerator) / Double($0.denominator) }
        if let v = tag("com.android.capture.fps").flatMap(Double.init), v > 0, v.isFinite {
            info.captureRate = v
            info.captureRateSource = "com.android.capture.fps"
        }
        do {
            if let sections = try SamsungSEF.slowMotionSections(path: path), !sections.isEmpty {
                info.slowMotionSections = sections.map(\.description)
                if info.captureRate == nil, let stamped {
                    info.captureRate = stamped
                    info.captureRateSource = "Samsung SEF SlowMotion_Data, recorded in real time"
                }
            }
        } catch {
            info.captureRateSource = (info.captureRateSource.map { $0 + "; " } ?? "") + "\(error) (ignored)"
        }
        if info.captureRate == nil, tag("com.apple.quicktime.make") == "Apple", let stamped, stamped > SlowMotion.highFrameRate {
            info.captureRate = stamped
            info.captureRateSource = "an Apple high-frame-rate track, recorded in real time"
        }
    }

    /// The libvpx decoder for a VP8 or VP9 stream that carries alpha (the Matroska/WebM `alpha_mode` tag 1, whose alpha
    /// plane travels in BlockAdditional data that FFmpeg's native decoders ignore; libvpx's decode it, giving
    /// yuva420p), nil otherwise (libavcodec's default decoder).
    static func alphaDecoder(_ st: UnsafeMutablePointer<AVStream>) -> String? {
        guard let tag = av_dict_get(st.pointee.metadata, "alpha_mode", nil, 0), String(cString: tag.pointee.value) == "1" else { return nil }
        switch st.pointee.codecpar.pointee.codec_id {
        case AV_CODEC_ID_VP9: return "libvpx-vp9"
        case AV_CODEC_ID_VP8: return "libvpx"
        default: return nil
        }
    }

    /// The stream's Dolby Vision configuration record (stream side data `AV_PKT_DATA_DOVI_CONF`), if any.
    static func dolbyVision(_ st: UnsafeMutablePointer<AVStream>) -> DolbyVisionConfiguration? {
        guard let r = segue_stream_dovi_config(st)?.pointee else { return nil }
        return DolbyVisionConfiguration(versionMajor: Int(r.dv_version_major), versionMinor: Int(r.dv_version_minor),
                                        profile: Int(r.dv_profile), level: Int(r.dv_level), rpuPresent: r.rpu_present_flag != 0,
                                        enhancementLayerPresent: r.el_present_flag != 0, baseLayerPresent: r.bl_present_flag != 0,
                                        compatibilityID: Int(r.dv_bl_signal_compatibility_id))
    }

    /// Source time of a picture's PTS (half units of the stream time base) from the first picture.
    func rel(_ pts: Int64) -> MediaTime {
        MediaTime(value: (pts - firstPTS) * Int64(timeBase.num), timescale: 2 * Int64(timeBase.den))
    }

    /// Decodes the next frame in presentation order as stored (PTS in stream time-base units), or nil at the end
    /// of the stream. Corrupt packets and frames the decoder rejects are skipped and counted (`corruptPackets`);
    /// a read error ends the stream (a truncated file then holds its last good picture). `decodeNext` turns these
    /// frames into pictures (deinterlacing interlaced ones).
    func decodeFrame() throws -> (pts: Int64, frame: Frame)? {
        if let sequence = pictureSequence {
            guard let next = try sequence.decodeNext() else { return nil }
            decodedFrames += 1
            lastPTS = next.pts
            return next
        }
        guard let decoder, let file else { return nil }   // a HEIF still: decoded once by libheif
        let frame = Frame()
        var failures = 0
        while true {
            let rc = avcodec_receive_frame(decoder.ctx, frame.ptr)
            if rc == 0 {
                // A hardware decoder's picture is downloaded to system memory first (same planes as software decoding).
                let decoded = frame.ptr.pointee.hw_frames_ctx == nil ? frame : try frame.inSystemMemory(path: path)
                if decoded !== frame { hardwareFrames += 1 }
                decodedFrames += 1
                var pts = decoded.ptr.pointee.best_effort_timestamp
                if pts == FF.noPTS { pts = decoded.ptr.pointee.pts }
                if pts == FF.noPTS { pts = lastPTS.map { $0 + 1 } ?? 0 }
                if decoded.ptr.pointee.decode_error_flags != 0 || (decoded.ptr.pointee.flags & AV_FRAME_FLAG_CORRUPT) != 0 { concealedFrames += 1 }
                lastPTS = pts
                return (pts, decoded)
            }
            if rc == FF.eof { return nil }
            if rc != FF.eagain {
                // A frame the decoder could not reconstruct: skip it, but never loop forever.
                corruptPackets += 1
                failures += 1
                if failures > 1000 { throw MediaError(path: path, function: "avcodec_receive_frame", code: rc, message: FF.message(rc)) }
                continue
            }
            if ended { return nil }
            // Feed one packet.
            while true {
                let r = file.readPacket(packet.ptr)
                if r < 0 {
                    if r != FF.eof { readErrors += 1 }
                    ended = true
                    avcodec_send_packet(decoder.ctx, nil)  // drain
                    break
                }
                defer { av_packet_unref(packet.ptr) }
                if packet.ptr.pointee.stream_index != streamIndex { continue }
                if (packet.ptr.pointee.flags & AV_PKT_FLAG_CORRUPT) != 0 { corruptPackets += 1 }
                let s = avcodec_send_packet(decoder.ctx, packet.ptr)
                if s < 0 && s != FF.eagain {
                    corruptPackets += 1  // corrupt packet: skip it, keep the last good picture
                    continue
                }
                break
            }
        }
    }
    /// The PTS of the last frame decoded (stream time base).
    private(set) var lastPTS: Int64?
    /// The container's last video packet's PTS, once read (`endsEarly`): nil not read yet, `.some(nil)` unreadable.
    var containerLastPTS: Int64??


    /// Frames the decoder marked as concealed (damaged but shown).
    public private(set) var concealedFrames = 0
    /// Read errors that ended the stream early (a truncated file).
    public private(set) var readErrors = 0
    /// Requests answered with the last picture although the clip should still have pictures there
    /// (more than two frame durations after the last decodable frame): the file ends early.
    public private(set) var heldPastEnd = 0

    /// Positions the reader so that the next `frame(at:)` with a time ≥ `sourceTime` is cheap: when the target
    /// is more than half a second ahead of (or behind) the current picture, seeks to the keyframe at or before it
    /// and decodes forward from there. Wraps `av_seek_frame` (`AVSEEK_FLAG_BACKWARD`).
    public func seek(to sourceTime: MediaTime) throws {
        if isStill { return }   // one picture, decoded once
        let near = MediaTime(value: 1, timescale: 2)
        if let c = current, !(sourceTime + tolerance < c.rel) {
            // Past the last decodable picture (a truncated file): hold it rather than seek into missing data.
            if ended && pending == nil { return }
            // Decoding forward is cheaper than seeking when the target is close to the picture we hold or the next one.
            if sourceTime - c.rel < near { return }
            if let p = pending, sourceTime - p.rel < near { return }
        }
        try seekBackward(to: sourceTime)
    }

    /// ε of the frame rule (`SourceInfo.timestampTolerance`), for the readers of retimed clips.
    var timestampSlack: MediaTime { tolerance }

    /// `seekBackward` for a clip read backwards (`ReverseReader`).
    func seekBackwardForReverse(to sourceTime: MediaTime) throws { try seekBackward(to: sourceTime); seekedTo = nil }

    private func seekBackward(to sourceTime: MediaTime) throws {
        // Deinterlacing a frame reads the frames before and after it: land at least one frame before the picture
        // wanted, so that it comes out as in a render from the start (bwdif treats its first frame as an edge).
        let start = firstPTS / 2, from = fields.active ? sourceTime + tolerance - fields.seekMargin : sourceTime + tolerance
        let target = start + from.floored(toUnitsOf: Int64(timeBase.den), per: Int64(timeBase.num))
        if let sequence = pictureSequence {
            sequence.seek(toFrame: target)   // every picture is a keyframe of its own
        } else {
            if av_seek_frame(file.ctx, streamIndex, max(target, start), AVSEEK_FLAG_BACKWARD) < 0 {
                try FF.check(av_seek_frame(file.ctx, streamIndex, start, AVSEEK_FLAG_BACKWARD), "av_seek_frame", path: path)
            }
            avcodec_flush_buffers(decoder.ctx)
        }
        fields.reset()
        ended = false
        current = nil
        pending = nil
        seekedTo = sourceTime
    }
    /// The time of the last seek, while its first picture has not been checked yet.
    private var seekedTo: MediaTime?

    // Caches of `VideoReaderPictures.swift`: the picture last handed out in each form, with the frame it came from
    // (a still's are made once), and the area scaler of the last reduction.
    var converted: (frame: Frame, image: RGBAImage)?
    var planar: (frame: Frame, picture: VideoPicture)?
    var reduced: (frame: Frame, picture: VideoPicture)?
    var areaScaler: Scaler?
    var areaKey: (Int32, Int32, Int32, Int32, Int32) = (0, 0, -1, 0, 0)

    /// The decoded frame shown at `sourceTime`; counts requests held past a truncated file's end.
    func decodedFrame(at sourceTime: MediaTime) throws -> Frame {
        try advance(to: sourceTime)
        if pending == nil && ended, let c = current, let fps = info.frameSpacingRate,
           MediaTime(seconds: 2 / fps) < sourceTime - c.rel, sourceTime < info.duration {
            heldPastEnd += 1
        }
        return current!.frame
    }

    func advance(to s: MediaTime) throws {
        if isStill { return }
        while true {
            if pending == nil, let n = try decodeNext() { pending = (rel(n.pts), n.frame) }
            guard let p = pending else { break }
            if current == nil, let target = seekedTo, s + tolerance < p.rel, MediaTime.zero < target {
                // The seek landed after the wanted time (imprecise index, open GOP): go back further.
                let back = target - MediaTime(value: 2, timescale: 1)
                try seekBackward(to: back < .zero ? .zero : back)
                if back < .zero { seekedTo = nil }
                continue
            }
            seekedTo = nil
            // Take every frame whose PTS is ≤ s + ε; after a seek the first frame is taken whatever its time.
            guard current == nil || !(s + tolerance < p.rel) else { break }
            current = p
            pending = nil
        }
        if current == nil && !retriedFromStart {
            // Nothing decodes after the seek (damaged data behind an intact index): start over from the top.
            retriedFromStart = true
            try seekBackward(to: .zero)
            seekedTo = nil
            try advance(to: s)
            return
        }
        if current == nil {
            throw MediaError(path: path, function: nil, message: "no video frame could be decoded at \(s.seconds) s")
        }
    }
    private var retriedFromStart = false

}

/// Reads what Segue needs to know about a media file (see `SourceInfo`), with the edit's colour override applied,
/// opened under `policy`; `sequence` for an image sequence's pattern. Decodes the first picture only, on one thread.
/// - Throws: `MediaError`, `InputRefused` or `LimitExceeded` (the policy refuses the file).
public func probeSource(path: String, colourOverride: ColourOverride? = nil, sequence: ImageSequence? = nil, policy: InputPolicy = .default) throws -> SourceInfo {
    try VideoReader(path: path, colourOverride: colourOverride, decoderThreads: 1, sequence: sequence, policy: policy).info
}

extension VideoReader {
    /// The picture-size limit's refusal when libavutil refused a picture larger than it while this thread opened or
    /// decoded `path` (its log line: `FFmpegLog.takeRefusedPictureSize`); nil otherwise.
    static func pictureLimit(_ path: String, _ policy: InputPolicy) -> LimitExceeded? {
        guard let size = FFmpegLog.takeRefusedPictureSize(), size.width * size.height > policy.limits.maxPicturePixels else { return nil }
        return LimitExceeded.picture(path, size, policy.limits)
    }
}
