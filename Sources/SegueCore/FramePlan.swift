import Foundation

/// One visible clip in an output frame.
public struct LayerPlan: Equatable, Sendable {
    public let clipIndex: Int
    /// Time in the source, from its first frame (clip `start` + clip-local time).
    public let sourceTime: MediaTime
    /// Output pixel position → normalized stored-picture position.
    public let outputToSource: Affine2D
    /// Whether the clip pans or zooms (`Motion`): its scale changes from frame to frame.
    public let moving: Bool

    public init(clipIndex: Int, sourceTime: MediaTime, outputToSource: Affine2D, moving: Bool = false) {
        self.clipIndex = clipIndex; self.sourceTime = sourceTime; self.outputToSource = outputToSource; self.moving = moving
    }
}

/// What to draw for one output frame: a single layer, or two layers joined by a transition at `progress`.
public struct FramePlan: Sendable {
    public let frame: Int64
    public let time: MediaTime
    /// The only layer, or the outgoing one (A) in a transition.
    public let from: LayerPlan
    /// The incoming layer (B) during a transition.
    public let to: LayerPlan?
    public let transition: Transition?
    /// The transition's progress: its easing of `(t − T) / d` (which is in [0, 1): 0 on a transition's first frame).
    public let progress: Double
    /// The output's dynamic range and tone-mapping curve (the edit's `output`).
    public var colour: OutputColour
    /// What shows outside the layers' pictures (`Edit.background`); black unless the edit says otherwise.
    public var background: RGBColour = .black

    public init(frame: Int64, time: MediaTime, from: LayerPlan, to: LayerPlan?, transition: Transition?, progress: Double,
                colour: OutputColour = .sdr) {
        self.frame = frame; self.time = time; self.from = from; self.to = to; self.transition = transition; self.progress = progress
        self.colour = colour
    }
}
