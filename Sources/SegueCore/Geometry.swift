import Foundation

/// A 2-D affine map in row-vector form: `(x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty)`
/// (the layout of `CGAffineTransform` and of the FFmpeg display matrix).
public struct Affine2D: Equatable, Sendable {
    public var a, b, c, d, tx, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }
    public static let identity = Affine2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public static func translation(_ x: Double, _ y: Double) -> Affine2D { Affine2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    public static func scale(_ x: Double, _ y: Double) -> Affine2D { Affine2D(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0) }

    public func apply(_ x: Double, _ y: Double) -> (Double, Double) { (a * x + c * y + tx, b * x + d * y + ty) }

    /// `self` then `next`: the map `p ↦ next(self(p))`.
    public func then(_ next: Affine2D) -> Affine2D {
        Affine2D(a: a * next.a + b * next.c, b: a * next.b + b * next.d,
                 c: c * next.a + d * next.c, d: c * next.b + d * next.d,
                 tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    public var inverted: Affine2D {
        let det = a * d - b * c
        precondition(det != 0, "singular transform")
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Affine2D(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }
}

/// A size in pixels.
public struct PixelSize: Hashable, CustomStringConvertible, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public var description: String { "\(width)x\(height)" }
    /// Parses `"1280x720"`.
    public static func parse(_ s: String) -> PixelSize? {
        let p = s.lowercased().split(separator: "x")
        guard p.count == 2, let w = Int(p[0]), let h = Int(p[1]), w > 0, h > 0 else { return nil }
        return PixelSize(width: w, height: h)
    }
}

/// The picture orientation carried by a display matrix, reduced to the eight axis-aligned cases
/// (quarter turns, optionally mirrored). Stored as the 2×2 part of the matrix with entries in {-1, 0, 1},
/// acting on y-down picture coordinates as `(x, y) ↦ (a·x + c·y, b·x + d·y)` (FFmpeg `libavutil/display.h` layout).
public struct Orientation: Hashable, CustomStringConvertible, Sendable {
    public let a, b, c, d: Int

    public static let identity = Orientation(a: 1, b: 0, c: 0, d: 1)

    public init(a: Int, b: Int, c: Int, d: Int) { (self.a, self.b, self.c, self.d) = (a, b, c, d) }

    /// Reduces a display matrix (FFmpeg's 3×3 16.16 fixed point, row-major) to the nearest axis-aligned case.
    /// Non-axis-aligned angles snap to the nearest quarter turn.
    public init(displayMatrix m: [Int32]) {
        func s(_ v: Int32) -> Double { Double(v) / 65536.0 }
        let ma = s(m[0]), mb = s(m[1]), mc = s(m[3]), md = s(m[4])
        if abs(ma) + abs(md) >= abs(mb) + abs(mc) {
            self.init(a: ma >= 0 ? 1 : -1, b: 0, c: 0, d: md >= 0 ? 1 : -1)
        } else {
            self.init(a: 0, b: mb >= 0 ? 1 : -1, c: mc >= 0 ? 1 : -1, d: 0)
        }
    }

    /// True when the picture is mirrored (negative determinant).
    public var isMirrored: Bool { a * d - b * c < 0 }
    /// True for quarter turns: width and height swap.
    public var swapsAxes: Bool { a == 0 }
    /// The rotation as `av_display_rotation_get` reports it: counter-clockwise degrees in (-180, 180].
    public var rotationDegrees: Int {
        // av_display_rotation_get = -atan2(b, a) in degrees (after per-column normalisation).
        let deg = -Int((atan2(Double(b), Double(a)) * 180 / Double.pi).rounded())
        return deg == -180 ? 180 : deg
    }
    public var description: String { "rotation \(rotationDegrees)°\(isMirrored ? " mirrored" : "")" }

    /// The map on centred coordinates (origin at the picture centre) from stored to displayed picture.
    public var affine: Affine2D { Affine2D(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: 0, ty: 0) }
}

/// How a clip's picture is fitted to the render size.
public enum FitMode: String, CaseIterable, Sendable {
    /// Scale to cover the render size and crop the overflow, centred (`resizeAspectFill`).
    case fill
    /// Scale to fit inside the render size, centred, background (black) around (`resizeAspect`).
    case fit
    /// Scale each axis independently to the render size (`resize`).
    case stretch
    /// No scaling: one stored pixel per output pixel, centred. What a text item's picture gets (its `size` is in
    /// pixels of the render frame); not offered for clips (`fit` and `--fit` take fill, fit, stretch:
    /// `FitMode.userModes`).
    case native

    /// The modes an edit's `fit` and `--fit` take.
    public static let userModes: [FitMode] = [.fill, .fit, .stretch]
}


/// Builds the map from output pixel coordinates to a source texture's normalized coordinates.
public enum LayerGeometry {
    /// The size to reduce a stored picture of `codedSize` to before sampling it, when the layer shows it at less than
    /// half its size along a stored axis (bilinear sampling there skips samples and aliases): along each such axis,
    /// the size it is shown at (rounded, at least 1); other axes keep their size. Nil when no axis is below ½.
    /// `outputToSource` maps output pixels to normalized stored-picture positions, so it holds for the reduced
    /// picture unchanged.
    public static func prefilterSize(_ outputToSource: Affine2D, codedSize: PixelSize) -> PixelSize? {
        let forward = outputToSource.then(.scale(Double(codedSize.width), Double(codedSize.height))).inverted
        // Output pixels per stored pixel along the stored x and y axes.
        let sx = (forward.a * forward.a + forward.b * forward.b).squareRoot()
        let sy = (forward.c * forward.c + forward.d * forward.d).squareRoot()
        guard sx < 0.5 || sy < 0.5 else { return nil }
        func axis(_ n: Int, _ s: Double) -> Int { s < 0.5 ? max(1, Int((Double(n) * s).rounded())) : n }
        return PixelSize(width: axis(codedSize.width, sx), height: axis(codedSize.height, sy))
    }

    /// The size a layer's stored picture of `codedSize` is handed to a renderer at: the prefilter's size
    /// (`prefilterSize`), and in any case no side above `maxSide` (the renderer's `maxPictureSize`: the GPU's
    /// `GL_MAX_TEXTURE_SIZE`), scaled down keeping the aspect ratio (the long side to the limit, the other rounded to
    /// the nearest pixel, at least 1). Nil when the
    /// picture is used as stored.
    /// With `levels` (a layer in motion), the prefilter reduces to a power-of-two level (`prefilterLevel`).
    public static func reducedSize(_ outputToSource: Affine2D, codedSize: PixelSize, maxSide: Int?, levels: Bool = false) -> PixelSize? {
        let prefiltered = levels ? prefilterLevel(outputToSource, codedSize: codedSize) : prefilterSize(outputToSource, codedSize: codedSize)
        guard let limit = maxSide else { return prefiltered }
        let size = prefiltered ?? codedSize
        guard max(size.width, size.height) > limit else { return prefiltered }
        let longest = max(size.width, size.height)
        func side(_ n: Int) -> Int { n == longest ? limit : max(1, Int((Double(n) * Double(limit) / Double(longest)).rounded())) }
        return PixelSize(width: side(size.width), height: side(size.height))
    }

    /// The map `M` with `M(x, y) = (u, v)`: `(x, y)` is a position in the output picture in pixels
    /// (top-left origin; pixel centres at `i + 0.5`), `(u, v)` the normalized position in the stored
    /// (coded) source picture (0…1 across its width and height, top-left origin).
    ///
    /// Order: the stored picture is stretched to its display aspect (`sar`), turned/mirrored by `orientation`,
    /// then scaled and centred into `renderSize` by `fit`.
    /// - Parameters:
    ///   - codedSize: stored picture size in pixels.
    ///   - sar: sample aspect ratio (pixel width / pixel height), 1 for square pixels.
    ///   - window: the part of the fitted picture shown (`Motion.Window`): its centre moves to the output's centre
    ///     and it is magnified by its zoom; `.fit` (the default) is the fit alone.
    public static func outputToSource(codedSize: PixelSize, sar: Double, orientation: Orientation,
                                      renderSize: PixelSize, fit: FitMode, window: Motion.Window = .fit) -> Affine2D {
        place(codedSize: codedSize, sar: sar, orientation: orientation, renderSize: renderSize, fit: fit, window: window,
              transform: .identity)!.outputToSource
    }

    /// The fraction of the fitted picture the output shows at zoom 1, per axis (1 where the picture spans that axis
    /// of the output exactly, less where `fill` crops it, more where `fit` leaves bars).
    public static func visibleFraction(codedSize: PixelSize, sar: Double, orientation: Orientation,
                                       renderSize: PixelSize, fit: FitMode, crop: CropInsets = CropInsets()) -> (width: Double, height: Double) {
        let (rw, rh, _, _) = fitted(codedSize: codedSize, sar: sar, orientation: orientation, renderSize: renderSize, fit: fit)
        let cw = rw * (1 - crop.left - crop.right), ch = rh * (1 - crop.top - crop.bottom)
        let (kx, ky) = fitScale(width: cw, height: ch, renderSize: renderSize, fit: fit)
        return (Double(renderSize.width) / (cw * kx), Double(renderSize.height) / (ch * ky))
    }

    /// The picture's display size after `orientation` (`rw × rh`, pixels) and the scale per axis that `fit` gives it in
    /// `renderSize` (`kx`, `ky`: equal for `fill`, the larger ratio, and `fit`, the smaller; per axis for `stretch`).
    private static func fitted(codedSize: PixelSize, sar: Double, orientation: Orientation, renderSize: PixelSize,
                               fit: FitMode) -> (rw: Double, rh: Double, kx: Double, ky: Double) {
        let dw = Double(codedSize.width) * sar, dh = Double(codedSize.height)
        let (rw, rh) = orientation.swapsAxes ? (dh, dw) : (dw, dh)
        let (kx, ky) = fitScale(width: rw, height: rh, renderSize: renderSize, fit: fit)
        return (rw, rh, kx, ky)
    }

    /// `prefilterSize`'s reduction rounded up to a power-of-two level of the stored picture (`codedSize / 2^k` per
    /// axis, the largest `k` whose level is still at least the shown size): for layers whose scale changes every frame
    /// (pan and zoom), which then sample one of a few reduced pictures, each at a scale within ½…1 (no aliasing), made
    /// once each instead of once per frame. Nil when no axis is shown below half size.
    public static func prefilterLevel(_ outputToSource: Affine2D, codedSize: PixelSize) -> PixelSize? {
        let forward = outputToSource.then(.scale(Double(codedSize.width), Double(codedSize.height))).inverted
        let sx = (forward.a * forward.a + forward.b * forward.b).squareRoot()
        let sy = (forward.c * forward.c + forward.d * forward.d).squareRoot()
        guard sx < 0.5 || sy < 0.5 else { return nil }
        func axis(_ n: Int, _ s: Double) -> Int {
            guard s < 0.5 else { return n }
            let k = Int(log2(1 / s).rounded(.down))
            return max(1, Int((Double(n) / Double(1 << min(k, 30))).rounded(.up)))
        }
        return PixelSize(width: axis(codedSize.width, sx), height: axis(codedSize.height, sy))
    }
}
