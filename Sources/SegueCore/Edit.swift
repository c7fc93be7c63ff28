import Foundation

/// A transition into a clip from the one before it.
public struct Transition: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        /// Opacity ramp: `out = (1 - p)·A + p·B`.
        case crossfade
        /// Transform ramp: A slides out and B slides in along `direction`.
        case push
        /// Crop-rectangle ramp: B is revealed from the edge(s) opposite `direction`.
        case wipe
    }
    /// Directions of motion (push) or of the wipe edge's travel (wipe), in picture coordinates (y down).
    public enum Direction: String, CaseIterable, Sendable {
        case left, right, up, down
        case upLeft = "up-left", upRight = "up-right", downLeft = "down-left", downRight = "down-right"
        /// Unit step per axis: x to the right, y downwards.
        public var vector: (x: Int, y: Int) {
            switch self {
            case .left: return (-1, 0)
            case .right: return (1, 0)
            case .up: return (0, -1)
            case .down: return (0, 1)
            case .upLeft: return (-1, -1)
            case .upRight: return (1, -1)
            case .downLeft: return (-1, 1)
            case .downRight: return (1, 1)
            }
        }
    }
    public var kind: Kind
    /// Length of the overlap of outgoing and incoming clip.
    public var duration: MediaTime
    public var direction: Direction

    /// `direction` defaults to `left` for push and `down-right` for wipe (crossfade ignores it).
    public init(kind: Kind, duration: MediaTime, direction: Direction? = nil) {
        self.kind = kind
        self.duration = duration
        self.direction = direction ?? (kind == .wipe ? .downRight : .left)
    }
}

/// One clip of an edit: a time range of a media file.
public struct ClipSpec: Equatable, Sendable {
    /// Absolute path of the media file.
    public var path: String
    /// Offset into the source, seconds; default 0.
    public var start: MediaTime
    /// Length used from the source; nil means to the end of the file.
    public var duration: MediaTime?
    /// The transition into this clip from the previous one; nil for a cut (and always nil on clip 0).
    public var transition: Transition?

    public init(path: String, start: MediaTime = .zero, duration: MediaTime? = nil, transition: Transition? = nil) {
        self.path = path; self.start = start; self.duration = duration; self.transition = transition
    }
}

/// Output encoding settings.
public struct OutputSettings: Equatable, Sendable {
    public enum Codec: String, CaseIterable, Sendable {
        /// H.264 (libx264), yuv420p, in MP4 with `+faststart`.
        case h264
        /// Lossless FFV1, yuv420p, in Matroska: for exact comparisons.
        case ffv1
    }
    public var codec: Codec = .h264
    /// libx264 constant rate factor (0–51); default 18.
    public var crf: Int = 18
    /// libx264 preset; default `medium`.
    public var preset: String = "medium"
    public init() {}
}

/// An edit as written by the user: clips joined by transitions, plus optional output properties.
/// Anything left nil is derived from the clips when the edit is resolved (`Timeline`).
public struct Edit: Equatable, Sendable {
    public var clips: [ClipSpec]
    /// Output picture size in pixels; nil: the largest width and height among the rotated clips.
    public var renderSize: PixelSize?
    /// Crop the default render size to a centred square of side `min(width, height)`.
    public var square: Bool = false
    public var fit: FitMode = .fill
    /// Output frame rate; nil: the highest nominal clip frame rate (snapped to a standard rate), else 30.
    public var frameRate: FrameRate?
    public var output = OutputSettings()

    public init(clips: [ClipSpec]) { self.clips = clips }
}
