import Foundation
import SegueCore

/// How an item's source time follows its time on the timeline: a retimed clip is a clip with another time map.
///
/// For item-local timeline time τ (seconds from the item's first instant on its track) the source offset (seconds into
/// the used range, from `start`) is
/// - at a constant speed S = p/q (the edit's decimal read as an exact rational, microsecond precision; or
///   `capture`'s edit rate / capture rate): `τ·S`, exact;
/// - on a speed ramp: `∫₀^τ s(u) du` with s the eased speed keyframes, in closed form per segment
///   (`Easing.integral`): `v_k·Δ + (v_{k+1} − v_k)·L·∫₀^{Δ/L} easing_k` for Δ into a segment of length L, the
///   cumulative integral at each keyframe added; constant before the first keyframe and after the last;
/// - frozen: 0 (one frame).
/// The item lasts `D / S` for a source range of D at a constant speed, and on a ramp the τ where the integral
/// reaches D (the integral is increasing: speeds are positive), solved per segment.
public struct TimeMap: Equatable, Sendable {
    enum Rate: Equatable, Sendable {
        /// `num / den` source seconds per timeline second.
        case rational(Int64, Int64)
        case ramp([Keyframe])
        case frozen
    }
    let rate: Rate

    public static let identity = TimeMap(rate: .rational(1, 1))
    static func frozen() -> TimeMap { TimeMap(rate: .frozen) }

    /// A constant `speed` (1/32…32), as an exact rational (its decimal to the microsecond, as every time in an edit file).
    init(speed: Double) {
        let r = MediaTime(seconds: speed)
        rate = .rational(r.value, r.timescale)
    }
    /// The speed `num / den` exactly.
    init(rational num: Int64, _ den: Int64) { rate = .rational(num, den) }
    init(ramp keys: [Keyframe]) { rate = .ramp(keys) }
    private init(rate: Rate) { self.rate = rate }

    /// Whether the source plays at its own pace.
    public var isIdentity: Bool { rate == .rational(1, 1) }
    /// Whether the speed is the same throughout (not a ramp).
    public var isConstant: Bool { if case .ramp = rate { return false } else { return true } }
    /// The slowest speed it plays at (the lowest keyframe of a ramp).
    public var slowest: Double {
        switch rate {
        case .rational(let n, let d): return Double(n) / Double(d)
        case .frozen: return 1
        case .ramp(let keys): return keys.map(\.value).min() ?? 1
        }
    }

    /// The speed at item-local time τ (1 when frozen: a frozen item has no speed).
    public func speed(at τ: MediaTime) -> Double {
        switch rate {
        case .rational(let n, let d): return Double(n) / Double(d)
        case .frozen: return 1
        case .ramp(let keys): return Animated.keyframes(keys).value(at: τ)
        }
    }

    /// The source offset (seconds into the used range) at item-local timeline time τ ≥ 0.
    public func sourceOffset(at τ: MediaTime) -> MediaTime {
        switch rate {
        case .rational(let n, let d): return τ.scaled(by: n, d)
        case .frozen: return .zero
        case .ramp(let keys): return MediaTime(seconds: TimeMap.integral(keys, τ.seconds))
        }
    }

    /// How long the item lasts on the timeline for a source range of `d`.
    public func timelineDuration(source d: MediaTime) -> MediaTime {
        switch rate {
        case .rational(let n, let den): return d.scaled(by: den, n)
        case .frozen: return d
        case .ramp(let keys): return MediaTime(seconds: TimeMap.inverse(keys, d.seconds))
        }
    }

    /// `∫₀^τ s(u) du` (seconds) for the speed keyframes `keys`.
    static func integral(_ keys: [Keyframe], _ tau: Double) -> Double {
        guard tau > 0 else { return 0 }
        let t = keys.map(\.time.seconds), v = keys.map(\.value)
        if tau <= t[0] { return v[0] * tau }
        var sum = v[0] * t[0]
        for k in 0..<(keys.count - 1) {
            let length = t[k + 1] - t[k]
            if tau < t[k + 1] {
                let into = tau - t[k]
                return sum + v[k] * into + (v[k + 1] - v[k]) * length * keys[k].easing.integral(into / length)
            }
            sum += v[k] * length + (v[k + 1] - v[k]) * length * keys[k].easing.integral(1)
        }
        return sum + v[v.count - 1] * (tau - t[t.count - 1])
    }

    /// The τ ≥ 0 with `integral(keys, τ) = d`: the segment where the cumulative integral reaches d, then within it
    /// the root of an increasing function, by bisection to 1e-12 s (the result is kept to the microsecond).
    static func inverse(_ keys: [Keyframe], _ d: Double) -> Double {
        guard d > 0 else { return 0 }
        let t = keys.map(\.time.seconds), v = keys.map(\.value)
        if integral(keys, t[0]) >= d { return d / v[0] }
        for k in 0..<(keys.count - 1) where integral(keys, t[k + 1]) >= d {
            var lo = t[k], hi = t[k + 1]
            for _ in 0..<200 where hi - lo > 1e-12 {
                let mid = (lo + hi) / 2
                if integral(keys, mid) < d { lo = mid } else { hi = mid }
            }
            return hi
        }
        let last = t[t.count - 1]
        return last + (d - integral(keys, last)) / v[v.count - 1]
    }

    /// "2×", "0.5×", "ramp 1× → 4×@1s", "frozen".
    public var description: String {
        switch rate {
        case .rational(let n, let d): return String(format: "%g×", Double(n) / Double(d))
        case .frozen: return "frozen"
        case .ramp(let keys): return "ramp " + keys.map { String(format: "%g×@%gs", $0.value, $0.time.seconds) }.joined(separator: " → ")
        }
    }
}
