import Foundation
import SegueCore

/// Picture effects (`colour`, `lut`, `chromaKey`, `vignette`, …) in OpenTimelineIO (docs/otio.md): each one an
/// `Effect.1` on its clip, in the item's order, its `effect_name` `Segue.TYPE` (`Segue.colour`) and its settings in
/// `metadata.segue` — the edit file's effect object as the edit file writes it (`{"type": "colour", "hue": 30}`,
/// keyframes as `{"keyframes": [...]}`, a LUT's `path` absolute).
enum OTIOEffects {
    /// The prefix of the `effect_name` of the effects Segue writes and reads.
    static let prefix = "Segue."

    /// `Segue.colour` for `colour`.
    static func effectName(_ kind: ItemEffect.Kind) -> String { prefix + kind.rawValue }

    /// The picture effects of `spec` as `Effect.1` objects. Throws `EditError` naming `field` for a value the edit
    /// file cannot hold.
    static func write(_ spec: ClipSpec, field: String) throws -> [[String: Any]] {
        let list = spec.pictureEffects
        guard !list.isEmpty else { return [] }
        let objects = try EditFileWriter(base: nil).effects(list, audio: false, field: field)
        return zip(list, objects).map { effect, json in
            ["OTIO_SCHEMA": "Effect.1", "name": "", "effect_name": effectName(effect.kind), "enabled": true,
             "metadata": ["segue": json.foundationObject]]
        }
    }

    /// The settings of `e` when it is a Segue picture effect: its `metadata.segue`, the `type` taken from the
    /// `effect_name` (`Segue.TYPE`) when the metadata leaves it out; nil for any other effect (a time warp, another
    /// tool's effect, a type this reader does not know).
    static func settings(_ e: OTIOObject) -> [String: Any]? {
        guard e.schema == "Effect", let name = e["effect_name"] as? String, name.hasPrefix(prefix),
              var segue = e.segueMetadata else { return nil }
        if segue["type"] == nil { segue["type"] = String(name.dropFirst(prefix.count)) }
        guard let kind = ItemEffect.Kind(rawValue: segue["type"] as? String ?? ""), !kind.isTimeEffect else { return nil }
        return segue
    }

    /// The picture effect `settings` (from `settings(_:)`) of effect `e`, checked as the edit file's effect entry, a
    /// LUT's relative path resolved against `base`. Throws `EditError` naming `e`'s `metadata.segue` field.
    static func read(_ settings: [String: Any], of e: OTIOObject, base: String) throws -> ItemEffect? {
        let fields = try EditFields.open(settings, .variants(EditSchema.effects(audio: false)), "\(e.path).metadata.segue")
        return try EditFile.pictureEffect(fields, base: base)
    }
}

extension ItemEffect.Kind {
    /// Whether it is a time effect (`speed`, `reverse`, `freeze`: OTIO's time warps), not a picture effect.
    var isTimeEffect: Bool { ClipSpec.timeEffectOrder.contains(self) }
}
