import CFFmpeg
import Foundation
import SegueCore

/// How a video encoder is set up: everything `Encoder(video:path:)` gives libavcodec. Made in one place per user from
/// the row it writes: a render's from its `OutputFormat` row and `OutputSettings` (`MediaWriter.videoEncoding`), a
/// take's from the `RecordingFormat`'s row and the `LivePreset` (`LivePreset.videoEncoding`), the preview's from
/// `RecordingFormat`'s preview fields.
struct VideoEncoding {
    /// libavcodec's encoder name (`libx264`, `ffv1`, `mjpeg`, …).
    var codec: String
    /// Picture size in pixels.
    var size: PixelSize
    var pixelFormat: AVPixelFormat
    /// The frames' timestamps' unit.
    var timeBase: AVRational
    /// The nominal frame rate (rate control, the keyframe interval, the stream's `avg_frame_rate`); 0/1 when none.
    var frameRate = AVRational(num: 0, den: 1)
    /// The pixel aspect ratio: 1:1, or nil to leave it unset (a JPEG then gets no JFIF density).
    var sampleAspectRatio: AVRational? = AVRational(num: 1, den: 1)
    /// The colour tags, or nil to leave them unspecified.
    var colour: (primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic, matrix: AVColorSpace, range: AVColorRange)?
    /// The chroma siting tagged (left: how the renderers site 4:2:0), or nil for none.
    var chromaLocation: AVChromaLocation?
    /// Options for `avcodec_open2`, FFmpeg's names: the encoder's own (`preset`, `x265-params`) or the context's (`g`).
    var options: [(name: String, value: String)] = []
    /// Options given only where the encoder has them among its own (`crf`, `preset`: libx264's and libx265's,
    /// libvpx-vp9's `crf`, NVENC's `preset`).
    var optionsWhereTaken: [(name: String, value: String)] = []
    /// Codec tags by FFmpeg codec name (`OutputFormat.codecTags`: HEVC as `hvc1`).
    var codecTags: [String: String] = [:]
    /// Average bit rate, the VBV's maximum rate and buffer, in bits (per second); nil: the encoder's own rate control
    /// (`crf`, a fixed quantiser, lossless).
    var bitRate: (average: Int, maximum: Int, buffer: Int)?
    /// Frames between keyframes at most, and B-frames in a row at most; nil: the encoder's defaults.
    var gopSize: Int?
    var maxBFrames: Int?
    /// A fixed quantiser (`qscale`: 2 best … 31 worst) for every frame, or nil.
    var quantiser: Int?
    /// Codec headers out of band (`AV_CODEC_FLAG_GLOBAL_HEADER`), as the container wants (`OutputFile.wantsGlobalHeader`).
    var globalHeader = false
}

/// How an audio encoder is set up (`Encoder(audio:path:)`).
struct AudioEncoding {
    /// libavcodec's encoder name (`aac`, `libopus`, `pcm_f32le`, …) and the sample format it is given.
    var codec: String
    var sampleFormat: AVSampleFormat
    /// Samples per second (the time base is one sample), channels (their default layout), bits per second.
    var sampleRate: Int
    var channels: Int
    var bitRate: Int
    var globalHeader = false
}

/// An open libavcodec encoder (`AVCodecContext`, freed in deinit): the one place where encoders are set up — codec
/// options, pixel or sample format, colour tags, time base, global headers, libx264's thread count — and where frames
/// go in and packets come out. Its packets go to an `OutputFile` (`addStream`), or to several in turn (a take's
/// segments, through `StreamParameters(encoder:)`).
final class Encoder {
    let ctx: UnsafeMutablePointer<AVCodecContext>
    /// The output it writes (in messages and FFmpeg's log lines).
    let path: String
    private let packet = Packet()
    /// The context's `opaque`: names the output in FFmpeg's log lines (`FFmpegLog`).
    private let logToken: UnsafeMutableRawPointer?

    private init(_ c: UnsafeMutablePointer<AVCodecContext>, path: String) {
        _ = FF.setup
        ctx = c
        self.path = path
        logToken = FFmpegLog.register(path)
        c.pointee.opaque = logToken
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        avcodec_free_context(&c)
        FFmpegLog.unregister(logToken)
    }

    /// Opens the video encoder `e` describes, for the output `path`. libx264 gets the thread count it would choose
    /// itself (`x264Threads`) unless the options name one.
    /// - Throws: `MediaError` if this FFmpeg has no such encoder or it refuses the set-up.
    convenience init(video e: VideoEncoding, path: String) throws {
        let codec = try Encoder.find(e.codec, path: path)
        guard let c = avcodec_alloc_context3(codec) else { throw MediaError(path: path, function: "avcodec_alloc_context3", message: "out of memory") }
        self.init(c, path: path)
        c.pointee.width = Int32(e.size.width)
        c.pointee.height = Int32(e.size.height)
        c.pointee.pix_fmt = e.pixelFormat
        c.pointee.time_base = e.timeBase
        c.pointee.framerate = e.frameRate
        if let sar = e.sampleAspectRatio { c.pointee.sample_aspect_ratio = sar }
        if let t = e.colour { (c.pointee.color_primaries, c.pointee.color_trc, c.pointee.colorspace, c.pointee.color_range) = t }
        if let l = e.chromaLocation { c.pointee.chroma_sample_location = l }
        if let r = e.bitRate {
            c.pointee.bit_rate = Int64(r.average)
            c.pointee.rc_max_rate = Int64(r.maximum)
            c.pointee.rc_buffer_size = Int32(r.buffer)
        }
        if let g = e.gopSize { c.pointee.gop_size = Int32(g) }
        if let b = e.maxBFrames { c.pointee.max_b_frames = Int32(b) }
        if let q = e.quantiser {
            c.pointee.flags |= AV_CODEC_FLAG_QSCALE
            c.pointee.global_quality = Int32(q) * FF_QP2LAMBDA
        }
        if e.globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if let tag = e.codecTags[String(cString: avcodec_get_name(codec.pointee.id))] { c.pointee.codec_tag = Encoder.fourCC(tag) }
        var options = e.options + e.optionsWhereTaken.filter { Encoder.encoder(codec, hasOption: $0.name) }
        // x264's automatic thread count carries state from one encoder to the next in a process: after an encode of
        // another size, the same edit came out with other bytes. Pinning the count to what x264 itself would choose
        // keeps a fresh process's output and makes encodes in one process repeat byte for byte.
        if e.codec == "libx264" && !options.contains(where: { $0.name == "threads" }) {
            options.append(("threads", String(Encoder.x264Threads(height: e.size.height))))
        }
        let hint = e.optionsWhereTaken.isEmpty ? "" : " (check " + e.optionsWhereTaken.map(\.name).joined(separator: "/") + ")"
        try open(codec, options, hint: hint)
    }

    /// Opens the audio encoder `e` describes, for the output `path`.
    /// - Throws: `MediaError` if this FFmpeg has no such encoder or it refuses the set-up.
    convenience init(audio e: AudioEncoding, path: String) throws {
        let codec = try Encoder.find(e.codec, path: path)
        guard let c = avcodec_alloc_context3(codec) else { throw MediaError(path: path, function: "avcodec_alloc_context3", message: "out of memory") }
        self.init(c, path: path)
        c.pointee.sample_rate = Int32(e.sampleRate)
        c.pointee.sample_fmt = e.sampleFormat
        av_channel_layout_default(&c.pointee.ch_layout, Int32(e.channels))
        c.pointee.bit_rate = Int64(e.bitRate)
        c.pointee.time_base = AVRational(num: 1, den: Int32(e.sampleRate))
        if e.globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try open(codec, [], hint: "")
    }

    private static func find(_ name: String, path: String) throws -> UnsafePointer<AVCodec> {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw MediaError(path: path, function: "avcodec_find_encoder_by_name", message: "this FFmpeg has no \(name) encoder")
        }
        return codec
    }

    private func open(_ codec: UnsafePointer<AVCodec>, _ options: [(name: String, value: String)], hint: String) throws {
        var opts: OpaquePointer? = nil
        for (k, v) in options { av_dict_set(&opts, k, v, 0) }
        let rc = avcodec_open2(ctx, codec, &opts)
        av_dict_free(&opts)
        if rc < 0 {
            throw MediaError(path: path, function: "avcodec_open2", code: rc, message: "cannot open the \(String(cString: codec.pointee.name)) encoder\(hint): \(FF.message(rc))")
        }
    }

    /// libavcodec's name of the encoder (`libx264`); the encoder is open.
    var name: String { String(cString: ctx.pointee.codec.pointee.name) }

    /// Sends `frame` (nil: the end, flushing the encoder); with a fixed quantiser the frame is given it.
    func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        if let frame, ctx.pointee.flags & AV_CODEC_FLAG_QSCALE != 0 { frame.pointee.quality = ctx.pointee.global_quality }
        try FF.check(avcodec_send_frame(ctx, frame), "avcodec_send_frame", path: path)
    }

    /// Calls `emit` with each packet the encoder has ready (its timestamps in the encoder's time base), unreferenced
    /// after.
    func receivePackets(_ emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        try FF.receivePackets(ctx, into: packet.ptr, path: path, emit)
    }

    /// The thread count libx264 chooses for itself (`X264_THREADS_AUTO` in x264's `validate_parameters`): 1.5 per
    /// available core, capped at one thread per two rows of 16-pixel macroblocks, at least 1.
    static func x264Threads(height: Int) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return max(1, min(cores * 3 / 2, ((height + 15) / 16) / 2))
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

    /// The `AVPixelFormat` named `name` (an `OutputFormat` row's: yuv420p, yuv420p10le, …). Wraps `av_get_pix_fmt`.
    /// - Throws: `MediaError` if this FFmpeg has no such format.
    static func pixelFormat(_ name: String) throws -> AVPixelFormat {
        let f = av_get_pix_fmt(name)
        guard f != AV_PIX_FMT_NONE else { throw MediaError(path: nil, function: "av_get_pix_fmt", message: "this FFmpeg has no pixel format \(name)") }
        return f
    }
}

/// An audio `Encoder` fed interleaved float samples: they are queued, cut into frames of the encoder's size (1024
/// for AAC; what is left at the end), converted to its sample format (planar or interleaved float, or 16-bit integers
/// clamped to −1…1 and scaled by 32767, rounded: ProRes's PCM), and numbered from `startSample`.
final class AudioEncoder {
    let encoder: Encoder
    let channels: Int
    let sampleRate: Int32
    /// Samples (interleaved) queued, less than a frame.
    private(set) var pending: [Float] = []
    /// The first sample's number (its pts; the time base is one sample).
    var startSample: Int64 = 0
    /// Samples sent to the encoder so far.
    private(set) var sent: Int64 = 0
    /// The number of the next sample queued: `startSample` plus what is sent and queued.
    var nextSample: Int64 { startSample + sent + Int64(pending.count / channels) }

    /// - Throws: `MediaError` (no such encoder, a set-up it refuses, a sample format other than float or 16-bit).
    init(_ e: AudioEncoding, path: String) throws {
        guard [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S16].contains(e.sampleFormat) else {
            let name = av_get_sample_fmt_name(e.sampleFormat).map { String(cString: $0) } ?? "?"
            throw MediaError(path: path, function: nil, message: "the \(e.codec) encoder's sample format \(name) is neither float nor 16-bit")
        }
        encoder = try Encoder(audio: e, path: path)
        channels = e.channels
        sampleRate = Int32(e.sampleRate)
    }

    /// Queues `samples` (interleaved) and encodes every full frame; with `final`, also what is left, and then flushes
    /// the encoder. `emit` gets each packet out (timestamps in samples).
    func encode(_ samples: [Float], final: Bool = false, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        pending += samples
        let c = encoder.ctx
        let frameSize = Int(c.pointee.frame_size > 0 ? c.pointee.frame_size : 1024)
        var offset = 0
        while pending.count - offset >= frameSize * channels || (final && pending.count - offset > 0) {
            let n = min(frameSize, (pending.count - offset) / channels)
            let f = Frame()
            f.ptr.pointee.nb_samples = Int32(n)
            f.ptr.pointee.format = c.pointee.sample_fmt.rawValue
            f.ptr.pointee.sample_rate = c.pointee.sample_rate
            av_channel_layout_copy(&f.ptr.pointee.ch_layout, &c.pointee.ch_layout)
            try Frame.allocateZeroed(f.ptr)
            fill(f, from: offset, count: n)
            f.ptr.pointee.pts = startSample + sent
            sent += Int64(n)
            offset += n * channels
            try encoder.send(f.ptr)
            try encoder.receivePackets(emit)
        }
        pending.removeFirst(offset)
        if final {
            try encoder.send(nil)
            try encoder.receivePackets(emit)
        }
    }

    /// Copies `n` queued samples per channel from `offset` into `f` in the encoder's sample format.
    private func fill(_ f: Frame, from offset: Int, count n: Int) {
        let format = encoder.ctx.pointee.sample_fmt
        let channels = channels
        withUnsafePointer(to: f.ptr.pointee.data) { dp in
            let data = UnsafeRawPointer(dp).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
            pending.withUnsafeBufferPointer { src in
                if format == AV_SAMPLE_FMT_S16 {
                    let dst = UnsafeMutableRawPointer(data[0]!).assumingMemoryBound(to: Int16.self)
                    for i in 0..<(n * channels) { dst[i] = Int16((min(1, max(-1, src[offset + i])) * 32767).rounded()) }
                } else if format == AV_SAMPLE_FMT_FLTP {
                    for c in 0..<channels {
                        let dst = UnsafeMutableRawPointer(data[c]!).assumingMemoryBound(to: Float.self)
                        for i in 0..<n { dst[i] = src[offset + channels * i + c] }
                    }
                } else {
                    let dst = UnsafeMutableRawPointer(data[0]!).assumingMemoryBound(to: Float.self)
                    for i in 0..<(n * channels) { dst[i] = src[offset + i] }
                }
            }
        }
    }
}
