/// The nearest of a set of names to one that is not among them, for the "did you mean …?" of messages: edit-file
/// fields, transition names, command-line options and commands. One rule everywhere: case is ignored, and a name
/// counts as near when it is at most max(2, length / 3) edits away (a third of the letters of a long name, two of a
/// short one).
public enum NearestName {
    /// The Levenshtein distance between `a` and `b`: the fewest insertions, deletions and substitutions of characters
    /// that turn one into the other (Wagner–Fischer, one row at a time). Case counts; `suggestion` ignores it.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }

    /// The name of `names` nearest to `name` (case ignored; the first of equals), or nil when even that one is more
    /// than max(2, `name.count` / 3) edits away.
    public static func suggestion(for name: String, among names: [String]) -> String? {
        let wanted = name.lowercased()
        guard let near = names.min(by: { distance($0.lowercased(), wanted) < distance($1.lowercased(), wanted) }),
              distance(near.lowercased(), wanted) <= max(2, name.count / 3) else { return nil }
        return near
    }
}
