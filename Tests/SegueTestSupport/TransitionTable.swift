import SegueCore

/// One row of the shared transition test table: what the tests need to know about a built-in transition beyond
/// its `TransitionKind.traits`. `TransitionTableTests` fails when a built-in has no row (or two).
public struct TransitionTestRow: Sendable {
    public let kind: TransitionKind
    /// The FFmpeg 5.1 `xfade` transition it re-derives (the oracle of `XfadeOracleTests`); nil for Segue's own.
    public let xfade: String?
    /// Why the frame at p = 0 is not exactly the outgoing clip, when its definition makes it so; nil when it is.
    public let startException: String?
    /// Why the frame at p = 1 is not exactly the incoming clip, when its definition makes it so; nil when it is.
    public let endException: String?

    public init(_ kind: TransitionKind, xfade: String? = nil, startException: String? = nil, endException: String? = nil) {
        self.kind = kind; self.xfade = xfade; self.startException = startException; self.endException = endException
    }

    /// The directions to test: every one the kind takes, or `nil` (none) for kinds without directions.
    public var directions: [Transition.Direction?] {
        kind.traits.directions.isEmpty ? [nil] : kind.traits.directions.map { $0 }
    }
}

/// The shared table of transition tests, one row per built-in.
public enum TransitionTable {
    public static let rows: [TransitionTestRow] = [
        TransitionTestRow(.crossfade),
        TransitionTestRow(.push),
        TransitionTestRow(.wipe),
    ]

    /// One transition (with its default direction) for each combination of traits that changes how the renderers
    /// draw (fused or not, layers moved or not), plus crossfade, push and wipe: for the tests that are too costly
    /// to run on every row (planar formats, pipelines).
    public static var sample: [(kind: TransitionKind, direction: Transition.Direction?)] {
        var seen = Set<[Bool]>(), out: [(TransitionKind, Transition.Direction?)] = []
        for row in rows {
            let t = row.kind.traits
            let key = [t.mixesColoursOnly, t.movesLayers]
            if seen.insert(key).inserted || [.crossfade, .push, .wipe].contains(row.kind) {
                out.append((row.kind, t.directions.first))
            }
        }
        return out
    }
}
