import Foundation
import SegueCore

/// Reads the JSON edit file format (see docs/edit-file.md).
///
/// Every field but `clips[].path` is optional; unknown fields and wrong types are errors naming the field.
/// Relative clip paths are resolved against `baseDirectory` (the edit file's folder); a path that starts with a URL
/// scheme libavformat knows (`http:`, `concat:`, `file:`; `InputPolicy.urlScheme`) is kept as it is, for the input
/// policy to judge.
///
/// The files the parser reads itself (gl-transitions shaders) are checked against `policy` first (a regular file,
/// inside its root: `InputPolicy.checkFile`), and so are image parameters (`InputPolicy.checkInput`); the rest of
/// the edit's paths are checked when it is resolved.
public enum EditFile {
    /// Parses an edit from a file. Throws `EditError` (unreadable file, JSON syntax with line and column,
    /// unknown field, wrong type, out-of-range value, a shader or image the policy refuses).
    ///
    /// An OpenTimelineIO timeline (`.otio`) is read by `OTIOFile` (missing media refused); an `.otioz` bundle needs
    /// its media extracted for as long as it renders: open it with `EditDocument` (the Segue library).
    ///
    /// `values` fill the file's placeholders (`{{name}}`, `{{name|default}}`: `Template`, docs/templates.md).
    public static func load(path: String, policy: InputPolicy = .default, values: TemplateValues = TemplateValues()) throws -> Edit {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "otio": return try OTIOFile.load(path: path, options: OTIOReadOptions(policy: policy, values: values)).edit
        case "otioz": throw EditError(path, "an .otioz bundle's media must be extracted while it renders: open it with EditDocument.open (the Segue library)")
        default: break
        }
        var st = stat()
        if stat(path, &st) == 0, let kind = InputPolicy.nonRegularKind(st.st_mode) {
            throw EditError(path, "the edit file is \(kind), not a file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EditError(path, "cannot read the edit file (missing or not readable)")
        }
        if let bundle = try resolvedBundle(in: data) {
            throw EditError(path, "is a resolved edit of the bundle \(bundle), whose media are read from it: open it with EditDocument.open (the Segue library), which extracts it")
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(data: data, baseDirectory: base, policy: policy, values: values)
    }

    /// Parses an edit from JSON bytes, its placeholders filled from `values` first (`Template.substitute`; a resolved
    /// edit, which has `resolved`, is read as it is). Throws `EditError` (a placeholder without a value among them).
    public static func parse(data: Data, baseDirectory: String, policy: InputPolicy = .default, values: TemplateValues = TemplateValues()) throws -> Edit {
        var root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw EditError("", "the edit file is not valid JSON" + syntaxLocation(data: data, error: error))
        }
        try StrictJSON.check(data)
        try checkResolvedVersion(root)
        if Template.mayHold(data), (root as? [String: Any])?["resolved"] == nil {
            root = try Template.substitute(root, values: values, type: .object(EditSchema.edit), path: "")
        }
        let e = try EditFields.open(root, .object(EditSchema.edit), "")
        var edit: Edit
        if let items = e.objects("clips") {
            edit = Edit(clips: try self.items(items, base: baseDirectory, audio: false, policy: policy))
        } else {
            edit = Edit(tracks: try (e.objects("tracks") ?? []).map { t in
                VideoTrack(clips: try items(t.objects("clips") ?? [], base: baseDirectory, audio: false, policy: policy))
            })
        }
        for t in e.objects("audioTracks") ?? [] {
            var track = AudioTrack(clips: try items(t.objects("clips") ?? [], base: baseDirectory, audio: true, policy: policy))
            if let d = t.bool("duck") { track.duck = d }
            edit.audioTracks.append(track)
        }
        try properties(e, into: &edit, base: baseDirectory)
        sourceFields(e, into: &edit)
        if let r = e.object("resolved") { edit.resolution = try resolution(r, edit: edit, base: baseDirectory) }
        return edit
    }

    /// The edit's own properties (all but its tracks): `allowIndirectInputs`, `renderSize`, `square`, `background`,
    /// `blending`, `fit`, `frameRate`, `output`, `music`, `audio`, `captions`, `fitTransitions` (those `e`'s declaration
    /// has: an OTIO timeline's `metadata.segue`, `EditSchema.otioTimeline`, has no captions), read from `e` into `edit`.
    /// Throws `EditError` (an x264 preset that is not one).
    static func properties(_ e: EditFields, into edit: inout Edit, base: String) throws {
        // A delivery preset first: the edit's own settings below override it.
        if let name = e.object("output")?.string("delivery"), let preset = DeliveryPreset.named(name) { edit.apply(preset) }
        if let v = e.bool("allowIndirectInputs") { edit.allowIndirectInputs = v }
        if let rs = e.object("renderSize"), let w = rs.int("width"), let h = rs.int("height") {
            edit.renderSize = PixelSize(width: w, height: h)
        }
        if let s = e.bool("square") { edit.square = s }
        if let s = e.string("background") {
            if s.lowercased() == "transparent" { edit.transparentBackground = true } else if let c = RGBColour.parse(s) { edit.background = c }
        }
        if let b = e.choice("blending", Blending.self) { edit.blending = b }
        if let f = e.bool("fitTransitions") { edit.fitTransitions = f }
        if let f = e.choice("fit", FitMode.self) { edit.fit = f }
        edit.fitBackground = try fitBackground(e)
        if let r = e.frameRate("frameRate") { edit.frameRate = r }
        if let out = e.object("output") {
            if let codec = out.choice("codec", OutputSettings.Codec.self) {
                edit.output.codec = codec
                edit.output.codecFromFileName = false
            }
            if let v = out.int("crf") { edit.output.crf = v }
            if let v = out.bool("smart") { edit.output.smart = v }
            if let name = out.string("encoder") { edit.output.encoder = name }
            if let name = out.string("toneMap") { edit.output.toneMap = ToneMapCurve.parse(name) ?? edit.output.toneMap }
            if let range = out.choice("dynamicRange", DynamicRange.self) { edit.output.dynamicRange = range }
            if let name = out.string("preset") {
                // x264/x265 preset names are checked here; other encoders' presets (NVENC's p1…p7) when they open.
                guard OutputSettings.presets.contains(name) || !["libx264", "libx265"].contains(edit.output.encoder ?? "libx264") else {
                    throw EditError(out.path("preset"), "must be one of \(OutputSettings.presets.joined(separator: ", ")) (got \"\(name)\")")
                }
                edit.output.preset = name
            }
            if let v = out.number("loudness") {
                edit.output.loudness = LoudnessTarget(integrated: v, truePeak: out.number("truePeak") ?? edit.output.loudness?.truePeak ?? LoudnessTarget.defaultTruePeak)
            } else if let tp = out.number("truePeak") {
                guard edit.output.loudness != nil else {
                    throw EditError(out.path("truePeak"), "limits the true peak of a loudness normalisation: give loudness too (e.g. \"loudness\": -14), or a delivery preset that sets one")
                }
                edit.output.loudness?.truePeak = tp
            }
        }
        if let m = e.object("music") { edit.music = music(m, base: base) }
        if e["captions"] != nil { edit.captions = try captions(e, base: base) }
        if edit.captions == nil, e.object("captionStyle") != nil {
            throw EditError("captionStyle", "styles word-by-word captions: give captions too (a caption file with word timings)")
        }
        if let a = e.object("audio") {
            if let v = a.int("sampleRate") { edit.audio.sampleRate = v }
            if let v = a.int("channels") { edit.audio.channels = v }
            if let v = a.int("bitrate") { edit.audio.bitRate = v }
        }
    }

    /// `music`: `{"path", "start", "volume", "loop", "ramps", "duck"}`, `duck` true or `{"level", "attack", "release"}`.
    static func music(_ m: EditFields, base: String) -> MusicSpec {
        var spec = MusicSpec(path: resolved(m.string("path") ?? "", base: base))
        if let s = m.seconds("start") { spec.start = s }
        if let v = m.number("volume") { spec.volume = v }
        if let v = m.bool("loop") { spec.loop = v }
        if let list = m.objects("ramps") { spec.ramps = list.map(ramp) }
        if let on = m.bool("duck") {
            if on { spec.duck = Ducking() }
        } else if let d = m.object("duck") {
            var duck = Ducking()
            if let l = d.number("level") { duck.level = l }
            if let a = d.number("attack") { duck.attack = a }
            if let r = d.number("release") { duck.release = r }
            spec.duck = duck
        }
        return spec
    }

    /// A volume ramp (`music.ramps`, an item's `ramps`): `{"from", "to", "start", "duration"}`.
    static func ramp(_ r: EditFields) -> VolumeRamp {
        VolumeRamp(from: r.number("from") ?? 1, to: r.number("to") ?? 1, start: r.seconds("start") ?? .zero, duration: r.seconds("duration") ?? .zero)
    }

    /// A track's items (`clips`, `tracks[k].clips`, `audioTracks[k].clips`), already checked.
    static func items(_ list: [EditFields], base: String, audio: Bool, policy: InputPolicy) throws -> [ClipSpec] {
        try list.enumerated().map { i, item in try clip(item, first: i == 0, base: base, audio: audio, policy: policy) }
    }

    /// One item from JSON (an OTIO clip's `metadata.segue` with its path): checked against the items of a video or an
    /// audio track (`EditSchema.videoItem`, `audioItem`), then read. Throws `EditError` naming the field under `f`.
    static func clip(_ raw: Any, field f: String, first: Bool, base: String, audio: Bool, policy: InputPolicy = .default) throws -> ClipSpec {
        try clip(try EditFields.open(raw, .variants(audio ? EditSchema.audioItem : EditSchema.videoItem), f), first: first, base: base, audio: audio, policy: policy)
    }

    /// One item: a clip (`path`), a gap (`{"gap": SECONDS}`), a solid colour (`{"fill": COLOUR, "duration": SECONDS}`)
    /// a text (`{"text": WORDS, "style": {…}}`, docs/text.md) or a shape (`{"shape": "rect", …}`, `shapeItem`), with its timing, transition, audio, layer and effects.
    /// On an audio track (`audio`): audio clips and gaps, no picture fields.
    static func clip(_ r: EditFields, first: Bool, base: String, audio: Bool, policy: InputPolicy = .default) throws -> ClipSpec {
        var spec: ClipSpec
        switch r.tag {
        case "gap":
            spec = ClipSpec.gap(r.seconds("gap") ?? .zero)
            try timing(r, &spec, first: first, base: base, audio: audio, policy: policy)
            return spec
        case "fill":
            spec = ClipSpec.fill(r.string("fill").flatMap(RGBColour.parse) ?? .black)
        case "text":
            spec = ClipSpec(content: .text(try textItem(r, base: base)))
        case "shape":
            spec = ClipSpec(content: .shape(try shapeItem(r)))
        default:
            spec = ClipSpec(path: resolved(r.string("path") ?? "", base: base))
            spec.imageSequence = try imageSequence(r, path: spec.path)
        }
        if let s = r.seconds("start") { spec.start = s }
        if let d = r.seconds("duration") { spec.duration = d }
        if let v = r.number("volume") { spec.volume = v }
        if let list = r.objects("ramps") { spec.ramps = list.map(ramp) }
        if let n = r.int("audioTrack") { spec.audioTrack = n }
        if let c = r.object("colour") { spec.colour = colour(c) }
        if r["motion"] != nil { spec.motion = try motion(r, "motion") }
        if let l = r.object("layer") { spec.layer = try layer(l) }
        if let m = r.choice("matte", MatteMode.self) { spec.matte = m }
        spec.fitBackground = try fitBackground(r)
        if r.bool("loop") == true { spec.loop = true }
        try effects(r, &spec, base: base)
        if spec.matte != nil, !spec.pictureEffects.isEmpty {
            throw EditError(r.path("effects"), "a matte is not drawn: its picture effects would not show (grade the matte's source, or the track it masks)")
        }
        try timing(r, &spec, first: first, base: base, audio: audio, policy: policy)
        return spec
    }

    /// An item's `at`, `transition` (with its `inOffset`), `untilEnd` (or `"duration": "edit"`) and `interchange` (any
    /// kind of item that declares them).
    static func timing(_ r: EditFields, _ spec: inout ClipSpec, first: Bool, base: String, audio: Bool, policy: InputPolicy = .default) throws {
        if let at = r.seconds("at") { spec.at = at }
        if let t = r.object("transition"), !(try isCut(t)) {
            if first { throw EditError(r.path("transition"), "the first clip of a track cannot have a transition into it") }
            spec.transition = audio ? try audioTransition(t) : try transition(t, base: base, policy: policy)
            spec.transitionCut = t.seconds("inOffset")
        }
        if r.bool("untilEnd") == true || r.string("duration") == EditSchema.untilEditEnd { spec.lastsUntilEditEnd = true }
        if r.bool("interchange") == true { spec.interchange = true }
    }

    /// `"zoom-in"` (a preset), `{"preset": "pan-left", "easing": "ease-in-out"}`, or
    /// `{"from": {"x": 0.5, "y": 0.5, "zoom": 1}, "to": {"x": 0.6, "y": 0.4, "zoom": 1.3}, "easing": "ease-in-out"}`:
    /// field `name` of `r`.
    static func motion(_ r: EditFields, _ name: String) throws -> MotionSpec? {
        if let preset = r.choice(name, Motion.Preset.self) { return .preset(preset, .linear) }
        guard let o = r.object(name) else { return nil }
        let easing = try o.string("easing").map { try Easing.parse($0, field: o.path("easing")) } ?? .linear
        if let preset = o.choice("preset", Motion.Preset.self) {
            if o["from"] != nil || o["to"] != nil { throw EditError(o.path, "give a preset or from/to windows, not both") }
            return .preset(preset, easing)
        }
        func window(_ key: String) -> Motion.Window {
            guard let w = o.object(key) else { return .fit }
            var r = Motion.Window()
            if let x = w.number("x") { r.x = x }
            if let y = w.number("y") { r.y = y }
            if let z = w.number("zoom") { r.zoom = z }
            return r
        }
        guard o["from"] != nil || o["to"] != nil else {
            throw EditError(o.path, "needs a preset (\(Motion.Preset.allCases.map(\.rawValue).joined(separator: ", "))) or from/to windows")
        }
        return .windows(Motion(from: window("from"), to: window("to"), easing: easing))
    }

    /// `{"matrix": "bt601|bt709|bt2020", "range": "limited|full", "transfer": "sdr|hlg|pq", "primaries": "bt709|bt601|bt2020"}`
    /// (FFmpeg's spellings too).
    static func colour(_ c: EditFields) -> ColourOverride {
        var out = ColourOverride()
        if let s = c.string("matrix") { out.matrix = YCbCrMatrix.parse(s) }
        if let s = c.string("range") { out.range = EditSchema.rangeSpellings[s.lowercased()] }
        if let s = c.string("transfer") { out.transfer = TransferFunction.parse(s) }
        if let s = c.string("primaries") { out.primaries = ColourPrimaries.parse(s) }
        return out
    }

    // MARK: typed field access

    static func object(_ v: Any, _ field: String) throws -> [String: Any] {
        guard let o = v as? [String: Any] else { throw EditError(field, "must be an object, got \(typeName(v))") }
        return o
    }
    static func string(_ v: Any, _ field: String) throws -> String {
        guard let s = v as? String else { throw EditError(field, "must be a string, got \(typeName(v))") }
        return s
    }
    public static func isBool(_ v: Any) -> Bool {
        guard let n = v as? NSNumber else { return false }
        return n.objCType.pointee == 0x63 // 'c': a boxed Bool
    }
    static func number(_ v: Any, _ field: String) throws -> Double {
        guard !isBool(v), let n = v as? NSNumber else { throw EditError(field, "must be a number, got \(typeName(v))") }
        let d = n.doubleValue
        guard d.isFinite else { throw EditError(field, "must be a finite number") }
        return d
    }
    /// A time in seconds: a number within ±`MediaTime.maxSeconds`.
    static func seconds(_ v: Any, _ field: String) throws -> Double {
        let d = try number(v, field)
        guard MediaTime.isRepresentable(seconds: d) else {
            throw EditError(field, "\(d) s is out of range (at most \(Int(MediaTime.maxSeconds)) s)")
        }
        return d
    }
    /// An exact time written as a fraction of whole numbers of seconds, `"1001/30000"` (`-` before a negative one):
    /// nil for anything else, a zero denominator, or a time beyond ±`MediaTime.maxSeconds`. What the writer uses for
    /// a time that is not a whole number of microseconds (`EditFileWriter.seconds`).
    public static func fraction(_ s: String) -> MediaTime? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let num = Int64(parts[0]), let den = Int64(parts[1]), den > 0,
              !parts[0].hasPrefix("+"), !parts[1].hasPrefix("+"), !parts[1].hasPrefix("-") else { return nil }
        let t = MediaTime(value: num, timescale: den)
        return MediaTime.isRepresentable(seconds: t.seconds) ? t : nil
    }

    static func int(_ v: Any, _ field: String) throws -> Int {
        let d = try number(v, field)
        guard d == d.rounded(), abs(d) < 1e9 else { throw EditError(field, "must be a whole number, got \(d)") }
        return Int(d)
    }
    static func bool(_ v: Any, _ field: String) throws -> Bool {
        guard isBool(v), let n = v as? NSNumber else { throw EditError(field, "must be true or false, got \(typeName(v))") }
        return n.boolValue
    }
    static func typeName(_ v: Any) -> String {
        if v is NSNull { return "null" }
        if isBool(v) { return "a boolean" }
        if v is NSNumber { return "a number" }
        if v is String { return "a string" }
        if v is [Any] { return "a list" }
        if v is [String: Any] { return "an object" }
        return "\(type(of: v))"
    }

    static func checkKeys(_ o: [String: Any], _ prefix: String, _ allowed: [String]) throws {
        for key in o.keys.sorted() where !allowed.contains(key) {
            let field = prefix.isEmpty ? key : "\(prefix).\(key)"
            var msg = "unknown field"
            if let n = NearestName.suggestion(for: key, among: allowed) { msg += "; did you mean \"\(n)\"?" }
            msg += " (allowed: \(allowed.joined(separator: ", ")))"
            throw EditError(field, msg)
        }
    }

    /// " at line L, column C" from the byte index Foundation reports, when it reports one.
    static func syntaxLocation(data: Data, error: Error) -> String {
        let ns = error as NSError
        var index: Int? = ns.userInfo["NSJSONSerializationErrorIndex"] as? Int
        if index == nil, let d = ns.userInfo[NSDebugDescriptionErrorKey] as? String,
           let r = d.range(of: "character ") {
            index = Int(d[r.upperBound...].prefix(while: { $0.isNumber }))
        }
        if index == nil, let d = ns.userInfo[NSDebugDescriptionErrorKey] as? String, d.contains("end of file") {
            index = data.count   // something is unterminated: report the end
        }
        guard let idx = index else { return "" }
        var line = 1, col = 1
        for (k, byte) in data.enumerated() {
            if k >= idx { break }
            if byte == 0x0A { line += 1; col = 1 } else { col += 1 }
        }
        return " (near line \(line), column \(col))"
    }
}
