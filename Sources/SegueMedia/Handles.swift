import CFFmpeg
import SegueCore

// One owner per C handle: each class frees its handle in deinit.

final class Decoder {
    let ctx: UnsafeMutablePointer<AVCodecContext>
    let path: String
    /// The context's `opaque`: names `path` in FFmpeg's log lines (`FFmpegLog`).
    private let logToken: UnsafeMutableRawPointer?

    /// A decoder for `stream`, using libavcodec's own threads, or the hwaccel of `hardware` where the codec has one
    /// (its frames then live on the device: `Frame.inSystemMemory`). `name` asks for a decoder by name (libvpx's, for
    /// VP9 with alpha), falling back to the codec's default when this FFmpeg has none of that name.
    /// `maxPixels`: libavcodec's `max_pixels`, the largest picture (width × height) it allocates; larger ones fail to
    /// decode (`InputPolicy.limits.maxPicturePixels`). Wraps `avcodec_open2`.
    init(stream: UnsafeMutablePointer<AVStream>, path: String, threads: Int32 = 0, hardware: HardwareDevice? = nil, name: String? = nil,
         maxPixels: Int = ResourceLimits().maxPicturePixels) throws {
        self.path = path
        guard let codec = name.flatMap({ avcodec_find_decoder_by_name($0) }) ?? avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
            throw MediaError(path: path, function: "avcodec_find_decoder", message: "no decoder for codec \(name) in this FFmpeg build")
        }
        guard let c = avcodec_alloc_context3(codec) else {
            throw MediaError(path: path, function: "avcodec_alloc_context3", message: "out of memory")
        }
        ctx = c
        logToken = FFmpegLog.register(path)
        c.pointee.opaque = logToken
        try FF.check(avcodec_parameters_to_context(c, stream.pointee.codecpar), "avcodec_parameters_to_context", path: path)
        c.pointee.pkt_timebase = stream.pointee.time_base
        c.pointee.thread_count = threads
        c.pointee.max_pixels = FF.maxPixels(maxPixels)
        if let h = hardware {
            c.pointee.hw_device_ctx = av_buffer_ref(h.ref)
            c.pointee.get_format = segue_get_format_cuda
        }
        try FF.check(avcodec_open2(c, codec, nil), "avcodec_open2", path: path)
    }
    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        avcodec_free_context(&c)
        FFmpegLog.unregister(logToken)
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

extension Frame {
    /// A frame of `width × height` in `format` with zeroed buffers.
    static func allocated(width: Int, height: Int, format: AVPixelFormat) throws -> Frame {
        let f = Frame()
        f.ptr.pointee.width = Int32(width)
        f.ptr.pointee.height = Int32(height)
        f.ptr.pointee.format = format.rawValue
        try allocateZeroed(f.ptr)
        return f
    }

    /// An RGBA frame holding a copy of `image` (rows copied into the frame's padded stride).
    static func rgba(_ image: RGBAImage) throws -> Frame {
        let f = try allocated(width: image.width, height: image.height, format: AV_PIX_FMT_RGBA)
        f.copyIn(image)
        return f
    }

    /// A frame holding `image`'s planes, rows copied into its padded strides: yuv420p, yuv420p10le (two bytes a
    /// sample) or, with an alpha plane, yuva420p; colour tags left unset.
    static func yuv420(_ image: YUV420Image) throws -> Frame {
        let format = image.alpha != nil ? AV_PIX_FMT_YUVA420P : (image.bitDepth > 8 ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P)
        let out = try allocated(width: image.width, height: image.height, format: format)
        let f = out.ptr.pointee
        let b = image.bytesPerSample
        func copy(_ src: [UInt8], _ dst: UnsafeMutablePointer<UInt8>, _ stride: Int32, _ w: Int, _ h: Int) {
            src.withUnsafeBytes { s in
                for y in 0..<h { (dst + y * Int(stride)).update(from: s.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * w, count: w) }
            }
        }
        copy(image.y, f.data.0!, f.linesize.0, image.width * b, image.height)
        copy(image.cb, f.data.1!, f.linesize.1, image.width / 2 * b, image.height / 2)
        copy(image.cr, f.data.2!, f.linesize.2, image.width / 2 * b, image.height / 2)
        if let a = image.alpha { copy(a, f.data.3!, f.linesize.3, image.width, image.height) }
        return out
    }

    /// Copies `image` into this RGBA frame of the same size.
    func copyIn(_ image: RGBAImage) {
        let stride = Int(ptr.pointee.linesize.0), base = ptr.pointee.data.0!, row = image.width * 4
        image.pixels.withUnsafeBytes { src in
            for y in 0..<image.height {
                (base + y * stride).update(from: src.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * row, count: row)
            }
        }
    }

    /// This RGBA frame's pixels as an `RGBAImage` (padding dropped).
    func rgbaImage() -> RGBAImage {
        let w = Int(ptr.pointee.width), h = Int(ptr.pointee.height)
        let stride = Int(ptr.pointee.linesize.0), base = ptr.pointee.data.0!
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeMutableBytes { dst in
            for y in 0..<h { (dst.baseAddress! + y * w * 4).copyMemory(from: base + y * stride, byteCount: w * 4) }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }
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
    /// A libswscale context that only resizes (same pixel format, no colour conversion) with `flags`, e.g. `SWS_AREA`.
    init(srcW: Int32, srcH: Int32, dstW: Int32, dstH: Int32, format: AVPixelFormat, flags: Int32) throws {
        guard let c = sws_getContext(srcW, srcH, format, dstW, dstH, format, flags, nil, nil, nil) else {
            throw MediaError(path: nil, function: "sws_getContext", message: "cannot resize \(Scaler.name(format)) \(srcW)x\(srcH) to \(dstW)x\(dstH)")
        }
        ctx = c
    }
    deinit { sws_freeContext(ctx) }
    static func name(_ f: AVPixelFormat) -> String { av_get_pix_fmt_name(f).map { String(cString: $0) } ?? "?" }

    /// Converts `src` into `dst` (whose buffers must be allocated). Wraps `sws_scale_frame`.
    func scale(_ src: UnsafeMutablePointer<AVFrame>, into dst: UnsafeMutablePointer<AVFrame>) throws {
        try FF.check(sws_scale_frame(ctx, dst, src), "sws_scale_frame")
    }
}
