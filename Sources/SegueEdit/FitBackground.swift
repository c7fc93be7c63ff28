import SegueCore

/// What shows in the bars a fitted picture leaves (`"fit": "fit"`): the edit's or an item's `fitBackground`
/// (docs/effects.md). The planner draws it as a layer of the item's own, just under the item's layer, while the item
/// lasts and with its transitions and opacity (`Timeline.backgroundPass`).
public enum FitBackground: Equatable, Sendable, CustomStringConvertible {
    /// The item's picture scaled to cover the frame (`fill`) and blurred by `blurRadius` (its effects applied first),
    /// the frame's edge samples extended outside it (no darkening at the frame's edges).
    case blur
    /// One colour over the whole frame.
    case colour(RGBColour)

    /// "blur", a colour ("#202020", a name); nil for anything else.
    public static func parse(_ s: String) -> FitBackground? {
        s == "blur" ? .blur : RGBColour.parse(s).map { .colour($0) }
    }

    /// The blur's radius (its standard deviation) for a render `height` pixels high: height / 20 (54 px at 1080p, 36 at 720p).
    public static func blurRadius(height: Int) -> Float { Float(height) / 20 }

    public var description: String {
        switch self {
        case .blur: return "blur"
        case .colour(let c): return c.description
        }
    }
}

extension Timeline {
    /// The background under placement `p` at `t` where it is fitted with bars (`fit` is `fit`, a media item) and has
    /// a `fitBackground` (its own, else the edit's): its picture covering the frame (fit `fill`, without its `layer`
    /// transform and crop) with its effects and a blur of `FitBackground.blurRadius`, or a colour over the frame; its
    /// opacity the item's. Nil when it has none or draws nothing then.
    func backgroundLayer(_ p: Placement, at t: MediaTime, picture: PictureFormat?) -> LayerPlan? {
        guard p.isMedia, p.fit == .fit, let background = p.spec.fitBackground ?? fitBackground,
              let item = layer(p, at: t, picture: picture), item.opacity > 0 else { return nil }
        switch background {
        case .colour(let c):
            var l = LayerPlan(clipIndex: p.index, sourceTime: .zero, outputToSource: .scale(1 / Double(renderSize.width), 1 / Double(renderSize.height)))
            l.content = .colour(c, alpha: 1)
            l.opacity = item.opacity
            return l
        case .blur:
            guard let g = LayerGeometry.place(codedSize: picture?.size ?? p.source.codedSize, sar: picture?.sampleAspectRatio ?? p.source.sampleAspectRatio,
                                              orientation: p.source.orientation, renderSize: renderSize, fit: .fill, transform: .identity) else { return nil }
            var l = LayerPlan(clipIndex: p.index, sourceTime: item.sourceTime, outputToSource: g.outputToSource, moving: item.moving)
            l.content = item.content; l.opacity = item.opacity; l.crop = g.crop; l.reversed = item.reversed; l.frameBlend = item.frameBlend
            l.effects = item.effects + [.filter(.blur(radius: FitBackground.blurRadius(height: renderSize.height), extendsEdges: true))]
            return l
        }
    }

    /// The pass of the backgrounds of track `k`'s `active` items at `t` (one, or two in a transition, joined by the
    /// same transition; an item without one is transparent in it), over the whole frame; nil when none has one.
    func backgroundPass(track k: Int, active: [Placement], at t: MediaTime, pictures: [Int: PictureFormat]) -> CompositePass? {
        guard let last = active.last else { return nil }
        if active.count >= 2 {
            let from = active[active.count - 2], tr = last.spec.transition!
            let a = backgroundLayer(from, at: t, picture: pictures[from.index]), b = backgroundLayer(last, at: t, picture: pictures[last.index])
            guard a != nil || b != nil else { return nil }
            return CompositePass(track: k, from: a ?? transparent(from, at: t), to: b ?? transparent(last, at: t), transition: tr,
                                 progress: tr.easing(MediaTime.ratio(t - last.start, tr.duration)))
        }
        return backgroundLayer(last, at: t, picture: pictures[last.index]).map { CompositePass(track: k, from: $0, to: nil, transition: nil, progress: 0) }
    }
}

extension EditFile {
    /// `fitBackground` of `o` (the edit or an item). Throws `EditError` naming the field for a value that is neither
    /// "blur" nor a colour.
    static func fitBackground(_ o: EditFields) throws -> FitBackground? {
        guard let s = o.string("fitBackground") else { return nil }
        guard let b = FitBackground.parse(s) else {
            throw EditError(o.path("fitBackground"), "\"\(s)\" is neither \"blur\" nor a colour (\"#rrggbb\", \"#rgb\" or a name)")
        }
        return b
    }
}
