import CFFmpeg
import Foundation
import SegueCore

/// Still pictures through libavcodec's PNG codec.
public enum StillImage {
    /// The (first) picture of an image file — PNG, JPEG, anything FFmpeg reads — as R′G′B′A, rows top first, opened
    /// under `policy`. Throws `MediaError` (`InputRefused`, `LimitExceeded` when the policy refuses it).
    public static func read(_ path: String, policy: InputPolicy = .default) throws -> RGBAImage {
        try VideoReader(path: path, policy: policy).frame(at: .zero)
    }

    /// Encodes `image` as an RGBA PNG and writes it to `path` (via a temporary file renamed on success).
    /// Throws `MediaError`.
    public static func writePNG(_ image: RGBAImage, to path: String) throws {
        _ = FF.setup
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), let c = avcodec_alloc_context3(codec) else {
            throw MediaError(path: path, function: "avcodec_find_encoder", message: "this FFmpeg has no PNG encoder")
        }
        var ctx: UnsafeMutablePointer<AVCodecContext>? = c
        defer { avcodec_free_context(&ctx) }
        c.pointee.width = Int32(image.width)
        c.pointee.height = Int32(image.height)
        c.pointee.pix_fmt = AV_PIX_FMT_RGBA
        c.pointee.time_base = AVRational(num: 1, den: 1)
        try FF.check(avcodec_open2(c, codec, nil), "avcodec_open2", path: path)
        let frame = try Frame.rgba(image)
        frame.ptr.pointee.pts = 0
        try FF.check(avcodec_send_frame(c, frame.ptr), "avcodec_send_frame", path: path)
        try FF.check(avcodec_send_frame(c, nil), "avcodec_send_frame", path: path)
        let packet = Packet()
        var bytes = Data()
        while avcodec_receive_packet(c, packet.ptr) == 0 {
            bytes.append(packet.ptr.pointee.data, count: Int(packet.ptr.pointee.size))
            av_packet_unref(packet.ptr)
        }
        guard !bytes.isEmpty else { throw MediaError(path: path, function: "avcodec_receive_packet", message: "the PNG encoder produced nothing") }
        let url = URL(fileURLWithPath: path)
        TemporaryFiles.removeStale(of: path)
        let temp = URL(fileURLWithPath: TemporaryFiles.path(for: path, count: 0))
        do {
            try bytes.write(to: temp)
            if rename(temp.path, url.path) != 0 { throw MediaError(path: path, function: "rename", message: String(cString: strerror(errno))) }
        } catch let e as MediaError {
            unlink(temp.path); throw e
        } catch {
            unlink(temp.path)
            throw MediaError(path: path, function: nil, message: "cannot write: \(error.localizedDescription)")
        }
    }
}

/// Reads a video's frames in decode order as 8-bit 4:2:0 planes (Y, then U, then V, no padding), for comparisons.
/// Interlaced frames are read as stored (not deinterlaced). Frames in other pixel formats are converted by libswscale without changing the colour matrix.
public final class PlanarFrameReader {
    public let path: String
    public let width: Int, height: Int
    let reader: VideoReader
    var scaler: Scaler?
    var first = true

    /// Throws `MediaError`.
    public init(path: String) throws {
        self.path = path
        reader = try VideoReader(path: path, deinterlace: false)  // compare frames as stored
        width = reader.info.codedSize.width
        height = reader.info.codedSize.height
    }

    /// The next frame's planes, or nil at the end.
    public func next() throws -> [UInt8]? {
        let frame: Frame
        if first {
            first = false
            frame = reader.current!.frame
        } else {
            guard let n = try reader.decodeNext() else { return nil }
            frame = n.frame
        }
        let f = frame.ptr.pointee
        if scaler == nil {
            scaler = try Scaler(srcW: f.width, srcH: f.height, srcFormat: AVPixelFormat(rawValue: f.format), dstW: f.width, dstH: f.height,
                                dstFormat: AV_PIX_FMT_YUV420P, srcColorspace: ColourTags.sws(.bt709), srcFullRange: false, dstColorspace: ColourTags.sws(.bt709), dstFullRange: false)
        }
        let out = try Frame.allocated(width: Int(f.width), height: Int(f.height), format: AV_PIX_FMT_YUV420P)
        try scaler!.scale(frame.ptr, into: out.ptr)
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var planes = [UInt8]()
        planes.reserveCapacity(width * height + 2 * cw * ch)
        withUnsafePointer(to: out.ptr.pointee.data) { dp in
            withUnsafePointer(to: out.ptr.pointee.linesize) { lp in
                let data = UnsafeRawPointer(dp).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
                let lines = UnsafeRawPointer(lp).assumingMemoryBound(to: Int32.self)
                for (p, w, h) in [(0, width, height), (1, cw, ch), (2, cw, ch)] {
                    for y in 0..<h { planes.append(contentsOf: UnsafeBufferPointer(start: data[p]! + y * Int(lines[p]), count: w)) }
                }
            }
        }
        return planes
    }
}

extension StillImage {
    /// Resizes an RGBA picture with libswscale (bicubic). Throws `MediaError`.
    public static func resize(_ image: RGBAImage, to size: PixelSize) throws -> RGBAImage {
        if image.size == size { return image }
        let scaler = try Scaler(srcW: Int32(image.width), srcH: Int32(image.height), srcFormat: AV_PIX_FMT_RGBA,
                                dstW: Int32(size.width), dstH: Int32(size.height), dstFormat: AV_PIX_FMT_RGBA,
                                srcColorspace: SWS_CS_DEFAULT, srcFullRange: true, dstColorspace: SWS_CS_DEFAULT, dstFullRange: true)
        let src = try Frame.rgba(image)
        let dst = try Frame.allocated(width: size.width, height: size.height, format: AV_PIX_FMT_RGBA)
        try scaler.scale(src.ptr, into: dst.ptr)
        return dst.rgbaImage()
    }
}
