import CFFmpeg
import SegueCore

/// Decoded frames → `VideoPicture`, planes as decoded (no pixel conversion), described with libavutil's
/// pixel-format descriptors (`av_pix_fmt_desc_get`) rather than a list of names.
///
/// Taken as they are: 3-component Y′CbCr with one plane per component at 8 bits (yuv420p, yuv422p, yuv444p,
/// yuv440p, yuv411p, yuv410p and their full-range yuvj* twins) or at 9…16 bits little-endian (yuv420p10le,
/// yuv422p10le, yuv444p12le, …), the same with an alpha plane (yuva*, alpha not read), and 8-bit semi-planar
/// NV12 / NV21. Everything else (RGB, palette, grey, big-endian, P010/P016, …) is converted by libswscale to
/// RGBA (full range, the stream's matrix and range), as `VideoReader` did for every format before.
extension Frame {
    /// The frame's planes as a `VideoPicture` described by `colour` (default: the frame's tags and guesses,
    /// `colour()`), or nil when its pixel format is not one the renderers take directly.
    /// How the renderers take a pixel format directly: layout, bits per sample, chroma shifts, NV21's swap; nil for
    /// formats converted to RGBA.
    static func directFormat(_ format: AVPixelFormat) -> (layout: VideoPicture.Layout, depth: Int, sx: Int, sy: Int, swaps: Bool)? {
        guard let desc = av_pix_fmt_desc_get(format)?.pointee else { return nil }
        let unsupported = UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BE
                                 | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER)
        // An alpha plane (yuva*) is simply not read here: `VideoReader` sends pictures with alpha through RGBA
        // (`keepsAlpha`) and never asks for them as planes.
        let alphaPlane = (desc.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA)) != 0 && desc.nb_components == 4 && desc.comp.3.plane == 3
        guard desc.nb_components == 3 || alphaPlane, desc.flags & unsupported == 0 else { return nil }
        let c = [desc.comp.0, desc.comp.1, desc.comp.2]
        let depth = Int(c[0].depth)
        guard c.allSatisfy({ Int($0.depth) == depth && $0.shift == 0 }), depth >= 8, depth <= 16 else { return nil }
        let bytesPerSample = depth > 8 ? 2 : 1
        let sx = Int(desc.log2_chroma_w), sy = Int(desc.log2_chroma_h)
        if c[0].plane == 0 && c[1].plane == 1 && c[2].plane == 2 && c.allSatisfy({ Int($0.step) == bytesPerSample && $0.offset == 0 }) {
            return (.planar, depth, sx, sy, false)
        } else if depth == 8 && c[0].plane == 0 && c[1].plane == 1 && c[2].plane == 1 && c[1].step == 2 && c[2].step == 2 {
            return (.semiPlanar, depth, sx, sy, c[1].offset == 1)
        }
        return nil
    }

    /// Whether the pixel format carries alpha (yuva*, rgba, ya8, a palette with transparency, …).
    static func hasAlpha(_ format: AVPixelFormat) -> Bool {
        guard let desc = av_pix_fmt_desc_get(format)?.pointee else { return false }
        return desc.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
    }

    func directPicture(colour: YCbCrColour? = nil) -> VideoPicture? {
        let f = ptr.pointee
        guard let (layout, depth, sx, sy, swaps) = Frame.directFormat(AVPixelFormat(rawValue: f.format)) else { return nil }
        let w = Int(f.width), h = Int(f.height)
        let cw = -((-w) >> sx), ch = -((-h) >> sy)
        let bytesPerSample = depth > 8 ? 2 : 1
        func copy(_ data: UnsafeMutablePointer<UInt8>?, _ linesize: Int32, _ pw: Int, _ ph: Int, _ channels: Int) -> PicturePlane? {
            guard let data = data, linesize > 0 else { return nil }
            let row = pw * channels * bytesPerSample
            // Every byte is written: no zero fill first (a pass over each decoded picture).
            let bytes = [UInt8](unsafeUninitializedCapacity: row * ph) { dst, count in
                for y in 0..<ph { (dst.baseAddress! + y * row).update(from: data + y * Int(linesize), count: row) }
                count = row * ph
            }
            return PicturePlane(width: pw, height: ph, channels: channels, bytes: bytes)
        }
        var planes: [PicturePlane] = []
        guard let y = copy(f.data.0, f.linesize.0, w, h, 1) else { return nil }
        planes.append(y)
        if layout == .planar {
            guard let u = copy(f.data.1, f.linesize.1, cw, ch, 1), let v = copy(f.data.2, f.linesize.2, cw, ch, 1) else { return nil }
            planes += [u, v]
        } else {
            guard let uv = copy(f.data.1, f.linesize.1, cw, ch, 2) else { return nil }
            planes.append(uv)
        }
        return VideoPicture(width: w, height: h, layout: layout, chromaShiftX: sx, chromaShiftY: sy, bitDepth: depth,
                            swapsChroma: swaps, planes: planes, colour: colour ?? self.colour())
    }

    /// The frame's colour as tagged, with the guesses for what is untagged: matrix (unspecified: BT.709 at
    /// ≥ 720 lines, else BT.601), range (yuvj* formats are full range), chroma siting (`avcodec_enum_to_chroma_pos`;
    /// unspecified: left, the MPEG-2/H.264/HEVC default, but center for yuvj* formats, JPEG's siting), transfer
    /// (HLG, PQ, else SDR) and primaries (unspecified: BT.2020 when the matrix is tagged BT.2020, else BT.709), and the
    /// content's peak luminance from its side data (`peakLuminance`).
    func colour() -> YCbCrColour {
        let f = ptr.pointee
        let matrix = ColourTags.matrix(f.colorspace) ?? .unspecified(height: Int(f.height))
        let full = VideoReader.isFullRange(f)
        var siting: ChromaSiting = VideoReader.isJPEGFormat(f) ? .center : .left
        var xpos: Int32 = 0, ypos: Int32 = 0
        if f.chroma_location != AVCHROMA_LOC_UNSPECIFIED, avcodec_enum_to_chroma_pos(&xpos, &ypos, f.chroma_location) == 0 {
            siting = ChromaSiting(x: Double(xpos) / 256, y: Double(ypos) / 256)
        }
        let transfer = ColourTags.transfer(f.color_trc) ?? .sdr
        let primaries = ColourTags.primaries(f.color_primaries) ?? (matrix == .bt2020 ? .bt2020 : .bt709)
        return YCbCrColour(matrix: matrix, range: full ? .full : .limited, siting: siting, transfer: transfer, primaries: primaries,
                           peakLuminance: peakLuminance())
    }

    /// The content's peak luminance in cd/m²: MaxCLL of its content light level (`AV_FRAME_DATA_CONTENT_LIGHT_LEVEL`,
    /// CTA-861.3), else the mastering display's maximum (`AV_FRAME_DATA_MASTERING_DISPLAY_METADATA`, SMPTE ST 2086);
    /// nil when the frame carries neither (or zeros).
    func peakLuminance() -> Double? {
        if let sd = av_frame_get_side_data(ptr, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL), Int(sd.pointee.size) >= MemoryLayout<AVContentLightMetadata>.size {
            let cll = UnsafeRawPointer(sd.pointee.data).assumingMemoryBound(to: AVContentLightMetadata.self).pointee
            if cll.MaxCLL > 0 { return Double(cll.MaxCLL) }
        }
        if let sd = av_frame_get_side_data(ptr, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA), Int(sd.pointee.size) >= MemoryLayout<AVMasteringDisplayMetadata>.size {
            let m = UnsafeRawPointer(sd.pointee.data).assumingMemoryBound(to: AVMasteringDisplayMetadata.self).pointee
            if m.has_luminance != 0, m.max_luminance.den != 0, m.max_luminance.num > 0 { return m.max_luminance.double }
        }
        return nil
    }
}
