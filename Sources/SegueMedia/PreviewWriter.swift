import CFFmpeg
import Foundation
import SegueCore

/// `--preview preview.jpg`: a small JPEG of the latest frame, rewritten at most once a second (the preview layer's
/// counterpart on a machine without a screen). The picture is reduced to at most `maxSide` pixels on its long side
/// (libswscale, area filter, into full-range yuvj420p with the frame's matrix), encoded with libavcodec's `mjpeg`
/// encoder, written to a hidden temporary file beside `path` and renamed over it, so that a reader never sees half
/// a picture.
final class PreviewWriter {
    let path: String
    let maxSide: Int
    private var scaler: Scaler?
    private var key: (Int32, Int32, Int32) = (0, 0, -1)
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var encoderSize = PixelSize(width: 0, height: 0)
    private var last: UInt64 = 0
    /// Pictures written.
    private(set) var written = 0

    init(path: String, maxSide: Int = 320) {
        self.path = path
        self.maxSide = maxSide
    }
    deinit { if encoder != nil { avcodec_free_context(&encoder) } }

    /// Whether a second has passed since the last picture (the caller then hands one to `write`).
    var isDue: Bool { DispatchTime.now().uptimeNanoseconds >= last + 1_000_000_000 }

    /// Writes `frame` (any pixel format libswscale reads) as the preview. Throws `MediaError` when it cannot
    /// be encoded or written.
    func write(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        last = DispatchTime.now().uptimeNanoseconds
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        let k = min(1, Double(maxSide) / Double(max(w, h)))
        let size = PixelSize(width: max(2, Int(Double(w) * k) & ~1), height: max(2, Int(Double(h) * k) & ~1))
        if scaler == nil || key != (frame.pointee.width, frame.pointee.height, frame.pointee.format) {
            let matrix = ColourTags.matrix(frame.pointee.colorspace) ?? .unspecified(height: h)
            let cs = ColourTags.sws(matrix)
            scaler = try Scaler(srcW: frame.pointee.width, srcH: frame.pointee.height, srcFormat: AVPixelFormat(rawValue: frame.pointee.format),
                                dstW: Int32(size.width), dstH: Int32(size.height), dstFormat: AV_PIX_FMT_YUVJ420P,
                                srcColorspace: cs, srcFullRange: frame.pointee.color_range == AVCOL_RANGE_JPEG, dstColorspace: cs, dstFullRange: true)
            key = (frame.pointee.width, frame.pointee.height, frame.pointee.format)
        }
        let small = try Frame.allocated(width: size.width, height: size.height, format: AV_PIX_FMT_YUVJ420P)
        try scaler!.scale(frame, into: small.ptr)
        if encoder == nil || encoderSize != size {
            if encoder != nil { avcodec_free_context(&encoder) }
            guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG), let c = avcodec_alloc_context3(codec) else {
                throw MediaError(path: path, function: "avcodec_find_encoder", message: "this FFmpeg has no mjpeg encoder")
            }
            encoder = c
            c.pointee.width = Int32(size.width)
            c.pointee.height = Int32(size.height)
            c.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
            c.pointee.time_base = AVRational(num: 1, den: 1)
            c.pointee.flags |= AV_CODEC_FLAG_QSCALE
            c.pointee.global_quality = 4 * FF_QP2LAMBDA
            try FF.check(avcodec_open2(c, codec, nil), "avcodec_open2", path: path)
            encoderSize = size
        }
        small.ptr.pointee.pts = Int64(written)
        small.ptr.pointee.quality = 4 * FF_QP2LAMBDA
        try FF.check(avcodec_send_frame(encoder, small.ptr), "avcodec_send_frame", path: path)
        let pkt = Packet()
        try FF.check(avcodec_receive_packet(encoder, pkt.ptr), "avcodec_receive_packet", path: path)
        let data = Data(bytes: pkt.ptr.pointee.data, count: Int(pkt.ptr.pointee.size))
        TemporaryFiles.removeStale(of: path)
        let temp = URL(fileURLWithPath: TemporaryFiles.path(for: path, count: 0))
        do {
            try data.write(to: temp)
            guard rename(temp.path, path) == 0 else { throw MediaError(path: path, function: "rename", code: -errno, message: "cannot move the preview into place") }
        } catch let e as MediaError {
            unlink(temp.path)
            throw e
        } catch {
            unlink(temp.path)
            throw MediaError(path: path, function: nil, message: "cannot write the preview: \(error.localizedDescription)")
        }
        written += 1
    }
}
