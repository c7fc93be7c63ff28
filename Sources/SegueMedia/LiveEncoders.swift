import CFFmpeg
import Foundation
import SegueCore

/// `--preset high|medium|low`: the encoder settings of a live take (the seeds' `AVCaptureSession.sessionPreset`).
/// libx264 at a preset fast enough to keep up with 1080p30 on two cores, the quality set by the bit rate (average
/// bit rate with a VBV cap of 1.5× and a two-second buffer), scaled by the pixel rate from the 1080p30 figure.
///
/// Measured on the two-core development machine (libx264 alone, 1080p30 from raw frames, one run each, a shared
/// machine): veryfast 55 fps, superfast 89 fps, ultrafast 148 fps; hence veryfast is the fastest preset
/// `high` can use with room for decoding a live stream beside it (see docs/recording.md for the whole
/// recorder's numbers).
public enum LivePreset: String, Sendable, CaseIterable {
    case high, medium, low

    /// libx264's preset.
    public var x264Preset: String {
        switch self { case .high: return "veryfast"; case .medium: return "superfast"; case .low: return "ultrafast" }
    }
    /// Bit rate in bits per second at 1920×1080, 30 frames a second.
    public var bitRate1080p30: Int {
        switch self { case .high: return 8_000_000; case .medium: return 5_000_000; case .low: return 2_500_000 }
    }
    /// AAC bit rate (bits per second, stereo).
    public var audioBitRate: Int {
        switch self { case .high: return 192_000; case .medium: return 128_000; case .low: return 96_000 }
    }
    /// The bit rate for `size` at `fps`: the 1080p30 figure times the pixel rate's ratio, at least 200 kb/s.
    public func bitRate(size: PixelSize, fps: Double) -> Int {
        let ratio = Double(size.width * size.height) * max(1, fps) / (1920 * 1080 * 30)
        return max(200_000, Int(Double(bitRate1080p30) * ratio))
    }
}

/// A libx264 encoder for live frames: yuv420p, no B-frames (packets come out in presentation order, one frame
/// behind at most), a keyframe at least every two seconds, and IDR frames forced where a segment starts.
final class LiveVideoEncoder {
    let ctx: UnsafeMutablePointer<AVCodecContext>
    let size: PixelSize
    let path: String
    let packet = Packet()
    private let logToken: UnsafeMutableRawPointer?

    /// - Parameters:
    ///   - timeBase: the frames' timestamps' unit.
    ///   - frameRate: nominal, for rate control and the keyframe interval.
    ///   - colour: tags written (the source's, or BT.709 for processed frames).
    init(size: PixelSize, timeBase: AVRational, frameRate: Double, preset: LivePreset, colour: (AVColorPrimaries, AVColorTransferCharacteristic, AVColorSpace, AVColorRange),
         path: String) throws {
        self.size = size
        self.path = path
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw MediaError(path: path, function: "avcodec_find_encoder_by_name", message: "this FFmpeg has no libx264 encoder")
        }
        guard let c = avcodec_alloc_context3(codec) else { throw MediaError(path: path, function: "avcodec_alloc_context3", message: "out of memory") }
        ctx = c
        logToken = FFmpegLog.register(path)
        c.pointee.opaque = logToken
        c.pointee.width = Int32(size.width)
        c.pointee.height = Int32(size.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = timeBase
        let fps = frameRate > 0 ? frameRate : 30
        c.pointee.framerate = av_d2q(fps, 100_000)
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        (c.pointee.color_primaries, c.pointee.color_trc, c.pointee.colorspace, c.pointee.color_range) = colour
        c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        let rate = preset.bitRate(size: size, fps: fps)
        c.pointee.bit_rate = Int64(rate)
        c.pointee.rc_max_rate = Int64(rate) * 3 / 2
        c.pointee.rc_buffer_size = Int32(min(Int(Int32.max), rate * 2))
        c.pointee.gop_size = Int32(max(1, Int((2 * fps).rounded(.down))))
        c.pointee.max_b_frames = 0
        var opts: OpaquePointer? = nil
        av_dict_set(&opts, "preset", preset.x264Preset, 0)
        av_dict_set(&opts, "forced-idr", "1", 0)
        av_dict_set(&opts, "rc-lookahead", "10", 0)
        let rc = avcodec_open2(c, codec, &opts)
        av_dict_free(&opts)
        if rc < 0 { throw MediaError(path: path, function: "avcodec_open2", code: rc, message: "cannot open libx264: \(FF.message(rc))") }
    }
    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        avcodec_free_context(&c)
        FFmpegLog.unregister(logToken)
    }

    /// Encodes `frame` (yuv420p, `size`, `pts` set); `keyframe` forces an IDR frame. Calls `emit` for each packet out.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?, keyframe: Bool = false, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        if let frame { frame.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE }
        try FF.check(avcodec_send_frame(ctx, frame), "avcodec_send_frame", path: path)
        try FF.receivePackets(ctx, into: packet.ptr, path: path, emit)
    }
}

/// An AAC encoder for live audio: interleaved float samples in, packets with timestamps in samples out.
final class LiveAudioEncoder {
    let ctx: UnsafeMutablePointer<AVCodecContext>
    let channels: Int
    let sampleRate: Int32
    let path: String
    let packet = Packet()
    var pending: [Float] = []
    /// Samples sent to the encoder so far (the next frame's pts, from `startSample`).
    var sent: Int64 = 0
    var startSample: Int64 = 0
    private let logToken: UnsafeMutableRawPointer?

    init(sampleRate: Int32, channels: Int, bitRate: Int, path: String) throws {
        self.sampleRate = sampleRate
        self.channels = channels
        self.path = path
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw MediaError(path: path, function: "avcodec_find_encoder_by_name", message: "this FFmpeg has no aac encoder")
        }
        guard let c = avcodec_alloc_context3(codec) else { throw MediaError(path: path, function: "avcodec_alloc_context3", message: "out of memory") }
        ctx = c
        logToken = FFmpegLog.register(path)
        c.pointee.opaque = logToken
        c.pointee.sample_rate = sampleRate
        c.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        av_channel_layout_default(&c.pointee.ch_layout, Int32(channels))
        c.pointee.bit_rate = Int64(channels == 1 ? bitRate / 2 : bitRate)
        c.pointee.time_base = AVRational(num: 1, den: sampleRate)
        c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        try FF.check(avcodec_open2(c, codec, nil), "avcodec_open2", path: path)
    }
    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        avcodec_free_context(&c)
        FFmpegLog.unregister(logToken)
    }

    /// Queues interleaved samples and encodes every full frame (all that is left, with `final`).
    func encode(_ samples: [Float], final: Bool = false, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        pending += samples
        let frameSize = Int(ctx.pointee.frame_size > 0 ? ctx.pointee.frame_size : 1024)
        var offset = 0
        while pending.count - offset >= frameSize * channels || (final && pending.count - offset > 0) {
            let n = min(frameSize, (pending.count - offset) / channels)
            let f = Frame()
            f.ptr.pointee.nb_samples = Int32(n)
            f.ptr.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            f.ptr.pointee.sample_rate = sampleRate
            av_channel_layout_copy(&f.ptr.pointee.ch_layout, &ctx.pointee.ch_layout)
            try Frame.allocateZeroed(f.ptr)
            withUnsafePointer(to: f.ptr.pointee.data) { dp in
                let data = UnsafeRawPointer(dp).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
                pending.withUnsafeBufferPointer { src in
                    for c in 0..<channels {
                        let dst = UnsafeMutableRawPointer(data[c]!).assumingMemoryBound(to: Float.self)
                        for i in 0..<n { dst[i] = src[offset + channels * i + c] }
                    }
                }
            }
            f.ptr.pointee.pts = startSample + sent
            sent += Int64(n)
            offset += n * channels
            try FF.check(avcodec_send_frame(ctx, f.ptr), "avcodec_send_frame", path: path)
            try drain(emit)
        }
        pending.removeFirst(offset)
        if final {
            try FF.check(avcodec_send_frame(ctx, nil), "avcodec_send_frame", path: path)
            try drain(emit)
        }
    }

    private func drain(_ emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        try FF.receivePackets(ctx, into: packet.ptr, path: path, emit)
    }
}

/// Decoded audio → interleaved float at a fixed rate and channel count (libswresample), for `LiveAudioEncoder`.
final class LiveResampler {
    let swr: OpaquePointer
    let channels: Int
    let outRate: Int32
    init(from dec: UnsafeMutablePointer<AVCodecContext>, rate: Int32, channels: Int, path: String) throws {
        self.channels = channels
        outRate = rate
        var s: OpaquePointer? = nil
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var inLayout = AVChannelLayout()
        defer { av_channel_layout_uninit(&inLayout) }
        if dec.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || dec.pointee.ch_layout.nb_channels <= 1 {
            av_channel_layout_default(&inLayout, max(1, dec.pointee.ch_layout.nb_channels))
        } else {
            av_channel_layout_copy(&inLayout, &dec.pointee.ch_layout)
        }
        try FF.check(swr_alloc_set_opts2(&s, &outLayout, AV_SAMPLE_FMT_FLT, rate, &inLayout, dec.pointee.sample_fmt, dec.pointee.sample_rate, 0, nil),
                     "swr_alloc_set_opts2", path: path)
        guard let s else { throw MediaError(path: path, function: "swr_alloc_set_opts2", message: "out of memory") }
        swr = s
        try FF.check(swr_init(s), "swr_init", path: path)
    }
    deinit { var s: OpaquePointer? = swr; swr_free(&s) }

    /// The samples of `frame` (nil: what the resampler still holds), interleaved.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>?) throws -> [Float] {
        let count = frame?.pointee.nb_samples ?? 0
        let capacity = Int(swr_get_out_samples(swr, count)) + 32
        var out = [Float](repeating: 0, count: capacity * channels)
        let got: Int32 = try out.withUnsafeMutableBytes { raw in
            var ptr: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return try withUnsafeMutablePointer(to: &ptr) { pp in
                let input = frame?.pointee.extended_data.map { UnsafeMutablePointer<UnsafePointer<UInt8>?>(OpaquePointer($0)) }
                return try FF.check(swr_convert(swr, pp, Int32(capacity), input, count), "swr_convert")
            }
        }
        return Array(out[0..<(Int(got) * channels)])
    }
}
