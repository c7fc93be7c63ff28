/// Every built-in transition, one case each: the case's `traits` say everything the renderers, the edit file, the
/// command line and the tests need (its shader is `Shaders/glsl/<shaderStem>.frag`, its CPU function
/// `Sources/SegueReference/Transitions/<shaderStem>.swift`). See docs/transitions.md, "Adding a transition".
///
/// The raw value is the transition's name in the edit file and on the command line; `named(_:)` also takes its
/// `aliases`: `dissolve` is a crossfade (the cross-dissolve of every editor and OTIO's `SMPTE_Dissolve`), and
/// `xfade:NAME` is the transition re-deriving FFmpeg xfade's `NAME` — FFmpeg's `dissolve` (pixels switching at
/// random) is the case `dissolve`, named `pixeldissolve`.
///
/// Progress `p` runs 0 → 1 with GLSL `mix` semantics in every transition (0 shows only the outgoing clip A).
public enum TransitionKind: String, CaseIterable, Sendable {
    /// Opacity ramp: `out = (1 − p)·A + p·B`.
    case crossfade
    /// Transform ramp: A slides out and B slides in along `direction`.
    case push
    /// Crop-rectangle ramp: B is revealed from the edge(s) opposite `direction`.
    case wipe
    // FFmpeg 5.1's xfade transitions, under their names, re-derived from libavfilter/vf_xfade.c (whose progress
    // P runs 1 → 0: P = 1 − p). Each works on whole output pixels (column x, row y, top-left origin; W × H).
    case fade
    case wipeleft, wiperight, wipeup, wipedown
    case slideleft, slideright, slideup, slidedown
    case circlecrop, rectcrop, distance, fadeblack, fadewhite, radial
    case smoothleft, smoothright, smoothup, smoothdown
    case circleopen, circleclose, vertopen, vertclose, horzopen, horzclose
    /// FFmpeg xfade's `dissolve` (each pixel switches to B at its own pseudo-random moment), not a cross-dissolve:
    /// named `pixeldissolve` (or `xfade:dissolve`); the name `dissolve` is the crossfade's (`aliases`).
    case dissolve = "pixeldissolve"
    case pixelize
    case diagtl, diagtr, diagbl, diagbr
    case hlslice, hrslice, vuslice, vdslice
    case hblur, fadegrays
    case wipetl, wipetr, wipebl, wipebr
    case squeezeh, squeezev, zoomin, fadefast, fadeslow
    /// A shader written to the gl-transitions specification, loaded at run time (`Transition.shader`); GPU only.
    case glsl

    /// The built-in transitions: every case but `glsl`.
    public static var builtIns: [TransitionKind] { allCases.filter { $0 != .glsl } }

    /// The `.frag` file's stem in `Shaders/glsl/` and the CPU function's name: the xfade transition's name for one
    /// that re-derives FFmpeg's (`xfadeName`), else the transition's own.
    public var shaderStem: String { xfadeName ?? rawValue }

    /// The other names the edit file and the command line take for it: `dissolve` for crossfade (what editors and
    /// OpenTimelineIO's `SMPTE_Dissolve` call a cross-dissolve), `xfade:NAME` for the one re-deriving FFmpeg xfade's
    /// `NAME` (`xfade:dissolve` is `pixeldissolve`).
    public var aliases: [String] {
        (self == .crossfade ? ["dissolve"] : []) + (xfadeName.map { ["xfade:" + $0] } ?? [])
    }

    /// The transition named `name`, by its own name or one of its `aliases`; nil for none.
    public static func named(_ name: String) -> TransitionKind? {
        TransitionKind(rawValue: name) ?? allCases.first { $0.aliases.contains(name) }
    }

    /// What the transition is and does (see `TransitionTraits`).
    public var traits: TransitionTraits {
        switch self {
        case .crossfade:
            return TransitionTraits(summary: "opacity ramp: (1 − p)·A + p·B; the cross-dissolve of editors and OTIO's SMPTE_Dissolve (also named dissolve)",
                                    mixesColoursOnly: true)
        case .push:
            return TransitionTraits(summary: "A slides out along the direction, B follows one picture behind",
                                    directions: [.left, .right, .up, .down], mixesColoursOnly: true, movesLayers: true)
        case .wipe:
            return TransitionTraits(summary: "B is revealed by an edge travelling along the direction (a crop-rectangle ramp)",
                                    directions: [.downRight, .downLeft, .upRight, .upLeft, .right, .left, .down, .up],
                                    mixesColoursOnly: true)
        case .fade:
            return TransitionTraits(summary: "xfade fade: (1 − p)·A + p·B (the same as crossfade)", mixesColoursOnly: true)
        case .wipeleft:
            return wipe("B revealed from the right: A where x ≤ ⌊W·(1 − p)⌋")
        case .wiperight:
            return wipe("B revealed from the left: A where x > ⌊W·p⌋")
        case .wipeup:
            return wipe("B revealed from the bottom: A where y ≤ ⌊H·(1 − p)⌋")
        case .wipedown:
            return wipe("B revealed from the top: A where y > ⌊H·p⌋")
        case .slideleft:
            return wipe("A slides out to the left by whole pixels, B follows from the right")
        case .slideright:
            return wipe("A slides out to the right by whole pixels, B follows from the left")
        case .slideup:
            return wipe("A slides up by whole pixels, B follows from below")
        case .slidedown:
            return wipe("A slides down by whole pixels, B follows from above")
        case .circlecrop:
            return wipe("A shrinks inside a black-surrounded circle, then B grows out of it: radius |1 − 2p|³ of the half-diagonal")
        case .rectcrop:
            return wipe("A shrinks inside a black-surrounded rectangle, then B grows out of it: half-size |p − ½|·(W, H)")
        case .distance:
            return TransitionTraits(summary: "pixels whose Y′CbCr distance between A and B exceeds 1 − p show B, the others crossfade",
                                    mixesColoursOnly: false)
        case .fadeblack:
            return TransitionTraits(summary: "A fades to black, then B fades in", parameters: [.phase], mixesColoursOnly: true)
        case .fadewhite:
            return TransitionTraits(summary: "A fades to white, then B fades in", parameters: [.phase], mixesColoursOnly: true)
        case .radial:
            return wipe("a soft-edged clock hand sweeps B in around the centre")
        case .smoothleft:
            return wipe("a soft edge sweeps B in from the right, moving left")
        case .smoothright:
            return wipe("a soft edge sweeps B in from the left, moving right")
        case .smoothup:
            return wipe("a soft edge sweeps B in from the bottom, moving up")
        case .smoothdown:
            return wipe("a soft edge sweeps B in from the top, moving down")
        case .circleopen:
            return wipe("a soft-edged circle of B opens from the centre")
        case .circleclose:
            return wipe("a soft-edged circle of A closes on the centre")
        case .vertopen:
            return wipe("B opens from a vertical line through the centre, soft edges")
        case .vertclose:
            return wipe("B closes in from the left and right edges, soft edges")
        case .horzopen:
            return wipe("B opens from a horizontal line through the centre, soft edges")
        case .horzclose:
            return wipe("B closes in from the top and bottom edges, soft edges")
        case .dissolve:
            return TransitionTraits(summary: "FFmpeg xfade's dissolve: pixels switch to B in a pseudo-random order (not a cross-dissolve: that is crossfade, also named dissolve)",
                                    mixesColoursOnly: true, usesNoise: true)
        case .pixelize:
            return wipe("crossfade through square blocks that grow to min(W, H)/20 at p = ½ and shrink again")
        case .diagtl:
            return wipe("a soft diagonal edge sweeps B in towards the top-left corner")
        case .diagtr:
            return wipe("a soft diagonal edge sweeps B in towards the top-right corner")
        case .diagbl:
            return wipe("a soft diagonal edge sweeps B in towards the bottom-left corner")
        case .diagbr:
            return wipe("a soft diagonal edge sweeps B in towards the bottom-right corner")
        case .hlslice:
            return wipe("ten vertical slices close to B, sweeping from the right, moving left")
        case .hrslice:
            return wipe("ten vertical slices close to B, sweeping from the left, moving right")
        case .vuslice:
            return wipe("ten horizontal slices close to B, sweeping from the bottom, moving up")
        case .vdslice:
            return wipe("ten horizontal slices close to B, sweeping from the top, moving down")
        case .hblur:
            return wipe("crossfade through a horizontal box blur (each pixel and those to its right), W/2 + 1 wide at p = ½")
        case .fadegrays:
            return TransitionTraits(summary: "A fades to its greys, crossfades to B's greys, which take on B's colour",
                                    parameters: [.phase], mixesColoursOnly: false)
        case .wipetl:
            return wipe("B revealed from the bottom-right corner: A where x ≤ ⌊W·(1 − p)⌋ and y ≤ ⌊H·(1 − p)⌋")
        case .wipetr:
            return wipe("B revealed from the bottom-left corner: A where x > ⌊W·p⌋ and y ≤ ⌊H·(1 − p)⌋")
        case .wipebl:
            return wipe("B revealed from the top-right corner: A where x ≤ ⌊W·(1 − p)⌋ and y > ⌊H·p⌋")
        case .wipebr:
            return wipe("B revealed from the top-left corner: A where x > ⌊W·p⌋ and y > ⌊H·p⌋")
        case .squeezeh:
            return wipe("A is squeezed vertically into its middle row, over B")
        case .squeezev:
            return wipe("A is squeezed horizontally into its middle column, over B")
        case .zoomin:
            return wipe("A zooms in on its centre over the first half, then B fades in over it")
        case .fadefast:
            return TransitionTraits(summary: "crossfade where components that differ more reach B sooner: weight 1 − (1 − p)^(1 + ln(1 + |A − B|))",
                                    mixesColoursOnly: false)
        case .fadeslow:
            return TransitionTraits(summary: "crossfade where components that differ more reach B later: weight 1 − (1 − p)^(1 + ln(2 − |A − B|))",
                                    mixesColoursOnly: false)
        case .glsl:
            // A user's shader reads anywhere and computes with colour values.
            return TransitionTraits(summary: "a gl-transitions shader file (\"shader\"), with its uniforms as \"params\"; GPU only",
                                    mixesColoursOnly: false, movesLayers: true)
        }
    }

    /// The traits of a transition that only mixes or selects the layers' colours (and black), without parameters.
    private func wipe(_ summary: String) -> TransitionTraits {
        TransitionTraits(summary: summary, mixesColoursOnly: true)
    }

    /// The FFmpeg `xfade` transition this one re-derives, nil for Segue's own (crossfade, push, wipe).
    public var xfadeName: String? {
        switch self {
        case .crossfade, .push, .wipe, .glsl: return nil
        case .dissolve: return "dissolve"
        default: return rawValue
        }
    }
}

extension TransitionParameter {
    /// fadeblack, fadewhite, fadegrays: how much of the transition the outgoing clip takes to reach black, white
    /// or grey (and the incoming one to leave it); xfade's value is 0.2.
    static let phase = TransitionParameter("phase", default: 0.2, range: 0.01...0.99,
                                           "share of the transition spent reaching (and leaving) the middle colour")
}

/// The properties of one built-in transition (`TransitionKind.traits`).
public struct TransitionTraits: Sendable {
    /// One line for people (`segue transitions`, docs/transitions.md).
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
    /// It reads `TransitionNoise` (the GPU binds it as `segue_noise`).
    public let usesNoise: Bool

    public init(summary: String, directions: [Transition.Direction] = [], parameters: [TransitionParameter] = [],
                mixesColoursOnly: Bool, movesLayers: Bool = false, usesNoise: Bool = false) {
        self.summary = summary; self.directions = directions; self.parameters = parameters
        self.mixesColoursOnly = mixesColoursOnly; self.movesLayers = movesLayers; self.usesNoise = usesNoise
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
