/// Output frames that need no compositing: one clip, shown untouched or as a whole-pixel crop at scale 1, whose
/// stored picture is already in the output's format (8-bit 4:2:0 planar Y′CbCr, BT.709, limited range, chroma sited
/// left, SDR). Their planes go to the encoder as they are (one copy of the visible rows); every byte equals what the
/// renderers would composite, because for such a layer they read each plane with exact texel fetches and an identity
/// colour map (`LayerGeometry.isPixelExact`, `LayerColourMap`).
///
/// The same holds for the first pass of a frame with more: its planes are the frame's starting point (`basePlanes`),
/// and only the passes above it are drawn, each inside its rectangle.
public enum DirectFrame {
    /// Where the output's top-left pixel sits in the stored picture (whole pixels, both even so that the 4:2:0
    /// chroma samples line up), or nil when `pass` needs compositing: an output that keeps alpha (its alpha planes are
    /// drawn), a transition (any kind, at any progress), an
    /// HDR output (10-bit BT.2020), a picture in another format or colour or with alpha, a layer that is not opaque or
    /// is cropped, rotation, mirroring, scaling, a sub-pixel or odd offset, or any part of the output outside the picture.
    public static func cropOrigin(_ pass: CompositePass, picture: VideoPicture, plan: FramePlan) -> (x: Int, y: Int)? {
        let renderSize = plan.renderSize
        guard !plan.keepsAlpha, pass.to == nil, pass.transition == nil, pass.from.isUntouched, pass.from.content == .media, plan.colour.dynamicRange == .sdr,
              picture.layout == .planar, picture.bitDepth == 8, picture.chromaShiftX == 1, picture.chromaShiftY == 1,
              !picture.swapsChroma, picture.colour.matrix == .bt709, picture.colour.range == .limited,
              picture.colour.siting == .left, picture.colour.transfer == .sdr, picture.colour.primaries != .bt2020,
              renderSize.width % 2 == 0, renderSize.height % 2 == 0 else { return nil }
        let m = pass.from.outputToSource.then(.scale(Double(picture.width), Double(picture.height)))
        func near(_ v: Double, _ w: Double) -> Bool { abs(v - w) < 1e-9 }
        guard near(m.a, 1), near(m.d, 1), near(m.b, 0), near(m.c, 0) else { return nil }
        let x = m.tx.rounded(), y = m.ty.rounded()
        guard near(m.tx, x), near(m.ty, y), x >= 0, y >= 0 else { return nil }
        let ox = Int(x), oy = Int(y)
        guard ox % 2 == 0, oy % 2 == 0, ox + renderSize.width <= picture.width, oy + renderSize.height <= picture.height else { return nil }
        return (ox, oy)
    }

    /// The output frame taken straight from the picture's planes when `plan` is one pass that needs no compositing
    /// (`cropOrigin`), else nil. `pictures` are those of `plan.layers`. An untouched picture shares its plane storage
    /// (no copy); a crop copies the visible rows once.
    public static func image(_ plan: FramePlan, pictures: [VideoPicture]) -> YUV420Image? {
        guard plan.passes.count == 1 else { return nil }
        return basePlanes(plan, picture: pictures[0])
    }

    /// The planes of the first pass taken straight from its picture (`picture`, that of `plan.layers[0]`), when that
    /// pass needs no compositing (`cropOrigin`); nil otherwise. The passes above it are then blended into these.
    public static func basePlanes(_ plan: FramePlan, picture: VideoPicture) -> YUV420Image? {
        guard let (ox, oy) = cropOrigin(plan.passes[0], picture: picture, plan: plan) else { return nil }
        let w = plan.renderSize.width, h = plan.renderSize.height
        func crop(_ plane: PicturePlane, _ x0: Int, _ y0: Int, _ cw: Int, _ ch: Int) -> [UInt8] {
            if x0 == 0 && y0 == 0 && cw == plane.width && ch == plane.height { return plane.bytes }
            var out = [UInt8](repeating: 0, count: cw * ch)
            plane.bytes.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for row in 0..<ch {
                        (dst.baseAddress! + row * cw).update(from: src.baseAddress! + (y0 + row) * plane.width + x0, count: cw)
                    }
                }
            }
            return out
        }
        return YUV420Image(width: w, height: h, y: crop(picture.planes[0], ox, oy, w, h),
                           cb: crop(picture.planes[1], ox / 2, oy / 2, w / 2, h / 2), cr: crop(picture.planes[2], ox / 2, oy / 2, w / 2, h / 2))
    }
}
