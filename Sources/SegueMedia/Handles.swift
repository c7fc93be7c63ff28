import CFFmpeg

// One owner per C handle: each class frees its handle in deinit.

final class InputFile {
    let ctx: UnsafeMutablePointer<AVFormatContext>
    let path: String

    /// Opens and probes a media file. Wraps `avformat_open_input` + `avformat_find_stream_info`.
    init(path: String) throws {
        _ = FF.setup
        self.path = path
        var c: UnsafeMutablePointer<AVFormatContext>? = nil
        let rc = avformat_open_input(&c, path, nil, nil)
        guard rc >= 0, let ctx = c else {
            throw MediaError(path: path, function: "avformat_open_input", code: rc, message: "cannot open: \(FF.message(rc))")
        }
        self.ctx = ctx
        try FF.check(avformat_find_stream_info(ctx, nil), "avformat_find_stream_info", path: path)
    }
    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = ctx
        avformat_close_input(&c)
    }
    func stream(_ i: Int32) -> UnsafeMutablePointer<AVStream> { ctx.pointee.streams[Int(i)]! }

    /// Index of the best stream of `type`, or nil. Wraps `av_find_best_stream`.
    func bestStream(_ type: AVMediaType) -> Int32? {
        let i = av_find_best_stream(ctx, type, -1, -1, nil, 0)
        return i >= 0 ? i : nil
    }
}

final class Decoder {
    let ctx: UnsafeMutablePointer<AVCodecContext>
    let path: String

    /// A decoder for `stream`, using libavcodec's own threads. Wraps `avcodec_open2`.
    init(stream: UnsafeMutablePointer<AVStream>, path: String, threads: Int32 = 0) throws {
        self.path = path
        guard let codec = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
            throw MediaError(path: path, function: "avcodec_find_decoder", message: "no decoder for codec \(name) in this FFmpeg build")
        }
        guard let c = avcodec_alloc_context3(codec) else {
            throw MediaError(path: path, function: "avcodec_alloc_context3", message: "out of memory")
        }
        ctx = c
        try FF.check(avcodec_parameters_to_context(c, stream.pointee.codecpar), "avcodec_parameters_to_context", path: path)
        c.pointee.pkt_timebase = stream.pointee.time_base
        c.pointee.thread_count = threads
        try FF.check(avcodec_open2(c, codec, nil), "avcodec_open2", path: path)
    }
    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        avcodec_free_context(&c)
    }
}

final class Frame {
    let ptr: UnsafeMutablePointer<AVFrame>
    init() { ptr = av_frame_alloc() }

    /// Allocates the buffers for the frame's format and size (`av_frame_get_buffer`) and clears them,
    /// padding included: converters and encoders may read past the picture's edge, and output must not
    /// depend on what the memory held before (the same edit must give the same bytes).
    static func allocateZeroed(_ f: UnsafeMutablePointer<AVFrame>) throws {
        try FF.check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
        withUnsafePointer(to: f.pointee.buf) { bp in
            let bufs = UnsafeRawPointer(bp).assumingMemoryBound(to: UnsafeMutablePointer<AVBufferRef>?.self)
            for i in 0..<8 { if let b = bufs[i] { memset(b.pointee.data, 0, b.pointee.size) } }
        }
    }
    deinit { var p: UnsafeMutablePointer<AVFrame>? = ptr; av_frame_free(&p) }
}

final class Packet {
    let ptr: UnsafeMutablePointer<AVPacket>
    init() { ptr = av_packet_alloc() }
    deinit { var p: UnsafeMutablePointer<AVPacket>? = ptr; av_packet_free(&p) }
}

final class Scaler {
    let ctx: OpaquePointer
    /// A libswscale context between two sizes/formats with explicit colour matrices and ranges.
    /// `srcColorspace`/`dstColorspace` are `SWS_CS_*`; ranges: 1 = full, 0 = limited.
    init(srcW: Int32, srcH: Int32, srcFormat: AVPixelFormat, dstW: Int32, dstH: Int32, dstFormat: AVPixelFormat,
         srcColorspace: Int32, srcFullRange: Bool, dstColorspace: Int32, dstFullRange: Bool) throws {
        let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | SWS_BITEXACT
        guard let c = sws_getContext(srcW, srcH, srcFormat, dstW, dstH, dstFormat, Int32(flags), nil, nil, nil) else {
            throw MediaError(path: nil, function: "sws_getContext", message: "cannot convert \(Scaler.name(srcFormat)) \(srcW)x\(srcH) to \(Scaler.name(dstFormat))")
        }
        ctx = c
        _ = sws_setColorspaceDetails(c, sws_getCoefficients(srcColorspace), srcFullRange ? 1 : 0,
                                     sws_getCoefficients(dstColorspace), dstFullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
    }
    deinit { sws_freeContext(ctx) }
    static func name(_ f: AVPixelFormat) -> String { av_get_pix_fmt_name(f).map { String(cString: $0) } ?? "?" }

    /// Converts `src` into `dst` (whose buffers must be allocated). Wraps `sws_scale_frame`.
    func scale(_ src: UnsafeMutablePointer<AVFrame>, into dst: UnsafeMutablePointer<AVFrame>) throws {
        try FF.check(sws_scale_frame(ctx, dst, src), "sws_scale_frame")
    }
}
