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

    /// An effect's `type` in the edit file.
    public enum Kind: String, CaseIterable, Sendable {
        case speed, reverse, freeze
    }

    public var kind: Kind {
        switch self {
        case .speed: return .speed
        case .reverse: return .reverse
        case .freeze: return .freeze
        }
    }

    /// Whether it changes how the source's time follows the item's (a speed entry of speed 1 carries only its
    /// `frameBlend` and `pitch`).
    public var changesTime: Bool {
        if case .speed(let s) = self { return !s.speed.isNormal }
        return true
    }

    /// "speed 2×", "speed ramp 1×@0s → 4×@1s, frames blended", "reverse", "freeze at 1.500 s".
    public var description: String {
        switch self {
        case .speed(let s): return s.description
        case .reverse: return "reverse"
        case .freeze(let at): return String(format: "freeze at %.3f s", at.seconds)
        }
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
