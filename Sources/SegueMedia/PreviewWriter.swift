import CFFmpeg
import Foundation
import SegueCore

/// `--preview preview.jpg`: a small JPEG of the latest frame, rewritten at most once a second (the preview layer's
/// counterpart on a machine without a screen). The picture is reduced to at most `maxSide` pixels on its long side
/// (libswscale, area filter, into the preview's full-range 4:2:0 with the frame's matrix), encoded as
/// `RecordingFormat`'s preview says (libavcodec's `mjpeg` at a fixed quantiser), and written by an `OutputFile` (the
/// raw `mjpeg` muxer: the file is the picture) through a hidden temporary file beside `path` renamed over it, so that
/// a reader never sees half a picture.
final class PreviewWriter {
    let path: String
    let maxSide: Int
    let format: RecordingFormat
    private var scaler: Scaler?
    private var key: (Int32, Int32, Int32) = (0, 0, -1)
    private var encoder: Encoder?
    private var encoderSize = PixelSize(width: 0, height: 0)
    private var last: UInt64 = 0
    /// Pictures written.
    private(set) var written = 0

    init(path: String, format: RecordingFormat, maxSide: Int = 320) {
        self.path = path
        self.format = format
        self.maxSide = maxSide
    }

    /// Whether a second has passed since the last picture (the caller then hands one to `write`).
    var isDue: Bool { DispatchTime.now().uptimeNanoseconds >= last + 1_000_000_000 }

    /// Writes `frame` (any pixel format libswscale reads) as the preview. Throws `MediaError` when it cannot
    /// be encoded or written.
    func write(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        last = DispatchTime.now().uptimeNanoseconds
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        let k = min(1, Double(maxSide) / Double(max(w, h)))
        let size = PixelSize(width: max(2, Int(Double(w) * k) & ~1), height: max(2, Int(Double(h) * k) & ~1))
        let pixelFormat = try Encoder.pixelFormat(format.previewPixelFormat)
        if scaler == nil || key != (frame.pointee.width, frame.pointee.height, frame.pointee.format) {
            let matrix = ColourTags.matrix(frame.pointee.colorspace) ?? .unspecified(height: h)
            let cs = ColourTags.sws(matrix)
            scaler = try Scaler(srcW: frame.pointee.width, srcH: frame.pointee.height, srcFormat: AVPixelFormat(rawValue: frame.pointee.format),
                                dstW: Int32(size.width), dstH: Int32(size.height), dstFormat: pixelFormat,
                                srcColorspace: cs, srcFullRange: frame.pointee.color_range == AVCOL_RANGE_JPEG, dstColorspace: cs, dstFullRange: true)
            key = (frame.pointee.width, frame.pointee.height, frame.pointee.format)
        }
        let small = try Frame.allocated(width: size.width, height: size.height, format: pixelFormat)
        try scaler!.scale(frame, into: small.ptr)
        if encoder == nil || encoderSize != size {
            var e = VideoEncoding(codec: format.previewEncoder, size: size, pixelFormat: pixelFormat, timeBase: AVRational(num: 1, den: 1))
            e.sampleAspectRatio = nil
            e.quantiser = format.previewQuantiser
            e.globalHeader = OutputFile.wantsGlobalHeader(format.previewContainer)
            encoder = try Encoder(video: e, path: path)
            encoderSize = size
        }
        let encoder = encoder!
        small.ptr.pointee.pts = Int64(written)
        try encoder.send(small.ptr)
        let file = try OutputFile(path: path, container: format.previewContainer, placement: .replacing)
        let stream = try file.addStream(encoder)
        try file.writeHeader(options: [:])
        var pictures = 0
        try encoder.receivePackets { packet in
            try file.write(packet, stream: stream, from: encoder.ctx.pointee.time_base)
            pictures += 1
        }
        guard pictures == 1 else { throw MediaError(path: path, function: "avcodec_receive_packet", message: "the \(encoder.name) encoder gave \(pictures) pictures for one frame") }
        try file.finish()
        written += 1
    }
}
