import Foundation
import SegueCore

/// A text item's animation (`"animate": {"in": "fade", "out": "slide-up", "by": "word", "duration": 0.5,
/// "stagger": 0.1}`, docs/motion-graphics.md): its characters, words or lines come in one after another at the item's
/// start and go out at its end. Each unit's movement is a set of keyframes (`Animated`, the keyframe engine of
/// `layer`), made here from the presets; the text module draws each unit at those values.
public struct TextAnimation: Equatable, Sendable, CustomStringConvertible {
    /// How a unit comes in (or, played as its mirror, goes out).
    public enum Preset: String, CaseIterable, Sendable {
        /// Opacity 0 → 1 (`ease-out`; out: 1 → 0, `ease-in`).
        case fade
        /// Rises `slideDistance` em into place while fading in (out: rises on by as much while fading out).
        case slideUp = "slide-up"
        /// Appears whole on its first frame, no fade (out: removed last unit first, as by backspace).
        case typewriter
        /// Grows from nothing about its centre, overshooting to about 1.1 × before settling (out: shrinks to nothing).
        case pop
        /// Sharpens from a Gaussian blur of `blurAmount` em while fading in (out: blurs while fading out).
        case blur
    }

    /// What moves as one.
    public enum Unit: String, CaseIterable, Sendable {
        /// Each user-perceived character (grapheme cluster) that has ink; spaces take no time.
        case character
        /// Each run of characters between spaces; text without spaces (Chinese, Japanese) one character each.
        case word
        /// Each line as laid out (its own line breaks and wrapping).
        case line
    }

    public var entrance: Preset?
    public var exit: Preset?
    public var unit: Unit
    /// How long one unit's entrance (and exit) takes; for `typewriter`, the time to type all of them when `stagger` is
    /// not given.
    public var duration: MediaTime
    /// The delay between one unit's start and the next's; nil: `defaultStagger`.
    public var stagger: MediaTime?

    public init(entrance: Preset? = nil, exit: Preset? = nil, unit: Unit = .word, duration: MediaTime = MediaTime(value: 1, timescale: 2),
                stagger: MediaTime? = nil) {
        self.entrance = entrance; self.exit = exit; self.unit = unit; self.duration = duration; self.stagger = stagger
    }

    /// A rising unit's travel (`slide-up`), in em (font sizes).
    public static let slideDistance = 0.5
    /// The standard deviation of `blur`'s Gaussian at its strongest, in em.
    public static let blurAmount = 0.25
    /// How far a unit may be drawn beyond its place (slide, overshoot, blur's spread), in em: the text picture has this
    /// margin on every side when the text is animated.
    public static let margin = 1.0
    /// `pop`'s entrance: CSS `cubic-bezier(0.34, 1.56, 0.64, 1)` ("ease-out-back", easings.net), which peaks near
    /// 1.1; its exit, the mirror `cubic-bezier(0.36, 0, 0.66, -0.56)`.
    public static let popIn = Easing.cubicBezier(0.34, 1.56, 0.64, 1), popOut = Easing.cubicBezier(0.36, 0, 0.66, -0.56)

    /// The stagger when none is given: `typewriter` in types every unit in `duration` (duration / units); otherwise
    /// 0.03 s a character, 0.1 s a word, 0.25 s a line.
    public func defaultStagger(units n: Int) -> MediaTime {
        if entrance == .typewriter || (entrance == nil && exit == .typewriter) {
            return n > 0 ? MediaTime(value: duration.value, timescale: duration.timescale * Int64(n)) : duration
        }
        switch unit {
        case .character: return MediaTime(value: 3, timescale: 100)
        case .word: return MediaTime(value: 1, timescale: 10)
        case .line: return MediaTime(value: 1, timescale: 4)
        }
    }

    /// One unit's values over the item's time (keyframe times are seconds from the item's first instant, as a layer's).
    public struct UnitMotion: Equatable, Sendable {
        /// 0…1, multiplying the unit's colour and alpha.
        public var opacity = Animated.constant(1)
        /// Downward offset, in em.
        public var offsetY = Animated.constant(0)
        /// About the unit's ink centre.
        public var scale = Animated.constant(1)
        /// The Gaussian's standard deviation, in em.
        public var blur = Animated.constant(0)

        /// Whether the unit is drawn as it is at rest (opacity 1, no offset, scale 1, no blur) at `t`.
        public func atRest(_ t: MediaTime) -> Bool {
            opacity.value(at: t) == 1 && offsetY.value(at: t) == 0 && scale.value(at: t) == 1 && blur.value(at: t) == 0
        }
    }

    /// The keyframes of `n` units (in reading order) of an item lasting `itemDuration`: unit `i` comes in over
    /// `[i·stagger, i·stagger + duration)` and goes out over `[D − duration − (n−1−i)·stagger, …)` so that the last ends
    /// at the item's end (`typewriter` out: unit `i` removed at `D − (i+1)·stagger`). An exit never starts before the
    /// unit's entrance has ended.
    public func motions(units n: Int, itemDuration D: MediaTime) -> [UnitMotion] {
        let s = stagger ?? defaultStagger(units: n)
        let d = duration
        return (0..<n).map { i in
            var keys: [Property: [Keyframe]] = [:]
            var entranceEnd = MediaTime.zero
            if let p = entrance {
                let t0 = s * Int64(i)
                entranceEnd = p == .typewriter ? t0 : t0 + d
                for (property, values) in TextAnimation.entranceValues(p) {
                    keys[property, default: []] += TextAnimation.segment(values, from: t0, length: d, easing: values.easing, typewriter: p == .typewriter, before: s)
                }
            }
            if let p = exit {
                var t0 = p == .typewriter ? D - s * Int64(i + 1) : D - d - s * Int64(n - 1 - i)
                if t0 < entranceEnd { t0 = entranceEnd }
                for (property, values) in TextAnimation.exitValues(p) {
                    var k = keys[property] ?? [Keyframe(time: .zero, value: values.from)]
                    if let last = k.last, !(last.time < t0) { k.removeLast() }   // the exit starts where the entrance ends
                    k += TextAnimation.segment(values, from: t0, length: d, easing: values.easing, typewriter: p == .typewriter, before: s)
                    keys[property] = k
                }
            }
            var m = UnitMotion()
            for (property, k) in keys {
                var strictly: [Keyframe] = []
                for key in k { if let last = strictly.last, !(last.time < key.time) { strictly.removeLast() }; strictly.append(key) }
                let a = Animated.keyframes(strictly)
                switch property {
                case .opacity: m.opacity = a
                case .offsetY: m.offsetY = a
                case .scale: m.scale = a
                case .blur: m.blur = a
                }
            }
            return m
        }
    }

    enum Property: Hashable { case opacity, offsetY, scale, blur }
    typealias Values = (from: Double, to: Double, easing: Easing)

    /// What a preset moves coming in: each property from its value before to its value at rest.
    static func entranceValues(_ p: Preset) -> [(Property, Values)] {
        switch p {
        case .fade: return [(.opacity, (0, 1, .easeOut))]
        case .slideUp: return [(.opacity, (0, 1, .easeOut)), (.offsetY, (slideDistance, 0, .easeOut))]
        case .typewriter: return [(.opacity, (0, 1, .linear))]
        case .pop: return [(.scale, (0, 1, popIn))]
        case .blur: return [(.opacity, (0, 1, .easeOut)), (.blur, (blurAmount, 0, .easeOut))]
        }
    }

    /// What a preset moves going out: from the value at rest to the value after.
    static func exitValues(_ p: Preset) -> [(Property, Values)] {
        switch p {
        case .fade: return [(.opacity, (1, 0, .easeIn))]
        case .slideUp: return [(.opacity, (1, 0, .easeIn)), (.offsetY, (0, -slideDistance, .easeIn))]
        case .typewriter: return [(.opacity, (1, 0, .linear))]
        case .pop: return [(.scale, (1, 0, popOut))]
        case .blur: return [(.opacity, (1, 0, .easeIn)), (.blur, (0, blurAmount, .easeIn))]
        }
    }

    /// The keyframes of one move starting at `t0`: `from` eased to `to` over `length`; a typewriter's a jump at `t0`
    /// (held at `from` from `t0 − before` with `steps(1, jump-end)`, so the new value shows from `t0` itself).
    static func segment(_ v: Values, from t0: MediaTime, length: MediaTime, easing: Easing, typewriter: Bool, before: MediaTime) -> [Keyframe] {
        if typewriter {
            let hold = before > .zero ? before : MediaTime(value: 1, timescale: 1000)
            return [Keyframe(time: t0 - hold, value: v.from, easing: .steps(1, .jumpEnd)), Keyframe(time: t0, value: v.to)]
        }
        return [Keyframe(time: t0, value: v.from, easing: easing), Keyframe(time: t0 + length, value: v.to)]
    }

    /// "in fade, out slide-up by word, 0.5 s, stagger 0.1 s".
    public var description: String {
        var parts: [String] = []
        if let e = entrance { parts.append("in \(e.rawValue)") }
        if let x = exit { parts.append("out \(x.rawValue)") }
        var s = parts.joined(separator: ", ") + " by \(unit.rawValue), " + String(format: "%g s", duration.seconds)
        if let st = stagger { s += String(format: ", stagger %g s", st.seconds) }
        return s
    }
}
