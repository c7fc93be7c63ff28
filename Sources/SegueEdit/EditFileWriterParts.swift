import Foundation
import SegueCore

// The edit file's writer (`EditFileWriter`): transitions, layers and keyframes, text styles, and the `resolved` section.
extension EditFileWriter {
    /// The transition into an item (`cut`: its `inOffset`, read from OpenTimelineIO); an audio track's through
    /// `audioTransition`'s declaration.
    func transition(_ t: Transition, cut: MediaTime?, audio: Bool, field: String) throws -> JSONValue {
        var o = DeclaredObject(audio ? EditSchema.audioTransition : EditSchema.transition, field)
        try o.set("type", .string(t.kind.rawValue))
        try o.set("duration", Self.seconds(t.duration))
        if !t.kind.traits.directions.isEmpty { try o.set("direction", .string(t.direction.rawValue)) }
        if t.audioCurve != .linear { try o.set("audioCurve", .string(t.audioCurve.rawValue)) }
        if !t.params.isEmpty { try o.set("params", parameters(t, field: o.path("params"))) }
        if t.easing != .linear { try o.set("easing", .string(t.easing.description)) }
        if let e = t.audioEasing { try o.set("audioEasing", .string(e.description)) }
        if let shader = t.shader { try o.set("shader", path(shader.path)) }
        if let b = t.blend { try o.set("blend", .string(b.rawValue)) }
        if let c = cut { try o.set("inOffset", Self.seconds(c)) }
        return o.value
    }

    /// `params`: numbers for a built-in; for a gl-transitions shader each uniform's value in its type's form (booleans
    /// for `bool` and `bvec`, numbers, lists of numbers, an image's path).
    func parameters(_ t: Transition, field: String) throws -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        for name in t.params.keys.sorted() {
            let isBool = t.shader?.uniforms.first { $0.name == name }?.type.base == .bool
            switch t.params[name]! {
            case .number(let d): pairs.append((name, .number(d)))
            case .boolean(let b): pairs.append((name, .bool(b)))
            case .vector(let v): pairs.append((name, .array(v.map { isBool ? .bool($0 != 0) : .number($0) })))
            case .image(let p): pairs.append((name, path(p)))
            }
        }
        return .object(pairs)
    }

    func layer(_ l: LayerSpec, field: String) throws -> JSONValue {
        let d = LayerSpec()
        var o = DeclaredObject(EditSchema.layer, field)
        for (name, v, dv, range) in [("x", l.x, d.x, -100.0...100.0), ("y", l.y, d.y, -100...100), ("scale", l.scale, d.scale, 0...100),
                                     ("rotation", l.rotation, d.rotation, -36000...36000), ("opacity", l.opacity, d.opacity, 0...1)] where v != dv {
            try o.set(name, animated(v, range: range, field: o.path(name)))
        }
        var crop = DeclaredObject(EditSchema.crop, o.path("crop"))
        for (name, v) in [("left", l.cropLeft), ("top", l.cropTop), ("right", l.cropRight), ("bottom", l.cropBottom)] where v != .constant(0) {
            try crop.set(name, animated(v, range: 0...0.999, field: crop.path(name)))
        }
        try o.setObject("crop", crop)
        if l.blend != .normal { try o.set("blend", .string(l.blend.rawValue)) }
        return o.value
    }

    func animated(_ a: Animated, range: ClosedRange<Double>, field: String) throws -> JSONValue {
        switch a {
        case .constant(let v): return .number(v)
        case .keyframes(let keys): return try keyframes(keys, range: range, field: field)
        }
    }

    /// `{"keyframes": [{"time", "value", "easing"}, …]}`.
    func keyframes(_ keys: [Keyframe], range: ClosedRange<Double>, field: String) throws -> JSONValue {
        let declaration = EditSchema.keyframes(range)
        guard case .array(.object(let keyframe), _)? = declaration.field("keyframes")?.type else { preconditionFailure("keyframes are a list of objects") }
        var o = DeclaredObject(declaration, field)
        try o.set("keyframes", .array(keys.enumerated().map { k, key in
            var kf = DeclaredObject(keyframe, "\(field).keyframes[\(k)]")
            try kf.set("time", Self.seconds(key.time))
            try kf.set("value", .number(key.value))
            if key.easing != .linear { try kf.set("easing", .string(key.easing.description)) }
            return kf.value
        }))
        return o.value
    }

    /// `captionStyle`: what differs from `WordCaptionStyle()`.
    func wordStyle(_ w: WordCaptionStyle) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.captionStyle, "captions.captionStyle")
        let d = WordCaptionStyle()
        try o.set("words", .string(w.mode.rawValue))
        if w.maxWords != d.maxWords { try o.set("maxWords", .int(Int64(w.maxWords))) }
        if w.maxLines != d.maxLines { try o.set("maxLines", .int(Int64(w.maxLines))) }
        if w.activeColour != d.activeColour { try o.set("activeColour", .string(w.activeColour.description)) }
        if let b = w.activeBox { try o.set("activeBox", .string(b.description)) }
        if w.popScale != d.popScale { try o.set("popScale", .number(w.popScale)) }
        if let s = w.safeArea { try o.set("safeArea", .bool(s)) }
        return o.value
    }

    /// A text style as the fields that differ from `defaults` (what the parser starts from: `TextStyle()` for a text
    /// item, `TextStyle.caption` for captions); `null` or `false` where the default has something the style removes.
    func style(_ s: TextStyle, defaults d: TextStyle, field: String) throws -> DeclaredObject {
        var o = DeclaredObject(EditSchema.style, field)
        if s.font != d.font {
            switch s.font {
            case .family(let f): try o.set("font", .string(f))
            case .file(let p): try o.set("font", path(p))
            }
        }
        if s.size != d.size { try o.set("size", s.size.map(JSONValue.number) ?? .null) }
        if s.colour != d.colour { try o.set("color", .string(s.colour.description)) }
        if s.weight != d.weight { try o.set("weight", .int(Int64(s.weight))) }
        if s.italic != d.italic { try o.set("italic", .bool(s.italic)) }
        if s.align != d.align { try o.set("align", .string(s.align.rawValue)) }
        if s.maxWidth != d.maxWidth { try o.set("maxWidth", s.maxWidth.map(JSONValue.number) ?? .null) }
        if s.lineHeight != d.lineHeight { try o.set("lineHeight", s.lineHeight.map(JSONValue.number) ?? .null) }
        if s.outline != d.outline {
            guard let v = s.outline else { try o.set("outline", .bool(false)); return o }
            var x = DeclaredObject(EditSchema.outline, o.path("outline"))
            if let w = v.width { try x.set("width", .number(w)) }
            try x.set("color", .string(v.colour.description))
            try o.set("outline", x.value)
        }
        if s.shadow != d.shadow {
            if let v = s.shadow {
                var x = DeclaredObject(EditSchema.shadow, o.path("shadow"))
                if let n = v.x { try x.set("x", .number(n)) }
                if let n = v.y { try x.set("y", .number(n)) }
                try x.set("blur", .number(v.blur))
                try x.set("color", .string(v.colour.description))
                try o.set("shadow", x.value)
            } else { try o.set("shadow", .bool(false)) }
        }
        if s.box != d.box {
            if let v = s.box {
                var x = DeclaredObject(EditSchema.box, o.path("box"))
                try x.set("color", .string(v.colour.description))
                if let p = v.padding { try x.set("padding", .number(p)) }
                try x.set("radius", .number(v.radius))
                try o.set("box", x.value)
            } else { try o.set("box", .bool(false)) }
        }
        return o
    }

    // MARK: the resolved section

    func resolution(_ r: EditResolution) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.resolved, "resolved")
        try o.set("schemaVersion", .int(Int64(r.schemaVersion)))
        try o.set("segueVersion", .string(r.segueVersion))
        try o.set("renderSize", Self.size(r.renderSize))
        try o.set("frameRate", Self.rate(r.frameRate))
        try o.set("frames", .int(r.frameCount))
        try o.set("output", output(r.output, declaration: EditSchema.resolvedOutput, field: "resolved.output", allDefaults: true).value)
        try o.set("audio", .bool(r.audio))
        var policy = DeclaredObject(EditSchema.inputPolicy, "resolved.inputPolicy")
        if let root = r.inputPolicy.root { try policy.set("root", .string(root)) }
        if let root = r.inputPolicy.outputRoot { try policy.set("outputRoot", .string(root)) }
        try policy.set("allowIndirectInputs", .bool(r.inputPolicy.allowIndirectInputs))
        let l = r.inputPolicy.limits
        try policy.set("limits", .object([("maxPicturePixels", .int(Int64(l.maxPicturePixels))), ("maxLargeStillPixels", .int(Int64(l.maxLargeStillPixels))),
                                          ("maxDuration", .number(l.maxDuration)), ("maxClips", .int(Int64(l.maxClips))),
                                          ("maxPictureMemory", .int(Int64(l.maxPictureMemory)))]))
        try o.set("inputPolicy", policy.value)
        try o.set("frameTimeout", r.frameTimeout.map(JSONValue.number) ?? .null)
        if let b = r.bundle { try o.set("bundle", .string(b)) }
        try o.set("media", .array(r.media.enumerated().map { k, m in try media(m, field: "resolved.media[\(k)]") }))
        try o.set("files", .array(r.files.enumerated().map { k, f in
            var x = DeclaredObject(EditSchema.resolvedFile, "resolved.files[\(k)]")
            try x.set("path", path(f.path))
            try fingerprint(f.fingerprint, into: &x)
            return x.value
        }))
        return o.value
    }

    func fingerprint(_ f: FileFingerprint, into o: inout DeclaredObject) throws {
        try o.set("size", .int(f.size))
        try o.set("modified", .int(f.modified))
        try o.set("sha256", .string(f.sha256))
    }

    func media(_ m: ResolvedMedia, field: String) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.resolvedMedia, field)
        try o.set("path", path(m.path))
        if let f = m.fingerprint { try fingerprint(f, into: &o) }
        if m.audio { try o.set("audio", .bool(true)) }
        if let c = m.colour { try o.set("colour", colourOverride(c, field: o.path("colour"))) }
        if let s = m.imageSequence {
            try o.set("rate", Self.rate(s.rate))
            try o.set("missingFrames", .string(s.missingFrames.rawValue))
        }
        try o.set("info", sourceInfo(m.info, field: o.path("info")))
        return o.value
    }

    /// A probe's facts, every one the timeline may read.
    func sourceInfo(_ s: SourceInfo, field: String) throws -> JSONValue {
        var o = DeclaredObject(EditSchema.sourceInfo, field)
        func rate(_ name: String, _ v: Double?) throws { if let v, v.isFinite { try o.set(name, .number(v)) } }
        try o.set("codedSize", Self.size(s.codedSize))
        try o.set("sampleAspectRatio", .number(s.sampleAspectRatio))
        if s.orientation != .identity {
            try o.set("orientation", .object([("a", .int(Int64(s.orientation.a))), ("b", .int(Int64(s.orientation.b))),
                                              ("c", .int(Int64(s.orientation.c))), ("d", .int(Int64(s.orientation.d)))]))
        }
        try rate("nominalFrameRate", s.nominalFrameRate)
        try rate("baseFrameRate", s.baseFrameRate)
        try rate("measuredFrameRate", s.measuredFrameRate)
        if let r = s.streamRate { try o.set("streamRate", Self.rate(r)) }
        try rate("captureRate", s.captureRate)
        try o.set("duration", Self.seconds(s.duration))
        if s.firstFrameTime != .zero { try o.set("firstFrameTime", Self.seconds(s.firstFrameTime)) }
        if s.timestampTolerance != .zero { try o.set("timestampTolerance", Self.seconds(s.timestampTolerance)) }
        try o.set("hasAudio", .bool(s.hasAudio))
        if s.audioTrackCount != 0 { try o.set("audioTrackCount", .int(Int64(s.audioTrackCount))) }
        if let n = s.defaultAudioTrack { try o.set("defaultAudioTrack", .int(Int64(n))) }
        if let c = s.colour {
            var x = DeclaredObject(EditSchema.pictureColour, o.path("colour"))
            try x.set("matrix", .string(c.matrix.rawValue))
            try x.set("range", .string(c.range.rawValue))
            try x.set("siting", .object([("x", .number(c.siting.x)), ("y", .number(c.siting.y))]))
            try x.set("transfer", .string(c.transfer.rawValue))
            try x.set("primaries", .string(c.primaries.rawValue))
            if let p = c.peakLuminance { try x.set("peakLuminance", .number(p)) }
            try o.set("colour", x.value)
        }
        if !s.colourOverridden.isEmpty { try o.set("colourOverridden", .array(s.colourOverridden.map { .string($0) })) }
        if s.fieldOrder != .progressive { try o.set("fieldOrder", .string(s.fieldOrder.rawValue)) }
        if s.isStill { try o.set("isStill", .bool(true)) }
        if let v = s.orientationSource { try o.set("orientationSource", .string(v)) }
        if let v = s.exifOrientation { try o.set("exifOrientation", .int(Int64(v))) }
        if let v = s.largeStill { try o.set("largeStill", .string(v)) }
        if let v = s.imageSequence { try o.set("imageSequence", .string(v)) }
        if s.hasAlpha { try o.set("hasAlpha", .bool(true)) }
        if let d = s.dolbyVision {
            try o.set("dolbyVision", .object([("versionMajor", .int(Int64(d.versionMajor))), ("versionMinor", .int(Int64(d.versionMinor))),
                                              ("profile", .int(Int64(d.profile))), ("level", .int(Int64(d.level))), ("rpuPresent", .bool(d.rpuPresent)),
                                              ("enhancementLayerPresent", .bool(d.enhancementLayerPresent)),
                                              ("baseLayerPresent", .bool(d.baseLayerPresent)), ("compatibilityID", .int(Int64(d.compatibilityID)))]))
        }
        return o.value
    }
}
