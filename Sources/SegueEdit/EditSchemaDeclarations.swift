import Foundation
import SegueCore

/// The edit file's objects and their fields (docs/edit-file.md): what the parser (`EditFile`) checks and reads, and
/// what `json` publishes as a JSON Schema (draft 2020-12). Enums come from the model's own cases (`FitMode`,
/// `TransitionKind`, `Pitch`, …) and spellings (`YCbCrMatrix.spellings`, …), so they are written once.
///
/// What a JSON Schema cannot say is the parser's alone: rules joining fields (a freeze needs a duration and no speed,
/// `start` or `reverse`; an effect given twice; a cut takes no other field; crops that remove the whole picture;
/// keyframes in order of time), files (a shader, an image, a font), a fraction's or an easing's value, and what only
/// the media knows.
public enum EditSchema {
    /// Records which fields the parser reads (tests).
    static let coverage = SchemaCoverage()

    // MARK: value types

    static func number(_ range: ClosedRange<Double>) -> SchemaType { .number(NumberRule(minimum: range.lowerBound, maximum: range.upperBound)) }
    static func integer(_ range: ClosedRange<Double>) -> SchemaType {
        .number(NumberRule(minimum: range.lowerBound, maximum: range.upperBound, integer: true))
    }
    /// A time: seconds as a number (to the microsecond) or as an exact fraction (`"1001/30000"`, what the writer
    /// gives a time no decimal holds), at least `min` (`above`: more than) and at most `max`.
    static func seconds(min: Double? = nil, above: Bool = false, max: Double? = nil) -> SchemaType {
        let rule = NumberRule(minimum: min, exclusiveMinimum: above, maximum: max, seconds: true)
        return .anyOf([.number(rule), .string(.fraction(rule))])
    }
    /// A length: a time as `seconds` gives it, or `"edit"`: until the edit's end, as the other items make it
    /// (`ClipSpec.lastsUntilEditEnd`).
    static func length(min: Double? = nil, above: Bool = false) -> SchemaType {
        let rule = NumberRule(minimum: min, exclusiveMinimum: above, seconds: true)
        return .anyOf([.number(rule), .string(.fraction(rule, names: [untilEditEnd]))])
    }
    /// The value of `duration` (an item's) that makes it last until the edit's end.
    public static let untilEditEnd = "edit"
    /// Seconds as a number only (a duration the model keeps as a `Double`: ducking's attack and release).
    static func plainSeconds(min: Double, max: Double) -> SchemaType { .number(NumberRule(minimum: min, maximum: max, seconds: true)) }
    static func choice(_ c: SchemaChoice) -> SchemaType { .string(.choice(c)) }
    static let colour = SchemaType.string(.colour(alpha: false, also: []))
    static let textColour = SchemaType.string(.colour(alpha: true, also: []))
    static let easing = SchemaType.string(.easing)
    /// A gain: 0 silent … 1 as recorded … 16.
    static let gain = number(0...16)
    /// A frame rate: a number of frames per second or a fraction as a string.
    static let frameRate = SchemaType.anyOf([number(0.01...1000), .string(.frameRate)])

    /// `{"keyframes": [{"time", "value", "easing"}, …]}` with values within `range` (`Animated.keyframes`).
    static func keyframes(_ range: ClosedRange<Double>) -> SchemaObject {
        let keyframe = SchemaObject("keyframe", "a value at a time, and how it moves on to the next keyframe", [
            SchemaField("time", seconds(min: 0), "seconds from the item's first instant on its track (the first frame of the transition into it)"),
            SchemaField("value", number(range), "the value at that time"),
            SchemaField("easing", easing, "CSS easing of the interval to the next keyframe: linear (default), ease, ease-in, ease-out, ease-in-out, cubic-bezier(…), steps(…)"),
        ], required: ["time", "value"], inline: true)
        return SchemaObject("keyframes", "keyframes, in order of time; the value holds before the first and after the last", [
            SchemaField("keyframes", .array(.object(keyframe), minItems: 1), "at least one keyframe, times strictly increasing"),
        ], required: ["keyframes"], inline: true)
    }
    /// A number within `range`, or keyframes of such numbers (`Animated`).
    static func animated(_ range: ClosedRange<Double>) -> SchemaType { .anyOf([number(range), .object(keyframes(range))]) }

    // MARK: the edit

    public static let renderSize = SchemaObject("renderSize", "the output picture's size in pixels", [
        SchemaField("width", integer(1...16384), "pixels across"),
        SchemaField("height", integer(1...16384), "pixels down"),
    ], required: ["width", "height"])

    public static let output = SchemaObject("output", "how the output is encoded", [
        SchemaField("codec", choice(SchemaChoice(OutputFormat.all.map(\.codec.rawValue))),
                    "the output format (default: from the output's file name, else h264)"),
        SchemaField("crf", integer(0...51), "the encoder's constant rate factor (default 18)"),
        SchemaField("preset", .string(.any), "the encoder's preset: for libx264 and libx265 one of \(OutputSettings.presets.joined(separator: ", ")) (default medium)"),
        SchemaField("encoder", .string(.nonEmpty), "another libavcodec video encoder (libx265, h264_nvenc, …)"),
        SchemaField("toneMap", choice(SchemaChoice(ToneMapCurve.allCases.map(\.rawValue), aliases: ToneMapCurve.spellings.keys.sorted(), caseInsensitive: true)),
                    "the curve HDR clips are tone-mapped with (default bt2390)"),
        SchemaField("dynamicRange", choice(SchemaChoice(DynamicRange.self, caseInsensitive: true)), "what is written: SDR (default), HLG or PQ"),
        SchemaField("delivery", choice(SchemaChoice(DeliveryPreset.all.map(\.name))),
                    "a delivery preset: the size, rate, format, quality, audio and loudness a platform takes (docs/delivery.md); the edit's own settings override it"),
        SchemaField("loudness", number(LoudnessTarget.integratedRange),
                    "normalise the mixed edit to this integrated loudness, LUFS (EBU R128: measured over the whole edit, one gain, a true-peak limiter)"),
        SchemaField("truePeak", number(LoudnessTarget.truePeakRange), "the true peak the normalised audio may reach, dBTP (default -1; needs loudness or a preset's)"),
        SchemaField("smart", .boolean, "smart rendering: copy the untouched stretches of H.264 and HEVC sources as they are, encode only the rest (h264 output, MP4; default false)"),
    ])

    static let ramp = SchemaObject("ramp", "a linear gain ramp", [
        SchemaField("from", gain, "the gain it starts at"),
        SchemaField("to", gain, "the gain it ends at, held after it"),
        SchemaField("start", seconds(), "where it starts, seconds (music: on the edit's timeline; an item: from its first instant); negative counts back from the end"),
        SchemaField("duration", seconds(min: 0, above: true), "its length, seconds"),
    ], required: ["from", "to", "start", "duration"])
    static let ramps = SchemaField("ramps", .array(.object(ramp), minItems: 0), "linear gain ramps; before the first the gain is 1, after a ramp it holds its to")

    static let ducking = SchemaObject("ducking", "the music's gain while the clips' audio is present", [
        SchemaField("level", number(0...1), "the gain while ducked (default 0.25)"),
        SchemaField("attack", plainSeconds(min: 0, max: 60), "seconds to go down to level (default 0.2)"),
        SchemaField("release", plainSeconds(min: 0, max: 60), "seconds to come back up (default 0.6)"),
    ])

    public static let music = SchemaObject("music", "background music under the clips' audio", [
        SchemaField("path", .string(.nonEmpty), "the audio (or video) file, relative to the edit file"),
        SchemaField("start", seconds(min: 0), "seconds into the song where it starts (default 0)"),
        SchemaField("volume", gain, "a gain multiplying everything (default 1)"),
        SchemaField("loop", .boolean, "start again from start when the song ends (default false)"),
        ramps,
        SchemaField("duck", .anyOf([.boolean, .object(ducking)]), "lower the music while the clips' audio is present: true (default levels) or the levels", nullable: true),
    ], required: ["path"])

    public static let audio = SchemaObject("audio", "the output's audio format", [
        SchemaField("sampleRate", .number(NumberRule(integer: true, values: AudioSettings.aacSampleRates.map(Double.init))), "samples per second, a rate AAC supports (default 48000)"),
        SchemaField("channels", integer(1...8), "the channel count (default 2)"),
        SchemaField("bitrate", integer(16_000...1_536_000), "the AAC bit rate in bits per second"),
    ])

    public static let captionStyle = SchemaObject("captionStyle", "word-by-word captions: the caption file's timed words, the spoken word marked (docs/text.md)", [
        SchemaField("words", choice(SchemaChoice(WordCaptionStyle.Mode.self)),
                    "how the spoken word is marked: highlight (default), karaoke (every word up to it), pop (enlarged at its start), reveal (words appear as spoken)"),
        SchemaField("maxWords", integer(1...50), "words on one caption page (default 6)"),
        SchemaField("maxLines", integer(1...10), "lines of one caption page (default 2)"),
        SchemaField("activeColour", textColour, "the spoken word's colour (default #ffd400)"),
        SchemaField("activeBox", textColour, "a plate of this colour behind the spoken word (default none)", nullable: true),
        SchemaField("popScale", number(1...3), "pop: how much larger the spoken word is drawn for its first 0.2 s (default 1.25)"),
        SchemaField("safeArea", .boolean, "keep the captions inside the 9:16 platforms' safe area (default: when the render is portrait)"),
    ])

    public static let captions = SchemaObject("captions", "a caption file drawn over the whole edit", [
        SchemaField("path", .string(.nonEmpty), "the caption file (.srt, .vtt, .ass, .ssa, or a .json transcript of timed words), relative to the edit file"),
        SchemaField("style", .object(style), "how the captions look (SubRip, WebVTT and word-by-word captions; docs/text.md)", nullable: true),
        SchemaField("captionStyle", .object(captionStyle), "word-by-word captions (as the edit's captionStyle)", nullable: true),
    ], required: ["path"])

    /// The edit's own properties: the edit file's top level but its tracks, what an OTIO timeline's `metadata.segue`
    /// may carry.
    static let editProperties: [SchemaField] = [
        SchemaField("renderSize", .object(renderSize), "the output's size; default: the largest of the bottom track's clips (after rotation)"),
        SchemaField("square", .boolean, "a square output, each side the largest short side among the clips (default false)"),
        SchemaField("fit", choice(SchemaChoice(FitMode.userModes.map(\.rawValue))), "how pictures are fitted to the output: fill (crop; default), fit (bars) or stretch"),
        fitBackgroundField,
        SchemaField("frameRate", frameRate, "the output's frame rate, 0.01…1000 (default: the clips' highest, else 30)"),
        SchemaField("output", .object(output), "how the output is encoded"),
        SchemaField("music", .object(music), "background music", nullable: true),
        SchemaField("audio", .object(audio), "the output's audio format"),
        SchemaField("background", .string(.colour(alpha: false, also: ["transparent"])),
                    "the colour under every track (default black), or transparent: the output keeps the composite's alpha"),
        SchemaField("blending", choice(SchemaChoice(Blending.self)), "how transitions mix colours unless they say: gamma (default) or linear light"),
        SchemaField("allowIndirectInputs", .boolean, "open inputs that pull in other files: HLS and DASH playlists, ffconcat lists, concat: paths (default false)"),
    ]

    public static let track = SchemaObject("track", "a video track: items one after another (or at their own at)", [
        SchemaField("clips", .array(.variants(videoItem), minItems: 1), "the track's items"),
    ], required: ["clips"])

    public static let audioTrack = SchemaObject("audioTrack", "an audio track, mixed with every video track's audio", [
        SchemaField("clips", .array(.variants(audioItem), minItems: 1), "the track's audio items"),
        SchemaField("duck", .boolean, "whether the music ducks under this track (default true)"),
    ], required: ["clips"])

    /// The edit file.
    public static let edit = SchemaObject("edit", "a Segue edit: tracks of items joined by transitions, audio tracks, music and output settings", [
        SchemaField("clips", .array(.variants(videoItem), minItems: 1), "the items of an edit of one track (or tracks)"),
        SchemaField("tracks", .array(.object(track), minItems: 1), "video tracks, bottom first (or clips)"),
        SchemaField("audioTracks", .array(.object(audioTrack), minItems: 0), "audio tracks"),
    ] + editProperties + [
        SchemaField("captions", .anyOf([.string(.nonEmpty), .object(captions)]), "captions over the whole edit: a caption file, or {path, style}", nullable: true),
        SchemaField("captionStyle", .object(captionStyle), "word-by-word captions: the captions' timed words drawn a page at a time, the spoken word marked", nullable: true),
        SchemaField("fitTransitions", .boolean, "shorten a transition longer than its clips allow, with a warning, instead of refusing the edit (default false)"),
    ] + sourceFields + [
        SchemaField("resolved", .object(resolved), "what a render decided before its first frame (segue resolve): render from these facts instead of probing again"),
    ], exactlyOne: ["clips", "tracks"])

    public static let marker = SchemaObject("marker", "a point or range of the timeline marked in the edit's source (an OTIO marker): listed by segue plan, not drawn", [
        SchemaField("name", .string(.any), "its name"),
        SchemaField("start", seconds(), "where it is, seconds from the output's start"),
        SchemaField("duration", seconds(min: 0), "the length of the marked range (default 0: a point)"),
        SchemaField("colour", .string(.any), "its colour as its source names it (RED)", nullable: true),
        SchemaField("comment", .string(.any), "its comment (default none)"),
        SchemaField("on", .string(.any), "what it was attached to: timeline (default), or an item's name"),
    ], required: ["name", "start"])

    /// What an edit read from another format (OpenTimelineIO) carries beyond its tracks: an edit file that is such an
    /// edit written out (`segue resolve` of an .otio timeline) keeps them.
    static let sourceFields: [SchemaField] = [
        SchemaField("markers", .array(.object(marker), minItems: 0), "points and ranges the edit's source marked (OTIO markers), in order of time"),
        SchemaField("globalStartTime", seconds(), "the timecode of the first frame (OTIO's global_start_time), shown by segue plan; it offsets nothing", nullable: true),
        SchemaField("timecodeRate", frameRate, "the rate globalStartTime counts frames in (default: the output's)", nullable: true),
        SchemaField("fallbackFrameRate", frameRate, "the frame rate when neither the edit nor any clip gives one (an OTIO timeline's own rate; default 30)", nullable: true),
        SchemaField("warnings", .array(.string(.any), minItems: 0), "what the reader of the edit's source noticed (an OTIO timeline's unknown schemas, effects not rendered): repeated as warnings"),
    ]

    /// An OTIO timeline's `metadata.segue`: the edit's own properties (docs/otio.md).
    static let otioTimeline = SchemaObject("otioTimelineMetadata", "an OTIO timeline's metadata.segue", editProperties)

    // MARK: transitions

    public static let transition = SchemaObject("transition", "the transition into this item from the one before it on its track", [
        SchemaField("type", choice(SchemaChoice(TransitionKind.allCases.map(\.rawValue) + ["cut"], aliases: TransitionKind.allCases.flatMap(\.aliases))),
                    "a transition of `segue transitions` (default crossfade; dissolve is a crossfade, FFmpeg's random-pixel dissolve is pixeldissolve or xfade:dissolve), glsl (a gl-transitions shader), or cut (none)"),
        SchemaField("duration", seconds(min: 0, above: true), "its length, seconds (default 1)"),
        SchemaField("direction", choice(SchemaChoice(Transition.Direction.self)), "for a transition that moves: which way (the type's directions)"),
        SchemaField("audioCurve", choice(SchemaChoice(AudioCurve.self)), "the audio crossfade's curve (default linear)"),
        SchemaField("params", .parameters, "the type's parameters (`segue transitions`), or a glsl shader's uniforms"),
        SchemaField("easing", easing, "CSS easing of the picture's progress (default linear)"),
        SchemaField("audioEasing", easing, "CSS easing of the audio crossfade's progress (default linear in time)"),
        SchemaField("shader", .string(.nonEmpty), "a glsl transition's gl-transitions shader file, relative to the edit file"),
        SchemaField("blend", choice(SchemaChoice(Blending.self)), "how it mixes colours: gamma or linear light (default: the edit's blending)"),
        inOffset,
    ], conditions: transitionConditions)

    /// Where the cut lies inside a transition read from OpenTimelineIO (`ClipSpec.transitionCut`).
    static let inOffset = SchemaField("inOffset", seconds(min: 0), "where the cut lies inside the transition, seconds from its start (OTIO's in_offset): the item before runs on past the cut and this one starts before it, on media outside their ranges (default: none, an overlap of the two items)")

    /// What each type of transition takes: a cut nothing more; a built-in its own parameters and directions, no shader;
    /// glsl any uniforms (its shader's) and no direction (`TransitionKind.traits`).
    static var transitionConditions: [SchemaCondition] {
        let others = ["duration", "direction", "audioCurve", "params", "easing", "audioEasing", "shader", "blend", "inOffset"]
        var rules = [SchemaCondition(field: "type", values: ["cut"], then: others.map { ($0, nil) })]
        for kind in TransitionKind.allCases {
            let traits = kind.traits
            let params = SchemaObject("params", "the parameters of \(kind.rawValue)", traits.parameters.map {
                SchemaField($0.name, number($0.range), "\($0.summary) (default \(SchemaText.number($0.defaultValue)))")
            }, inline: true)
            let directions: SchemaType? = traits.directions.isEmpty ? nil : choice(SchemaChoice(traits.directions.map(\.rawValue)))
            rules.append(SchemaCondition(field: "type", values: [kind.rawValue] + kind.aliases, whenAbsent: kind == .crossfade, then: kind == .glsl
                ? [("direction", directions)]
                : [("params", .object(params)), ("direction", directions), ("shader", nil)]))
        }
        return rules
    }

    public static let audioTransition = SchemaObject("audioTransition", "the transition into an audio item: a crossfade of the audio", [
        SchemaField("type", choice(SchemaChoice(["crossfade", "cut"])), "crossfade (default) or cut (none)"),
        SchemaField("duration", seconds(min: 0, above: true), "its length, seconds (default 1)"),
        SchemaField("audioCurve", choice(SchemaChoice(AudioCurve.self)), "the crossfade's curve (default linear)"),
        SchemaField("audioEasing", easing, "CSS easing of the crossfade's progress (default linear in time)"),
        inOffset,
    ], conditions: [SchemaCondition(field: "type", values: ["cut"], then: [("duration", nil), ("audioCurve", nil), ("audioEasing", nil), ("inOffset", nil)])])

    // MARK: pictures: layer, motion, colour

    public static let crop = SchemaObject("crop", "fractions of the upright picture removed before fitting", [
        SchemaField("left", animated(0...0.999), "the fraction removed from the left (0 … less than 1), or keyframes"),
        SchemaField("top", animated(0...0.999), "the fraction removed from the top, or keyframes"),
        SchemaField("right", animated(0...0.999), "the fraction removed from the right, or keyframes"),
        SchemaField("bottom", animated(0...0.999), "the fraction removed from the bottom, or keyframes"),
    ])

    public static let layer = SchemaObject("layer", "where and how the item is drawn over the tracks below it; each a number or keyframes (blend: a name)", [
        SchemaField("x", animated(-100...100), "the layer's centre across the render frame (0…1, default 0.5; beyond shows part of the layer)"),
        SchemaField("y", animated(-100...100), "the layer's centre down the render frame (0…1, default 0.5; beyond shows part of the layer)"),
        SchemaField("scale", animated(0...100), "a scale of the fitted picture (1 = fitted to the render size; default)"),
        SchemaField("rotation", animated(-36000...36000), "degrees clockwise about the layer's centre (default 0)"),
        SchemaField("opacity", animated(0...1), "an opacity, 0 transparent … 1 opaque (default)"),
        SchemaField("crop", .object(crop), "fractions of the picture removed from each side"),
        SchemaField("blend", choice(SchemaChoice(BlendMode.self)),
                    "how its colour mixes with the colour below (W3C Compositing and Blending names, plus add; default normal)"),
    ])

    static let motionWindow = SchemaObject("motionWindow", "the part of the fitted picture the output shows", [
        SchemaField("x", number(0...1), "the window's centre across the picture (0…1; default 0.5)"),
        SchemaField("y", number(0...1), "the window's centre down the picture (0…1; default 0.5)"),
        SchemaField("zoom", number(0.1...100), "magnification (1: the fit's framing; default)"),
    ])

    public static let motion = SchemaObject("motion", "pan and zoom over the clip's time on screen: a preset, or from/to windows", [
        SchemaField("preset", choice(SchemaChoice(Motion.Preset.self)), "a motion by name"),
        SchemaField("from", .object(motionWindow), "the window at the clip's first instant (default: the fit's framing)"),
        SchemaField("to", .object(motionWindow), "the window at its last instant (default: the fit's framing)"),
        SchemaField("easing", easing, "CSS easing of the motion's progress (default linear)"),
    ])

    /// `colour.range`'s spellings (FFmpeg's too).
    static let rangeSpellings: [String: ColourRange] = ["limited": .limited, "tv": .limited, "mpeg": .limited, "full": .full, "pc": .full, "jpeg": .full]

    public static let colourOverride = SchemaObject("colour", "a colour description that replaces the file's tags (each field left out keeps the tag)", [
        SchemaField("matrix", choice(SchemaChoice(["bt601", "bt709", "bt2020"], aliases: YCbCrMatrix.spellings.keys.sorted(), caseInsensitive: true)), "the Y′CbCr matrix"),
        SchemaField("range", choice(SchemaChoice(["limited", "full"], aliases: rangeSpellings.keys.sorted(), caseInsensitive: true)), "the code range"),
        SchemaField("transfer", choice(SchemaChoice(TransferFunction.self, aliases: TransferFunction.spellings.keys.sorted(), caseInsensitive: true)), "the transfer function"),
        SchemaField("primaries", choice(SchemaChoice(ColourPrimaries.self, aliases: ColourPrimaries.spellings.keys.sorted(), caseInsensitive: true)), "the colour primaries"),
    ])

    // MARK: text

    /// `style.weight`'s names and the weights they stand for.
    static let weightNames: [String: Int] = ["thin": 100, "light": 300, "normal": 400, "regular": 400, "medium": 500, "semibold": 600,
                                             "bold": 700, "black": 900, "heavy": 900]

    static let outline = SchemaObject("outline", "a stroke around every glyph", [
        SchemaField("width", number(0...512), "pixels of the render frame (default 6 % of the font size)"),
        SchemaField("color", textColour, "its colour (default black)"),
    ])
    static let shadow = SchemaObject("shadow", "a shadow under the text", [
        SchemaField("x", number(-512...512), "offset to the right in pixels (default 0.05 × the font size)"),
        SchemaField("y", number(-512...512), "offset down in pixels (default 0.05 × the font size)"),
        SchemaField("blur", number(0...256), "the Gaussian blur's standard deviation in pixels (default 0)"),
        SchemaField("color", textColour, "its colour (default black at 60 %)"),
    ])
    static let box = SchemaObject("box", "a plate behind the text", [
        SchemaField("color", textColour, "its colour (default black at 60 %)"),
        SchemaField("padding", number(0...1024), "pixels around the text block (default 0.25 × the font size)"),
        SchemaField("radius", number(0...1024), "corner radius in pixels (default 0)"),
    ])

    public static let style = SchemaObject("style", "how a text looks (docs/text.md); sizes in pixels of the render frame", [
        SchemaField("font", .string(.words(maxScalars: nil)), "a font family (\"Noto Sans\", the default) or a font file (relative to the edit file)"),
        SchemaField("size", number(1...4096), "the font size in pixels of the render frame (default 1/12 of the render height; captions 1/18)"),
        SchemaField("color", textColour, "the text's colour (default white)"),
        SchemaField("weight", .anyOf([integer(1...1000), choice(SchemaChoice(["thin", "light", "normal", "medium", "semibold", "bold", "black"],
                                                                             aliases: weightNames.keys.sorted(), caseInsensitive: true))]),
                    "100 (thin) … 400 (normal; default) … 700 (bold) … 900 (black), or its name"),
        SchemaField("italic", .boolean, "italic (default false)"),
        SchemaField("align", choice(SchemaChoice(TextAlign.self, aliases: ["centre"], caseInsensitive: true)), "how lines line up (default center)"),
        SchemaField("maxWidth", .number(NumberRule(minimum: 0, exclusiveMinimum: true, maximum: 1)), "the longest line as a fraction of the render width; null: no wrapping", nullable: true),
        SchemaField("lineHeight", number(0.5...5), "distance between baselines as a multiple of the font size; null: the font's", nullable: true),
        SchemaField("outline", .anyOf([.boolean, .object(outline)]), "a stroke around the glyphs: true, its settings, or false/null for none", nullable: true),
        SchemaField("shadow", .anyOf([.boolean, .object(shadow)]), "a shadow: true, its settings, or false/null for none", nullable: true),
        SchemaField("box", .anyOf([.boolean, .object(box)]), "a plate behind the text: true, its settings, or false/null for none", nullable: true),
    ])

    // MARK: items

    static let at = SchemaField("at", seconds(min: 0), "where the item starts on its track, seconds (default: where the item before it ends, less the transition into it)", nullable: true)
    static let videoTransition = SchemaField("transition", .object(transition), "the transition into this item from the one before it (none: a cut)", nullable: true)
    static let audioTransitionField = SchemaField("transition", .object(audioTransition), "the crossfade into this item from the one before it (none: a cut)", nullable: true)
    static let start = SchemaField("start", seconds(min: 0), "seconds into the source where the item starts (default 0)")
    static let mediaDuration = SchemaField("duration", length(min: 0, above: true), "seconds of the source used (default: to its end; a still or a fill: 4), or \"edit\": until the edit's end, as the other items make it (a video for as much as its file has)")
    static let shownDuration = SchemaField("duration", length(min: 0, above: true), "how long it shows, seconds (default 4), or \"edit\": until the edit's end, as the other items make it")
    static let volume = SchemaField("volume", gain, "a gain on the item's audio (default 1)")
    static let audioTrackIndex = SchemaField("audioTrack", .number(NumberRule(minimum: 0, integer: true)),
                                             "which of the file's audio streams plays, counted from 0 (default: the one flagged default, else the first)", nullable: true)
    static let layerField = SchemaField("layer", .object(layer), "where and how it is drawn over the tracks below (default: fitted to the render size)", nullable: true)
    static let matteField = SchemaField("matte", choice(SchemaChoice(MatteMode.self)),
                                        "the item is a track matte: not drawn, it masks the track directly below it while it lasts by its alpha or its luma (inverted: the rest); docs/effects.md", nullable: true)
    static let fitBackgroundField = SchemaField("fitBackground", .string(.colour(alpha: false, also: ["blur"])),
                                                "what shows in the bars fit \"fit\" leaves: blur (the picture covering the frame, blurred by a twentieth of its height) or a colour; an item's own comes before the edit's (docs/effects.md)")
    static let speedField = SchemaField("speed", speed, speedAbout + "; an entry of effects", nullable: true)
    static let reverseField = SchemaField("reverse", .boolean, "play the source backwards, its audio too; an entry of effects")
    static let pitchField = SchemaField("pitch", choice(SchemaChoice(Pitch.self)), pitchAbout + "; a parameter of the speed effect")
    static let untilEnd = SchemaField("untilEnd", .boolean, "the item lasts until the edit's end (as the other tracks make it; --overlay): a still, a fill or a gap for all of it, a video for as much as its file has; duration is then ignored (default false); \"duration\": \"edit\" says the same")
    static let interchange = SchemaField("interchange", .boolean, "the item was read from an interchange timeline (OpenTimelineIO): where its file is a still picture, its start and speed are dropped instead of refused (default false)")

    public static let clip = SchemaObject("clip", "a media file's time range: a video, a still picture or an image sequence", [
        SchemaField("path", .string(.nonEmpty), "the file, relative to the edit file (or a URL); a numbered pattern (frames/img_%04d.png) is an image sequence"),
        start, mediaDuration, at, videoTransition, volume, ramps,
        SchemaField("colour", .object(colourOverride), "a colour description replacing the file's tags", nullable: true),
        audioTrackIndex,
        SchemaField("motion", .anyOf([choice(SchemaChoice(Motion.Preset.self)), .object(motion)]), "pan and zoom: a preset or from/to windows", nullable: true),
        layerField, matteField, fitBackgroundField,
        speedField, reverseField,
        SchemaField("freeze", seconds(min: 0), "hold the source frame at this time (seconds from the clip's first frame) for duration; an entry of effects", nullable: true),
        SchemaField("frameBlend", .boolean, frameBlendAbout + "; a parameter of the speed effect"),
        pitchField,
        SchemaField("rate", frameRate, "an image sequence's pictures per second (default 24)"),
        SchemaField("missingFrames", choice(SchemaChoice(ImageSequence.MissingFrames.self)), "what a picture missing from an image sequence becomes: error (default), hold or black"),
        SchemaField("effects", .array(.variants(effects(audio: false)), minItems: 0), "the item's effects: speed, reverse and freeze once each; colour, lut (one), chromaKey, vignette, blur and sharpen applied to the picture in list order"),
        SchemaField("loop", .boolean, "play the source again from start each time it ends, for the item's duration (seconds of source played, past the file's end): a Lottie animation, a clip without audio (default false)"),
        untilEnd, interchange,
    ], required: ["path"])

    public static let gap = SchemaObject("gap", "nothing for a while: the tracks below (or the background) show", [
        SchemaField("gap", seconds(min: 0, above: true), "its length, seconds"), at, videoTransition, untilEnd,
    ], required: ["gap"])

    public static let fill = SchemaObject("fill", "a solid colour", [
        SchemaField("fill", colour, "the colour: \"#rrggbb\", \"#rgb\" or a name"), shownDuration, at, videoTransition, layerField, pictureEffectsField, matteField, untilEnd,
    ], required: ["fill"])

    static let animate = SchemaObject("animate", "how the text's characters, words or lines come in and go out (docs/motion-graphics.md)", [
        SchemaField("in", choice(SchemaChoice(TextAnimation.Preset.self)), "how each unit comes in at the item's start"),
        SchemaField("out", choice(SchemaChoice(TextAnimation.Preset.self)), "how each unit goes out at the item's end"),
        SchemaField("by", choice(SchemaChoice(TextAnimation.Unit.self)), "what moves as one: character, word (default) or line"),
        SchemaField("duration", seconds(min: 0, above: true, max: 60), "how long one unit's entrance or exit takes, seconds (default 0.5; typewriter: the time to type them all)"),
        SchemaField("stagger", seconds(min: 0, max: 60), "seconds between one unit's start and the next's (default 0.03 a character, 0.1 a word, 0.25 a line; typewriter: duration / units)"),
    ])

    public static let text = SchemaObject("text", "words: a title, a lower third (docs/text.md)", [
        SchemaField("text", .string(.words(maxScalars: 10_000)), "the words (line breaks as \\n; at most 10000 characters)"),
        SchemaField("style", .object(style), "how they look", nullable: true),
        SchemaField("animate", .object(animate), "its characters, words or lines animated in and out", nullable: true),
        shownDuration, at, videoTransition, layerField, pictureEffectsField, matteField, untilEnd,
    ], required: ["text"])

    public static let audioClip = SchemaObject("audioClip", "an audio file's time range (or a video's audio)", [
        SchemaField("path", .string(.nonEmpty), "the file, relative to the edit file"),
        start, mediaDuration, at, audioTransitionField, volume, ramps, audioTrackIndex, speedField, reverseField, pitchField,
        SchemaField("effects", .array(.variants(effects(audio: true)), minItems: 0), "the item's effects, each type once: speed, reverse"),
        interchange,
    ], required: ["path"])

    public static let audioGap = SchemaObject("audioGap", "silence for a while", [
        SchemaField("gap", seconds(min: 0, above: true), "its length, seconds"), at, audioTransitionField,
    ], required: ["gap"])

    /// An item of a video track.
    public static let videoItem = SchemaVariants(byType: false, [
        .init(tag: "path", object: clip), .init(tag: "gap", object: gap), .init(tag: "fill", object: fill), .init(tag: "text", object: text),
        .init(tag: "shape", object: shape),
    ], summary: "an item is a clip (path), a gap, a fill, a text or a shape",
       missing: "is required (or \"gap\": SECONDS, \"fill\": COLOUR, \"text\": WORDS, or \"shape\": rect, ellipse, line or polygon)")

    /// An item of an audio track.
    public static let audioItem = SchemaVariants(byType: false, [.init(tag: "path", object: audioClip), .init(tag: "gap", object: audioGap)],
                                                 summary: "an audio track's item is an audio clip (path) or a gap", missing: "is required (or \"gap\": SECONDS)")

    /// An OTIO clip's `metadata.segue`: the item fields OTIO has no place for (docs/otio.md).
    static func otioClip(video: Bool) -> SchemaObject {
        video ? clip.subset("otioClipMetadata", "an OTIO clip's metadata.segue", keeping: ["volume", "ramps", "colour", "audioTrack", "motion", "layer", "frameBlend", "pitch"])
            : audioClip.subset("otioAudioClipMetadata", "an OTIO audio clip's metadata.segue", keeping: ["volume", "ramps", "audioTrack", "pitch"])
    }
}
