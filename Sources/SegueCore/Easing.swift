import Foundation

/// An easing function: input progress x (0…1, linear in time) → output progress (the shape a transition's
/// picture, or its audio crossfade, follows), with the semantics of CSS Easing Functions Level 1
/// (W3C Candidate Recommendation, 2023): `linear`, the cubic Bézier functions (`ease`, `ease-in`, `ease-out`,
/// `ease-in-out`, `cubic-bezier(x1, y1, x2, y2)`) and the step functions (`steps(n, <jump-term>)`).
public enum Easing: Equatable, Sendable, CustomStringConvertible {
    /// Output = input.
    case linear
    /// The curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), x1 and x2 within 0…1
    /// (CSS Easing §2.2): for input x, the parameter t with X(t) = x is solved (to 1e-6 in x), output Y(t).
    case cubicBezier(Double, Double, Double, Double)
    /// `n` equal steps (CSS Easing §2.3).
    case steps(Int, StepPosition)

    /// Where the jumps of a step function are (CSS `<step-position>`).
    public enum StepPosition: String, CaseIterable, Sendable {
        /// The first jump at x = 0 (output starts at 1/n).
        case jumpStart = "jump-start"
        /// The last jump at x = 1 (output ends at (n − 1)/n before x = 1). The default.
        case jumpEnd = "jump-end"
        /// No jump at either end: n − 1 jumps, from 0 to 1.
        case jumpNone = "jump-none"
        /// Jumps at both ends: n + 1 jumps.
        case jumpBoth = "jump-both"
    }

    /// CSS's named curves (Easing §2.2.1).
    public static let ease = Easing.cubicBezier(0.25, 0.1, 0.25, 1)
    public static let easeIn = Easing.cubicBezier(0.42, 0, 1, 1)
    public static let easeOut = Easing.cubicBezier(0, 0, 0.58, 1)
    public static let easeInOut = Easing.cubicBezier(0.42, 0, 0.58, 1)

    /// The output progress at input `x` (0…1).
    public func callAsFunction(_ x: Double) -> Double {
        switch self {
        case .linear:
            return x
        case let .cubicBezier(x1, y1, x2, y2):
            if x <= 0 || x >= 1 { return x <= 0 ? 0 : 1 }
            let t = Easing.solve(x, x1, x2)
            return Easing.bezier(t, y1, y2)
        case let .steps(n, position):
            // CSS Easing §2.3.1: current step = ⌊x·n⌋ (+1 for jump-start and jump-both), clamped to 0…jumps.
            var step = Int((x * Double(n)).rounded(.down))
            if position == .jumpStart || position == .jumpBoth { step += 1 }
            let jumps: Int
            switch position {
            case .jumpStart, .jumpEnd: jumps = n
            case .jumpNone: jumps = n - 1
            case .jumpBoth: jumps = n + 1
            }
            if x >= 0 && step < 0 { step = 0 }
            if x <= 1 && step > jumps { step = jumps }
            return Double(step) / Double(jumps)
        }
    }

    /// `∫₀ˣ easing(u) du` for x in 0…1, in closed form: `x²/2` for linear; for a cubic Bézier `∫₀ᵗ Y(q)·X′(q) dq`
    /// (a polynomial of degree 5 in the curve's parameter t, with X(t) = x: the area under the curve, since
    /// dx = X′(q) dq); for steps the sum of the whole steps and the part of the last. What a speed ramp's source time
    /// is made of (`TimeMap`): the integral of an eased speed, never a sum over frames.
    public func integral(_ x: Double) -> Double {
        let x = min(1, max(0, x))
        switch self {
        case .linear:
            return x * x / 2
        case let .cubicBezier(x1, y1, x2, y2):
            if x <= 0 { return 0 }
            let t = x >= 1 ? 1 : Easing.solve(x, x1, x2)
            // Y(q) = a1·q + a2·q² + a3·q³, X′(q) = b0 + b1·q + b2·q².
            let a = [0, 3 * y1, -6 * y1 + 3 * y2, 3 * y1 - 3 * y2 + 1]
            let b = [3 * x1, 2 * (-6 * x1 + 3 * x2), 3 * (3 * x1 - 3 * x2 + 1)]
            var sum = 0.0
            for i in 1...3 { for j in 0...2 { let k = Double(i + j + 1); sum += a[i] * b[j] * pow(t, k) / k } }
            return sum
        case let .steps(n, _):
            // The value is constant on each [k/n, (k+1)/n).
            let whole = min(n, Int((x * Double(n)).rounded(.down)))
            var sum = 0.0
            for k in 0..<whole { sum += self((Double(k) + 0.5) / Double(n)) / Double(n) }
            if whole < n { sum += self((Double(whole) + 0.5) / Double(n)) * (x - Double(whole) / Double(n)) }
            return sum
        }
    }

    /// One coordinate of the Bézier curve from 0 to 1 with control values `c1`, `c2`:
    /// `3(1 − t)²t·c1 + 3(1 − t)t²·c2 + t³`.
    static func bezier(_ t: Double, _ c1: Double, _ c2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t
    }

    /// The parameter t in 0…1 with X(t) = x: Newton's method from t = x, then bisection (X is monotonic for
    /// x1, x2 in 0…1), until |X(t) − x| < 1e-7.
    static func solve(_ x: Double, _ x1: Double, _ x2: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let e = bezier(t, x1, x2) - x
            if abs(e) < 1e-7 { return t }
            let u = 1 - t
            let slope = 3 * u * u * x1 + 6 * u * t * (x2 - x1) + 3 * t * t * (1 - x2)
            if abs(slope) < 1e-6 { break }
            t -= e / slope
            if t < 0 || t > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<64 {
            let e = bezier(t, x1, x2) - x
            if abs(e) < 1e-7 { break }
            if e < 0 { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }

    /// The easings CSS names with a keyword (`parse` also takes the functions `cubic-bezier(…)` and `steps(…)`).
    public static let keywords: [String: Easing] = [
        "linear": .linear, "ease": .ease, "ease-in": .easeIn, "ease-out": .easeOut, "ease-in-out": .easeInOut,
        "step-start": .steps(1, .jumpStart), "step-end": .steps(1, .jumpEnd),
    ]
    /// The CSS easing functions `parse` takes besides `keywords`.
    public static let functionNames = ["cubic-bezier", "steps"]

    /// Parses CSS syntax: `linear`, `ease`, `ease-in`, `ease-out`, `ease-in-out`, `cubic-bezier(x1, y1, x2, y2)`,
    /// `steps(n)`, `steps(n, jump-start|jump-end|jump-none|jump-both|start|end)`, `step-start`, `step-end`.
    /// - Throws: `EditError` naming `field` and what is wrong.
    public static func parse(_ text: String, field: String) throws -> Easing {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = keywords[s] { return named }
        let usage = "must be linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1, y1, x2, y2) or steps(n[, jump-start|jump-end|jump-none|jump-both])"
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { throw EditError(field, "\(usage) (got \"\(text)\")") }
        let name = s[..<open].trimmingCharacters(in: .whitespaces)
        let args = s[s.index(after: open)..<s.index(before: s.endIndex)].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        switch name {
        case "cubic-bezier":
            let v = args.compactMap { Double($0) }.filter(\.isFinite)
            guard args.count == 4, v.count == 4 else { throw EditError(field, "cubic-bezier takes four numbers x1, y1, x2, y2 (got \"\(text)\")") }
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                throw EditError(field, "cubic-bezier's x1 and x2 must be within 0…1 (got \"\(text)\")")
            }
            return .cubicBezier(v[0], v[1], v[2], v[3])
        case "steps":
            guard (1...2).contains(args.count), let n = Int(args[0]) else {
                throw EditError(field, "steps takes a whole number of steps and an optional jump-start, jump-end, jump-none or jump-both (got \"\(text)\")")
            }
            var position = StepPosition.jumpEnd
            if args.count == 2 {
                switch args[1] {
                case "start": position = .jumpStart
                case "end": position = .jumpEnd
                default:
                    guard let p = StepPosition(rawValue: args[1]) else {
                        throw EditError(field, "a step position is jump-start, jump-end, jump-none or jump-both (got \"\(args[1])\")")
                    }
                    position = p
                }
            }
            guard n >= (position == .jumpNone ? 2 : 1), n <= 10_000 else {
                throw EditError(field, "steps needs at least \(position == .jumpNone ? 2 : 1) step(s) (got \(n))")
            }
            return .steps(n, position)
        default:
            throw EditError(field, "\(usage) (got \"\(text)\")")
        }
    }

    /// CSS syntax (`ease` for `.ease` etc.).
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .ease: return "ease"
        case .easeIn: return "ease-in"
        case .easeOut: return "ease-out"
        case .easeInOut: return "ease-in-out"
        case let .cubicBezier(a, b, c, d): return "cubic-bezier(\(a), \(b), \(c), \(d))"
        case let .steps(n, p): return "steps(\(n), \(p.rawValue))"
        }
    }
}
