import Foundation
import SegueCore

/// The edit file's time fields of a clip (docs/time.md): `speed`, `reverse`, `freeze`, `frameBlend`, `pitch`.
extension EditFile {
    /// The range of a speed: 1/32…32 (AVFoundation's `scaleTimeRange` takes the same).
    static let speedRange = (1.0 / 32)...32.0

    /// Reads the time fields of item `o` into `spec`. Throws `EditError` naming the field: a speed outside 1/32…32
    /// (or keyframes out of order), `reverse` with `freeze`, a `freeze` without `duration`, `frameBlend` or `pitch` of
    /// the wrong type.
    static func time(_ o: [String: Any], _ f: String, _ spec: inout ClipSpec) throws {
        if let v = o["speed"], !(v is NSNull) {
            let field = "\(f).speed"
            if let s = v as? String {
                guard s == "capture" else { throw EditError(field, "must be a number (1/32…32), \"capture\" or {\"keyframes\": [...]} (got \"\(s)\")") }
                spec.speed = .capture
            } else if v is [String: Any] {
                guard case .keyframes(let keys) = try animated(v, field, range: speedRange, meaning: "a speed (1 = as recorded, 2 = twice as fast)") else {
                    throw EditError(field, "must be a number (1/32…32), \"capture\" or {\"keyframes\": [...]}")
                }
                spec.speed = .ramp(keys)
            } else {
                let s = try number(v, field)
                guard speedRange.contains(s) else {
                    throw EditError(field, "must be 1/32…32 (0.03125…32; 1 = as recorded, 2 = twice as fast, 0.5 = half as fast) (got \(s))")
                }
                spec.speed = .constant(s)
            }
        }
        if let v = o["reverse"] { spec.reverse = try bool(v, "\(f).reverse") }
        if let v = o["frameBlend"] { spec.frameBlend = try bool(v, "\(f).frameBlend") }
        if let v = o["pitch"] {
            let s = try string(v, "\(f).pitch")
            guard let p = Pitch(rawValue: s) else { throw EditError("\(f).pitch", "must be keep, follow or mute (got \"\(s)\")") }
            spec.pitch = p
        }
        if let v = o["freeze"], !(v is NSNull) {
            let s = try seconds(v, "\(f).freeze")
            guard s >= 0 else { throw EditError("\(f).freeze", "is a time in the clip: must be ≥ 0 seconds (got \(s))") }
            if spec.reverse { throw EditError("\(f).freeze", "a frozen frame cannot also play in reverse: give freeze or reverse") }
            if !spec.speed.isNormal { throw EditError("\(f).freeze", "a frozen frame has no speed: give freeze or speed") }
            if o["start"] != nil { throw EditError("\(f).freeze", "freeze names the frame held (seconds into the clip); start does not apply: leave it out") }
            guard o["duration"] != nil else { throw EditError("\(f).duration", "is required with freeze: how long the frame is held") }
            spec.freeze = MediaTime(seconds: s)
        }
    }
}
