/// Output frames that need no compositing: one clip, shown untouched or as a whole-pixel crop at scale 1, whose
/// stored picture is already in the output's format (8-bit 4:2:0 planar Y′CbCr, BT.709, limited range, chroma sited
/// left, SDR). Their planes go to the encoder as they are (one copy of the visible rows); every byte equals what the
/// renderers would composite, because for such a layer they read each plane with exact texel fetches and an identity
/// colour map (`LayerGeometry.isPixelExact`, `LayerColourMap`).
///
/// A clip whose display matrix is a quarter turn, a half turn or a mirror is such a layer too once its planes are
/// turned upright (`route` says which `Orientation`; `PictureTurner` in SegueMedia turns them with libavfilter's
/// `transpose`/`hflip`/`vflip`; `uprighted` gives the plan for the turned picture): the renderers read a turned
/// 4:2:0 picture as a permutation of each plane's samples, which is exactly what the filters write.
///
/// The same holds for the first pass of a frame with more: its planes are the frame's starting point
/// (`FrameStrategy.base`), and only the passes above it are drawn, each inside its rectangle.
public enum DirectFrame {
    /// How a pass's picture becomes the output without compositing: turned by `turn` (stored pixel grid → upright
    /// grid; `.identity` when the picture is shown as stored), then cropped at (`x`, `y`) in the turned picture
    /// (whole pixels, both even so that the 4:2:0 chroma samples line up).
    public struct Route: Equatable, Sendable {
        /// The turn as the linear part of the map from turned (upright) pixel indices to stored ones: stored
        /// `(a·X + c·Y, b·X + d·Y)` plus the offset that keeps it inside the picture (`Orientation` layout).
        public let turn: Orientation
        public let x: Int
        public let y: Int
        public init(turn: Orientation, x: Int, y: Int) { self.turn = turn; self.x = x; self.y = y }
        /// Whether the picture has to be turned first.
        public var turns: Bool { turn != .identity }
    }

    /// Where the output's top-left pixel sits in the stored picture, or nil when `pass` needs compositing or turning
    /// (`route`, whose turn must be the identity).
    public static func cropOrigin(_ pass: CompositePass, picture: VideoPicture, plan: FramePlan) -> (x: Int, y: Int)? {
        guard let r = route(pass, picture: picture, plan: plan), !r.turns else { return nil }
        return (r.x, r.y)
    }

    /// How `pass` can be taken from its picture without compositing, or nil when it needs compositing: an output that
    /// keeps alpha (its alpha planes are drawn), a transition
    /// (any kind, at any progress), an HDR output (10-bit BT.2020), a picture in another format or colour or with
    /// alpha, a layer that is not opaque or is cropped, rotation by other than quarter turns, scaling, a sub-pixel or
    /// odd offset, any part of the output outside the picture, or a turned picture with an odd side (whose 4:2:0
    /// chroma grid does not turn with its luma).
    ///
    /// The output pixel `(i, j)` shows stored pixel `L·(i, j) + e` (`L` the layer's map at scale 1, a signed
    /// permutation; `e` where output pixel (0, 0) lands); turned upright by `L`, the stored picture is
    /// `T(X, Y) = stored(L·(X, Y) + e₀)` (`e₀` the stored corner that becomes the top-left), and the output is `T`
    /// cropped at `Lᵀ·(e − e₀)`.
    public static func route(_ pass: CompositePass, picture: VideoPicture, plan: FramePlan) -> Route? {
        guard pass.to == nil, pass.transition == nil else { return nil }
        return route(pass.from, picture: picture, plan: plan)
    }

    /// `route` of one layer, whatever its pass does.
    public static func route(_ layer: LayerPlan, picture: VideoPicture, plan: FramePlan) -> Route? {
        let renderSize = plan.renderSize
        guard isOutputFormat(layer, picture: picture, plan: plan), picture.colour.siting == .left else { return nil }
        let w = picture.width, h = picture.height
        let m = layer.outputToSource.then(.scale(Double(w), Double(h)))
        func near(_ v: Double, _ t: Double) -> Bool { abs(v - t) < 1e-9 }
        func unit(_ v: Double) -> Int? { near(v, 0) ? 0 : near(v, 1) ? 1 : near(v, -1) ? -1 : nil }
        guard let a = unit(m.a), let b = unit(m.b), let c = unit(m.c), let d = unit(m.d), abs(a * d - b * c) == 1 else { return nil }
        // The stored pixel index output pixel (0, 0) shows: its centre (0.5, 0.5) mapped, less the half pixel.
        let (cx, cy) = m.apply(0.5, 0.5)
        let ex = (cx - 0.5).rounded(), ey = (cy - 0.5).rounded()
        guard near(cx - 0.5, ex), near(cy - 0.5, ey) else { return nil }
        let turn = Orientation(a: a, b: b, c: c, d: d)
        if turn != .identity && (w % 2 != 0 || h % 2 != 0) { return nil }
        // The stored corner that becomes the turned picture's top-left: the far side of each axis read backwards.
        let e0x = (a < 0 || c < 0) ? w - 1 : 0, e0y = (b < 0 || d < 0) ? h - 1 : 0
        let (tw, th) = turn.swapsAxes ? (h, w) : (w, h)
        let dx = Int(ex) - e0x, dy = Int(ey) - e0y
        let ox = a * dx + b * dy, oy = c * dx + d * dy
        guard ox >= 0, oy >= 0, ox % 2 == 0, oy % 2 == 0, ox + renderSize.width <= tw, oy + renderSize.height <= th else { return nil }
        return Route(turn: turn, x: ox, y: oy)
    }

    /// Whether `layer` shows `picture` as the output stores its samples, whatever its geometry: an opaque, uncropped
    /// media layer of an 8-bit 4:2:0 planar BT.709 limited-range SDR picture without alpha, in an SDR output without
    /// alpha of even width and height (its chroma siting aside). What the direct path (`route`) and the plane path
    /// start from.
    public static func isOutputFormat(_ layer: LayerPlan, picture: VideoPicture, plan: FramePlan) -> Bool {
        !plan.keepsAlpha && layer.isUntouched && layer.content == .media && plan.colour.dynamicRange == .sdr
            && picture.layout == .planar && picture.bitDepth == 8 && picture.chromaShiftX == 1 && picture.chromaShiftY == 1
            && !picture.swapsChroma && !picture.hasAlpha && picture.colour.matrix == .bt709 && picture.colour.range == .limited
            && picture.colour.transfer == .sdr && picture.colour.primaries != .bt2020
            && plan.renderSize.width % 2 == 0 && plan.renderSize.height % 2 == 0
    }

    /// `plan` with a layer of its first pass (`layer` 0: `from`, 1: `to`) looking at `picture` turned by `turn`
    /// (`route(...).turn`) rather than as stored: the same output, now a crop of an upright picture (`route` of the
    /// result has the identity turn). Other layers are unchanged.
    public static func uprighted(_ plan: FramePlan, layer index: Int = 0, turn: Orientation, picture: VideoPicture) -> FramePlan {
        let w = picture.width, h = picture.height
        let (a, b, c, d) = (turn.a, turn.b, turn.c, turn.d)
        let e0x = (a < 0 || c < 0) ? w - 1 : 0, e0y = (b < 0 || d < 0) ? h - 1 : 0
        let (tw, th) = turn.swapsAxes ? (h, w) : (w, h)
        // Stored pixel position p ↦ turned position Lᵀ·(p − ½ − e₀) + ½, normalized by the turned size.
        let storedToTurned = Affine2D.translation(-0.5 - Double(e0x), -0.5 - Double(e0y))
            .then(Affine2D(a: Double(a), b: Double(c), c: Double(b), d: Double(d), tx: 0, ty: 0))
            .then(.translation(0.5, 0.5))
            .then(.scale(1 / Double(tw), 1 / Double(th)))
        var out = plan
        let first = plan.passes[0]
        func turned(_ l: LayerPlan) -> LayerPlan { l.replacingGeometry(l.outputToSource.then(.scale(Double(w), Double(h))).then(storedToTurned)) }
        let from = index == 0 ? turned(first.from) : first.from
        let to = index == 1 ? first.to.map(turned) : first.to
        out.passes[0] = CompositePass(track: first.track, from: from, to: to, transition: first.transition,
                                      progress: first.progress, rect: first.rect, matte: first.matte)
        return out
    }

    /// The `size` window of an 8-bit 4:2:0 picture's planes at (`x`, `y`) (even), as an output image: the planes
    /// themselves when the window is the whole picture (no copy), else the visible rows copied once.
    public static func cropped(_ picture: VideoPicture, x ox: Int, y oy: Int, size: PixelSize) -> YUV420Image {
        let w = size.width, h = size.height
        func crop(_ plane: PicturePlane, _ x0: Int, _ y0: Int, _ cw: Int, _ ch: Int) -> [UInt8] {
            if x0 == 0 && y0 == 0 && cw == plane.width && ch == plane.height { return plane.bytes }
            // Every byte is written: no zero fill first.
            return plane.bytes.withUnsafeBufferPointer { src in
                [UInt8](unsafeUninitializedCapacity: cw * ch) { dst, count in
                    for row in 0..<ch {
                        (dst.baseAddress! + row * cw).update(from: src.baseAddress! + (y0 + row) * plane.width + x0, count: cw)
                    }
                    count = cw * ch
                }
            }
        }
        return YUV420Image(width: w, height: h, y: crop(picture.planes[0], ox, oy, w, h),
                           cb: crop(picture.planes[1], ox / 2, oy / 2, w / 2, h / 2), cr: crop(picture.planes[2], ox / 2, oy / 2, w / 2, h / 2))
    }
}

extension LayerPlan {
    /// The same layer with another map from output pixels to its picture (the picture turned upright: `DirectFrame`).
    func replacingGeometry(_ outputToSource: Affine2D) -> LayerPlan {
        var l = LayerPlan(clipIndex: clipIndex, sourceTime: sourceTime, outputToSource: outputToSource, moving: moving)
        l.content = content; l.opacity = opacity; l.crop = crop; l.blend = blend; l.effects = effects; l.bounds = bounds; l.reversed = reversed; l.frameBlend = frameBlend
        return l
    }
}
