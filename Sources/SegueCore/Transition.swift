import Foundation

/// A transition into a clip from the one before it.
public struct Transition: Equatable, Sendable {
    /// Which transition (the table of built-ins: `TransitionKind`).
    public typealias Kind = TransitionKind
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
    /// One of `kind.traits.directions` (`left` for a transition that takes none; it is ignored then).
    public var direction: Direction
    /// How the clips' audio crosses over the same overlap.
    public var audioCurve: AudioCurve = .linear
    /// How the picture's progress follows time (CSS easing; default linear): p = easing((t − T) / d).
    public var easing: Easing = .linear
    /// The audio crossfade's easing, applied before `audioCurve`; nil: linear in time, whatever `easing` is.
    public var audioEasing: Easing?
    /// How colours are mixed (`blend` in the edit file); nil: the edit's `blending`. Resolved in `Timeline`.
    public var blend: Blending?
    /// Values for the kind's parameters (`TransitionTraits.parameters`), by name; a parameter left out takes its default.
    /// For a `glsl` transition: values for the shader's uniforms (`GLTransitionShader.uniforms`).
    public var params: [String: TransitionParameterValue] = [:]
    /// The shader of a `glsl` transition (nil for the built-ins).
    public var shader: GLTransitionShader?

    /// The value of each of the kind's parameters, in the order of `TransitionTraits.parameters`.
    public var parameterValues: [Double] {
        kind.traits.parameters.map { p in params[p.name]?.number ?? p.defaultValue }
    }

    /// `direction` defaults to the kind's first direction (`left` for push, `down-right` for wipe).
    public init(kind: Kind, duration: MediaTime, direction: Direction? = nil) {
        self.kind = kind
        self.duration = duration
        self.direction = direction ?? kind.traits.directions.first ?? .left
    }

    /// Checks that `direction` suits `kind` (one of `kind.traits.directions`). Throws `EditError` naming `field`.
    public static func check(kind: Kind, direction: Direction?, field: String) throws {
        guard let d = direction else { return }
        let allowed = kind.traits.directions
        if allowed.contains(d) { return }
        if allowed.isEmpty { throw EditError(field, "a \(kind.rawValue) has no direction (got \"\(d.rawValue)\")") }
        let names = allowed.map(\.rawValue)
        if Set(allowed) == [.left, .right, .up, .down] {
            throw EditError(field, "\(kind.rawValue) moves along one axis: left, right, up or down (got \"\(d.rawValue)\")")
        }
        throw EditError(field, "\(kind.rawValue) takes the direction \(names.dropLast().joined(separator: ", ")) or \(names.last!) (got \"\(d.rawValue)\")")
    }
}

/// Where a transition mixes colours.
public enum Blending: String, CaseIterable, Sendable {
    /// On the gamma-encoded R′G′B′ values, as AVFoundation and FFmpeg do (the default).
    case gamma
    /// In linear light, as movit does: each layer's colour through the output's EOTF (`DynamicRange.eotf`: in an SDR
    /// edit BT.1886, `L = V^2.4`, ITU-R BT.1886 with white 1 and black 0; in an HDR edit, where the layers are already
    /// in the output's signal, HLG's EOTF for the 1000 cd/m² display or PQ's), mixed, and back through its inverse.
    case linear
}

/// A value the edit file gives a transition parameter (`"params"`).
public enum TransitionParameterValue: Hashable, Sendable {
    /// A number (a `float` or `int` uniform).
    case number(Double)
    /// Two to four numbers (a `vec2` … `vec4`, or `ivec`).
    case vector([Double])
    /// A `bool` uniform.
    case boolean(Bool)
    /// An image file, by absolute path (a `sampler2D` uniform).
    case image(String)

    /// The value as one number (nil for other kinds).
    public var number: Double? { if case .number(let d) = self { return d } else { return nil } }
}

/// The shape of an audio crossfade over a transition's overlap, at progress `p` (0…1).
public enum AudioCurve: String, CaseIterable, Sendable {
    /// Outgoing `1 − p`, incoming `p` (FFmpeg `acrossfade` curve `tri`).
    case linear
    /// Outgoing `cos(p·π/2)`, incoming `sin(p·π/2)`: constant power for uncorrelated signals.
    case equalPower = "equal-power"

    /// (outgoing gain, incoming gain) at progress `p`.
    public func gains(_ p: Double) -> (out: Double, in: Double) {
        switch self {
        case .linear: return (1 - p, p)
        case .equalPower: return (cos(p * Double.pi / 2), sin(p * Double.pi / 2))
        }
    }
}
