import Foundation
import SegueCore

/// Writes an edit as the edit file (docs/edit-file.md): the one writer, Edit → JSON, that `EditFile.parse` reads
/// back as the same edit (`parse(write(edit)) == edit`). What `segue resolve` writes, what a chunk plan embeds, what a
/// program that builds an `Edit` saves.
///
/// It is driven by the parser's declarations (`EditSchema`): each object is written through its declaration
/// (`DeclaredObject`), which names its fields and their order, refuses a field the declaration lacks (a model value the
/// edit file cannot say for that kind of item), and the whole file is checked against the declarations before it is
/// returned, as the parser checks what it reads.
///
/// - Paths are absolute, except those inside `Edit.bundleFolder` when the edit records its bundle
///   (`EditResolution.bundle`): those are relative to the bundle's folder, which each reader extracts afresh.
/// - Times are seconds: a number when they are whole microseconds (what `MediaTime(seconds:)` reads back exactly),
///   else an exact fraction, `"1001/30000"`. Frame rates: a whole number, else a fraction.
/// - Fields at their defaults are left out; `output.codec` only when the edit names one (else the output's name
///   chooses it, as before).
public struct EditFileWriter {
    /// The folder paths are written relative to (an extracted bundle's), nil: every path absolute.
    let base: String?

    /// The edit as JSON. Throws `EditError` naming the field for a model value the edit file cannot hold (a caption
    /// track's item, a fill or gap with a `start`, a frozen clip with a `start`).
    public static func json(_ edit: Edit) throws -> JSONValue {
        let writer = EditFileWriter(base: edit.resolution?.bundle != nil ? edit.bundleFolder : nil)
        let json = try writer.edit(edit)
        // What the parser checks first: the declarations (types, enums, ranges, unknown fields).
        guard let o = json.foundationObject as? [String: Any] else { preconditionFailure("an edit is written as an object") }
        try EditSchema.edit.check(o, "")
        return json
    }

    /// The edit file's bytes: UTF-8 JSON, two spaces a level, fields in the order the schema declares them.
    public static func data(_ edit: Edit) throws -> Data { try json(edit).serialized() }

    // MARK: values

    /// A time: a number of seconds when `MediaTime(seconds:)` reads it back exactly, else an exact fraction.
    static func seconds(_ t: MediaTime) -> JSONValue {
        let micro = MediaTime.secondsPrecision.timescale
        if micro % t.timescale == 0 { return .number(t.seconds) }
        return .string("\(t.value)/\(t.timescale)")
    }
    static func rate(_ r: FrameRate) -> JSONValue { r.denominator == 1 ? .int(Int64(r.numerator)) : .string(r.description) }
    static func size(_ s: PixelSize) -> JSONValue { .object([("width", .int(Int64(s.width))), ("height", .int(Int64(s.height)))]) }

    /// A path as written: relative to `base` inside it, else as it is (absolute, or a URL).
    func path(_ p: String) -> JSONValue {
        if let base, p.hasPrefix(base + "/") { return .string(String(p.dropFirst(base.count + 1))) }
        return .string(p)
    }

    // MARK: the edit

    func edit(_ e: Edit) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.edit, "")
        guard !e.tracks.isEmpty, e.tracks.allSatisfy({ !$0.clips.isEmpty }) else {
            throw EditError(e.tracks.isEmpty ? "tracks" : "tracks[\(e.tracks.firstIndex { $0.clips.isEmpty }!)].clips", "an edit file's tracks hold at least one item each")
        }
        if e.tracks.count == 1 {
            try o.set("clips", .array(items(e.tracks[0].clips, field: "clips", audio: false)))
        } else {
            try o.set("tracks", .array(e.tracks.enumerated().map { k, t in
                var track = DeclaredObject(EditSchema.track, "tracks[\(k)]")
                try track.set("clips", .array(items(t.clips, field: "tracks[\(k)].clips", audio: false)))
                return track.value
            }))
        }
        if !e.audioTracks.isEmpty {
            try o.set("audioTracks", .array(e.audioTracks.enumerated().map { k, t in
                var track = DeclaredObject(EditSchema.audioTrack, "audioTracks[\(k)]")
                try track.set("clips", .array(items(t.clips, field: "audioTracks[\(k)].clips", audio: true)))
                if !t.duck { try track.set("duck", .bool(false)) }
                return track.value
            }))
        }
        if let s = e.renderSize { try o.set("renderSize", Self.size(s)) }
        if e.square { try o.set("square", .bool(true)) }
        if e.fit != .fill { try o.set("fit", .string(e.fit.rawValue)) }
        if let b = e.fitBackground { try o.set("fitBackground", .string(b.description)) }
        if let r = e.frameRate { try o.set("frameRate", Self.rate(r)) }
        // With a delivery preset, every setting it makes is written: read back, the preset is applied first and these
        // override it, so that a setting the edit gave (even one equal to the default) stays.
        var out = try output(e.output, declaration: EditSchema.output, field: "output", allDefaults: e.delivery != nil)
        if let d = e.delivery { try out.set("delivery", .string(d.name)) }
        try o.setObject("output", out)
        if let m = e.music { try o.set("music", music(m)) }
        try o.setObject("audio", audio(e.audio, all: e.delivery != nil))
        if e.transparentBackground { try o.set("background", .string("transparent")) } else if e.background != .black {
            try o.set("background", .string(e.background.description))
        }
        if e.blending != .gamma { try o.set("blending", .string(e.blending.rawValue)) }
        if e.allowIndirectInputs { try o.set("allowIndirectInputs", .bool(true)) }
        if let c = e.captions {
            var caption = DeclaredObject(EditSchema.captions, "captions")
            try caption.set("path", path(c.path))
            try caption.setObject("style", style(c.style, defaults: .caption, field: "captions.style"))
            if let w = c.words { try caption.set("captionStyle", wordStyle(w)) }
            try o.set("captions", caption.value)
        }
        if e.fitTransitions { try o.set("fitTransitions", .bool(true)) }
        if !e.markers.isEmpty {
            try o.set("markers", .array(e.markers.enumerated().map { k, m in
                var marker = DeclaredObject(EditSchema.marker, "markers[\(k)]")
                try marker.set("name", .string(m.name))
                try marker.set("start", Self.seconds(m.start))
                if m.duration != .zero { try marker.set("duration", Self.seconds(m.duration)) }
                if let c = m.colour { try marker.set("colour", .string(c)) }
                if !m.comment.isEmpty { try marker.set("comment", .string(m.comment)) }
                if m.on != "timeline" { try marker.set("on", .string(m.on)) }
                return marker.value
            }))
        }
        if let t = e.globalStartTime { try o.set("globalStartTime", Self.seconds(t)) }
        if let r = e.timecodeRate { try o.set("timecodeRate", Self.rate(r)) }
        if let r = e.fallbackFrameRate { try o.set("fallbackFrameRate", Self.rate(r)) }
        if !e.warnings.isEmpty { try o.set("warnings", .array(e.warnings.map { .string($0) })) }
        if let r = e.resolution { try o.set("resolved", resolution(r)) }
        return o.value
    }

    /// `output` (the edit's) or the resolved section's (`allDefaults`: every setting, the codec only when named).
    func output(_ s: OutputSettings, declaration: SchemaObject, field: String, allDefaults: Bool) throws -> DeclaredObject {
        let d = OutputSettings()
        var o = DeclaredObject(declaration, field)
        if !s.codecFromFileName { try o.set("codec", .string(s.codec.rawValue)) }
        if allDefaults || s.crf != d.crf { try o.set("crf", .int(Int64(s.crf))) }
        if allDefaults || s.preset != d.preset { try o.set("preset", .string(s.preset)) }
        if let e = s.encoder { try o.set("encoder", .string(e)) }
        if allDefaults || s.toneMap != d.toneMap { try o.set("toneMap", .string(s.toneMap.rawValue)) }
        if allDefaults || s.dynamicRange != d.dynamicRange { try o.set("dynamicRange", .string(s.dynamicRange.rawValue)) }
        if let l = s.loudness {
            try o.set("loudness", .number(l.integrated))
            try o.set("truePeak", .number(l.truePeak))
        }
        if s.smart { try o.set("smart", .bool(true)) }
        return o
    }

    func audio(_ a: AudioSettings, all: Bool = false) throws -> DeclaredObject {
        let d = AudioSettings()
        var o = DeclaredObject(EditSchema.audio, "audio")
        if all || a.sampleRate != d.sampleRate { try o.set("sampleRate", .int(Int64(a.sampleRate))) }
        if all || a.channels != d.channels { try o.set("channels", .int(Int64(a.channels))) }
        if all || a.bitRate != d.bitRate { try o.set("bitrate", .int(Int64(a.bitRate))) }
        return o
    }

    func music(_ m: MusicSpec) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.music, "music")
        try o.set("path", path(m.path))
        if m.start != .zero { try o.set("start", Self.seconds(m.start)) }
        if m.volume != 1 { try o.set("volume", .number(m.volume)) }
        if m.loop { try o.set("loop", .bool(true)) }
        if !m.ramps.isEmpty { try o.set("ramps", ramps(m.ramps, field: "music.ramps")) }
        if let d = m.duck {
            if d == Ducking() { try o.set("duck", .bool(true)) } else {
                var duck = DeclaredObject(EditSchema.ducking, "music.duck")
                try duck.set("level", .number(d.level))
                try duck.set("attack", .number(d.attack))
                try duck.set("release", .number(d.release))
                try o.set("duck", duck.value)
            }
        }
        return o.value
    }

    func ramps(_ list: [VolumeRamp], field: String) throws -> JSONValue {
        .array(try list.enumerated().map { k, r in
            var o = DeclaredObject(EditSchema.ramp, "\(field)[\(k)]")
            try o.set("from", .number(r.from))
            try o.set("to", .number(r.to))
            try o.set("start", Self.seconds(r.start))
            try o.set("duration", Self.seconds(r.duration))
            return o.value
        })
    }

    // MARK: items

    func items(_ list: [ClipSpec], field: String, audio: Bool) throws -> [JSONValue] {
        try list.enumerated().map { k, c in try item(c, field: "\(field)[\(k)]", audio: audio) }
    }

    /// One item, through the declaration of its kind (a clip, a gap, a fill or a text; an audio clip or gap).
    func item(_ c: ClipSpec, field: String, audio: Bool) throws -> JSONValue {
        let variants = audio ? EditSchema.audioItem : EditSchema.videoItem
        let tag: String
        switch c.content {
        case .file: tag = "path"
        case .gap: tag = "gap"
        case .fill: tag = "fill"
        case .text: tag = "text"
        case .shape: tag = "shape"
        case .subtitles: throw EditError(field, "a caption track's item is made from the edit's captions, not written as an item")
        }
        guard let variant = variants.variant(tag) else { throw EditError(field, "an audio track's items are audio clips and gaps (this one is a \(tag))") }
        var o = DeclaredObject(variant.object, field)
        switch c.content {
        case .file(let p):
            try o.set("path", path(p))
            if let s = c.imageSequence {
                if s.rate != ImageSequence.defaultRate { try o.set("rate", Self.rate(s.rate)) }
                if s.missingFrames != .error { try o.set("missingFrames", .string(s.missingFrames.rawValue)) }
            }
        case .gap:
            guard let d = c.duration else { throw EditError(field, "a gap needs its duration") }
            try o.set("gap", Self.seconds(d))
        case .fill(let colour): try o.set("fill", .string(colour.description))
        case .text(let t):
            try o.set("text", .string(t.text))
            try o.setObject("style", style(t.style, defaults: TextStyle(), field: "\(field).style"))
            if let a = t.animation { try o.setObject("animate", animation(a, field: "\(field).animate")) }
        case .shape(let s): try shape(s, into: &o)
        case .subtitles: break
        }
        if c.start != .zero {
            if c.freeze != nil { throw EditError(o.path("start"), "a frozen clip holds the frame freeze names: its start cannot be written") }
            try o.set("start", Self.seconds(c.start))
        }
        // Until the edit's end: `untilEnd` where the item declares it (its `duration` kept, ignored), else (an audio
        // clip) `"duration": "edit"`.
        let untilEnd = c.lastsUntilEditEnd && variant.object.field("untilEnd") != nil
        if c.lastsUntilEditEnd && !untilEnd {
            try o.set("duration", .string(EditSchema.untilEditEnd))
        } else if let d = c.duration, tag != "gap" {
            try o.set("duration", Self.seconds(d))
        }
        if let at = c.at { try o.set("at", Self.seconds(at)) }
        if let t = c.transition { try o.set("transition", transition(t, cut: c.transitionCut, audio: audio, field: o.path("transition"))) }
        if c.volume != 1 { try o.set("volume", .number(c.volume)) }
        if !c.ramps.isEmpty { try o.set("ramps", ramps(c.ramps, field: o.path("ramps"))) }
        if let n = c.audioTrack { try o.set("audioTrack", .int(Int64(n))) }
        if let colour = c.colour { try o.set("colour", colourOverride(colour, field: o.path("colour"))) }
        if let m = c.motion { try o.set("motion", motion(m, field: o.path("motion"))) }
        if c.layer != LayerSpec() { try o.set("layer", layer(c.layer, field: o.path("layer"))) }
        if let m = c.matte { try o.set("matte", .string(m.rawValue)) }
        if let b = c.fitBackground { try o.set("fitBackground", .string(b.description)) }
        if !c.effects.isEmpty { try o.set("effects", .array(effects(c.effects, audio: audio, field: o.path("effects")))) }
        if untilEnd { try o.set("untilEnd", .bool(true)) }
        if c.interchange { try o.set("interchange", .bool(true)) }
        if c.loop { try o.set("loop", .bool(true)) }
        return o.value
    }

    func colourOverride(_ c: ColourOverride, field: String) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.colourOverride, field)
        if let m = c.matrix { try o.set("matrix", .string(m.rawValue)) }
        if let r = c.range { try o.set("range", .string(r.rawValue)) }
        if let t = c.transfer { try o.set("transfer", .string(t.rawValue)) }
        if let p = c.primaries { try o.set("primaries", .string(p.rawValue)) }
        return o.value
    }

    func motion(_ m: MotionSpec, field: String) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.motion, field)
        switch m {
        case .preset(let p, .linear): return .string(p.rawValue)
        case .preset(let p, let easing):
            try o.set("preset", .string(p.rawValue))
            try o.set("easing", .string(easing.description))
        case .windows(let motion):
            for (name, w) in [("from", motion.from), ("to", motion.to)] {
                var window = DeclaredObject(EditSchema.motionWindow, o.path(name))
                try window.set("x", .number(w.x))
                try window.set("y", .number(w.y))
                try window.set("zoom", .number(w.zoom))
                try o.set(name, window.value)
            }
            if motion.easing != .linear { try o.set("easing", .string(motion.easing.description)) }
        }
        return o.value
    }

    func effects(_ list: [ItemEffect], audio: Bool, field: String) throws -> [JSONValue] {
        let variants = EditSchema.effects(audio: audio)
        return try list.enumerated().map { k, effect in
            let f = "\(field)[\(k)]"
            guard let variant = variants.variant(effect.kind.rawValue) else {
                throw EditError(f, "an audio track's items take the effects speed and reverse (this one is \(effect.kind.rawValue))")
            }
            var o = DeclaredObject(variant.object, f)
            try o.set("type", .string(effect.kind.rawValue))
            switch effect {
            case .speed(let s):
                try o.set("speed", speed(s.speed, field: o.path("speed")))
                if s.frameBlend { try o.set("frameBlend", .bool(true)) }
                if s.pitch != .keep { try o.set("pitch", .string(s.pitch.rawValue)) }
            case .reverse: break
            case .freeze(let at): try o.set("at", Self.seconds(at))
            case .colour(let c):
                for setting in c.settings where setting.value != .constant(setting.neutral) {
                    try o.set(setting.name, animated(setting.value, range: EditSchema.colourRanges[setting.name]!, field: o.path(setting.name)))
                }
            case .chromaKey(let k):
                try o.set("colour", .string(k.colour.description))
                for setting in k.settings where setting.value != .constant(setting.neutral) {
                    try o.set(setting.name, animated(setting.value, range: 0...1, field: o.path(setting.name)))
                }
            case .vignette(let v):
                try o.set("amount", animated(v.amount, range: 0...1, field: o.path("amount")))
                try o.set("radius", animated(v.radius, range: 0...1, field: o.path("radius")))
            case .blur(let b):
                try o.set("radius", animated(b.radius, range: 0...LayerFilter.maxRadius, field: o.path("radius")))
            case .sharpen(let s):
                try o.set("amount", animated(s.amount, range: 0...10, field: o.path("amount")))
                try o.set("radius", animated(s.radius, range: 0...LayerFilter.maxRadius, field: o.path("radius")))
            case .lut(let l):
                try o.set("path", path(l.path))
                if l.strength != .constant(1) { try o.set("strength", animated(l.strength, range: 0...1, field: o.path("strength"))) }
            }
            return o.value
        }
    }

    func speed(_ s: Speed, field: String) throws -> JSONValue {
        switch s {
        case .constant(let v): return .number(v)
        case .capture: return .string("capture")
        case .ramp(let keys): return try keyframes(keys, range: EditFile.speedRange, field: field)
        }
    }
}

/// An object of the edit file being written through its declaration: fields in the declared order, a field the
/// declaration lacks refused (`EditError` naming it: the edit file cannot say it there).
struct DeclaredObject {
    let declaration: SchemaObject
    /// Its place in the edit file ("clips[2]", "" for the edit).
    let field: String
    private var values: [String: JSONValue] = [:]

    init(_ declaration: SchemaObject, _ field: String) { self.declaration = declaration; self.field = field }

    func path(_ name: String) -> String { field.isEmpty ? name : "\(field).\(name)" }

    mutating func set(_ name: String, _ value: JSONValue) throws {
        guard declaration.field(name) != nil else {
            throw EditError(path(name), "the edit file has no \(name) for \(declaration.description.split(separator: ":").first.map(String.init) ?? declaration.name): it cannot be written")
        }
        values[name] = value
    }

    /// Sets `name` to `object` unless it is empty (every field at its default).
    mutating func setObject(_ name: String, _ object: DeclaredObject) throws {
        if !object.isEmpty { try set(name, object.value) }
    }

    var isEmpty: Bool { values.isEmpty }
    var value: JSONValue { .object(declaration.fields.compactMap { f in values[f.name].map { (f.name, $0) } }) }
}
