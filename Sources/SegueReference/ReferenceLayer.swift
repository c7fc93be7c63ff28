import SegueCore

/// `getFromColor`/`getToColor` + the layer lookup of `Shaders/glsl/layer.glsl`, mirrored in Swift: map the
/// output uv to the stored picture, read the planes that contribute, apply the pass's `LayerColourMap`
/// (R′G′B′, not clamped; or the output's luma or chroma in fused passes), then the layer's `ColourStage` if it has
/// one (HDR clips: linear light, gamut, tone mapping, the output's transfer).
///
/// Reads follow the shaders: `texture()` with `GL_LINEAR` + `GL_CLAMP_TO_EDGE` for 8-bit planes (ES 3.0
/// §3.8.10: weights from the fraction of `p − 0.5`, `p` in texel units), the same bilinear rule written out with
/// `texelFetch` for 16-bit planes, and in exact layers (`TransitionParameters.isExact`) one `texelFetch` per plane
/// of the texel containing the (sited, `ChromaPositionMap`) position: no filtering.
///
/// Pictures are premultiplied (RGBA pictures with alpha; Y′CbCr pictures are opaque): the layer gives its colour
/// times its alpha and `opacity`, with that alpha, `matrix · s + offset · α`; outside `crop` (stored uv) it gives the
/// background, and a cropped layer's filtered reads stay half a texel inside the crop (`LAYER_CROP`).
final class ReferenceLayer {
    enum Kind { case rgba, planar8, semiPlanar8, planar16 }
    let kind: Kind
    let exact: Bool
    let a, b, c, d, tx, ty: Float
    let w, h, cw, ch: Int
    let fw, fh, fcw, fch: Float
    /// The colour map's columns and offset (`LayerColourMap`: value = c0·v.x + c1·v.y + c2·v.z + off·α), lane 3 giving
    /// α itself (columns 0 there, offset 1).
    let c0: SIMD4<Float>, c1: SIMD4<Float>, c2: SIMD4<Float>, off: SIMD4<Float>
    let chroma: ChromaPositionMap
    /// The planes' bytes, held (never mutated) so that their storage, which `p0`…`p2` point into, stays where it is
    /// for as long as the layer reads it: no copy per frame.
    private let storage: [[UInt8]]
    let p0: UnsafeBufferPointer<UInt8>, p1: UnsafeBufferPointer<UInt8>, p2: UnsafeBufferPointer<UInt8>

    let readsLuma: Bool, readsChroma: Bool
    let background: SIMD4<Float>
    let stage: ColourStage?
    /// The picture effects, applied after the colour map and stage (nil: none).
    let effects: PictureEffects?
    /// The crop in stored uv (u0, v0, u1, v1), whether it is not the whole picture, and the opacity.
    let u0, v0, u1, v1: Float
    let cropped: Bool
    let opacity: Float

    /// The layer `recipe` describes (a `PassRecipe`'s `from` or `to`), showing `picture`, `background` outside it.
    convenience init(_ recipe: PassRecipe.Layer, picture: VideoPicture, background: [Float]) {
        self.init(picture: picture, map: recipe.map, exact: recipe.exact, colour: recipe.colour, stage: recipe.stage, background: background,
                  crop: recipe.plan.crop, opacity: Float(recipe.plan.opacity), effects: recipe.plan.effects)
    }

    init(picture: VideoPicture, map: [Float], exact: Bool, colour: LayerColourMap, stage: ColourStage?, background: [Float],
         crop: NormalizedRect = .unit, opacity: Float = 1, effects: [PictureEffect] = []) {
        self.stage = stage
        self.effects = PictureEffects(effects)
        let bounds = crop.floats
        (u0, v0, u1, v1) = (bounds[0], bounds[1], bounds[2], bounds[3])
        cropped = crop != .unit
        self.opacity = opacity
        switch picture.layout {
        case .rgba: kind = .rgba
        case .semiPlanar: kind = .semiPlanar8
        case .planar: kind = picture.bitDepth > 8 ? .planar16 : .planar8
        }
        self.exact = exact
        (a, b, c, d, tx, ty) = (map[0], map[1], map[2], map[3], map[4], map[5])
        w = picture.width; h = picture.height; fw = Float(w); fh = Float(h)
        let cs = picture.chromaSize
        cw = cs.width; ch = cs.height; fcw = Float(cw); fch = Float(ch)
        let m = colour.matrix, o = colour.offset
        c0 = SIMD4(m[0], m[3], m[6], 0); c1 = SIMD4(m[1], m[4], m[7], 0); c2 = SIMD4(m[2], m[5], m[8], 0)
        off = SIMD4(o[0], o[1], o[2], 1)
        readsLuma = colour.readsLuma; readsChroma = colour.readsChroma
        self.background = SIMD4(background[0], background[1], background[2], background[3])
        chroma = ChromaPositionMap(picture)
        storage = picture.planes.map(\.bytes)
        let pointers = storage.map { bytes in bytes.withUnsafeBufferPointer { $0 } }
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        p0 = pointers[0]; p1 = pointers.count > 1 ? pointers[1] : empty; p2 = pointers.count > 2 ? pointers[2] : empty
    }

    /// `getFromColor(uv)`: background outside 0…1 and outside the part of the stored picture shown.
    @inline(__always) func color(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        if uv.x < 0 || uv.x > 1 || uv.y < 0 || uv.y > 1 { return background }
        let s = a * uv.x + c * uv.y + tx
        let t = b * uv.x + d * uv.y + ty
        if s < u0 || s > u1 || t < v0 || t > v1 { return background }
        return sample(s, t) * opacity
    }

    @inline(__always) func sample(_ s: Float, _ t: Float) -> SIMD4<Float> {
        var px = s * fw, py = t * fh
        if cropped && !exact {
            px = min(max(px, u0 * fw + 0.5), u1 * fw - 0.5); py = min(max(py, v0 * fh + 0.5), v1 * fh - 0.5)
        }
        var v = SIMD3<Float>()
        var alpha: Float = 1
        if kind == .rgba {
            let c = exact ? texel4(ReferenceLayer.exactTexel(px, w), ReferenceLayer.exactTexel(py, h)) : bilinear4(px, py)
            v = SIMD3(c.x, c.y, c.z)
            alpha = c.w
        } else if exact {
            let cx = ReferenceLayer.exactTexel(px * chroma.scaleX + chroma.offsetX, cw)
            let cy = ReferenceLayer.exactTexel(py * chroma.scaleY + chroma.offsetY, ch)
            let i = ReferenceLayer.exactTexel(py, h) * w + ReferenceLayer.exactTexel(px, w), k = cy * cw + cx
            switch kind {
            case .planar16:
                if readsLuma { v.x = code16(p0, i) }
                if readsChroma { v.y = code16(p1, k); v.z = code16(p2, k) }
            case .semiPlanar8:
                if readsLuma { v.x = Float(p0[i]) / 255 }
                if readsChroma { v.y = Float(p1[2 * k]) / 255; v.z = Float(p1[2 * k + 1]) / 255 }
            default:
                if readsLuma { v.x = Float(p0[i]) / 255 }
                if readsChroma { v.y = Float(p1[k]) / 255; v.z = Float(p2[k]) / 255 }
            }
        } else {
            let pcx = px * chroma.scaleX + chroma.offsetX, pcy = py * chroma.scaleY + chroma.offsetY
            switch kind {
            case .planar16:
                if readsLuma { v.x = bilinear16(p0, w, h, px, py) }
                if readsChroma { v.y = bilinear16(p1, cw, ch, pcx, pcy); v.z = bilinear16(p2, cw, ch, pcx, pcy) }
            case .semiPlanar8:
                if readsLuma { v.x = bilinear8(p0, w, h, 1, 0, px, py) }
                if readsChroma { v.y = bilinear8(p1, cw, ch, 2, 0, pcx, pcy); v.z = bilinear8(p1, cw, ch, 2, 1, pcx, pcy) }
            default:
                if readsLuma { v.x = bilinear8(p0, w, h, 1, 0, px, py) }
                if readsChroma { v.y = bilinear8(p1, cw, ch, 1, 0, pcx, pcy); v.z = bilinear8(p2, cw, ch, 1, 0, pcx, pcy) }
            }
        }
        return shade(v, alpha: alpha, at: SIMD2(s, t))
    }

    /// The pass's values of stored samples `v` (Y′, Cb, Cr as read, 0 where not read; or R′G′B′ of an RGBA picture,
    /// premultiplied) with alpha `alpha`: the colour map, `matrix · v + offset · α`, or through the colour stage.
    @inline(__always) func shade(_ v: SIMD3<Float>, alpha: Float, at position: SIMD2<Float> = .zero) -> SIMD4<Float> {
        if let effects {
            // Effects work on colours and alpha: unpremultiplied, then premultiplied again (layer.glsl's effectsLAYER).
            let c = mapped(v, alpha: alpha)
            if alpha <= 0 { return SIMD4(repeating: 0) }
            let e = effects.apply(SIMD4(c.x / alpha, c.y / alpha, c.z / alpha, alpha), at: position)
            return SIMD4(e.x * e.w, e.y * e.w, e.z * e.w, e.w)
        }
        return mapped(v, alpha: alpha)
    }

    /// The colour map and stage of `shade`, without the effects.
    @inline(__always) func mapped(_ v: SIMD3<Float>, alpha: Float) -> SIMD4<Float> {
        if let stage {
            // The stage is not affine: through it unpremultiplied, then premultiplied again.
            if alpha <= 0 { return SIMD4(repeating: 0) }
            let u = v / alpha
            let c = c0 * u.x + c1 * u.y + c2 * u.z + off
            let s = stage.apply(SIMD3(c.x, c.y, c.z)) * alpha
            return SIMD4(s.x, s.y, s.z, alpha)
        }
        // Each lane: m[3r]·v.x + m[3r+1]·v.y + m[3r+2]·v.z + o[r]·α, left to right (lane 3: α).
        return c0 * v.x + c1 * v.y + c2 * v.z + off * alpha
    }

    /// `exactTexel` of `prelude.glsl`: the texel containing `p`, ties to the lower index, clamped.
    @inline(__always) static func exactTexel(_ p: Float, _ n: Int) -> Int {
        min(max(Int((p - 1.0 / 64).floored), 0), n - 1)
    }

    @inline(__always) func code16(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Float {
        Float(UInt16(p[2 * i]) | UInt16(p[2 * i + 1]) << 8)
    }

    /// Bilinear weights and clamped indices for position `p` (texel units, centres at `i + 0.5`) along an axis of `n` texels.
    @inline(__always) func taps(_ p: Float, _ n: Int) -> (Int, Int, Float) {
        let q = p - 0.5
        let qf = q.floored
        let i = Int(qf)
        return (min(max(i, 0), n - 1), min(max(i + 1, 0), n - 1), q - qf)
    }

    /// One channel of an 8-bit plane with `channels` interleaved samples, as unorm (`code / 255`).
    @inline(__always) func bilinear8(_ p: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ channels: Int, _ channel: Int,
                                     _ x: Float, _ y: Float) -> Float {
        let (x0, x1, fx) = taps(x, w), (y0, y1, fy) = taps(y, h)
        @inline(__always) func t(_ x: Int, _ y: Int) -> Float { Float(p[(y * w + x) * channels + channel]) / 255 }
        let top = t(x0, y0) * (1 - fx) + t(x1, y0) * fx
        let bottom = t(x0, y1) * (1 - fx) + t(x1, y1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// A 16-bit little-endian plane, as integer code values.
    @inline(__always) func bilinear16(_ p: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ x: Float, _ y: Float) -> Float {
        let (x0, x1, fx) = taps(x, w), (y0, y1, fy) = taps(y, h)
        @inline(__always) func t(_ x: Int, _ y: Int) -> Float {
            let i = (y * w + x) * 2
            return Float(UInt16(p[i]) | UInt16(p[i + 1]) << 8)
        }
        let top = t(x0, y0) * (1 - fx) + t(x1, y0) * fx
        let bottom = t(x0, y1) * (1 - fx) + t(x1, y1) * fx
        return top * (1 - fy) + bottom * fy
    }

    @inline(__always) func texel4(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let i = (y * w + x) * 4
        return SIMD4(Float(p0[i]), Float(p0[i + 1]), Float(p0[i + 2]), Float(p0[i + 3])) / 255
    }

    @inline(__always) func bilinear4(_ x: Float, _ y: Float) -> SIMD4<Float> {
        let (x0, x1, fx) = taps(x, w), (y0, y1, fy) = taps(y, h)
        let top = texel4(x0, y0) * (1 - fx) + texel4(x1, y0) * fx
        let bottom = texel4(x0, y1) * (1 - fx) + texel4(x1, y1) * fx
        return top * (1 - fy) + bottom * fy
    }
}
