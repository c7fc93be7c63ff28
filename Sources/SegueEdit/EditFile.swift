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
    public static func load(path: String, policy: InputPolicy = .default) throws -> Edit {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "otio": return try OTIOFile.load(path: path, options: OTIOReadOptions(policy: policy)).edit
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
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(data: data, baseDirectory: base, policy: policy)
    }

    /// Parses an edit from JSON bytes. Throws `EditError`.
    public static func parse(data: Data, baseDirectory: String, policy: InputPolicy = .default) throws -> Edit {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw EditError("", "the edit file is not valid JSON" + syntaxLocation(data: data, error: error))
        }
        try StrictJSON.check(data)
        let obj = try object(root, "edit")
        try checkKeys(obj, "", ["renderSize", "square", "fit", "frameRate", "clips", "tracks", "audioTracks", "output", "music", "audio",
                                "background", "blending", "allowIndirectInputs", "captions", "fitTransitions"])
        var edit: Edit
        switch (obj["clips"], obj["tracks"]) {
        case (nil, nil): throw EditError("clips", "is required: a list of at least one clip (or \"tracks\": a list of tracks, bottom first)")
        case (_?, _?): throw EditError("tracks", "give the clips of one track (\"clips\") or a list of tracks (\"tracks\"), not both")
        case (let raw?, nil): edit = Edit(clips: try items(raw, field: "clips", base: baseDirectory, audio: false, policy: policy))
        case (nil, let raw?):
            guard let list = raw as? [Any] else { throw EditError("tracks", "must be a list of tracks, bottom first, each {\"clips\": [...]}") }
            if list.isEmpty { throw EditError("tracks", "needs at least one track") }
            edit = Edit(tracks: try list.enumerated().map { k, t in
                let f = "tracks[\(k)]"
                let o = try object(t, f)
                try checkKeys(o, f, ["clips"])
                guard let c = o["clips"] else { throw EditError("\(f).clips", "is required: the track's items") }
                return VideoTrack(clips: try items(c, field: "\(f).clips", base: baseDirectory, audio: false, policy: policy))
            })
        }
        if let raw = obj["audioTracks"] {
            guard let list = raw as? [Any] else { throw EditError("audioTracks", "must be a list of audio tracks, each {\"clips\": [...]}") }
            edit.audioTracks = try list.enumerated().map { k, t in
                let f = "audioTracks[\(k)]"
                let o = try object(t, f)
                try checkKeys(o, f, ["clips", "duck"])
                guard let c = o["clips"] else { throw EditError("\(f).clips", "is required: the track's audio items") }
                var track = AudioTrack(clips: try items(c, field: "\(f).clips", base: baseDirectory, audio: true, policy: policy))
                if let d = o["duck"] { track.duck = try bool(d, "\(f).duck") }
                return track
            }
        }
        try properties(obj, into: &edit, base: baseDirectory)
        return edit
    }

    /// The edit's own properties (all but its tracks): `allowIndirectInputs`, `renderSize`, `square`, `background`,
    /// `blending`, `fit`, `frameRate`, `output`, `music`, `audio`, read from `obj` into `edit`; field names in errors
    /// start with `prefix` (an OTIO timeline's `metadata.segue.`). Throws `EditError`.
    static func properties(_ obj: [String: Any], into edit: inout Edit, base: String, prefix p: String = "") throws {
        if let v = obj["allowIndirectInputs"] { edit.allowIndirectInputs = try bool(v, p + "allowIndirectInputs") }
        if let rs = obj["renderSize"] {
            let o = try object(rs, p + "renderSize")
            try checkKeys(o, p + "renderSize", ["width", "height"])
            guard let w = o["width"], let h = o["height"] else { throw EditError(p + "renderSize", "needs width and height") }
            let width = try int(w, p + "renderSize.width"), height = try int(h, p + "renderSize.height")
            guard width > 0, height > 0, width <= 16384, height <= 16384 else {
                throw EditError(p + "renderSize", "width and height must be 1…16384 pixels")
            }
            edit.renderSize = PixelSize(width: width, height: height)
        }
        if let s = obj["square"] { edit.square = try bool(s, p + "square") }
        if let b = obj["background"] {
            let s = try string(b, p + "background")
            if s.lowercased() == "transparent" {
                edit.transparentBackground = true
            } else {
                guard let c = RGBColour.parse(s) else {
                    throw EditError(p + "background", "must be a colour as \"#rrggbb\", \"#rgb\" or a name (\(RGBColour.names.keys.sorted().joined(separator: ", "))), or \"transparent\" (got \"\(s)\")")
                }
                edit.background = c
            }
        }
        if let b = obj["blending"] { edit.blending = try blending(b, p + "blending") }
        if let f = obj["fitTransitions"] { edit.fitTransitions = try bool(f, p + "fitTransitions") }
        if let f = obj["fit"] {
            let s = try string(f, p + "fit")
            guard let m = FitMode(rawValue: s), FitMode.userModes.contains(m) else { throw EditError(p + "fit", "must be one of fill, fit, stretch (got \"\(s)\")") }
            edit.fit = m
        }
        if let r = obj["frameRate"] {
            let rate: FrameRate?
            if let s = r as? String { rate = FrameRate.parse(s) } else { rate = FrameRate.fromDecimal(try number(r, p + "frameRate")) }
            guard let fr = rate else { throw EditError(p + "frameRate", "must be a rate from 0.01 to 1000 frames per second, as a number or a fraction such as \"30000/1001\"") }
            edit.frameRate = fr
        }
        if let o = obj["output"] {
            let out = try object(o, p + "output")
            try checkKeys(out, p + "output", ["codec", "crf", "preset", "encoder", "toneMap", "dynamicRange"])
            if let c = out["codec"] {
                let s = try string(c, p + "output.codec")
                guard let codec = OutputSettings.Codec(rawValue: s) else { throw EditError(p + "output.codec", "must be \(OutputFormat.codecNames) (got \"\(s)\")") }
                edit.output.codec = codec
                edit.output.codecFromFileName = false
            }
            if let c = out["crf"] {
                let v = try int(c, p + "output.crf")
                guard (0...51).contains(v) else { throw EditError(p + "output.crf", "must be 0…51") }
                edit.output.crf = v
            }
            if let e = out["encoder"] {
                let name = try string(e, p + "output.encoder")
                guard !name.isEmpty else { throw EditError(p + "output.encoder", "must name an encoder, e.g. libx265") }
                edit.output.encoder = name
            }
            if let t = out["toneMap"] {
                let name = try string(t, p + "output.toneMap")
                guard let curve = ToneMapCurve.parse(name) else {
                    throw EditError(p + "output.toneMap", "must be one of \(ToneMapCurve.allCases.map(\.rawValue).joined(separator: ", ")) (got \"\(name)\")")
                }
                edit.output.toneMap = curve
            }
            if let d = out["dynamicRange"] {
                let name = try string(d, p + "output.dynamicRange")
                guard let range = DynamicRange(rawValue: name.lowercased()) else {
                    throw EditError(p + "output.dynamicRange", "must be sdr, hlg or pq (got \"\(name)\")")
                }
                edit.output.dynamicRange = range
            }
            if let given = out["preset"] {
                let name = try string(given, p + "output.preset")
                // x264/x265 preset names are checked here; other encoders' presets (NVENC's p1…p7) when they open.
                guard OutputSettings.presets.contains(name) || !["libx264", "libx265"].contains(edit.output.encoder ?? "libx264") else {
                    throw EditError(p + "output.preset", "must be one of \(OutputSettings.presets.joined(separator: ", ")) (got \"\(name)\")")
                }
                edit.output.preset = name
            }
        }
        if let m = obj["music"], !(m is NSNull) { edit.music = try music(m, base: base, prefix: p) }
        if let c = obj["captions"], !(c is NSNull) { edit.captions = try captions(c, base: base) }
        if let a = obj["audio"] {
            let o = try object(a, p + "audio")
            try checkKeys(o, p + "audio", ["sampleRate", "channels", "bitrate"])
            if let v = o["sampleRate"] {
                let r = try int(v, p + "audio.sampleRate")
                guard AudioSettings.aacSampleRates.contains(r) else {
                    throw EditError(p + "audio.sampleRate", "must be a rate AAC supports: \(AudioSettings.aacSampleRates.map(String.init).joined(separator: ", ")) Hz (got \(r))")
                }
                edit.audio.sampleRate = r
            }
            if let v = o["channels"] {
                let c = try int(v, p + "audio.channels")
                guard (1...8).contains(c) else { throw EditError(p + "audio.channels", "must be 1…8 (got \(c))") }
                edit.audio.channels = c
            }
            if let v = o["bitrate"] {
                let b = try int(v, p + "audio.bitrate")
                guard (16_000...1_536_000).contains(b) else { throw EditError(p + "audio.bitrate", "must be 16000…1536000 bits per second (got \(b))") }
                edit.audio.bitRate = b
            }
        }
    }

    static func gain(_ v: Any, _ field: String) throws -> Double {
        let g = try number(v, field)
        guard g >= 0 && g <= 16 else { throw EditError(field, "must be a gain from 0 to 16 (got \(g))") }
        return g
    }

    static func music(_ raw: Any, base: String, prefix p: String = "") throws -> MusicSpec {
        let o = try object(raw, p + "music")
        try checkKeys(o, p + "music", ["path", "start", "volume", "loop", "ramps", "duck"])
        guard let given = o["path"] else { throw EditError(p + "music.path", "is required") }
        let path = try string(given, p + "music.path")
        if path.isEmpty { throw EditError(p + "music.path", "must not be empty") }
        var m = MusicSpec(path: resolved(path, base: base))
        if let v = o["start"] {
            let s = try seconds(v, p + "music.start")
            guard s >= 0 else { throw EditError(p + "music.start", "must be ≥ 0 seconds (got \(s))") }
            m.start = MediaTime(seconds: s)
        }
        if let v = o["volume"] { m.volume = try gain(v, p + "music.volume") }
        if let v = o["loop"] { m.loop = try bool(v, p + "music.loop") }
        if let v = o["ramps"] { m.ramps = try ramps(v, p + "music.ramps") }
        if let v = o["duck"], !(v is NSNull) {
            var d = Ducking()
            if isBool(v) {
                if !(try bool(v, p + "music.duck")) { return m }
            } else {
                let dobj = try object(v, p + "music.duck")
                try checkKeys(dobj, p + "music.duck", ["level", "attack", "release"])
                if let l = dobj["level"] {
                    d.level = try number(l, p + "music.duck.level")
                    guard (0...1).contains(d.level) else { throw EditError(p + "music.duck.level", "must be 0…1 (got \(d.level))") }
                }
                for (key, path) in [("attack", \Ducking.attack), ("release", \Ducking.release)] {
                    if let x = dobj[key] {
                        let s = try seconds(x, p + "music.duck.\(key)")
                        guard s >= 0 && s <= 60 else { throw EditError(p + "music.duck.\(key)", "must be 0…60 seconds (got \(s))") }
                        d[keyPath: path] = s
                    }
                }
            }
            m.duck = d
        }
        return m
    }

    /// Volume ramps (`music.ramps`, an item's `ramps`): `[{"from", "to", "start", "duration"}]`.
    static func ramps(_ v: Any, _ field: String) throws -> [VolumeRamp] {
        guard let list = v as? [Any] else { throw EditError(field, "must be a list of ramps") }
        return try list.enumerated().map { k, r in
            let f = "\(field)[\(k)]"
            let ro = try object(r, f)
            try checkKeys(ro, f, ["from", "to", "start", "duration"])
            guard let from = ro["from"], let to = ro["to"], let start = ro["start"], let dur = ro["duration"] else {
                throw EditError(f, "needs from, to, start and duration")
            }
            let d = try seconds(dur, "\(f).duration")
            guard d > 0 else { throw EditError("\(f).duration", "must be > 0 seconds (got \(d))") }
            return VolumeRamp(from: try gain(from, "\(f).from"), to: try gain(to, "\(f).to"),
                              start: MediaTime(seconds: try seconds(start, "\(f).start")), duration: MediaTime(seconds: d))
        }
    }

    /// A track's items (`clips`, `tracks[k].clips`, `audioTracks[k].clips`): a non-empty list.
    static func items(_ raw: Any, field: String, base: String, audio: Bool, policy: InputPolicy = .default) throws -> [ClipSpec] {
        guard let list = raw as? [Any] else { throw EditError(field, "must be a list of clips") }
        if list.isEmpty { throw EditError(field, "needs at least one clip") }
        return try list.enumerated().map { i, item in try clip(item, field: "\(field)[\(i)]", first: i == 0, base: base, audio: audio, policy: policy) }
    }

    /// One item: a clip (`path`), a gap (`{"gap": SECONDS}`), a solid colour (`{"fill": COLOUR, "duration": SECONDS}`)
    /// or a text (`{"text": WORDS, "style": {…}}`, docs/text.md),
    /// with its timing, transition, audio and layer. On an audio track (`audio`): audio clips and gaps, no picture fields.
    static func clip(_ raw: Any, field f: String, first: Bool, base: String, audio: Bool, policy: InputPolicy = .default) throws -> ClipSpec {
        let o = try object(raw, f)
        let kinds = ["path", "gap", "fill", "text"].filter { o[$0] != nil }
        if kinds.count > 1 { throw EditError(f, "an item is a clip (path), a gap, a fill or a text: give one of \(kinds.joined(separator: ", "))") }
        var spec: ClipSpec
        switch kinds.first {
        case "gap"?:
            try checkKeys(o, f, ["gap", "at", "transition"])
            let v = try seconds(o["gap"]!, "\(f).gap")
            guard v > 0 else { throw EditError("\(f).gap", "is the gap's length: must be > 0 seconds (got \(v))") }
            spec = ClipSpec.gap(MediaTime(seconds: v))
            try timing(o, f, &spec, first: first, base: base, audio: audio, policy: policy)
            return spec
        case "fill"?:
            if audio { throw EditError("\(f).fill", "an audio track holds audio clips and gaps; a fill goes on a video track") }
            try checkKeys(o, f, ["fill", "duration", "at", "transition", "layer"])
            let s = try string(o["fill"]!, "\(f).fill")
            guard let c = RGBColour.parse(s) else {
                throw EditError("\(f).fill", "must be a colour as \"#rrggbb\", \"#rgb\" or a name (\(RGBColour.names.keys.sorted().joined(separator: ", "))) (got \"\(s)\")")
            }
            spec = ClipSpec.fill(c)
        case "text"?:
            if audio { throw EditError("\(f).text", "an audio track holds audio clips and gaps; a text goes on a video track") }
            try checkKeys(o, f, ["text", "style", "duration", "at", "transition", "layer"])
            spec = ClipSpec(content: .text(try textItem(o, f, base: base)))
        case "path"?:
            try checkKeys(o, f, audio ? ["path", "start", "duration", "at", "transition", "volume", "ramps", "audioTrack", "speed", "reverse", "pitch"]
                                      : ["path", "start", "duration", "at", "transition", "volume", "ramps", "colour", "audioTrack", "motion", "layer",
                                         "speed", "reverse", "freeze", "frameBlend", "pitch", "rate", "missingFrames"])
            let path = try string(o["path"]!, "\(f).path")
            if path.isEmpty { throw EditError("\(f).path", "must not be empty") }
            spec = ClipSpec(path: resolved(path, base: base))
            spec.imageSequence = try imageSequence(o, f, path: spec.path)
        default:
            try checkKeys(o, f, audio ? ["path", "gap", "start", "duration", "at", "transition", "volume", "ramps", "audioTrack", "speed", "reverse", "pitch"]
                                      : ["path", "gap", "fill", "text", "start", "duration", "at", "transition", "volume", "ramps", "colour", "audioTrack", "motion",
                                         "layer", "speed", "reverse", "freeze", "frameBlend", "pitch", "rate", "missingFrames"])
            throw EditError("\(f).path", audio ? "is required (or \"gap\": SECONDS)" : "is required (or \"gap\": SECONDS, \"fill\": COLOUR, or \"text\": WORDS)")
        }
        if let s = o["start"] {
            if case .fill = spec.content { throw EditError("\(f).start", "a fill has no time to start from; give its duration") }
            let v = try seconds(s, "\(f).start")
            guard v >= 0 else { throw EditError("\(f).start", "must be ≥ 0 seconds (got \(v))") }
            spec.start = MediaTime(seconds: v)
        }
        if let d = o["duration"] {
            let v = try seconds(d, "\(f).duration")
            guard v > 0 else { throw EditError("\(f).duration", "must be > 0 seconds (got \(v))") }
            spec.duration = MediaTime(seconds: v)
        }
        if let v = o["volume"] { spec.volume = try gain(v, "\(f).volume") }
        if let v = o["ramps"] { spec.ramps = try ramps(v, "\(f).ramps") }
        if let v = o["audioTrack"], !(v is NSNull) {
            let n = try int(v, "\(f).audioTrack")
            guard n >= 0 else { throw EditError("\(f).audioTrack", "counts the file's audio streams from 0 (got \(n))") }
            spec.audioTrack = n
        }
        if let c = o["colour"], !(c is NSNull) { spec.colour = try colour(c, "\(f).colour") }
        if let m = o["motion"], !(m is NSNull) { spec.motion = try motion(m, "\(f).motion") }
        if let l = o["layer"], !(l is NSNull) { spec.layer = try layer(l, "\(f).layer") }
        try time(o, f, &spec)
        try timing(o, f, &spec, first: first, base: base, audio: audio, policy: policy)
        return spec
    }

    /// An item's `at` and `transition` (any kind of item).
    static func timing(_ o: [String: Any], _ f: String, _ spec: inout ClipSpec, first: Bool, base: String, audio: Bool,
                       policy: InputPolicy = .default) throws {
        if let v = o["at"], !(v is NSNull) {
            let s = try seconds(v, "\(f).at")
            guard s >= 0 else { throw EditError("\(f).at", "is a time on the timeline: must be ≥ 0 seconds (got \(s))") }
            spec.at = MediaTime(seconds: s)
        }
        if let t = o["transition"], !(t is NSNull), !(try isCut(t, "\(f).transition")) {
            if first { throw EditError("\(f).transition", "the first clip of a track cannot have a transition into it") }
            spec.transition = audio ? try audioTransition(t, field: "\(f).transition")
                : try transition(t, field: "\(f).transition", base: base, policy: policy)
        }
    }

    /// `"zoom-in"` (a preset), `{"preset": "pan-left", "easing": "ease-in-out"}`, or
    /// `{"from": {"x": 0.5, "y": 0.5, "zoom": 1}, "to": {"x": 0.6, "y": 0.4, "zoom": 1.3}, "easing": "ease-in-out"}`.
    static func motion(_ raw: Any, _ f: String) throws -> MotionSpec {
        let names = Motion.Preset.allCases.map(\.rawValue).joined(separator: ", ")
        func preset(_ v: Any, _ field: String) throws -> Motion.Preset {
            let s = try string(v, field)
            guard let p = Motion.Preset(rawValue: s) else { throw EditError(field, "must be one of \(names) (got \"\(s)\")") }
            return p
        }
        if raw is String { return .preset(try preset(raw, f), .linear) }
        let o = try object(raw, f)
        try checkKeys(o, f, ["preset", "from", "to", "easing"])
        let easing = try o["easing"].map { try Easing.parse(try string($0, "\(f).easing"), field: "\(f).easing") } ?? .linear
        if let p = o["preset"] {
            if o["from"] != nil || o["to"] != nil { throw EditError(f, "give a preset or from/to windows, not both") }
            return .preset(try preset(p, "\(f).preset"), easing)
        }
        func window(_ key: String) throws -> Motion.Window {
            let wf = "\(f).\(key)"
            guard let v = o[key] else { return .fit }
            let w = try object(v, wf)
            try checkKeys(w, wf, ["x", "y", "zoom"])
            var r = Motion.Window()
            for (k, path) in [("x", \Motion.Window.x), ("y", \Motion.Window.y)] {
                if let c = w[k] {
                    let n = try number(c, "\(wf).\(k)")
                    guard (0...1).contains(n) else { throw EditError("\(wf).\(k)", "is a position in the picture, 0…1 (got \(n))") }
                    r[keyPath: path] = n
                }
            }
            if let z = w["zoom"] {
                let n = try number(z, "\(wf).zoom")
                guard n >= 0.1 && n <= 100 else { throw EditError("\(wf).zoom", "must be 0.1…100 (got \(n))") }
                r.zoom = n
            }
            return r
        }
        guard o["from"] != nil || o["to"] != nil else { throw EditError(f, "needs a preset (\(names)) or from/to windows") }
        return .windows(Motion(from: try window("from"), to: try window("to"), easing: easing))
    }

    /// `{"matrix": "bt601|bt709|bt2020", "range": "limited|full", "transfer": "sdr|hlg|pq", "primaries": "bt709|bt601|bt2020"}`.
    static func colour(_ raw: Any, _ f: String) throws -> ColourOverride {
        let o = try object(raw, f)
        try checkKeys(o, f, ["matrix", "range", "transfer", "primaries"])
        var c = ColourOverride()
        if let v = o["matrix"] {
            let s = try string(v, "\(f).matrix")
            guard let m = YCbCrMatrix.parse(s) else { throw EditError("\(f).matrix", "must be bt601, bt709 or bt2020 (got \"\(s)\")") }
            c.matrix = m
        }
        if let v = o["range"] {
            let s = try string(v, "\(f).range")
            switch s.lowercased() {
            case "limited", "tv", "mpeg": c.range = .limited
            case "full", "pc", "jpeg": c.range = .full
            default: throw EditError("\(f).range", "must be limited or full (got \"\(s)\")")
            }
        }
        if let v = o["transfer"] {
            let s = try string(v, "\(f).transfer")
            guard let t = TransferFunction.parse(s) else { throw EditError("\(f).transfer", "must be sdr, hlg or pq (got \"\(s)\")") }
            c.transfer = t
        }
        if let v = o["primaries"] {
            let s = try string(v, "\(f).primaries")
            guard let p = ColourPrimaries.parse(s) else { throw EditError("\(f).primaries", "must be bt709, bt601 or bt2020 (got \"\(s)\")") }
            c.primaries = p
        }
        return c
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
    static func isBool(_ v: Any) -> Bool {
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
