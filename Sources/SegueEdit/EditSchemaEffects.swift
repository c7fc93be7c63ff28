import Foundation
import SegueCore

/// The edit file's effects (an item's `effects` list, docs/time.md and docs/effects.md): the time effects (speed,
/// reverse, freeze) and the picture effects (colour, lut, chromaKey), as the parser (`EditFile.effects`) reads them and
/// the JSON Schema says.
extension EditSchema {
    /// A speed: 1/32…32 (AVFoundation's `scaleTimeRange` range), `"capture"`, or keyframes of speeds.
    static let speed = SchemaType.anyOf([number(EditFile.speedRange), choice(SchemaChoice(["capture"])), .object(keyframes(EditFile.speedRange))])
    static let speedAbout = "how fast the source plays: 2 twice as fast, 0.5 half as fast (1/32…32), capture (a high-frame-rate clip's every frame once), or keyframes of speeds (a ramp)"
    static let frameBlendAbout = "in slow motion, mix the two source frames around each output frame's time (default false)"
    static let pitchAbout = "what a retimed clip's audio does: keep its pitch (default), follow the speed, or mute"

    static func effectType(_ kind: ItemEffect.Kind) -> SchemaField {
        SchemaField("type", choice(SchemaChoice([kind.rawValue])), "the effect")
    }
    static func speedEffect(audio: Bool) -> SchemaObject {
        SchemaObject(audio ? "audioSpeedEffect" : "speedEffect", "the source plays at another pace (OTIO's LinearTimeWarp)", [
            effectType(.speed),
            SchemaField("speed", speed, speedAbout),
        ] + (audio ? [] : [SchemaField("frameBlend", .boolean, frameBlendAbout)]) + [
            SchemaField("pitch", choice(SchemaChoice(Pitch.self)), pitchAbout),
        ], required: ["type", "speed"])
    }
    static let reverseEffect = SchemaObject("reverseEffect", "the source plays backwards, its audio too", [effectType(.reverse)], required: ["type"])
    static let freezeEffect = SchemaObject("freezeEffect", "one frame of the clip held for the item's duration, silent (OTIO's FreezeFrame)", [
        effectType(.freeze),
        SchemaField("at", seconds(min: 0), "the frame held: seconds from the clip's first frame"),
    ], required: ["type", "at"])

    /// The ranges of the colour effect's settings.
    static let colourRanges: [String: ClosedRange<Double>] = [
        "brightness": 0...16, "contrast": 0...16, "saturation": 0...16, "hue": -36000...36000, "exposure": -16...16,
        "temperature": -1...1, "tint": -1...1,
    ]
    static let colourEffect = SchemaObject("colourEffect", "the picture's colours adjusted, in this order (W3C Filter Effects for the first four; docs/effects.md)", [
        effectType(.colour),
        SchemaField("brightness", animated(colourRanges["brightness"]!), "multiplies R′G′B′, as CSS brightness() (default 1)"),
        SchemaField("contrast", animated(colourRanges["contrast"]!), "scales R′G′B′ about ½, as CSS contrast() (default 1)"),
        SchemaField("saturation", animated(colourRanges["saturation"]!), "as CSS saturate(): 0 grey, 1 unchanged (default), 2 twice as saturated"),
        SchemaField("hue", animated(colourRanges["hue"]!), "degrees, as CSS hue-rotate() (default 0)"),
        SchemaField("exposure", animated(colourRanges["exposure"]!), "stops, in linear light (default 0)"),
        SchemaField("temperature", animated(colourRanges["temperature"]!), "white balance −1 cooler … 1 warmer (default 0)"),
        SchemaField("tint", animated(colourRanges["tint"]!), "white balance −1 greener … 1 more magenta (default 0)"),
    ], required: ["type"])
    static let lutEffect = SchemaObject("lutEffect", "a .cube look-up table (1D or 3D, up to 65³) applied to the picture", [
        effectType(.lut),
        SchemaField("path", .string(.nonEmpty), "the .cube file, relative to the edit file"),
        SchemaField("strength", animated(0...1), "0 the picture unchanged … 1 the table's colours (default)"),
    ], required: ["type", "path"])
    static let chromaKeyEffect = SchemaObject("chromaKeyEffect", "the picture keyed out near a colour, distances in Cb/Cr as FFmpeg's chromakey measures them (0…1; docs/effects.md)", [
        effectType(.chromaKey),
        SchemaField("colour", colour, "the colour keyed out: \"#rrggbb\", \"#rgb\" or a name (default #00b140, a green screen)"),
        SchemaField("similarity", animated(0...1), "keyed out up to this distance from the colour, as FFmpeg's similarity (default 0.1)"),
        SchemaField("smoothness", animated(0...1), "alpha ramps to opaque over this distance beyond similarity, as FFmpeg's blend (default 0.05; 0 a hard key)"),
        SchemaField("spill", animated(0...1), "colours desaturated towards grey up to this distance beyond similarity, as OBS's spill reduction (default 0.1; 0 none)"),
    ], required: ["type"])

    static let vignetteEffect = SchemaObject("vignetteEffect", "the picture darker towards its edges (docs/effects.md)", [
        effectType(.vignette),
        SchemaField("amount", animated(0...1), "how dark the corners get: 0 none … 1 black (default 0.5)"),
        SchemaField("radius", animated(0...1), "where the darkening starts, from the centre (0) to the corners (1) (default 0.5)"),
    ], required: ["type"])

    static let blurEffect = SchemaObject("blurEffect", "a Gaussian blur of the picture as drawn, as CSS blur() (docs/effects.md)", [
        effectType(.blur),
        SchemaField("radius", animated(0...LayerFilter.maxRadius), "the Gaussian's standard deviation in output pixels (0…250)"),
    ], required: ["type", "radius"])
    static let sharpenEffect = SchemaObject("sharpenEffect", "an unsharp mask of the picture as drawn: c + amount · (c − blur(c)) (docs/effects.md)", [
        effectType(.sharpen),
        SchemaField("amount", animated(0...10), "how much of the detail is added again: 0 none, 1 (default) as much as there is"),
        SchemaField("radius", animated(0...LayerFilter.maxRadius), "the blur's standard deviation in output pixels (default 1)"),
    ], required: ["type"])

    /// The effects of an item without a source's time (a fill, a text, a shape): the picture effects.
    static let pictureEffects = SchemaVariants(byType: true, [
        .init(tag: "colour", object: colourEffect), .init(tag: "lut", object: lutEffect), .init(tag: "chromaKey", object: chromaKeyEffect),
        .init(tag: "vignette", object: vignetteEffect), .init(tag: "blur", object: blurEffect), .init(tag: "sharpen", object: sharpenEffect),
    ], summary: "a fill's, a text's or a shape's effects are colour, lut, chromaKey, vignette, blur and sharpen")
    static let pictureEffectsField = SchemaField("effects", .array(.variants(pictureEffects), minItems: 0),
                                                 "the picture's effects (colour, lut (one), chromaKey, vignette, blur, sharpen), applied in list order (docs/effects.md)")

    static func effects(audio: Bool) -> SchemaVariants {
        SchemaVariants(byType: true, ItemEffect.Kind.allCases.compactMap { kind in
            switch kind {
            case .speed: return SchemaVariants.Variant(tag: "speed", object: speedEffect(audio: audio))
            case .reverse: return SchemaVariants.Variant(tag: "reverse", object: reverseEffect)
            case .freeze: return audio ? nil : SchemaVariants.Variant(tag: "freeze", object: freezeEffect)
            case .colour: return audio ? nil : SchemaVariants.Variant(tag: "colour", object: colourEffect)
            case .lut: return audio ? nil : SchemaVariants.Variant(tag: "lut", object: lutEffect)
            case .chromaKey: return audio ? nil : SchemaVariants.Variant(tag: "chromaKey", object: chromaKeyEffect)
            case .vignette: return audio ? nil : SchemaVariants.Variant(tag: "vignette", object: vignetteEffect)
            case .blur: return audio ? nil : SchemaVariants.Variant(tag: "blur", object: blurEffect)
            case .sharpen: return audio ? nil : SchemaVariants.Variant(tag: "sharpen", object: sharpenEffect)
            }
        }, summary: audio ? "an audio item's effects are speed and reverse" : "an item's effects are speed, reverse, freeze, colour, lut, chromaKey, vignette, blur and sharpen")
    }
}
