/// Who draws composited frames, and what a render may take straight from the pictures: the machine's side of every
/// frame's `FrameStrategy`. Made once per render from the backend, the GPU found and the options.
public struct RenderMachine: Equatable, Sendable {
    /// Who draws a frame that needs drawing, unless a pass needs the GPU (a gl-transitions shader): the GPU where
    /// there is a real one (or `--backend gpu`), the CPU renderer with `--backend cpu` and, with `--backend auto`,
    /// where the only OpenGL is a software rasteriser (llvmpipe) or there is none.
    public var composites: FrameStrategy.Drawer
    /// Whether frames (and first passes) that need no drawing are taken straight from their pictures' planes
    /// (`RenderOptions.directFrames`; off only to compare), turned upright first where a quarter turn, half turn or
    /// mirror is all that stands in the way.
    public var directFrames: Bool

    public init(composites: FrameStrategy.Drawer, directFrames: Bool = true) {
        self.composites = composites; self.directFrames = directFrames
    }
}

/// How one output frame is made, decided once, here, from its plan, its pictures and the machine: the frame's planes
/// taken straight from its first layer's picture (a direct frame), that and the passes above drawn by the CPU or the
/// GPU, or every pass drawn. Pictures to turn upright first are part of it. The decode thread turns them
/// (`FrameSource`), the render thread executes the rest (`FrameDrawer`), `--verbose` and `segue plan` count it, and
/// the renderers decide none of it: a renderer handed a strategy's `base` planes draws only the passes above them.
public struct FrameStrategy: Equatable, Sendable, CustomStringConvertible {
    public enum Drawer: String, Sendable { case cpu, gpu }

    /// A layer of the first pass whose picture is turned upright before anything reads it (libavfilter's
    /// `transpose`/`hflip`/`vflip`, `PictureTurner`): the same frame, read as a crop of an upright picture.
    public struct Turn: Equatable, Sendable {
        /// 0: the pass's `from`, 1: its `to`.
        public let layer: Int
        public let turn: Orientation
        public init(layer: Int, turn: Orientation) { self.layer = layer; self.turn = turn }
    }

    /// A pixel of a picture: where the output's top-left pixel sits in it.
    public struct Origin: Equatable, Sendable {
        public let x: Int, y: Int
        public init(x: Int, y: Int) { self.x = x; self.y = y }
    }

    /// The pictures turned first.
    public var turns: [Turn]
    /// Where the first pass's planes are its picture's (after `turns`) cropped (even `x`, `y`): it is not drawn. Nil:
    /// the first pass is drawn too.
    public var base: Origin?
    /// Who draws the passes not taken from a picture; nil for a direct frame (nothing is drawn).
    public var drawer: Drawer?
    /// The `base` planes are graded by the first layer's picture effects, all pointwise colour and LUT effects,
    /// before anything else (`PlanarGrade`, where the CPU composites): the layer is otherwise direct.
    public var graded = false

    public init(turns: [Turn] = [], base: Origin? = nil, drawer: Drawer?) {
        self.turns = turns; self.base = base; self.drawer = drawer
    }

    /// A frame of one layer taken straight from its picture.
    public var isDirect: Bool { drawer == nil }

    public var description: String {
        var parts: [String] = []
        if !turns.isEmpty { parts.append("turned " + turns.map { "layer \($0.layer)" }.joined(separator: ", ")) }
        if let b = base { parts.append((drawer == nil ? "direct at \(b.x),\(b.y)" : "first pass direct at \(b.x),\(b.y)") + (graded ? ", graded" : "")) }
        if let d = drawer { parts.append("drawn by \(d.rawValue)") }
        return parts.joined(separator: "; ")
    }

    /// The strategy of `plan` showing `pictures` (one per `plan.layers`) on `machine`.
    ///
    /// - A pass with a gl-transitions shader is drawn by the GPU (nothing else runs GLSL); any other frame that
    ///   needs drawing by `machine.composites`.
    /// - With `machine.directFrames`, a first pass that needs no compositing (`DirectFrame.route`: one untouched
    ///   layer at scale 1 whose picture is in the output's format, turned upright by at most a quarter turn, half
    ///   turn or mirror) is taken from its picture: the whole frame when it is the only pass, else the planes the
    ///   passes above it are drawn into. (Nothing else is turned: both renderers read turned pictures as they are
    ///   stored, the CPU a row at a time.)
    public static func decide(_ plan: FramePlan, pictures: [VideoPicture], machine: RenderMachine) -> FrameStrategy {
        let needsGPU = plan.passes.contains { $0.transition?.kind == .glsl }
        let drawer: Drawer = needsGPU ? .gpu : machine.composites
        guard machine.directFrames else { return FrameStrategy(drawer: drawer) }
        let first = plan.passes[0]
        if let route = DirectFrame.route(first, picture: pictures[0], plan: plan) {
            return FrameStrategy(turns: route.turns ? [Turn(layer: 0, turn: route.turn)] : [], base: Origin(x: route.x, y: route.y),
                                 drawer: plan.passes.count == 1 ? nil : drawer)
        }
        // Where the CPU composites, a layer direct but for its pointwise colour and LUT effects is graded on its planes.
        if machine.composites == .cpu, first.to == nil, first.transition == nil, !first.from.effects.isEmpty,
           first.from.effects.allSatisfy(\.isPointwise) {
            var bare = first.from
            bare.effects = []
            if let route = DirectFrame.route(bare, picture: pictures[0], plan: plan) {
                var s = FrameStrategy(turns: route.turns ? [Turn(layer: 0, turn: route.turn)] : [], base: Origin(x: route.x, y: route.y),
                                      drawer: plan.passes.count == 1 ? nil : drawer)
                s.graded = true
                return s
            }
        }
        return FrameStrategy(drawer: drawer)
    }

    /// Whether the `turns` were done (the plan now reads the turned pictures): `FrameSource` hands on its strategies so.
    public var turnsDone = false
    /// The strategy after its `turns` were done.
    public var turned: FrameStrategy {
        var s = self
        s.turnsDone = true
        return s
    }

    /// Tally of strategies over a render, for `--verbose`.
    public struct Counts: Equatable, Sendable {
        /// Frames taken straight from a picture, nothing drawn.
        public var direct: Int64 = 0
        /// Frames whose first pass was taken straight from its picture, the passes above drawn.
        public var basePlanes: Int64 = 0
        /// Frames drawn (all of them, or the passes above their base planes) by the CPU renderer and by the GPU.
        public var cpu: Int64 = 0, gpu: Int64 = 0
        /// Frames with a picture turned upright first.
        public var turned: Int64 = 0
        public init() {}
        public mutating func add(_ s: FrameStrategy) {
            if s.isDirect { direct += 1 } else if s.base != nil { basePlanes += 1 }
            switch s.drawer { case .cpu?: cpu += 1; case .gpu?: gpu += 1; case nil: break }
            if !s.turns.isEmpty { turned += 1 }
        }
        public var total: Int64 { direct + cpu + gpu }
    }
}

extension PictureEffect {
    /// Whether it maps each sample's colour alone, the same everywhere (`colour`, `lut`): a `PlanarGrade` can apply it
    /// to planes. A chroma key changes alpha; a vignette depends on the position; a blur or sharpen on the neighbours.
    public var isPointwise: Bool {
        switch self {
        case .colour, .lut: return true
        case .chromaKey, .vignette, .filter: return false
        }
    }
}
