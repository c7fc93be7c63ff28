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

    /// Encodes `image` as an RGBA PNG (the PNG row's encoder and alpha pixel format, `OutputFormat.png`) and writes it
    /// to `path` through a hidden temporary file renamed on success (`OutputFile`, the `image2pipe` muxer: the file is
    /// the picture). Throws `MediaError`.
    public static func writePNG(_ image: RGBAImage, to path: String) throws {
        let row = OutputFormat.png
        var e = VideoEncoding(codec: row.defaultEncoders[.sdr]!, size: PixelSize(width: image.width, height: image.height),
                              pixelFormat: try Encoder.pixelFormat(row.alphaPixelFormat!), timeBase: AVRational(num: 1, den: 1))
        e.sampleAspectRatio = nil   // no pHYs chunk
        let encoder = try Encoder(video: e, path: path)
        let file = try OutputFile(path: path, container: "image2pipe", placement: .replacing)
        let stream = try file.addStream(encoder)
        try file.writeHeader(options: [:])
        let frame = try Frame.rgba(image)
        frame.ptr.pointee.pts = 0
        try encoder.send(frame.ptr)
        try encoder.send(nil)
        var packets = 0
        try encoder.receivePackets { packet in
            try file.write(packet, stream: stream, from: encoder.ctx.pointee.time_base)
            packets += 1
        }
        guard packets > 0 else { throw MediaError(path: path, function: "avcodec_receive_packet", message: "the PNG encoder produced nothing") }
        try file.finish()
    }

    /// Encodes `image` as a baseline JPEG — full-range 4:2:0 with the BT.601 matrix JFIF readers assume, alpha
    /// dropped, an odd width or height rounded down to even — by the record preview's writer (`PreviewWriter`:
    /// libavcodec's `mjpeg` at its fixed quantiser), written through a temporary file renamed on success. Throws
    /// `MediaError`.
    public static func writeJPEG(_ image: RGBAImage, to path: String) throws {
        let frame = try Frame.rgba(image)
        frame.ptr.pointee.colorspace = AVCOL_SPC_BT470BG
        try PreviewWriter(path: path, format: .mp4, maxSide: max(image.width, image.height)).write(frame.ptr)
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
