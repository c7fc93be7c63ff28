/// Every built-in transition, one case each: the case's `traits` say everything the renderers, the edit file, the
/// command line and the tests need (its shader is `Shaders/glsl/<rawValue>.frag`, its CPU function
/// `Sources/SegueReference/Transitions/<rawValue>.swift`). See the README's "Adding a transition".
///
/// Progress `p` runs 0 → 1 with GLSL `mix` semantics in every transition (0 shows only the outgoing clip A).
public enum TransitionKind: String, CaseIterable, Sendable {
    /// Opacity ramp: `out = (1 − p)·A + p·B`.
    case crossfade
    /// Transform ramp: A slides out and B slides in along `direction`.
    case push
    /// Crop-rectangle ramp: B is revealed from the edge(s) opposite `direction`.
    case wipe

    /// The `.frag` file's stem in `Shaders/glsl/` and the CPU function's name.
    public var shaderStem: String { rawValue }

    /// What the transition is and does (see `TransitionTraits`).
    public var traits: TransitionTraits {
        switch self {
        case .crossfade:
            return TransitionTraits(summary: "opacity ramp: (1 − p)·A + p·B", mixesColoursOnly: true)
        case .push:
            return TransitionTraits(summary: "A slides out along the direction, B follows one picture behind",
                                    directions: [.left, .right, .up, .down], mixesColoursOnly: true, movesLayers: true)
        case .wipe:
            return TransitionTraits(summary: "B is revealed by an edge travelling along the direction (a crop-rectangle ramp)",
                                    directions: [.downRight, .downLeft, .upRight, .upLeft, .right, .left, .down, .up],
                                    mixesColoursOnly: true)
        }
    }
}

/// The properties of one built-in transition (`TransitionKind.traits`).
public struct TransitionTraits: Sendable {
    /// One line for people (`segue transitions`, the README).
    public let summary: String
    /// The directions it takes, the default first; empty when it has none.
    public let directions: [Transition.Direction]
    /// Its numeric parameters: `float` uniforms of its shader, arguments of its CPU function.
    public let parameters: [TransitionParameter]
    /// Its colour is a mix (weights summing to 1) or a selection of the two layers' colours and of black: the
    /// output conversion can be folded into the layers (`LayerColourMap`, "fused" passes). False for transitions
    /// that compute with colour values.
    public let mixesColoursOnly: Bool
    /// It reads the layers at positions moved by fractions of a pixel (push): such layers are always sampled with
    /// filtering, never as exact texel fetches (`TransitionParameters.isExact`). Moves by whole output pixels do
    /// not count.
    public let movesLayers: Bool

    public init(summary: String, directions: [Transition.Direction] = [], parameters: [TransitionParameter] = [],
                mixesColoursOnly: Bool, movesLayers: Bool = false) {
        self.summary = summary; self.directions = directions; self.parameters = parameters
        self.mixesColoursOnly = mixesColoursOnly; self.movesLayers = movesLayers
    }
}

/// A numeric parameter of a built-in transition.
public struct TransitionParameter: Sendable, Equatable {
    /// The uniform's name in the shader and the key in the edit file's `params`.
    public let name: String
    public let defaultValue: Double
    /// The values it takes.
    public let range: ClosedRange<Double>
    /// What it does, in a few words.
    public let summary: String
    public init(_ name: String, default value: Double, range: ClosedRange<Double>, _ summary: String) {
        self.name = name; self.defaultValue = value; self.range = range; self.summary = summary
    }
}
