import Foundation
import SegueCore

/// The edit file's effects of an item (docs/time.md): its `effects` list and its own fields `speed`, `reverse`,
/// `freeze`, `frameBlend` and `pitch`, which are entries (or, the last two, parameters of the speed entry) of the same
/// list.
extension EditFile {
    /// The range of a speed: 1/32…32 (AVFoundation's `scaleTimeRange` takes the same).
    static let speedRange = (1.0 / 32)...32.0

    /// Reads item `r`'s effects into `spec.effects`. Throws `EditError` naming the field: an effect given twice (by
    /// the item's field and an entry, or by two entries; `frameBlend` or `pitch` likewise), a freeze with `reverse`, a
    /// speed or `start`, a freeze without `duration`, speed keyframes out of order.
    static func effects(_ r: EditFields, _ spec: inout ClipSpec, base: String = "/") throws {
        // Each effect (and each parameter of the speed effect) with the field that gave it.
        var speed: (value: Speed, field: String)?
        var reverse: String?
        var freeze: (at: MediaTime, field: String)?
        var frameBlend = r.bool("frameBlend").map { (value: $0, field: r.path("frameBlend")) }
        var pitch = r.choice("pitch", Pitch.self).map { (value: $0, field: r.path("pitch")) }
        func twice(_ field: String, _ what: String, _ first: String) -> EditError {
            EditError(field, "the item's \(what) is given twice (also by \(first)): give it once")
        }
        if let s = try speedValue(r, "speed") { speed = (s, r.path("speed")) }
        if r.bool("reverse") == true { reverse = r.path("reverse") }
        if let at = r.seconds("freeze") { freeze = (at, r.path("freeze")) }
        var picture: [ItemEffect] = []
        var lut: String?
        for e in r.objects("effects") ?? [] {
            if let effect = try pictureEffect(e, base: base) {
                if effect.kind == .lut {
                    if let first = lut { throw EditError(e.path, "an item takes one lut (also \(first)): combine the tables, or put the item's second grade on a layer above") }
                    lut = e.path
                }
                picture.append(effect)
                continue
            }
            switch ItemEffect.Kind(rawValue: e.string("type") ?? "") {
            case .colour?, .lut?, .chromaKey?, .vignette?, .blur?, .sharpen?: break   // read above
            case .speed?:
                if let first = speed { throw twice(e.path, "speed", first.field) }
                if let s = try speedValue(e, "speed") { speed = (s, e.path) }
                if let b = e.bool("frameBlend") {
                    if let first = frameBlend { throw twice(e.path("frameBlend"), "frameBlend", first.field) }
                    frameBlend = (b, e.path("frameBlend"))
                }
                if let p = e.choice("pitch", Pitch.self) {
                    if let first = pitch { throw twice(e.path("pitch"), "pitch", first.field) }
                    pitch = (p, e.path("pitch"))
                }
            case .reverse?:
                if let first = reverse { throw twice(e.path, "reverse", first) }
                reverse = e.path
            case .freeze?:
                if let first = freeze { throw twice(e.path, "freeze", first.field) }
                if let at = e.seconds("at") { freeze = (at, e.path) }
            case nil: break   // not a declared type: the check refused it
            }
        }
        spec.speedEffect = SpeedEffect(speed: speed?.value ?? .constant(1), frameBlend: frameBlend?.value ?? false, pitch: pitch?.value ?? .keep)
        spec.reverse = reverse != nil
        if let freeze {
            if reverse != nil { throw EditError(freeze.field, "a frozen frame cannot also play in reverse: give freeze or reverse") }
            if !spec.speed.isNormal { throw EditError(freeze.field, "a frozen frame has no speed: give freeze or speed") }
            if r["start"] != nil { throw EditError(freeze.field, "freeze names the frame held (seconds into the clip); start does not apply: leave it out") }
            guard r["duration"] != nil else { throw EditError(r.path("duration"), "is required with freeze: how long the frame is held") }
            spec.freeze = freeze.at
        }
        spec.effects += picture
    }

    /// A picture effect entry `e` (an `effects` entry already checked against its declaration, or OTIO's
    /// `Effect.metadata.segue`) as its `ItemEffect`, a LUT's path resolved against `base`; nil for a time effect.
    /// Throws `EditError` naming the field (keyframes out of order, a colour that is not one).
    static func pictureEffect(_ e: EditFields, base: String) throws -> ItemEffect? {
        switch ItemEffect.Kind(rawValue: e.string("type") ?? "") {
        case .colour?:
            var c = ColourEffect()
            for field in ColourEffect.fields { if let v = try animated(e, field.name) { c[keyPath: field.path] = v } }
            return .colour(c)
        case .lut?:
            return .lut(LUTEffect(path: resolved(e.string("path") ?? "", base: base), strength: try animated(e, "strength") ?? .constant(1)))
        case .chromaKey?:
            return .chromaKey(try chromaKey(e))
        case .vignette?:
            var v = VignetteEffect()
            if let a = try animated(e, "amount") { v.amount = a }
            if let r = try animated(e, "radius") { v.radius = r }
            return .vignette(v)
        case .blur?:
            return .blur(try blur(e))
        case .sharpen?:
            return .sharpen(try sharpen(e))
        case .speed?, .reverse?, .freeze?, nil:
            return nil
        }
    }

    /// A speed (`EditSchema.speed`): a number, `"capture"` or keyframes (a ramp); nil when left out.
    static func speedValue(_ o: EditFields, _ name: String) throws -> Speed? {
        if o.string(name) != nil { return .capture }
        switch try animated(o, name) {
        case .constant(let s)?: return .constant(s)
        case .keyframes(let keys)?: return .ramp(keys)
        case nil: return nil
        }
    }
}
