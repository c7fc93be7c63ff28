import CFFmpeg
import SegueCore

// VideoReader's pictures: the decoded frame shown at a time, as planes, as RGBA, reduced; colour and conversion.
extension VideoReader {
    /// The stored picture shown at `sourceTime` (seconds from the clip's first frame), as RGBA.
    public func frame(at sourceTime: MediaTime) throws -> RGBAImage {
        if let largeStill { return try largeStill.decode(to: largeStill.decodeSize(for: nil)) }
        if let svg { return try svg.straightImage(svg.size) }
        return try rgbaImage(of: decodedFrame(at: sourceTime))
    }

    /// A large still's picture at the size asked for (`LargeStill.decodeSize`), decoded shrunk on load; the last one is
    /// kept (a still shows one picture for all its frames).
    func largePicture(_ large: LargeStill, reducedTo size: PixelSize?) throws -> VideoPicture {
        let target = large.decodeSize(for: size)
        let f = current!.frame
        if let c = reduced, c.frame === f, c.picture.size == target { return c.picture }
        var picture = try rgbaPicture(try large.decode(to: target), colour: colour(of: f))
        picture.identity = VideoPicture.newIdentity()
        reduced = (f, picture)
        return picture
    }

    /// An SVG document drawn at `size` (nil: its own size) by librsvg; the last one is kept (same size, same picture).
    func svgPicture(_ svg: SVGStill, drawnAt size: PixelSize?) throws -> VideoPicture {
        let target = size ?? svg.size
        let f = current!.frame
        if let c = reduced, c.frame === f, c.picture.size == target { return c.picture }
        var picture = try svg.picture(target)
        picture.identity = VideoPicture.newIdentity()
        reduced = (f, picture)
        return picture
    }

    /// A Lottie animation's frame shown by the stand-in `f` (its pts is the frame number), drawn at `size` (nil: the
    /// animation's own size) by rlottie; the last one is kept (same frame, same size, same picture).
    func lottiePicture(_ lottie: LottieAnimation, _ f: Frame, drawnAt size: PixelSize?) throws -> VideoPicture {
        let target = size ?? lottie.size
        if let c = reduced, c.frame === f, c.picture.size == target { return c.picture }
        var picture = VectorPicture.premultiplied(lottie.draw(frame: Int(f.ptr.pointee.pts), at: target))
        picture.identity = VideoPicture.newIdentity()
        reduced = (f, picture)
        return picture
    }

    /// The size a layer mapping output pixels to this reader's picture by `outputToSource` wants it at: for an SVG
    /// document or a Lottie animation the size it is drawn at (`VectorPicture.drawnSize`: as large as shown, within
    /// `maxSide`, the picture limit and 4 × the area of `renderSize`, or its own size if larger: a logo zoomed far past
    /// the frame is not drawn as a gigapixel picture), else nil (the stored picture, or its reduction by
    /// `LayerGeometry.reducedSize`).
    public func drawnSize(_ outputToSource: Affine2D, renderSize: PixelSize, maxSide: Int?, levels: Bool) -> PixelSize? {
        guard let own = svg?.size ?? lottie?.size else { return nil }
        let cap = max(own.width * own.height, 4 * renderSize.width * renderSize.height)
        return VectorPicture.drawnSize(outputToSource, size: own, maxSide: maxSide, maxPixels: min(policy.limits.maxPicturePixels, cap), levels: levels)
    }

    /// The stored size and sample aspect ratio of the picture shown at `sourceTime` (decoding it): what the probe said,
    /// unless the stream changed size or SAR mid-way (the SAR: the container's when set and sane, else this
    /// picture's own, `SampleAspectRatio`). Throws `MediaError`.
    public func pictureFormat(at sourceTime: MediaTime) throws -> (size: PixelSize, sampleAspectRatio: Double) {
        guard !isStill, lottie == nil else { return (info.codedSize, info.sampleAspectRatio) }
        // The picture's own frame, decoded as `picture(at:)` will take it (not counted as held past the end twice).
        try advance(to: sourceTime)
        let f = current!.frame
        let sar = file.map { SampleAspectRatio(stream: $0.stream(streamIndex), frame: f.ptr).used.double }
            ?? (f.ptr.pointee.sample_aspect_ratio.isValid ? f.ptr.pointee.sample_aspect_ratio.double : 1)
        return (PixelSize(width: Int(f.ptr.pointee.width), height: Int(f.ptr.pointee.height)), sar)
    }

    /// `frame`'s RGBA conversion (straight alpha, as decoded), cached: the same stored picture is often shown on
    /// several output frames (output rate above the clip's; a still on all of them).
    func rgbaImage(of f: Frame) throws -> RGBAImage {
        if let c = converted, c.frame === f { return c.image }
        let image = try lottie.map { VectorPicture.straight($0.draw(frame: Int(f.ptr.pointee.pts), at: $0.size)) } ?? rgba(f)
        converted = (f, image)
        return image
    }

    /// The stored picture shown at `sourceTime`, as decoded: its planes without pixel conversion where the
    /// renderers take the format directly (`Frame.directPicture`: 8-bit and 9…16-bit planar Y′CbCr, NV12/NV21),
    /// else converted to RGBA by libswscale (`frame(at:)`); a picture with alpha (`keepsAlpha`) as RGBA with its
    /// alpha premultiplied (`VideoPicture.premultiplied`).
    public func picture(at sourceTime: MediaTime) throws -> VideoPicture {
        if let largeStill { return try largePicture(largeStill, reducedTo: nil) }
        if let svg { return try svgPicture(svg, drawnAt: nil) }
        return try picture(of: try decodedFrame(at: sourceTime))
    }

    /// `picture(at:)` of a decoded frame.
    func picture(of f: Frame) throws -> VideoPicture {
        if let lottie { return try lottiePicture(lottie, f, drawnAt: nil) }
        if let c = planar, c.frame === f { return c.picture }
        var picture = keepsAlpha ? nil : f.directPicture(colour: colour(of: f))
        if picture == nil { picture = try rgbaPicture(try rgbaImage(of: f), colour: colour(of: f)) }
        picture!.identity = VideoPicture.newIdentity()
        planar = (f, picture!)
        return picture!
    }

    /// Whether pictures keep their alpha (a stream or still whose pixel format has alpha: yuva*, RGBA, ARGB, PNG
    /// with alpha, VP9 with alpha through libvpx, ProRes 4444, QuickTime Animation): they leave the reader as
    /// premultiplied RGBA, which the renderers draw "over" what is below them.
    var keepsAlpha: Bool { info.hasAlpha }

    /// An RGBA conversion as a `VideoPicture` in the frame's transfer and primaries: premultiplied when the stream
    /// keeps alpha, else opaque as it is.
    func rgbaPicture(_ image: RGBAImage, colour c: YCbCrColour) throws -> VideoPicture {
        keepsAlpha ? VideoPicture.premultiplied(image, transfer: c.transfer, primaries: c.primaries, peakLuminance: c.peakLuminance)
                   : VideoPicture(image, transfer: c.transfer, primaries: c.primaries, peakLuminance: c.peakLuminance)
    }

    /// The stored picture shown at `sourceTime`, as `picture(at:)`, but first reduced to `size` (smaller than the
    /// stored picture on at least one axis) with libswscale's area filter when given: the prefilter for layers shown
    /// at less than half their stored size, which bilinear sampling alone would alias (a 4K clip in a 1080p or
    /// smaller edit), and the reduction of pictures larger than the GPU takes (`LayerGeometry.reducedSize`). Formats
    /// the renderers take directly keep their pixel format, matrix, range and siting; the others (RGB, palette, a
    /// picture with alpha, …) are reduced as the RGBA picture `picture(at:)` gives (premultiplied). Throws `MediaError`.
    public func picture(at sourceTime: MediaTime, reducedTo size: PixelSize?) throws -> VideoPicture {
        if let largeStill { return try largePicture(largeStill, reducedTo: size) }
        if let svg { return try svgPicture(svg, drawnAt: size) }
        return try picture(of: try decodedFrame(at: sourceTime), reducedTo: size)
    }

    /// `picture(at:reducedTo:)` of a decoded frame (a stream that changes size: by the frame's own size).
    func picture(of f: Frame, reducedTo size: PixelSize?) throws -> VideoPicture {
        // Frame blending comes here too: an SVG document or a Lottie frame is drawn at the size asked for.
        if let svg { return try svgPicture(svg, drawnAt: size) }
        if let lottie { return try lottiePicture(lottie, f, drawnAt: size) }
        guard let size, size.width < Int(f.ptr.pointee.width) || size.height < Int(f.ptr.pointee.height) else { return try picture(of: f) }
        if let c = reduced, c.frame === f, c.picture.size == size { return c.picture }
        let src = f.ptr.pointee
        let format = AVPixelFormat(rawValue: src.format)
        var picture: VideoPicture
        if !keepsAlpha && Frame.directFormat(format) != nil {
            let w = min(Int(src.width), size.width), h = min(Int(src.height), size.height)
            let out = try reduce(f, width: w, height: h)
            try FF.check(av_frame_copy_props(out.ptr, f.ptr), "av_frame_copy_props", path: path)
            picture = out.directPicture(colour: colour(of: f))!
        } else {
            // Premultiplied before the area filter, so that transparent pixels' colours do not bleed into the average.
            let full = try rgbaPicture(try rgbaImage(of: f), colour: colour(of: f))
            let w = min(full.width, size.width), h = min(full.height, size.height)
            let c = colour(of: f)
            picture = VideoPicture(try reduce(Frame.rgba(RGBAImage(width: full.width, height: full.height, pixels: full.planes[0].bytes)),
                                              width: w, height: h).rgbaImage(), transfer: c.transfer,
                                   primaries: c.primaries, peakLuminance: c.peakLuminance)
            picture.hasAlpha = full.hasAlpha
        }
        picture.identity = VideoPicture.newIdentity()
        reduced = (f, picture)
        return picture
    }

    /// `frame` resized to `width × height` in its own pixel format with libswscale's area filter (`SWS_AREA`,
    /// accurate rounding, bit-exact).
    func reduce(_ frame: Frame, width w: Int, height h: Int) throws -> Frame {
        let src = frame.ptr.pointee
        let format = AVPixelFormat(rawValue: src.format)
        let key = (Int32(src.width), Int32(src.height), src.format, Int32(w), Int32(h))
        if areaScaler == nil || areaKey != key {
            areaScaler = try Scaler(srcW: src.width, srcH: src.height, dstW: Int32(w), dstH: Int32(h), format: format,
                                    flags: Int32(SWS_AREA | SWS_ACCURATE_RND | SWS_BITEXACT))
            areaKey = key
        }
        let out = try Frame.allocated(width: w, height: h, format: format)
        try areaScaler!.scale(frame.ptr, into: out.ptr)
        return out
    }


    /// The colour a frame is converted with: its tags and the guesses for what is untagged (`Frame.colour()`),
    /// with the clip's override applied.
    func colour(of frame: Frame) -> YCbCrColour {
        let tagged = frame.colour()
        return colourOverride?.applied(to: tagged) ?? tagged
    }

    static func isJPEGFormat(_ f: AVFrame) -> Bool {
        switch AVPixelFormat(rawValue: f.format) {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P: return true
        default: return false
        }
    }

    static func isFullRange(_ f: AVFrame) -> Bool {
        if f.color_range == AVCOL_RANGE_JPEG { return true }
        switch AVPixelFormat(rawValue: f.format) {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P: return true
        default: return false
        }
    }

    func rgba(_ frame: Frame) throws -> RGBAImage {
        if let image = VideoReader.floatRGBA(frame) { return image }
        let f = frame.ptr.pointee
        let c = colour(of: frame)
        let cs = ColourTags.sws(c.matrix)
        let full = c.range == .full
        let key = (f.width, f.height, f.format, cs, full ? Int32(1) : 0)
        if scaler == nil || scalerKey != key {
            scaler = try Scaler(srcW: f.width, srcH: f.height, srcFormat: AVPixelFormat(rawValue: f.format),
                                dstW: f.width, dstH: f.height, dstFormat: AV_PIX_FMT_RGBA,
                                srcColorspace: cs, srcFullRange: full, dstColorspace: SWS_CS_DEFAULT, dstFullRange: true)
            scalerKey = key
        }
        let out = try Frame.allocated(width: Int(f.width), height: Int(f.height), format: AV_PIX_FMT_RGBA)
        try scaler!.scale(frame.ptr, into: out.ptr)
        return out.rgbaImage()
    }
}

extension VideoReader {
    /// Whether FFmpeg's demuxer `name` is one of its image demuxers (`image2`, `image2pipe` and the `*_pipe` ones:
    /// `jpeg_pipe`, `png_pipe`, `webp_pipe`, `tiff_pipe`, `bmp_pipe`, …): the file is one still picture.
    /// (Animated formats have their own demuxers: `gif`, `apng`.)
    static func isImageDemuxer(_ name: String) -> Bool {
        name == "image2" || name == "image2pipe" || name.hasSuffix("_pipe")
    }
}

extension VideoReader {
    /// A picture in 32-bit float planar RGB(A) (`gbrpf32`, `gbrapf32`, either byte order: OpenEXR as FFmpeg decodes it)
    /// as 8-bit R′G′B′A, or nil for any other format. OpenEXR holds linear light: each component goes through the
    /// inverse BT.1886 EOTF (`V = L^(1/2.4)`, `BT1886.inverseEOTF`, the curve Segue's linear light uses everywhere)
    /// and is clamped to 0…1; alpha stays linear. A float picture tagged with another transfer is taken as already
    /// encoded.
    static func floatRGBA(_ frame: Frame) -> RGBAImage? {
        let f = frame.ptr.pointee
        let format = AVPixelFormat(rawValue: f.format)
        let alpha: Bool, bigEndian: Bool
        switch format {
        case AV_PIX_FMT_GBRPF32LE: alpha = false; bigEndian = false
        case AV_PIX_FMT_GBRPF32BE: alpha = false; bigEndian = true
        case AV_PIX_FMT_GBRAPF32LE: alpha = true; bigEndian = false
        case AV_PIX_FMT_GBRAPF32BE: alpha = true; bigEndian = true
        default: return nil
        }
        let linear = f.color_trc == AVCOL_TRC_LINEAR || f.color_trc == AVCOL_TRC_UNSPECIFIED
        let w = Int(f.width), h = Int(f.height)
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        let planes = [f.data.2!, f.data.0!, f.data.1!] + (alpha ? [f.data.3!] : [])   // G, B, R, A stored
        let strides = [Int(f.linesize.2), Int(f.linesize.0), Int(f.linesize.1)] + (alpha ? [Int(f.linesize.3)] : [])
        // 256 steps per code value are far finer than 8 bits need: a table of the curve over 0…1.
        let steps = 65536
        let table: [UInt8] = (0...steps).map { i in
            let v = linear ? BT1886.inverseEOTF(Double(i) / Double(steps)) : Double(i) / Double(steps)
            return UInt8((min(max(v, 0), 1) * 255).rounded())
        }
        func code(_ bits: UInt32, curve: Bool) -> UInt8 {
            let v = Float(bitPattern: bigEndian ? bits.byteSwapped : bits)
            guard v.isFinite, v > 0 else { return 0 }
            if v >= 1 { return 255 }
            return curve ? table[Int((v * Float(steps)).rounded())] : UInt8((v * 255).rounded())
        }
        pixels.withUnsafeMutableBufferPointer { out in
            for c in 0..<planes.count {
                for y in 0..<h {
                    let row = UnsafeRawPointer(planes[c] + y * strides[c])
                    for x in 0..<w { out[(y * w + x) * 4 + c] = code(row.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self), curve: c < 3) }
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }
}
