import CFFmpeg
import Foundation
import SegueCore

/// Encodes and muxes the output: video from RGBA pictures or Y′CbCr planes, audio from float samples, in the format
/// `OutputSettings.format` names (`OutputFormat`: the container and its options, the video encoder and pixel format
/// for the dynamic range (or with alpha), the audio encoder and sample format, codec tags such as HEVC's `hvc1` in MP4).
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
    /// The muxer and its file; freed by its own deinit even when this init throws half-way.
    let output: OutputFile
    var oc: UnsafeMutablePointer<AVFormatContext> { output.ctx }
    let video: Encoder?
    let audio: Encoder?
    let videoStream: UnsafeMutablePointer<AVStream>?
    let audioStream: UnsafeMutablePointer<AVStream>?
    let size: PixelSize
    let packet = Packet()
    let scaler: Scaler
    let rgbaFrame: Frame
    var videoFrames: Int64 = 0
    var audioSamples: Int64 = 0
    var audioPending: [Float] = []
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
    /// Whether the muxer opens its own files (`AVFMT_NOFILE`: `image2`).
    let muxerOpensFiles: Bool
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
    /// The thread count libx264 chooses for itself (`X264_THREADS_AUTO` in x264's `validate_parameters`): 1.5 per
    /// available core, capped at one thread per two rows of 16-pixel macroblocks, at least 1.
    static func x264Threads(height: Int) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return max(1, min(cores * 3 / 2, ((height + 15) / 16) / 2))
    }

    /// Whether the video encoder takes forced frame types (libx264, libx265), so `keepFrames` may be used.
    public var honoursForcedFrameTypes: Bool {
        guard let c = video?.ctx.pointee.codec else { return false }
        return ["libx264", "libx265"].contains(String(cString: c.pointee.name))
    }

    final class Encoder {
        let ctx: UnsafeMutablePointer<AVCodecContext>
        /// The context's `opaque`: names the output in FFmpeg's log lines (`FFmpegLog`).
        private let logToken: UnsafeMutableRawPointer?
        init(_ c: UnsafeMutablePointer<AVCodecContext>, path: String) {
            ctx = c
            logToken = FFmpegLog.register(path)
            c.pointee.opaque = logToken
        }
        deinit {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&c)
            FFmpegLog.unregister(logToken)
        }
    }

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
    /// - Throws: `MediaError` if an encoder is missing, the format does not write the dynamic range or alpha, the audio
    ///   encoder does not take the sample rate, or the file cannot be created.
    public init(path: String, size: PixelSize, frameRate: FrameRate, settings: OutputSettings, audio: AudioSettings?,
                video withVideo: Bool = true, alpha: Bool = false, contentPeak: Double = HLG.nominalPeak) throws {
        _ = FF.setup
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
        pixelFormat = try MediaWriter.pixelFormat(pixelName)
        var c: UnsafeMutablePointer<AVFormatContext>? = nil
        try FF.check(avformat_alloc_output_context2(&c, nil, format.container, path), "avformat_alloc_output_context2", path: path)
        output = OutputFile(c!)
        let oc = output.ctx
        let globalHeader = (oc.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0
        muxerOpensFiles = (oc.pointee.oformat.pointee.flags & AVFMT_NOFILE) != 0

        // Video encoder.
        if withVideo {
            let codecName = format.videoEncoder(settings)
            guard let vcodec = avcodec_find_encoder_by_name(codecName) else {
                throw MediaError(path: path, function: "avcodec_find_encoder_by_name", message: "this FFmpeg has no \(codecName) encoder")
            }
            let vc = avcodec_alloc_context3(vcodec)!
            video = Encoder(vc, path: path)
            vc.pointee.width = Int32(size.width)
            vc.pointee.height = Int32(size.height)
            vc.pointee.pix_fmt = pixelFormat
            vc.pointee.time_base = AVRational(num: frameRate.denominator, den: frameRate.numerator)
            vc.pointee.framerate = AVRational(num: frameRate.numerator, den: frameRate.denominator)
            vc.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            let tags = MediaWriter.tags(format: format, range: settings.dynamicRange, pixelFormat: pixelFormat)
            vc.pointee.color_primaries = tags.primaries
            vc.pointee.color_trc = tags.transfer
            vc.pointee.colorspace = tags.matrix
            vc.pointee.color_range = tags.range
            if !tags.rgb { vc.pointee.chroma_sample_location = AVCHROMA_LOC_LEFT }
            if globalHeader { vc.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
            var opts: OpaquePointer? = nil
            var options = format.encoderOptions
            if alpha { options.merge(format.alphaEncoderOptions) { $1 } }
            for (k, v) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&opts, k, v, 0) }
            if let tag = format.codecTags[String(cString: avcodec_get_name(vcodec.pointee.id))] { vc.pointee.codec_tag = MediaWriter.fourCC(tag) }
            if format.takesEncoderSettings {
                // crf and preset go to the encoders that have them (libx264, libx265, libvpx-vp9's crf, NVENC's preset).
                if MediaWriter.encoder(vcodec, hasOption: "crf") { av_dict_set(&opts, "crf", String(settings.crf), 0) }
                if MediaWriter.encoder(vcodec, hasOption: "preset") { av_dict_set(&opts, "preset", settings.preset, 0) }
                // x264's automatic thread count carries state from one encoder to the next in a process: after an encode
                // of another size, the same edit came out with other bytes. Pinning the count to what x264 itself would
                // choose (1.5 threads per core, at most one per two macroblock rows) keeps a fresh process's output and
                // makes renders in one process repeat byte for byte.
                if String(cString: vcodec.pointee.name) == "libx264" {
                    av_dict_set(&opts, "threads", String(MediaWriter.x264Threads(height: size.height)), 0)
                }
                // PQ's static metadata as x265 writes it (SEI); libx265 in FFmpeg 5.1 takes it only this way.
                if settings.dynamicRange == .pq && codecName == "libx265" {
                    av_dict_set(&opts, "x265-params", MediaWriter.x265HDR10Parameters(peak: contentPeak), 0)
                }
            }
            let orc = avcodec_open2(vc, vcodec, &opts)
            av_dict_free(&opts)
            if orc < 0 {
                throw MediaError(path: path, function: "avcodec_open2", code: orc, message: "cannot open the \(codecName) encoder (check preset/crf): \(FF.message(orc))")
            }
            let vst = avformat_new_stream(oc, nil)!
            videoStream = vst
            try FF.check(avcodec_parameters_from_context(vst.pointee.codecpar, vc), "avcodec_parameters_from_context")
            vst.pointee.time_base = vc.pointee.time_base
            vst.pointee.avg_frame_rate = vc.pointee.framerate
            if settings.dynamicRange == .pq { try MediaWriter.addHDR10SideData(to: vst, peak: contentPeak, path: path) }
            if format.palette {
                paletteFilter = try PaletteFilter(width: Int32(size.width), height: Int32(size.height), timeBase: vc.pointee.time_base, path: path)
            }
        } else {
            video = nil
            videoStream = nil
        }

        // Audio encoder.
        if let a = audio, format.hasAudio {
            let audioCodec = format.audioCodec
            guard let acodec = avcodec_find_encoder_by_name(audioCodec) else {
                throw MediaError(path: path, function: "avcodec_find_encoder_by_name", message: "this FFmpeg has no \(audioCodec) encoder")
            }
            if let why = MediaWriter.problem(withAudioEncoder: acodec, sampleRate: a.sampleRate, format: format) {
                throw MediaError(path: path, function: nil, message: why)
            }
            let ac = avcodec_alloc_context3(acodec)!
            self.audio = Encoder(ac, path: path)
            ac.pointee.sample_rate = Int32(a.sampleRate)
            ac.pointee.sample_fmt = av_get_sample_fmt(format.audioSampleFormat)
            guard [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S16].contains(ac.pointee.sample_fmt) else {
                throw MediaError(path: path, function: "av_get_sample_fmt", message: "the \(format.name) row's audio sample format \(format.audioSampleFormat) is neither float nor 16-bit")
            }
            av_channel_layout_default(&ac.pointee.ch_layout, Int32(a.channels))
            ac.pointee.bit_rate = Int64(a.bitRate)
            ac.pointee.time_base = AVRational(num: 1, den: Int32(a.sampleRate))
            if globalHeader { ac.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
            try FF.check(avcodec_open2(ac, acodec, nil), "avcodec_open2", path: path)
            let st = avformat_new_stream(oc, nil)!
            try FF.check(avcodec_parameters_from_context(st.pointee.codecpar, ac), "avcodec_parameters_from_context")
            st.pointee.time_base = ac.pointee.time_base
            audioStream = st
        } else {
            self.audio = nil
            audioStream = nil
        }

        scaler = try Scaler(srcW: Int32(size.width), srcH: Int32(size.height), srcFormat: AV_PIX_FMT_RGBA,
                            dstW: Int32(size.width), dstH: Int32(size.height), dstFormat: AV_PIX_FMT_YUV420P,
                            srcColorspace: SWS_CS_DEFAULT, srcFullRange: true, dstColorspace: ColourTags.sws(.bt709), dstFullRange: false)
        rgbaFrame = try Frame.allocated(width: size.width, height: size.height, format: AV_PIX_FMT_RGBA)

        if !muxerOpensFiles {
            var pb: UnsafeMutablePointer<AVIOContext>? = nil
            let rc = avio_open(&pb, path, AVIO_FLAG_WRITE)
            if rc < 0 { throw MediaError(path: path, function: "avio_open", code: rc, message: "cannot create the output file: \(FF.message(rc))", outputIO: true) }
            oc.pointee.pb = pb
            output.ioOpen = true
        }
        var muxOpts: OpaquePointer? = nil
        for (k, v) in format.muxOptions.sorted(by: { $0.key < $1.key }) { av_dict_set(&muxOpts, k, v, 0) }
        let hrc = avformat_write_header(oc, &muxOpts)
        av_dict_free(&muxOpts)
        try FF.check(hrc, "avformat_write_header", path: path)
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

    /// Whether `codec`'s private options include `name`.
    static func encoder(_ codec: UnsafePointer<AVCodec>, hasOption name: String) -> Bool {
        guard let cls = codec.pointee.priv_class else { return false }
        var c: UnsafePointer<AVClass>? = cls
        return withUnsafeMutablePointer(to: &c) { av_opt_find(UnsafeMutableRawPointer($0), name, nil, 0, AV_OPT_SEARCH_FAKE_OBJ) != nil }
    }

    static func fourCC(_ s: String) -> UInt32 {
        let b = Array(s.utf8)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
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
            guard let wanted = try? pixelFormat(pixelName) else { return "this FFmpeg lacks the pixel format \(pixelName)" }
            while fmts[k] != AV_PIX_FMT_NONE { if fmts[k] == wanted { found = true }; k += 1 }
            if !found {
                return "\(name) does not take \(String(cString: av_get_pix_fmt_name(wanted))) pictures"
                    + (dynamicRange == .sdr ? "" : " (\(dynamicRange.rawValue.uppercased()) output is 10-bit: use libx265, or --codec ffv1)")
            }
        }
        return nil
    }

    /// SHA-256 of a video codec header as a demuxer reports it: codec, profile, level, size, pixel format and the
    /// extradata (avcC with SPS/PPS for H.264 in MP4). Chunks of one plan must all have the same.
    static func headerHash(_ par: UnsafeMutablePointer<AVCodecParameters>) -> String {
        let p = par.pointee
        var bytes = Array("\(p.codec_id.rawValue) \(p.profile) \(p.level) \(p.width)x\(p.height) \(p.format) ".utf8)
        if let e = p.extradata, p.extradata_size > 0 { bytes += UnsafeBufferPointer(start: e, count: Int(p.extradata_size)) }
        return Digest.sha256(bytes)
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
        let straight = image.straightened()
        let sourceFormat = straight.alpha != nil ? AV_PIX_FMT_YUVA420P : (straight.bitDepth > 8 ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P)
        let yuv = try Frame.allocated(width: size.width, height: size.height, format: sourceFormat)
        let f = yuv.ptr.pointee
        let b = straight.bytesPerSample
        func copy(_ src: [UInt8], _ dst: UnsafeMutablePointer<UInt8>, _ stride: Int32, _ w: Int, _ h: Int) {
            src.withUnsafeBytes { s in
                for y in 0..<h { (dst + y * Int(stride)).update(from: s.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * w, count: w) }
            }
        }
        copy(straight.y, f.data.0!, f.linesize.0, size.width * b, size.height)
        copy(straight.cb, f.data.1!, f.linesize.1, size.width / 2 * b, size.height / 2)
        copy(straight.cr, f.data.2!, f.linesize.2, size.width / 2 * b, size.height / 2)
        if let a = straight.alpha { copy(a, f.data.3!, f.linesize.3, size.width, size.height) }
        try send(try converted(yuv))
    }

    /// Tags, numbers and encodes one frame in the encoder's pixel format (both `writeVideo`s end here); GIF's go
    /// through the palette filter first.
    func send(_ frame: Frame) throws {
        guard let video, let videoStream else { preconditionFailure("writeVideo on an audio-only MediaWriter") }
        frame.ptr.pointee.pts = videoFrames
        videoFrames += 1
        if let p = paletteFilter {
            for f in try p.push(frame) { try encode(f, video, videoStream) }
            return
        }
        try encode(frame, video, videoStream)
    }

    /// Tags and encodes one frame (PTS set), draining the packets that are ready.
    func encode(_ frame: Frame, _ video: Encoder, _ videoStream: UnsafeMutablePointer<AVStream>) throws {
        if let k = keepFrames, frame.ptr.pointee.pts == k - 1 { frame.ptr.pointee.pict_type = AV_PICTURE_TYPE_P }
        let tags = MediaWriter.tags(format: format, range: dynamicRange, pixelFormat: AVPixelFormat(rawValue: frame.ptr.pointee.format))
        frame.ptr.pointee.color_primaries = tags.primaries
        frame.ptr.pointee.color_trc = tags.transfer
        frame.ptr.pointee.colorspace = tags.matrix
        frame.ptr.pointee.color_range = tags.range
        if !tags.rgb { frame.ptr.pointee.chroma_location = AVCHROMA_LOC_LEFT }
        try FF.check(avcodec_send_frame(video.ctx, frame.ptr), "avcodec_send_frame", path: path)
        try drain(video, videoStream)
    }

    func drain(_ enc: Encoder, _ st: UnsafeMutablePointer<AVStream>) throws {
        try FF.receivePackets(enc.ctx, into: packet.ptr, path: path) { packet in
            if let k = keepFrames, enc === video, packet.pointee.pts >= k { return }
            // libx264 through libavcodec 5.1 leaves duration 0; the MP4 edit list would then drop the last frame.
            if packet.pointee.duration == 0 {
                packet.pointee.duration = enc.ctx.pointee.codec_type == AVMEDIA_TYPE_VIDEO ? 1 : Int64(enc.ctx.pointee.frame_size)
            }
            av_packet_rescale_ts(packet, enc.ctx.pointee.time_base, st.pointee.time_base)
            packet.pointee.stream_index = st.pointee.index
            try FF.check(av_interleaved_write_frame(oc, packet), "av_interleaved_write_frame", path: path, outputIO: true)
        }
    }

    /// Flushes the encoders and writes the trailer (moves the index to the front for MP4). Returns the frame
    /// and sample counts written.
    @discardableResult
    public func finish() throws -> (videoFrames: Int64, audioSamples: Int64) {
        guard !finished else { return (videoFrames, audioSamples) }
        finished = true
        if let video, let videoStream {
            if let p = paletteFilter {
                // The palette is made once every frame has been seen: the frames come out now.
                for f in try p.finish() { try encode(f, video, videoStream) }
            }
            try FF.check(avcodec_send_frame(video.ctx, nil), "avcodec_send_frame", path: path)
            try drain(video, videoStream)
        }
        if let a = audio, let st = audioStream {
            try encodeAudio(final: true)
            try FF.check(avcodec_send_frame(a.ctx, nil), "avcodec_send_frame", path: path)
            try drain(a, st)
        }
        try FF.check(av_write_trailer(oc), "av_write_trailer", path: path, outputIO: true)
        if !muxerOpensFiles {
            try FF.check(avio_closep(&oc.pointee.pb), "avio_closep", path: path, outputIO: true)
            output.ioOpen = false
        }
        return (keepFrames.map { min($0, videoFrames) } ?? videoFrames, audioSamples)
    }
}
