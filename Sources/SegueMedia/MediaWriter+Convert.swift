import CFFmpeg
import SegueCore

// The output's pixels in the encoder's format: the renderers' 4:2:0 planes converted by libswscale with the output's
// own matrix (to 4:2:2 or 4:4:4 for ProRes, RGB for PNG, TIFF and GIF, 32-bit float RGB for OpenEXR, which then goes
// into linear light), and the tags each frame carries.
extension MediaWriter {
    /// `frame` (yuv420p, yuv420p10le or yuva420p, in the output's colour) in the pixel format the encoder (or, for GIF,
    /// the palette filter: BGRA) takes: itself when it is already, else converted by libswscale, the output's matrix
    /// (BT.709, or BT.2020 for HDR) and limited range read, full range written for RGB. For OpenEXR
    /// (`OutputFormat.linearLight`) the floats then go through the BT.1886 EOTF (`L = V^2.4`) and, with alpha, are
    /// premultiplied by it (OpenEXR's colour is associated with its alpha; PNG's and TIFF's stay straight).
    func converted(_ frame: Frame) throws -> Frame {
        let source = AVPixelFormat(rawValue: frame.ptr.pointee.format)
        let target = paletteFilter != nil ? AV_PIX_FMT_BGRA : pixelFormat
        if source == target { return frame }
        if converter == nil {
            let matrix = ColourTags.sws(OutputYCbCr(dynamicRange).matrix)
            converter = try Scaler(srcW: Int32(size.width), srcH: Int32(size.height), srcFormat: source, dstW: Int32(size.width), dstH: Int32(size.height),
                                   dstFormat: target, srcColorspace: matrix, srcFullRange: false, dstColorspace: matrix,
                                   dstFullRange: MediaWriter.isRGB(target))
        }
        let out = try Frame.allocated(width: size.width, height: size.height, format: target)
        try converter!.scale(frame.ptr, into: out.ptr)
        if format.linearLight { MediaWriter.toLinearLight(out) }
        return out
    }

    /// Whether `format` holds R′G′B′ (or a palette of it) rather than Y′CbCr.
    static func isRGB(_ format: AVPixelFormat) -> Bool {
        guard let d = av_pix_fmt_desc_get(format)?.pointee else { return false }
        return d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 || d.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
    }

    /// The tags of `format`'s frames in `pixelFormat`: Y′CbCr ones are the output's (`ColourTags.output`, limited
    /// range); R′G′B′ ones are RGB, full range, BT.709 (or BT.2020) primaries, and the BT.709 transfer, or linear for
    /// OpenEXR.
    static func tags(format: OutputFormat, range: DynamicRange, pixelFormat: AVPixelFormat)
        -> (primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic, matrix: AVColorSpace, range: AVColorRange, rgb: Bool) {
        let t = ColourTags.output(range)
        guard isRGB(pixelFormat) else { return (t.primaries, t.transfer, t.matrix, AVCOL_RANGE_MPEG, false) }
        return (t.primaries, format.linearLight ? AVCOL_TRC_LINEAR : t.transfer, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, true)
    }

    /// A `gbrpf32le` or `gbrapf32le` frame's R′G′B′ into linear light (`BT1886.eotf`), colour premultiplied by alpha.
    static func toLinearLight(_ frame: Frame) {
        let f = frame.ptr.pointee
        let w = Int(f.width), h = Int(f.height)
        let alpha = AVPixelFormat(rawValue: f.format) == AV_PIX_FMT_GBRAPF32LE
        let planes = [f.data.0!, f.data.1!, f.data.2!], strides = [Int(f.linesize.0), Int(f.linesize.1), Int(f.linesize.2)]
        for y in 0..<h {
            let a = alpha ? UnsafeMutableRawPointer(f.data.3! + y * Int(f.linesize.3)).assumingMemoryBound(to: Float.self) : nil
            for p in 0..<3 {
                let row = UnsafeMutableRawPointer(planes[p] + y * strides[p]).assumingMemoryBound(to: Float.self)
                for x in 0..<w { row[x] = BT1886.eotf(row[x]) * (a?[x] ?? 1) }
            }
        }
    }
}
