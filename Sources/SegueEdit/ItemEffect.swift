import Foundation
import SegueCore

/// One effect on an item (`ClipSpec.effects`), as OpenTimelineIO puts effects in a list on the item
/// (`Item.effects`: `LinearTimeWarp`, `FreezeFrame`, …). Today's effects change time; colour, LUT, blur and chroma key
/// will be further cases, each a new entry of the list rather than a new field of `ClipSpec`.
///
/// In the edit file an item gives them as `"effects": [{"type": "speed", "speed": 2}, {"type": "reverse"},
/// {"type": "freeze", "at": 1.5}]` or by the item's own fields (`"speed": 2`, `"reverse": true`, `"freeze": 1.5`,
/// `"frameBlend"`, `"pitch"`), which are entries of the same list; each kind at most once (docs/time.md).
public enum ItemEffect: Equatable, Sendable, CustomStringConvertible {
    /// The source plays at another pace (OTIO's `LinearTimeWarp`, whose `time_scalar` is a constant speed).
    case speed(SpeedEffect)
    /// The source plays backwards (OTIO: a `LinearTimeWarp` with a negative `time_scalar`).
    case reverse
    /// One source frame, `at` seconds from the clip's first frame, held for the item's `duration` (OTIO's `FreezeFrame`).
    case freeze(at: MediaTime)
    /// Brightness, contrast, saturation, hue, exposure and white balance of the picture (`ColourAdjustment`).
    case colour(ColourEffect)
    /// A `.cube` look-up table applied to the picture (`CubeLUT`).
    case lut(LUTEffect)
    /// A chroma key: the picture keyed out near a colour, its spill desaturated (`ChromaKey`).
    case chromaKey(ChromaKeyEffect)
    /// The picture darker towards its edges (`Vignette`).
    case vignette(VignetteEffect)
    /// A Gaussian blur of the layer as drawn (`LayerFilter.blur`).
    case blur(BlurEffect)
    /// An unsharp mask of the layer as drawn (`LayerFilter.sharpen`).
    case sharpen(SharpenEffect)

    /// An effect's `type` in the edit file.
    public enum Kind: String, CaseIterable, Sendable {
        case speed, reverse, freeze, colour, lut, chromaKey, vignette, blur, sharpen
    }

    public var kind: Kind {
        switch self {
        case .speed: return .speed
        case .reverse: return .reverse
        case .freeze: return .freeze
        case .colour: return .colour
        case .lut: return .lut
        case .chromaKey: return .chromaKey
        case .vignette: return .vignette
        case .blur: return .blur
        case .sharpen: return .sharpen
        }
    }

    /// Whether it changes how the source's time follows the item's (a speed entry of speed 1 carries only its
    /// `frameBlend` and `pitch`; picture effects do not).
    public var changesTime: Bool {
        switch self {
        case .speed(let s): return !s.speed.isNormal
        case .reverse, .freeze: return true
        case .colour, .lut, .chromaKey, .vignette, .blur, .sharpen: return false
        }
    }

    /// Whether it changes the picture's colours (applied to each sample before the layer's opacity and blend).
    public var isPictureEffect: Bool { kind == .colour || kind == .lut || kind == .chromaKey || kind == .vignette || kind == .blur || kind == .sharpen }

    /// "speed 2×", "speed ramp 1×@0s → 4×@1s, frames blended", "reverse", "freeze at 1.500 s".
    public var description: String {
        switch self {
        case .speed(let s): return s.description
        case .reverse: return "reverse"
        case .freeze(let at): return String(format: "freeze at %.3f s", at.seconds)
        case .colour(let c): return c.description
        case .lut(let l): return l.description
        case .chromaKey(let k): return k.description
        case .vignette(let v): return v.description
        case .blur(let b): return b.description
        case .sharpen(let s): return s.description
        }
    }
}

/// The `colour` effect (`ColourAdjustment` at each instant): each setting a number or keyframes.
public struct ColourEffect: Equatable, Sendable, CustomStringConvertible {
    public var brightness = Animated.constant(1), contrast = Animated.constant(1), saturation = Animated.constant(1)
    /// Degrees.
    public var hue = Animated.constant(0)
    /// Stops, in linear light.
    public var exposure = Animated.constant(0)
    /// −1…1 each: warmer (positive) or cooler; more magenta (positive) or green.
    public var temperature = Animated.constant(0), tint = Animated.constant(0)
    public init() {}

    /// The settings by their edit-file names, in the order they apply.
    public var settings: [(name: String, value: Animated, neutral: Double)] {
        ColourEffect.fields.map { ($0.name, self[keyPath: $0.path], $0.neutral) }
    }

    /// The settings' edit-file names, where they are kept, and their neutral values, in the order they apply.
    static var fields: [(name: String, path: WritableKeyPath<ColourEffect, Animated>, neutral: Double)] {
        [("brightness", \.brightness, 1), ("contrast", \.contrast, 1), ("saturation", \.saturation, 1), ("hue", \.hue, 0),
         ("exposure", \.exposure, 0), ("temperature", \.temperature, 0), ("tint", \.tint, 0)]
    }

    /// The adjustment at `t` (seconds from the item's first instant).
    public func adjustment(at t: MediaTime) -> ColourAdjustment {
        ColourAdjustment(brightness: brightness.value(at: t), contrast: contrast.value(at: t), saturation: saturation.value(at: t),
                         hue: hue.value(at: t), exposure: exposure.value(at: t), temperature: temperature.value(at: t), tint: tint.value(at: t))
    }

    /// "colour brightness 1.2, hue 30" (the settings that are not neutral).
    public var description: String {
        let parts = settings.filter { $0.value != .constant($0.neutral) }.map { "\($0.name) \($0.value)" }
        return parts.isEmpty ? "colour" : "colour " + parts.joined(separator: ", ")
    }
}

/// The `lut` effect: a `.cube` file (absolute path) mixed in by `strength`.
public struct LUTEffect: Equatable, Sendable, CustomStringConvertible {
    public var path: String
    /// 0 (the picture unchanged) … 1 (the table's colours; default).
    public var strength = Animated.constant(1)
    public init(path: String, strength: Animated = .constant(1)) { self.path = path; self.strength = strength }
    public var description: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "lut \(name)" + (strength == .constant(1) ? "" : " strength \(strength)")
    }
}

/// The speed effect: how fast the source plays, and what that does to its picture and its sound.
public struct SpeedEffect: Equatable, Sendable, CustomStringConvertible {
    /// A constant factor, a ramp of keyframes, or `capture`; `start` and `duration` stay in source seconds and the item
    /// lasts `duration / speed` on its track (`TimeMap`).
    public var speed: Speed
    /// In slow motion, mixes the two source frames around each output frame's source time by their distance (as
    /// FFmpeg's `framerate` filter does) instead of repeating the frame at or before it.
    public var frameBlend: Bool
    /// What a retimed clip's audio does: `keep` its pitch (time-stretched; the default), `follow` the speed
    /// (varispeed), or `mute` (also silencing a reversed clip).
    public var pitch: Pitch
    public init(speed: Speed = .constant(1), frameBlend: Bool = false, pitch: Pitch = .keep) {
        self.speed = speed; self.frameBlend = frameBlend; self.pitch = pitch
    }

    /// Whether it changes nothing: speed 1, no blending, pitch kept (such an entry is left out of `ClipSpec.effects`).
    public var isNeutral: Bool { self == SpeedEffect() }

    /// "speed 2×", "speed capture", "speed ramp 1×@0s → 4×@0.8s", with ", frames blended" and the pitch when not kept.
    public var description: String {
        var s: String
        switch speed {
        case .constant(let v): s = String(format: "speed %g×", v)
        case .capture: s = "speed capture"
        case .ramp(let keys): s = "speed " + TimeMap(ramp: keys).description
        }
        if frameBlend { s += ", frames blended" }
        if pitch != .keep { s += ", pitch \(pitch.rawValue)" }
        return s
    }
}

extension ClipSpec {
    /// The order of the time effects in `effects` (what they do does not depend on it: the speed maps the item's time
    /// to the source's, `reverse` reads that range backwards, a freeze replaces both); effects to come keep the order
    /// the edit gives.
    static let timeEffectOrder: [ItemEffect.Kind] = [.speed, .reverse, .freeze]

    /// The picture effects (`colour`, `lut`, `chromaKey`), in the item's order.
    public var pictureEffects: [ItemEffect] { effects.filter(\.isPictureEffect) }

    /// Puts `effect` in place of the entry of its kind, or inserts it where its kind goes; nil removes that kind.
    mutating func setEffect(_ kind: ItemEffect.Kind, _ effect: ItemEffect?) {
        if let i = effects.firstIndex(where: { $0.kind == kind }) {
            if let effect { effects[i] = effect } else { effects.remove(at: i) }
            return
        }
        guard let effect else { return }
        let rank = ClipSpec.timeEffectOrder.firstIndex(of: kind) ?? ClipSpec.timeEffectOrder.count
        let at = effects.firstIndex { (ClipSpec.timeEffectOrder.firstIndex(of: $0.kind) ?? ClipSpec.timeEffectOrder.count) > rank }
        effects.insert(effect, at: at ?? effects.count)
    }

    /// The speed effect's settings (neutral when the item has none).
    public var speedEffect: SpeedEffect {
        get { for case .speed(let s) in effects { return s }; return SpeedEffect() }
        set { setEffect(.speed, newValue.isNeutral ? nil : .speed(newValue)) }
    }

    /// How fast the source plays (the speed effect's `speed`): a constant factor, a ramp of keyframes, or `capture`;
    /// `.constant(1)` without one.
    public var speed: Speed {
        get { speedEffect.speed }
        set { speedEffect.speed = newValue }
    }
    /// Plays the source backwards (the `reverse` effect): the item's frame k shows source frame N − 1 − k (its audio
    /// reversed too).
    public var reverse: Bool {
        get { effects.contains(.reverse) }
        set { setEffect(.reverse, newValue ? .reverse : nil) }
    }
    /// Holds the source frame at this time (seconds from the clip's first frame) for `duration` (the `freeze` effect):
    /// a still made from a video, silent. Nil: the clip plays.
    public var freeze: MediaTime? {
        get { for case .freeze(let at) in effects { return at }; return nil }
        set { setEffect(.freeze, newValue.map { .freeze(at: $0) }) }
    }
    /// The speed effect's `frameBlend`: in slow motion, mix the two source frames around each output frame's time.
    public var frameBlend: Bool {
        get { speedEffect.frameBlend }
        set { speedEffect.frameBlend = newValue }
    }
    /// The speed effect's `pitch`: what a retimed clip's audio does (`keep`, `follow`, `mute`).
    public var pitch: Pitch {
        get { speedEffect.pitch }
        set { speedEffect.pitch = newValue }
    }
}

/// The `vignette` effect (`Vignette` at each instant): `amount` and `radius`, each a number or keyframes.
public struct VignetteEffect: Equatable, Sendable, CustomStringConvertible {
    /// 0 (none) … 1 (the corners black); default 0.5.
    public var amount = Animated.constant(0.5)
    /// Where the darkening starts: 0 (the centre) … 1 (the corners); default 0.5.
    public var radius = Animated.constant(0.5)
    public init(amount: Animated = .constant(0.5), radius: Animated = .constant(0.5)) { self.amount = amount; self.radius = radius }

    /// The vignette at `t` (seconds from the item's first instant).
    public func vignette(at t: MediaTime) -> Vignette {
        Vignette(amount: Float(min(1, max(0, amount.value(at: t)))), radius: Float(min(1, max(0, radius.value(at: t)))))
    }

    /// "vignette amount 0.5, radius 0.5".
    public var description: String { "vignette amount \(amount), radius \(radius)" }
}
