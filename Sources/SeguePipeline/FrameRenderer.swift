import Foundation
import SegueCore
import SegueGL
import SegueReference

/// The renderers of a render and the machine's side of its frames' strategies (`RenderMachine`): the CPU renderer,
/// always, and the GPU where a frame may need it (`RenderJob.makeRenderer` chooses). Every frame is drawn by the
/// drawer its `FrameStrategy` names: as a `CompositeRenderer` (previews, `renderYUV420`) it decides the strategy of the
/// frame it is handed; a render's `FrameDrawer` executes the strategies its decode thread decided.
public final class FrameRenderer: CompositeRenderer {
    public let cpu: ReferenceRenderer
    /// The GPU renderer: the drawer of composited frames on a real GPU (or with `--backend gpu`), and of frames with
    /// a gl-transitions shader. Nil where no frame needs it (no context is made).
    public let gpu: GPURenderer?
    public let machine: RenderMachine
    /// Why the CPU draws the frames where `--backend auto` found a GPU context it does not use, or none.
    public let cpuBecause: String?

    /// - Parameter composites: who draws composited frames (`RenderMachine.composites`); `.gpu` needs `gpu`.
    public init(cpu: ReferenceRenderer, gpu: GPURenderer?, composites: FrameStrategy.Drawer, options: RenderOptions, why: String? = nil) {
        precondition(composites == .cpu || gpu != nil, "the GPU draws composited frames, but there is none")
        self.cpu = cpu; self.gpu = gpu
        machine = RenderMachine(composites: composites, directFrames: options.directFrames)
        cpuBecause = why
        cpu.threads = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// "gpu (…)" where the GPU draws the composited frames, else "cpu (…)" (and the GPU named where it draws the
    /// frames of gl-transitions shaders).
    public var name: String {
        if machine.composites == .gpu, let gpu { return gpu.name }
        var parts = cpuBecause.map { ["\($0): the CPU draws the frames"] } ?? []
        if let gpu { parts.append("frames with gl-transitions shaders on \(gpu.name)") }
        return parts.isEmpty ? cpu.name : "\(cpu.name); " + parts.joined(separator: "; ")
    }

    /// Whether the CPU renderer draws the frames that need drawing (all but those with a gl-transitions shader).
    public var cpuComposites: Bool { machine.composites == .cpu }

    /// A renderer for another thread where the CPU draws every frame (no GPU context): its own reference renderer,
    /// the same decisions. Nil where a GPU context takes part (one context, one thread).
    func cpuTwin(_ options: RenderOptions) -> FrameRenderer? {
        gpu == nil ? FrameRenderer(cpu: ReferenceRenderer(), gpu: nil, composites: .cpu, options: options, why: cpuBecause) : nil
    }

    /// The renderer that draws `plan`: the GPU for a gl-transitions shader, else the machine's composite drawer.
    func drawer(_ plan: FramePlan) -> CompositeRenderer {
        let needsGPU = plan.passes.contains { $0.transition?.kind == .glsl }
        if (needsGPU || machine.composites == .gpu), let gpu { return gpu }
        return cpu
    }

    public func render(_ plan: FramePlan, pictures: [VideoPicture]) throws -> RGBAImage {
        try drawer(plan).render(plan, pictures: pictures)
    }

    public func renderYUV420(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> YUV420Image {
        try drawer(plan).renderYUV420(plan, pictures: pictures, base: base)
    }

    /// Frames drawn in order by whichever renderer each needs (`FrameDrawer`, every pass drawn).
    public func makeYUV420Pipeline() -> YUV420Pipeline { FrameDrawer(self) }

    /// Pictures larger than the GPU takes are reduced before they reach any renderer (the CPU renderer has no limit).
    public var maxPictureSize: Int? { gpu?.maxPictureSize }

    /// The GPU compiles what it draws (every transition where it draws the composited frames, else the glsl ones); the
    /// CPU refuses a glsl transition when there is no GPU (`EditError`).
    public func prepare(for transitions: [Transition], images: [String: RGBAImage]) throws {
        guard let gpu else { return try cpu.prepare(for: transitions, images: images) }
        try gpu.prepare(for: machine.composites == .gpu ? transitions : transitions.filter { $0.kind == .glsl }, images: images)
    }
}

/// Executes frames' strategies on the render thread, in submission order (`YUV420Pipeline`): a direct frame is its
/// picture's planes (`DirectFrame.cropped`); a frame the CPU draws is drawn at once (from its base planes, if any); a
/// frame the GPU draws goes through its pipelined readback, whose frames are finished before any later frame is
/// returned. Counts what it did (`counts`, `--verbose`).
public final class FrameDrawer: YUV420Pipeline {
    let renderer: FrameRenderer
    private var gpu: YUV420Pipeline?
    private var gpuBusy = false
    /// The strategies executed so far.
    public private(set) var counts = FrameStrategy.Counts()
    /// The table of the graded frames' effects (`FrameStrategy.graded`), kept while they stay the same.
    private var grades = PlanarGrade.Cache()

    public init(_ renderer: FrameRenderer) { self.renderer = renderer }

    /// Executes `strategy` for `plan` showing `pictures` (after its turns: `FrameSource.framePictures`).
    public func submit(_ plan: FramePlan, pictures: [VideoPicture], strategy: FrameStrategy) throws -> [YUV420Image] {
        counts.add(strategy)
        var base = strategy.base.map { DirectFrame.cropped(pictures[0], x: $0.x, y: $0.y, size: plan.renderSize) }
        if strategy.graded, let b = base { base = grades.graded(b, by: plan.passes[0].from.effects) }
        guard let drawer = strategy.drawer else { return try emit(base!) }
        return try draw(plan, pictures: pictures, base: base, by: drawer)
    }

    /// A frame without a strategy: every pass above `base` drawn by the renderer `plan` needs (`FrameRenderer.drawer`).
    public func submit(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> [YUV420Image] {
        let drawer: FrameStrategy.Drawer = renderer.drawer(plan) === renderer.cpu ? .cpu : .gpu
        counts.add(FrameStrategy(base: base.map { _ in .init(x: 0, y: 0) }, drawer: drawer))
        return try draw(plan, pictures: pictures, base: base, by: drawer)
    }

    private func draw(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?, by drawer: FrameStrategy.Drawer) throws -> [YUV420Image] {
        guard drawer == .gpu else { return try emit(try renderer.cpu.renderYUV420(plan, pictures: pictures, base: base)) }
        guard let gpuRenderer = renderer.gpu else { throw GPUError("render", "frame \(plan.frame) needs the GPU, and there is none") }
        if gpu == nil { gpu = gpuRenderer.makeYUV420Pipeline() }
        gpuBusy = true
        return try gpu!.submit(plan, pictures: pictures, base: base)
    }

    /// `image`, after the frames still in the GPU's flight.
    private func emit(_ image: YUV420Image) throws -> [YUV420Image] {
        let earlier = gpuBusy ? try gpu!.finish() : []
        gpuBusy = false
        return earlier + [image]
    }

    public func finish() throws -> [YUV420Image] {
        defer { gpuBusy = false }
        return gpuBusy ? try gpu!.finish() : []
    }
}
