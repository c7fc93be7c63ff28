import Foundation

/// A picture effect that reads a sample's neighbours: a Gaussian blur, or an unsharp mask (`blur`, `sharpen`;
/// docs/effects.md). It works as CSS `filter` does on an element: the layer as drawn in output space (its geometry,
/// crop and fit, the per-sample effects before it) is an image of the render size, premultiplied R′G′B′A, which is
/// filtered here and then composited with the layer's opacity and blend (`FilteredLayers`).
///
/// The blur is separable, rows then columns: weights `exp(−x² / 2σ²)` for the integers `|x| ≤ ceil(3σ)`, normalised to
/// sum 1, σ = `radius` in output pixels (CSS `blur()`'s standard deviation). Outside the frame the image is
/// transparent (premultiplied 0), so a picture's edges fade into transparency as CSS's do; a blur with `extendsEdges`
/// (a `fitBackground`, which covers the frame) reads the frame's edge samples there instead. Sharpen is
/// `c + amount · (c − blur_radius(c))` on the premultiplied samples, each then clamped to 0…1 and its colour to its
/// alpha (FFmpeg's `unsharp` formula, with a Gaussian in place of its binomial window).
public enum LayerFilter: Equatable, Sendable, CustomStringConvertible {
    case blur(radius: Float, extendsEdges: Bool = false)
    case sharpen(amount: Float, radius: Float)

    /// The largest radius taken: 250 output pixels (an edit giving more is refused).
    public static let maxRadius = 250.0

    /// σ in output pixels.
    public var radius: Float {
        switch self { case .blur(let r, _), .sharpen(_, let r): return r }
    }

    /// How far a sample's value reaches (the kernel's half-width): `ceil(3σ)` pixels.
    public var reach: Int { LayerFilter.halfWidth(radius) }

    /// Whether it changes nothing (a radius under 0.01 px, or a sharpen of amount 0).
    public var isIdentity: Bool {
        switch self {
        case .blur(let r, _): return r < 0.01
        case .sharpen(let a, let r): return a == 0 || r < 0.01
        }
    }

    public var description: String {
        switch self {
        case .blur(let r, let e): return "blur \(r) px" + (e ? ", edges extended" : "")
        case .sharpen(let a, let r): return "sharpen \(a) radius \(r) px"
        }
    }

    /// The blurs wider than this many pixels are drawn at a reduced size.
    public static let reductionRadius: Float = 16

    /// How the filter runs for a render of `size`: a sharpen, or a blur of radius up to `reductionRadius`, as it is
    /// (n = 1); a wider blur at 1/n of the size, n = floor(σ / 8), by σ′ = √(σ² − n²/6) / n there — the bilinear
    /// read back at the render size (a triangle of half-width n: variance n²/6) makes up the rest of σ², so the
    /// whole is a blur of σ at about σ / 8 taps a side on n² times fewer samples (1080p, σ 54: n 6, σ′ 9).
    public func reduced(_ size: PixelSize) -> (n: Int, size: PixelSize, filter: LayerFilter) {
        guard case .blur(let sigma, let extend) = self, sigma > LayerFilter.reductionRadius else { return (1, size, self) }
        let n = Int(sigma / 8)
        let small = PixelSize(width: max(1, (size.width + n - 1) / n), height: max(1, (size.height + n - 1) / n))
        return (n, small, .blur(radius: (sigma * sigma - Float(n * n) / 6).squareRoot() / Float(n), extendsEdges: extend))
    }

    static func halfWidth(_ sigma: Float) -> Int { Int((3 * sigma).rounded(.up)) }

    /// The normalised Gaussian weights for offsets `−n…n`, `n = ceil(3σ)`.
    public static func kernel(_ sigma: Float) -> [Float] {
        let n = halfWidth(sigma)
        let w = (-n...n).map { x -> Float in expf(-Float(x * x) / (2 * sigma * sigma)) }
        let sum = w.reduce(0, +)
        return w.map { $0 / sum }
    }

    /// Whether the blur reads the frame's edge samples outside it (else transparent).
    public var extendsEdges: Bool {
        if case .blur(_, true) = self { return true }
        return false
    }

    /// `image` (premultiplied R′G′B′A, 8-bit) blurred by the Gaussian of σ = `radius`, in 8 bits (rounded).
    public func blurred(_ image: RGBAImage) -> RGBAImage {
        var src = image.pixels.map { Float($0) / 255 }
        let b = LayerFilter.gaussian(&src, width: image.width, height: image.height, sigma: radius, extendsEdges: extendsEdges)
        return RGBAImage(width: image.width, height: image.height, pixels: b.map { Unorm.code8($0) })
    }

    /// `image` filtered: its blur (`blurred`, from `blur`), or for a sharpen `c + amount · (c − blurred)` per
    /// premultiplied sample, alpha clamped to 0…1 and colour to 0…alpha.
    public func apply(_ image: RGBAImage, blurred: RGBAImage) -> RGBAImage {
        guard case .sharpen(let amount, _) = self else { return blurred }
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        for p in stride(from: 0, to: out.count, by: 4) {
            func at(_ i: Int) -> (Float, Float) { (Float(image.pixels[i]) / 255, Float(blurred.pixels[i]) / 255) }
            let (a0, ab) = at(p + 3)
            let a = min(1, max(0, a0 + amount * (a0 - ab)))
            out[p + 3] = Unorm.code8(a)
            for c in 0..<3 { let (c0, cb) = at(p + c); out[p + c] = Unorm.code8(min(a, max(0, c0 + amount * (c0 - cb)))) }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: out)
    }

    /// The separable blur of `image` (W × H × 4 floats; not changed), transparent outside (or its edge samples
    /// extended): rows, then columns.
    static func gaussian(_ image: inout [Float], width W: Int, height H: Int, sigma: Float, extendsEdges: Bool) -> [Float] {
        let k = kernel(sigma)
        var rows = [Float](repeating: 0, count: W * H * 4), out = rows
        image.withUnsafeBufferPointer { s in rows.withUnsafeMutableBufferPointer { r in
            Pointers(s: s.baseAddress!, r: r.baseAddress!).convolve(k, width: W, height: H, horizontal: true, extend: extendsEdges)
        } }
        rows.withUnsafeBufferPointer { s in out.withUnsafeMutableBufferPointer { r in
            Pointers(s: s.baseAddress!, r: r.baseAddress!).convolve(k, width: W, height: H, horizontal: false, extend: extendsEdges)
        } }
        return out
    }

    /// A source the rows' threads read and a result each writes its own rows of (`@unchecked Sendable`).
    private struct Pointers: @unchecked Sendable {
        let s: UnsafePointer<Float>, r: UnsafeMutablePointer<Float>

        /// One direction of the blur: `r[x] = Σ k[t + n] · s[x + t]` along rows or columns, 0 outside (or, with
        /// `extend`, the nearest sample inside).
        func convolve(_ k: [Float], width W: Int, height H: Int, horizontal: Bool, extend: Bool) {
            let n = k.count / 2, step = horizontal ? 4 : W * 4
            DispatchQueue.concurrentPerform(iterations: H) { y in
                for x in 0..<W {
                    let at = horizontal ? x : y, length = horizontal ? W : H
                    let o = (y * W + x) * 4
                    var acc = SIMD4<Float>()
                    for t in (extend ? -n : max(-n, -at))...(extend ? n : min(n, length - 1 - at)) {
                        let i = o + (min(max(at + t, 0), length - 1) - at) * step
                        acc += SIMD4(s[i], s[i + 1], s[i + 2], s[i + 3]) * k[t + n]
                    }
                    r[o] = acc.x; r[o + 1] = acc.y; r[o + 2] = acc.z; r[o + 3] = acc.w
                }
            }
        }
    }
}

extension PictureEffect {
    /// The neighbourhood filter, if this is one (`blur`, `sharpen`).
    public var filter: LayerFilter? {
        if case .filter(let f) = self { return f }
        return nil
    }
}

/// Layers with a `blur` or `sharpen` effect, drawn through their filters before a frame is drawn: decided here once for
/// both renderers (`CompositeRenderer.filteringLayers`).
///
/// For each such layer, in each pass: the layer with the effects before its first filter, opaque, not blended, is
/// drawn alone by the same renderer into an RGBA image of the render size (transparent outside it); the filter runs on
/// that image (`LayerFilter.apply`); the layer is then replaced by that image, drawn at the frame's own pixels with the
/// layer's opacity, blend and the effects after the filter (repeated while a filter is left). The pass's rectangle
/// grows by the filter's reach. The frame keeps its passes and its layers, one picture each.
extension CompositeRenderer {
    public func filteringLayers(_ plan: FramePlan, pictures: [VideoPicture]) throws -> (FramePlan, [VideoPicture]) {
        guard plan.passes.contains(where: { $0.layers.contains { l in l.effects.contains { $0.filter != nil } } }) else { return (plan, pictures) }
        var plan = plan, pictures = pictures
        var k = 0
        let size = plan.renderSize, frame = PixelRect(size)
        for (n, pass) in plan.passes.enumerated() {
            var layers = pass.drawnLayers
            var grow = 0
            for (j, _) in layers.enumerated() {
                while let f = layers[j].effects.firstIndex(where: { $0.filter != nil }) {
                    let filter = layers[j].effects[f].filter!
                    // A wide blur is drawn and blurred at 1/n of the render size (`reduced`) and read back bilinearly.
                    let (n, small, reducedFilter) = filter.reduced(size)
                    var alone = layers[j].replacingGeometry(n == 1 ? layers[j].outputToSource
                        : Affine2D.scale(Double(size.width) / Double(small.width), Double(size.height) / Double(small.height)).then(layers[j].outputToSource))
                    alone.effects = Array(alone.effects[..<f])
                    alone.opacity = 1
                    alone.blend = .normal
                    let one = FramePlan(frame: plan.frame, time: plan.time, renderSize: small, passes: [CompositePass(from: alone, to: nil, transition: nil, progress: 0)],
                                        colour: .sdr, keepsAlpha: true)
                    let drawn = try render(one, pictures: [pictures[k + j]])
                    var picture = VideoPicture(filter.isIdentity ? drawn : reducedFilter.apply(drawn, blurred: try blurred(drawn, by: reducedFilter)))
                    picture.hasAlpha = true
                    pictures[k + j] = picture
                    var replaced = layers[j].replacingGeometry(.scale(1 / Double(size.width), 1 / Double(size.height)))
                    replaced.crop = .unit
                    replaced.content = .media
                    replaced.bounds = nil
                    replaced.effects = Array(layers[j].effects[(f + 1)...])
                    layers[j] = replaced
                    grow += filter.reach
                }
            }
            k += pass.layers.count
            guard grow > 0 else { continue }
            let rect = pass.rect.map { r in
                PixelRect(x0: r.x0 - grow, y0: r.y0 - grow, x1: r.x1 + grow, y1: r.y1 + grow).evenAligned.intersection(frame)
            }
            plan.passes[n] = CompositePass(track: pass.track, from: layers[0], to: layers.count > 1 ? layers[1] : nil, transition: pass.transition,
                                           progress: pass.progress, rect: rect, matte: pass.matte)
        }
        return (plan, pictures)
    }
}
