import Foundation

/// Where a layer's picture goes in the render frame, at one instant: the values of an item's `layer` (AVFoundation's
/// layer instruction: a transform, an opacity and a crop rectangle).
///
/// The picture is first cropped (`crop`: fractions of the upright picture — after the display matrix — removed from
/// each side), then fitted to the render size by the edit's fit mode, then framed by `motion`'s window; that fitted
/// picture is then scaled by `scale` about its centre, turned `rotation` degrees clockwise, and its centre moved to
/// (`x`, `y`) in the render frame (normalized, top-left origin). The identity leaves the fitted picture centred, as
/// an edit of one track shows it.
public struct LayerTransform: Equatable, Sendable {
    /// The layer's centre in the render frame: 0…1 across its width and height (0.5, 0.5 is the centre).
    public var x = 0.5, y = 0.5
    /// 1 = the picture as the fit makes it; 0.25 = a quarter of that width and height.
    public var scale = 1.0
    /// Degrees, clockwise on screen, about the layer's centre.
    public var rotation = 0.0
    /// Fractions of the upright picture removed before fitting (each 0…1, left + right < 1, top + bottom < 1).
    public var crop = CropInsets()
    public init(x: Double = 0.5, y: Double = 0.5, scale: Double = 1, rotation: Double = 0, crop: CropInsets = CropInsets()) {
        self.x = x; self.y = y; self.scale = scale; self.rotation = rotation; self.crop = crop
    }
    public static let identity = LayerTransform()
    /// Whether the transform draws anything: a positive scale and a crop that leaves some of the picture.
    public var isVisible: Bool { scale > 0 && crop.left + crop.right < 1 && crop.top + crop.bottom < 1 }
}

/// Fractions of a picture removed from each side (0 = nothing).
public struct CropInsets: Equatable, Hashable, Sendable {
    public var left = 0.0, top = 0.0, right = 0.0, bottom = 0.0
    public init(left: Double = 0, top: Double = 0, right: Double = 0, bottom: Double = 0) {
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
    }
    public var isZero: Bool { left == 0 && top == 0 && right == 0 && bottom == 0 }
}

/// A layer's geometry at one instant, as the renderers take it.
public struct LayerPlacement: Equatable, Sendable {
    /// Output pixel position → normalized stored-picture position.
    public let outputToSource: Affine2D
    /// The part of the stored picture shown (the crop, in stored coordinates).
    public let crop: NormalizedRect
    /// The output pixels the visible part can reach: the bounding box of its corners, whole pixels, clamped to the
    /// frame (empty when it lies outside).
    public let bounds: PixelRect
}

extension LayerGeometry {
    /// The geometry of a layer showing a stored picture of `codedSize` (with `sar` and `orientation`) through
    /// `transform`, fitted by `fit` to `renderSize`, framed by `window` (`Motion`).
    ///
    /// Forward map, stored picture (normalized) → output pixels, in order: centre, stretch to display aspect
    /// (`sar`), turn by `orientation`, move the crop's centre to the origin, scale by the fit of the cropped upright
    /// picture (`FitMode`), move the window's centre to the origin and magnify by its zoom, scale by
    /// `transform.scale`, rotate by `transform.rotation` (clockwise on screen: `(x, y) ↦ (x·cos θ − y·sin θ,
    /// x·sin θ + y·cos θ)` in y-down coordinates), and move to (`x·W`, `y·H`). With the identity transform this is
    /// `outputToSource(codedSize:sar:orientation:renderSize:fit:window:)` exactly. Returns nil when the transform
    /// draws nothing (`LayerTransform.isVisible`).
    public static func place(codedSize: PixelSize, sar: Double, orientation: Orientation, renderSize: PixelSize, fit: FitMode,
                             window: Motion.Window = .fit, transform: LayerTransform) -> LayerPlacement? {
        guard transform.isVisible else { return nil }
        let dw = Double(codedSize.width) * sar, dh = Double(codedSize.height)
        let (rw, rh) = orientation.swapsAxes ? (dh, dw) : (dw, dh)
        let c = transform.crop
        // The cropped upright picture: its size, and its centre relative to the upright picture's centre.
        let cw = rw * (1 - c.left - c.right), ch = rh * (1 - c.top - c.bottom)
        let cx = (c.left - c.right) / 2 * rw, cy = (c.top - c.bottom) / 2 * rh
        let (kx, ky) = fitScale(width: cw, height: ch, renderSize: renderSize, fit: fit)
        let W = Double(renderSize.width), H = Double(renderSize.height)
        // Quarter turns exactly (so that a layer turned by them can stay pixel-exact), other angles by cos and sin.
        let (cosT, sinT): (Double, Double)
        switch ((transform.rotation.truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360) {
        case 0: (cosT, sinT) = (1, 0)
        case 90: (cosT, sinT) = (0, 1)
        case 180: (cosT, sinT) = (-1, 0)
        case 270: (cosT, sinT) = (0, -1)
        default:
            let theta = transform.rotation * Double.pi / 180
            (cosT, sinT) = (cos(theta), sin(theta))
        }
        let toUpright = Affine2D.translation(-0.5, -0.5).then(.scale(dw, dh)).then(orientation.affine)
        let forward = toUpright
            .then(.translation(-cx, -cy))
            .then(.scale(kx, ky))
            .then(.translation(-(window.x - 0.5) * cw * kx, -(window.y - 0.5) * ch * ky))
            .then(.scale(window.zoom, window.zoom))
            .then(.scale(transform.scale, transform.scale))
            .then(Affine2D(a: cosT, b: sinT, c: -sinT, d: cosT, tx: 0, ty: 0))
            .then(.translation(transform.x * W, transform.y * H))
        // The crop in stored coordinates: the upright crop rectangle's corners mapped back (axis-aligned: the
        // orientation is a quarter turn or a mirror).
        let uprightToStored = toUpright.inverted
        let corners = [(c.left, c.top), (1 - c.right, c.top), (c.left, 1 - c.bottom), (1 - c.right, 1 - c.bottom)].map { (u, v) in
            uprightToStored.apply((u - 0.5) * rw, (v - 0.5) * rh)
        }
        let crop = c.isZero ? NormalizedRect.unit : NormalizedRect(u0: max(0, corners.map(\.0).min()!), v0: max(0, corners.map(\.1).min()!),
                                                                   u1: min(1, corners.map(\.0).max()!), v1: min(1, corners.map(\.1).max()!))
        let out = [(crop.u0, crop.v0), (crop.u1, crop.v0), (crop.u0, crop.v1), (crop.u1, crop.v1)].map { forward.apply($0.0, $0.1) }
        // Pixel centres inside the picture: the box of its corners, widened by a pixel for rounding.
        let box = PixelRect(x0: Int((out.map(\.0).min()!).rounded(.down)) - 1, y0: Int((out.map(\.1).min()!).rounded(.down)) - 1,
                            x1: Int((out.map(\.0).max()!).rounded(.up)) + 1, y1: Int((out.map(\.1).max()!).rounded(.up)) + 1)
        let bounds = box.intersection(PixelRect(renderSize))
        return LayerPlacement(outputToSource: forward.inverted, crop: crop, bounds: bounds.isEmpty ? PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) : bounds)
    }

    /// The fit's scale per axis for an upright picture of `width × height` (display pixels) in `renderSize`.
    static func fitScale(width rw: Double, height rh: Double, renderSize: PixelSize, fit: FitMode) -> (Double, Double) {
        var kx = Double(renderSize.width) / rw, ky = Double(renderSize.height) / rh
        switch fit {
        case .fill: let k = max(kx, ky); kx = k; ky = k
        case .fit: let k = min(kx, ky); kx = k; ky = k
        case .stretch: break
        case .native: kx = 1; ky = 1
        }
        return (kx, ky)
    }
}
