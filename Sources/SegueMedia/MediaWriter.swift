import CFFmpeg
import Foundation
import SegueCore

/// Encodes and muxes a render's output: video from RGBA pictures or Y′CbCr planes, audio from float samples, in the
/// format `OutputSettings.format` names (`OutputFormat`: the container and its options, the video encoder and pixel
/// format for the dynamic range (or with alpha), the audio encoder and sample format, codec tags such as HEVC's `hvc1`
/// in MP4). A user of the one output owner: the file, its muxer and streams are an `OutputFile`, the encoders
/// `Encoder`s set up from the row (`videoEncoding`).
///
/// Video: the row's encoder (libx264, or the one named in `encoder`, with `crf` and `preset` where the encoder has
/// them; FFV1 lossless; libvpx-vp9, libaom-av1, prores_ks, gif, png, tiff, exr), BT.709 limited range with
/// `color_primaries`, `color_trc`, `colorspace` and `color_range` tags (RGB formats: RGB, full range), constant frame
/// rate (time base = 1 / frame rate). HDR output (`OutputSettings.dynamicRange` HLG or PQ): 10-bit, BT.2020 with the
/// HLG or PQ transfer tagged; PQ also gets its static metadata (`MediaWriter+HDR.swift`). Pictures come as
/// `YUV420Image` planes (8-bit BT.709 or 10-bit BT.2020 4:2:0, and with `alpha` the premultiplied planes and their
/// alpha), or as RGBA, which libswscale converts with the BT.709 matrix (ITU-R BT.709-6 §3), limited range. Planes in
/// the encoder's own format are copied in; others are converted by libswscale with the output's matrix
/// (`MediaWriter+Convert.swift`: 4:2:2 and 4:4:4 for ProRes, RGB for PNG and TIFF, linear float for OpenEXR, a
/// palette for GIF through `PaletteFilter`).
///
/// Image sequences (`OutputFormat.isImageSequence`): `path` is a numbered pattern (`DIR/%05d.png`), FFmpeg's `image2`
/// muxer writes one file per frame from number 1.
public final class MediaWriter {
    let path: String
    let size: PixelSize
    /// The file: its muxer, streams and packets.
    let output: OutputFile
    /// The encoders and their streams' indices in `output` (−1 for none).
    let video: Encoder?, videoStream: Int
    let audio: AudioEncoder?, audioStream: Int
    let scaler: Scaler
    let rgbaFrame: Frame
    var videoFrames: Int64 = 0
    var finished = false
    public let frameRate: FrameRate
    /// What the video is: SDR (yuv420p, BT.709) or HDR (yuv420p10le, BT.2020, HLG or PQ).
    public let dynamicRange: DynamicRange
    /// The output's format (its row).
    let format: OutputFormat
    /// The encoder's pixel format (`OutputFormat.pixelFormat` of the range, or with alpha).
    let pixelFormat: AVPixelFormat
    /// Whether the output keeps alpha (`FramePlan.keepsAlpha`): pictures come with their alpha planes.
    public let keepsAlpha: Bool
    /// Converts planes that are not in the encoder's pixel format (made for the first such picture).
    var converter: Scaler?
    /// GIF: the palette filter every picture goes through (frames come out once the palette is made, at `finish`).
    var paletteFilter: PaletteFilter?
    /// For farm chunks: the frames from `keepFrames` on are encoder lookahead only. Frame `keepFrames − 1` is
    /// forced to be a P-frame, so nothing before it references what follows, and the packets of later frames are
    /// dropped. The encoder's rate control (x264's macroblock tree) still sees the frames after the seam, as in a
    /// single pass, so the last frames of a chunk are not starved of bits. Only for encoders that honour forced
    /// frame types (`honoursForcedFrameTypes`).
    public var keepFrames: Int64?

    /// Whether the video encoder takes forced frame types (libx264, libx265), so `keepFrames` may be used.
    public var honoursForcedFrameTypes: Bool { video.map { ["libx264", "libx265"].contains($0.name) } ?? false }

    /// Audio samples written (per channel).
    var audioSamples: Int64 { audio?.sent ?? 0 }

    /// Opens `path` for writing (the caller writes to a temporary path and renames it on success; for an image
    /// sequence, `path` is a pattern in a temporary folder).
    /// - Parameters:
    ///   - size: picture size in pixels (even width and height).
    ///   - audio: the edit's audio format (`AudioSettings`: sample rate, channel count, bit rate for AAC); nil for a
    ///     file without audio (and ignored for a format without audio: GIF, image sequences).
    ///   - video: false for an audio-only file (the farm's audio pass, `OutputFormat.audioPassExtension`).
    ///   - alpha: the output keeps alpha (`FramePlan.keepsAlpha`): the format's alpha pixel format and options.
    ///   - contentPeak: for PQ output, the brightest the content can be in cd/m² (the mastering display's maximum
    ///     and MaxCLL written into the stream).
    ///   - fragmented: written as fragmented MP4 (`OutputFormat.fragmentedMuxOptions`), so that the file plays up to
    ///     its last complete fragment however far it was written.
    /// - Throws: `MediaError` if an encoder is missing, the format does not write the dynamic range or alpha, the audio
    ///   encoder does not take the sample rate, the format is not written fragmented, or the file cannot be created.
    public init(path: String, size: PixelSize, frameRate: FrameRate, settings: OutputSettings, audio: AudioSettings?,
                video withVideo: Bool = true, alpha: Bool = false, contentPeak: Double = HLG.nominalPeak, fragmented: Bool = false) throws {
        self.path = path
        self.size = size
        self.frameRate = frameRate
        dynamicRange = settings.dynamicRange
        keepsAlpha = alpha
        let format = settings.format
        self.format = format
        guard let pixelName = format.pixelFormat(settings.dynamicRange, alpha: alpha) else {
            throw MediaError(path: path, function: nil, message: alpha ? "\(format.name) has no alpha channel" : "\(format.name) is not written in \(settings.dynamicRange.rawValue.uppercased())")
        }
        pixelFormat = try Encoder.pixelFormat(pixelName)
        output = try OutputFile(path: path, container: format.container)
        if withVideo {
            let v = try Encoder(video: MediaWriter.videoEncoding(format: format, settings: settings, size: size, frameRate: frameRate,
                                                                 pixelFormat: pixelFormat, alpha: alpha, contentPeak: contentPeak), path: path)
            video = v
            videoStream = try output.addStream(v)
            if settings.dynamicRange == .pq { try MediaWriter.addHDR10SideData(to: output.stream(videoStream), peak: contentPeak, path: path) }
            if format.palette {
                paletteFilter = try PaletteFilter(width: Int32(size.width), height: Int32(size.height), timeBase: v.ctx.pointee.time_base, path: path)
            }
        } else {
            video = nil
            videoStream = -1
        }
        if let a = audio, format.hasAudio {
            let enc = try MediaWriter.audioEncoder(format: format, audio: a, path: path)
            self.audio = enc
            audioStream = try output.addStream(enc.encoder)
        } else {
            self.audio = nil
            audioStream = -1
        }
        scaler = try Scaler(srcW: Int32(size.width), srcH: Int32(size.height), srcFormat: AV_PIX_FMT_RGBA,
                            dstW: Int32(size.width), dstH: Int32(size.height), dstFormat: AV_PIX_FMT_YUV420P,
                            srcColorspace: SWS_CS_DEFAULT, srcFullRange: true, dstColorspace: ColourTags.sws(.bt709), dstFullRange: false)
        rgbaFrame = try Frame.allocated(width: size.width, height: size.height, format: AV_PIX_FMT_RGBA)
        var muxOptions = format.muxOptions
        if fragmented {
            guard let f = format.fragmentedMuxOptions else {
                throw MediaError(path: path, function: nil, message: "\(format.name) is not written fragmented (MP4 and QuickTime are)")
            }
            muxOptions = f
        }
        try output.writeHeader(options: muxOptions)
    }

    /// The video encoder's set-up for `format`'s row and `settings`: the row's encoder for the range (or the one
    /// `settings` name), `pixelFormat`, 1 / frame rate as time base, the output's colour tags (`tags`: Y′CbCr with its
    /// chroma sited left; RGB full range), the row's options (with `alpha`, its alpha options over them), `crf` and
    /// `preset` where the encoder has them, x265's parameters (its log at errors only, HDR10's for PQ:
    /// `x265HDR10Parameters`), the row's codec tags, and the container's global headers.
    static func videoEncoding(format: OutputFormat, settings: OutputSettings, size: PixelSize, frameRate: FrameRate,
                              pixelFormat: AVPixelFormat, alpha: Bool, contentPeak: Double) -> VideoEncoding {
        let codec = format.videoEncoder(settings)
        var e = VideoEncoding(codec: codec, size: size, pixelFormat: pixelFormat,
                              timeBase: AVRational(num: frameRate.denominator, den: frameRate.numerator))
        e.frameRate = AVRational(num: frameRate.numerator, den: frameRate.denominator)
        let tags = MediaWriter.tags(format: format, range: settings.dynamicRange, pixelFormat: pixelFormat)
        e.colour = (tags.primaries, tags.transfer, tags.matrix, tags.range)
        e.chromaLocation = tags.rgb ? nil : AVCHROMA_LOC_LEFT
        var options = format.encoderOptions
        if alpha { options.merge(format.alphaEncoderOptions) { $1 } }
        options.merge(settings.encoderOptions) { $1 }
        e.options = options.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        e.codecTags = format.codecTags
        if format.takesEncoderSettings {
            e.optionsWhereTaken = [("crf", String(settings.crf)), ("preset", settings.preset)]
        }
        if codec == "libx265" {
            // x265 prints its own lines on standard error, past FFmpeg's log (`FFmpegLog`): errors only. PQ's static
            // metadata as x265 writes it (SEI); libx265 in FFmpeg 5.1 takes it only this way. One `x265-params` with
            // the row's and the settings' own (`repeat-headers=1` for smart renders).
            var params = ["log-level=error"]
            if let given = options["x265-params"] { params.append(given) }
            if format.takesEncoderSettings && settings.dynamicRange == .pq { params.append(x265HDR10Parameters(peak: contentPeak)) }
            e.options.removeAll { $0.0 == "x265-params" }
            e.options.append(("x265-params", params.joined(separator: ":")))
        }
        e.globalHeader = OutputFile.wantsGlobalHeader(format.container)
        return e
    }

    /// The audio encoder of `format`'s row for `audio` (its rate, channels and bit rate).
    /// - Throws: `MediaError` if this FFmpeg lacks the encoder or it does not take the sample rate.
    static func audioEncoder(format: OutputFormat, audio a: AudioSettings, path: String) throws -> AudioEncoder {
        if let why = problem(withAudioOf: format, sampleRate: a.sampleRate) { throw MediaError(path: path, function: nil, message: why) }
        return try AudioEncoder(AudioEncoding(codec: format.audioCodec, sampleFormat: av_get_sample_fmt(format.audioSampleFormat),
                                              sampleRate: a.sampleRate, channels: a.channels, bitRate: a.bitRate,
                                              globalHeader: OutputFile.wantsGlobalHeader(format.container)), path: path)
    }

    /// Why `codec` cannot encode audio at `sampleRate` for `format` (Opus takes 48, 24, 16, 12 or 8 kHz), or nil.
    static func problem(withAudioEncoder codec: UnsafePointer<AVCodec>, sampleRate: Int, format: OutputFormat) -> String? {
        guard let rates = codec.pointee.supported_samplerates else { return nil }
        var list: [Int] = []
        var k = 0
        while rates[k] != 0 { list.append(Int(rates[k])); k += 1 }
        guard !list.isEmpty, !list.contains(sampleRate) else { return nil }
        return "\(format.audioName) (\(format.name)) is encoded at \(list.map(String.init).joined(separator: ", ")) Hz, not \(sampleRate) Hz: set audio.sampleRate to one of them"
    }

    /// Checks, before anything is opened, that this FFmpeg can write the audio of `format` at `sampleRate`: nil when so,
    /// else the reason.
    public static func problem(withAudioOf format: OutputFormat, sampleRate: Int) -> String? {
        guard format.hasAudio else { return nil }
        guard let codec = avcodec_find_encoder_by_name(format.audioCodec) else { return "this FFmpeg has no \(format.audioCodec) encoder" }
        return problem(withAudioEncoder: codec, sampleRate: sampleRate, format: format)
    }

    /// Checks that `name` is a libavcodec video encoder in this FFmpeg that takes the output's pixel format (yuv420p,
    /// or yuv420p10le for HDR: `OutputFormat.pixelFormat`). Returns nil if so, else the reason in words (for the
    /// caller's error).
    public static func problem(withVideoEncoder name: String, format: OutputFormat = .mp4, dynamicRange: DynamicRange = .sdr, alpha: Bool = false) -> String? {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            return "this FFmpeg has no encoder named \(name) (`ffmpeg -encoders` lists them)"
        }
        guard codec.pointee.type == AVMEDIA_TYPE_VIDEO else { return "\(name) is not a video encoder" }
        guard let pixelName = format.pixelFormat(dynamicRange, alpha: alpha) else {
            return alpha ? "\(format.name) has no alpha channel" : "\(format.name) is not written in \(dynamicRange.rawValue.uppercased())"
        }
        if let fmts = codec.pointee.pix_fmts {
            var k = 0
            var found = false
            guard let wanted = try? Encoder.pixelFormat(pixelName) else { return "this FFmpeg lacks the pixel format \(pixelName)" }
            while fmts[k] != AV_PIX_FMT_NONE { if fmts[k] == wanted { found = true }; k += 1 }
            if !found {
                return "\(name) does not take \(String(cString: av_get_pix_fmt_name(wanted))) pictures"
                    + (dynamicRange == .sdr ? "" : " (\(dynamicRange.rawValue.uppercased()) output is 10-bit: use libx265, or --codec ffv1)")
            }
        }
        return nil
    }

    /// Encodes the next video frame (frame `n` gets PTS `n` in the 1 / frame rate time base). SDR output only.
    public func writeVideo(_ image: RGBAImage) throws {
        precondition(image.width == size.width && image.height == size.height)
        precondition(dynamicRange == .sdr, "RGBA pictures are SDR; HDR output takes YUV420Image planes")
        try FF.check(av_frame_make_writable(rgbaFrame.ptr), "av_frame_make_writable")
        rgbaFrame.copyIn(image)
        let yuv = try Frame.allocated(width: size.width, height: size.height, format: AV_PIX_FMT_YUV420P)
        try scaler.scale(rgbaFrame.ptr, into: yuv.ptr)
        try send(try converted(yuv))
    }

    /// Encodes the next video frame from planes in the output's colour (limited 4:2:0, sited left: BT.709 8-bit, or
    /// BT.2020 10-bit for HDR, as the renderers' `renderYUV420` draws them; with `keepsAlpha`, premultiplied, with their
    /// alpha planes): the rows are copied into a frame (an output with alpha gets them divided by their alpha first,
    /// `YUV420Image.straightened`), which goes to the encoder as it is when it takes that format, else converted
    /// (`converted`). Frame `n` gets PTS `n` in the 1 / frame rate time base.
    public func writeVideo(_ image: YUV420Image) throws {
        precondition(image.width == size.width && image.height == size.height)
        precondition(image.bitDepth == (dynamicRange == .sdr ? 8 : 10), "a \(image.bitDepth)-bit picture for \(dynamicRange) output")
        precondition((image.alpha != nil) == keepsAlpha, "an output that keeps alpha takes pictures with alpha, and only it")
        try send(try converted(try Frame.yuv420(image.straightened())))
    }

    /// Numbers and encodes one frame in the encoder's pixel format (both `writeVideo`s end here); GIF's go through the
    /// palette filter first.
    func send(_ frame: Frame) throws {
        guard let video else { preconditionFailure("writeVideo on an audio-only MediaWriter") }
        frame.ptr.pointee.pts = videoFrames
        videoFrames += 1
        if let p = paletteFilter {
            for f in try p.push(frame) { try encode(f, video) }
            return
        }
        try encode(frame, video)
    }

    /// Tags and encodes one frame (PTS set), writing the packets that are ready.
    func encode(_ frame: Frame, _ video: Encoder) throws {
        if let k = keepFrames, frame.ptr.pointee.pts == k - 1 { frame.ptr.pointee.pict_type = AV_PICTURE_TYPE_P }
        let tags = MediaWriter.tags(format: format, range: dynamicRange, pixelFormat: AVPixelFormat(rawValue: frame.ptr.pointee.format))
        frame.ptr.pointee.color_primaries = tags.primaries
        frame.ptr.pointee.color_trc = tags.transfer
        frame.ptr.pointee.colorspace = tags.matrix
        frame.ptr.pointee.color_range = tags.range
        if !tags.rgb { frame.ptr.pointee.chroma_location = AVCHROMA_LOC_LEFT }
        try video.send(frame.ptr)
        try writeVideoPackets(video)
    }

    /// Writes the video packets that are ready, but those of lookahead frames (`keepFrames`). A duration of 0 becomes
    /// one frame: libx264 through libavcodec 5.1 leaves it 0, and the MP4 edit list would then drop the last frame.
    func writeVideoPackets(_ video: Encoder) throws {
        try video.receivePackets { packet in
            if let k = keepFrames, packet.pointee.pts >= k { return }
            if packet.pointee.duration == 0 { packet.pointee.duration = 1 }
            try output.write(packet, stream: videoStream, from: video.ctx.pointee.time_base)
        }
    }

    /// Queues interleaved samples and encodes every full frame (1024 samples for AAC).
    public func writeAudio(_ samples: [Float]) throws {
        try audio?.encode(samples) { try writeAudioPacket($0) }
    }

    /// Writes an audio packet; a duration of 0 becomes the encoder's frame.
    func writeAudioPacket(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        guard let audio else { return }
        if packet.pointee.duration == 0 { packet.pointee.duration = Int64(audio.encoder.ctx.pointee.frame_size) }
        try output.write(packet, stream: audioStream, from: audio.encoder.ctx.pointee.time_base)
    }

    /// Flushes the encoders and writes the trailer (moves the index to the front for MP4). Returns the frame
    /// and sample counts written.
    @discardableResult
    public func finish() throws -> (videoFrames: Int64, audioSamples: Int64) {
        guard !finished else { return (videoFrames, audioSamples) }
        finished = true
        if let video {
            if let p = paletteFilter {
                // The palette is made once every frame has been seen: the frames come out now.
                for f in try p.finish() { try encode(f, video) }
            }
            try video.send(nil)
            try writeVideoPackets(video)
        }
        try audio?.encode([], final: true) { try writeAudioPacket($0) }
        try output.finish()
        return (keepFrames.map { min($0, videoFrames) } ?? videoFrames, audioSamples)
    }
}
