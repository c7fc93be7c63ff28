import SegueCore

// Plans of one pass, as the renderer tests build them by hand: a layer, or two joined by a transition, at a render
// size given when the frame is drawn. (The timeline makes every real plan; these only spare the tests its set-up.)

extension FramePlan {
    /// One pass: `from`, or `from` and `to` joined by `transition` at `progress`. The render size is set by the
    /// `render…(_:from:to:renderSize:)` calls below.
    public init(frame: Int64, time: MediaTime, from: LayerPlan, to: LayerPlan?, transition: Transition?, progress: Double,
                colour: OutputColour = .sdr, renderSize: PixelSize = PixelSize(width: 2, height: 2)) {
        self.init(frame: frame, time: time, renderSize: renderSize,
                  passes: [CompositePass(from: from, to: to, transition: transition, progress: progress)], colour: colour)
    }
    /// The first pass's layers, transition and progress.
    public var from: LayerPlan { passes[0].from }
    public var to: LayerPlan? { passes[0].to }
    public var transition: Transition? { passes[0].transition }
    public var progress: Double { passes[0].progress }

    /// The plan at `size`.
    public func at(_ size: PixelSize) -> FramePlan {
        var p = self
        p.renderSize = size
        return p
    }
}

extension CompositeRenderer {
    /// `render` of a one-pass plan with its two pictures, at `renderSize`.
    public func render(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> RGBAImage {
        try render(plan.at(renderSize), pictures: [from] + (to.map { [$0] } ?? []))
    }
    /// `render` for RGBA stored pictures.
    public func render(_ plan: FramePlan, from: RGBAImage, to: RGBAImage?, renderSize: PixelSize) throws -> RGBAImage {
        try render(plan, from: VideoPicture(from), to: to.map { VideoPicture($0) }, renderSize: renderSize)
    }
    /// `renderYUV420` of a one-pass plan with its two pictures, at `renderSize`.
    public func renderYUV420(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> YUV420Image {
        try renderYUV420(plan.at(renderSize), pictures: [from] + (to.map { [$0] } ?? []))
    }
}

extension YUV420Pipeline {
    /// `submit` of a one-pass plan with its two pictures, at `renderSize`.
    public func submit(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> [YUV420Image] {
        try submit(plan.at(renderSize), pictures: [from] + (to.map { [$0] } ?? []))
    }
}

extension TransitionParameters {
    /// The parameters of a one-pass plan's pass.
    public init(plan: FramePlan, renderSize: PixelSize) { self.init(pass: plan.passes[0], renderSize: renderSize) }
    public static func isExact(_ plan: FramePlan, _ layer: LayerPlan, picture: VideoPicture) -> Bool {
        isExact(plan.passes[0], layer, picture: picture)
    }
}

extension DirectFrame {
    /// `cropOrigin` of a one-pass plan's pass at `renderSize`.
    public static func cropOrigin(_ plan: FramePlan, picture: VideoPicture, renderSize: PixelSize) -> (x: Int, y: Int)? {
        cropOrigin(plan.passes[0], picture: picture, plan: plan.at(renderSize))
    }
    /// The first pass's planes a render takes straight from `picture` (`FrameStrategy.base`, without turning), or nil.
    public static func basePlanes(_ plan: FramePlan, picture: VideoPicture) -> YUV420Image? {
        let pictures = [VideoPicture](repeating: picture, count: plan.layers.count)
        let s = FrameStrategy.decide(plan, pictures: pictures, machine: RenderMachine(composites: .cpu))
        guard s.turns.isEmpty, let b = s.base else { return nil }
        return cropped(picture, x: b.x, y: b.y, size: plan.renderSize)
    }

    /// The frame a render takes straight from `picture` (its `FrameStrategy` is direct, without turning), or nil.
    public static func image(_ plan: FramePlan, picture: VideoPicture, renderSize: PixelSize) -> YUV420Image? {
        let p = plan.at(renderSize)
        let s = FrameStrategy.decide(p, pictures: [picture], machine: RenderMachine(composites: .cpu))
        guard s.isDirect, s.turns.isEmpty, let b = s.base else { return nil }
        return cropped(picture, x: b.x, y: b.y, size: renderSize)
    }
}
