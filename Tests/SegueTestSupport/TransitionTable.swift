import SegueCore

/// One row of the shared transition test table: what the tests need to know about a built-in transition beyond
/// its `TransitionKind.traits`. `TransitionTableTests` fails when a built-in has no row (or two).
public struct TransitionTestRow: Sendable {
    public let kind: TransitionKind
    /// Why the frame at p = 0 is not exactly the outgoing clip, when its definition makes it so; nil when it is.
    public let startException: String?
    /// Why the frame at p = 1 is not exactly the incoming clip, when its definition makes it so; nil when it is.
    public let endException: String?
    /// The xfade oracle gets full-range input: the transition shows black or white, which xfade writes as codes 0
    /// and 255 whatever the range, so on limited-range input it goes to super-black (Y′ = 0, below black's 16) or
    /// super-white; Segue's black and white are the picture's (Y′ 16 and 235).
    public let xfadeOnFullRange: Bool
    /// Where FFmpeg 5.1's xfade output is plainly wrong and Segue differs (docs/transitions.md): why, and which
    /// pixels (column, row) at which progress the oracle comparison leaves out.
    public let xfadeWrong: (why: String, at: @Sendable (_ x: Int, _ y: Int, _ p: Double) -> Bool)?

    /// It switches between the clips on their colour values (a threshold): where the renderers' filtered reads
    /// differ by a rounding, a pixel near the threshold may switch in one and not the other. Comparisons of
    /// resampled frames then allow a few such pixels (`TransitionTable.agree`); exact reads must still agree.
    public let switchesOnColour: Bool

    public init(_ kind: TransitionKind, startException: String? = nil, endException: String? = nil, xfadeOnFullRange: Bool = false,
                xfadeWrong: (why: String, at: @Sendable (_ x: Int, _ y: Int, _ p: Double) -> Bool)? = nil, switchesOnColour: Bool = false) {
        self.kind = kind; self.startException = startException; self.endException = endException; self.xfadeOnFullRange = xfadeOnFullRange
        self.xfadeWrong = xfadeWrong; self.switchesOnColour = switchesOnColour
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
        // FFmpeg xfade's transitions (TransitionKind.xfadeName), whose ends keep xfade's off-by-one edges.
        TransitionTestRow(.fade),
        TransitionTestRow(.wipeleft, endException: "column 0 still shows A at p = 1 (A where x ≤ ⌊W·0⌋)"),
        TransitionTestRow(.wiperight, startException: "column 0 shows B at p = 0 (A where x > ⌊W·0⌋)"),
        TransitionTestRow(.wipeup, endException: "row 0 still shows A at p = 1 (A where y ≤ ⌊H·0⌋)"),
        TransitionTestRow(.wipedown, startException: "row 0 shows B at p = 0 (A where y > ⌊H·0⌋)"),
        TransitionTestRow(.slideleft, xfadeWrong: ("at p = 0 FFmpeg 5.1 fills column 0 from past the end of the row (it wraps −W to W)",
                                                   { x, _, p in p == 0 && x == 0 })),
        TransitionTestRow(.slideright),
        TransitionTestRow(.slideup, xfadeWrong: ("at p = 0 FFmpeg 5.1 fills row 0 from past the last row (it wraps −H to H)",
                                                 { _, y, p in p == 0 && y == 0 })),
        TransitionTestRow(.slidedown),
        TransitionTestRow(.circlecrop, xfadeOnFullRange: true),
        TransitionTestRow(.rectcrop, startException: "column 0 and row 0 are black at p = 0 (|x − W/2| < W/2 leaves out x = 0)",
                          endException: "column 0 and row 0 are black at p = 1", xfadeOnFullRange: true),
        TransitionTestRow(.distance, switchesOnColour: true),
        TransitionTestRow(.fadeblack, xfadeOnFullRange: true), TransitionTestRow(.fadewhite, xfadeOnFullRange: true),
        TransitionTestRow(.radial, endException: "a 12° wedge (atan2 below −2.93 rad) is still partly A at p = 1"),
        TransitionTestRow(.smoothleft), TransitionTestRow(.smoothright), TransitionTestRow(.smoothup), TransitionTestRow(.smoothdown),
        TransitionTestRow(.circleopen), TransitionTestRow(.circleclose),
        TransitionTestRow(.vertopen), TransitionTestRow(.vertclose), TransitionTestRow(.horzopen), TransitionTestRow(.horzclose),
        TransitionTestRow(.dissolve), TransitionTestRow(.pixelize),
        TransitionTestRow(.diagtl), TransitionTestRow(.diagtr), TransitionTestRow(.diagbl), TransitionTestRow(.diagbr),
        TransitionTestRow(.hlslice), TransitionTestRow(.hrslice), TransitionTestRow(.vuslice), TransitionTestRow(.vdslice),
        TransitionTestRow(.hblur), TransitionTestRow(.fadegrays),
        TransitionTestRow(.wipetl, endException: "pixel (0, 0) still shows A at p = 1"),
        TransitionTestRow(.wipetr, startException: "column 0 shows B at p = 0"),
        TransitionTestRow(.wipebl, startException: "row 0 shows B at p = 0"),
        TransitionTestRow(.wipebr, startException: "row 0 and column 0 show B at p = 0"),
        TransitionTestRow(.squeezeh, startException: "at p = 0 row y shows A's row roundEven(y·(H − 1)/H): A squeezed by one row"),
        TransitionTestRow(.squeezev, startException: "at p = 0 column x shows A's column roundEven(x·(W − 1)/W): A squeezed by one column"),
        TransitionTestRow(.zoomin), TransitionTestRow(.fadefast), TransitionTestRow(.fadeslow),
    ]

    /// One transition (with its default direction) for each combination of traits that changes how the renderers
    /// draw (fused or not, layers moved or not), plus crossfade, push and wipe: for the tests that are too costly
    /// to run on every row (planar formats, pipelines).
    public static var sample: [(kind: TransitionKind, direction: Transition.Direction?)] {
        var seen = Set<[Bool]>(), out: [(TransitionKind, Transition.Direction?)] = []
        for row in rows where !row.switchesOnColour {
            let t = row.kind.traits
            let key = [t.mixesColoursOnly, t.movesLayers]
            if seen.insert(key).inserted || [.crossfade, .push, .wipe].contains(row.kind) {
                out.append((row.kind, t.directions.first))
            }
        }
        return out
    }

    /// The row of `kind`.
    public static func row(_ kind: TransitionKind) -> TransitionTestRow? { rows.first { $0.kind == kind } }

    /// Whether two renders of `kind` that resample their clips agree: ≥ `minPSNR` dB and no sample more than
    /// `maxDifference` apart; for a row that `switchesOnColour`, at most 1 % of the samples may be further apart
    /// (pixels on the threshold) and the PSNR must reach 35 dB.
    public static func agree(_ kind: TransitionKind?, _ a: [UInt8], _ b: [UInt8], minPSNR: Double = 45,
                             maxDifference: Int = 8) -> (ok: Bool, difference: PlaneDifference) {
        let d = PlaneDifference(a, b)
        if let k = kind, row(k)?.switchesOnColour == true {
            let far = zip(a, b).reduce(0) { $0 + (abs(Int($1.0) - Int($1.1)) > maxDifference ? 1 : 0) }
            return (d.psnr >= 35 && far * 100 <= a.count, d)
        }
        return (d.psnr >= minPSNR && d.maxAbsDifference <= maxDifference, d)
    }
}
