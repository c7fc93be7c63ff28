import Foundation

/// Every transition for people and machines: what `segue transitions` prints (text, or `Codable` for `--json`).
public struct TransitionCatalogue: Codable, Sendable {
    public struct Entry: Codable, Sendable {
        /// The edit file's `type`.
        public let name: String
        /// The other names `type` takes for it (`TransitionKind.aliases`: `dissolve` for crossfade, `xfade:NAME`).
        public let aliases: [String]
        public let summary: String
        /// The directions it takes, the default first; empty when it has none.
        public let directions: [String]
        public let parameters: [Parameter]
        /// The FFmpeg `xfade` transition it re-derives, if any.
        public let xfade: String?
        /// `TransitionTraits.mixesColoursOnly`, `movesLayers`.
        public let mixesColoursOnly: Bool
        public let movesLayers: Bool
    }
    public struct Parameter: Codable, Sendable {
        public let name: String
        public let defaultValue: Double
        public let minimum: Double, maximum: Double
        public let summary: String
    }
    public let transitions: [Entry]
    /// What every transition also takes in the edit file.
    public let common: [String]
    /// How the other names (`Entry.aliases`) map to transitions.
    public let names: [String]

    public init() {
        transitions = TransitionKind.allCases.map { k in
            let t = k.traits
            return Entry(name: k.rawValue, aliases: k.aliases, summary: t.summary, directions: t.directions.map(\.rawValue),
                         parameters: t.parameters.map { Parameter(name: $0.name, defaultValue: $0.defaultValue, minimum: $0.range.lowerBound,
                                                                  maximum: $0.range.upperBound, summary: $0.summary) },
                         xfade: k.xfadeName, mixesColoursOnly: t.mixesColoursOnly, movesLayers: t.movesLayers)
        }
        common = ["duration (seconds, default 1)",
                  "easing: linear (default), ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1, y1, x2, y2), steps(n[, jump-start|jump-end|jump-none|jump-both])",
                  "audioCurve: linear (default) or equal-power; audioEasing: as easing (default: linear, whatever easing is)",
                  "blend: gamma (default, or the edit's \"blending\") or linear (mixing in linear light, BT.1886)"]
        names = ["dissolve is crossfade, the cross-dissolve of editors and OTIO's SMPTE_Dissolve",
                 "xfade:NAME is the transition re-deriving FFmpeg xfade's NAME: xfade:dissolve (random pixels) is pixeldissolve, the others keep xfade's names"]
    }

    /// One block per transition: name and summary, then its directions and parameters, indented.
    public var text: String {
        let width = transitions.map(\.name.count).max() ?? 0
        var s = ""
        for e in transitions {
            s += e.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + e.summary + "\n"
            let indent = String(repeating: " ", count: width + 2)
            let also = e.aliases.filter { $0 != "xfade:" + e.name }
            if !also.isEmpty { s += indent + "also named: " + also.joined(separator: ", ") + "\n" }
            if !e.directions.isEmpty {
                s += indent + "direction: " + e.directions.enumerated().map { $0.offset == 0 ? "\($0.element) (default)" : $0.element }.joined(separator: ", ") + "\n"
            }
            for p in e.parameters {
                s += indent + "params.\(p.name) = \(number(p.defaultValue)) (\(number(p.minimum))…\(number(p.maximum))): \(p.summary)\n"
            }
        }
        s += "\nnames:\n" + names.map { "  " + $0 + "\n" }.joined()
        s += "\nevery transition also takes:\n" + common.map { "  " + $0 + "\n" }.joined()
        return s
    }

    private func number(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
}
