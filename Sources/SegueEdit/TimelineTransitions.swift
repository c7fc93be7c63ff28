import SegueCore

// Transitions that do not fit the items they join (`Edit.fitTransitions`).
extension Timeline {
    /// Shortens the transitions of one track that are longer than the items they join allow (`Edit.fitTransitions`):
    /// a transition may take all of an item it alone touches, and half of an item with a transition at each end (so
    /// that the two never overlap): at most `min(D_{i−1} / k_{i−1}, D_i / k_i)`, `k` the number of transitions touching
    /// the item (1 or 2). One that would then last less than a frame at `rate` becomes a cut. Returns each item's
    /// transition, and a warning per change naming the field.
    static func fitTransitions(_ items: [ItemReference], durations: [MediaTime], rate: FrameRate) -> (transitions: [Transition?], warnings: [String]) {
        var transitions = items.map(\.spec.transition)
        var warnings: [String] = []
        func touching(_ j: Int) -> Int64 {
            (items[j].spec.transition != nil ? 1 : 0) + (j + 1 < items.count && items[j + 1].spec.transition != nil ? 1 : 0)
        }
        for i in items.indices.dropFirst() {
            guard let t = items[i].spec.transition, items[i].spec.at == nil else { continue }
            func share(_ j: Int) -> MediaTime { MediaTime(value: durations[j].value, timescale: durations[j].timescale * touching(j)) }
            let limit = min(share(i - 1), share(i))
            guard limit < t.duration else { continue }
            let why = "the \(t.kind.rawValue) of \(fmt(t.duration)) s is longer than \(items[i - 1].label) (\(fmt(durations[i - 1])) s) and \(items[i].label) (\(fmt(durations[i])) s) allow"
            if limit < rate.frameDuration {
                transitions[i] = nil
                warnings.append("\(items[i].field).transition: \(why): made a cut (it would last less than one frame)")
            } else {
                var shorter = t
                shorter.duration = limit
                transitions[i] = shorter
                warnings.append("\(items[i].field).transition: \(why): shortened to \(fmt(limit)) s")
            }
        }
        return (transitions, warnings)
    }
}
