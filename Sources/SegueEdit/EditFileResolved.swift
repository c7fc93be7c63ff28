import Foundation
import SegueCore

// The edit file's `resolved` section (`EditResolution`, docs/edit-file.md "The resolved edit") and the fields an edit
// read from OpenTimelineIO carries beyond its tracks (markers, the timecode, the fallback rate, the reader's warnings).
extension EditFile {
    /// Refuses a resolved edit whose format this Segue does not read, before anything else of it is checked (a newer
    /// version may have fields this one does not know): a `resolved` section without `schemaVersion`, or with a
    /// version above `EditResolution.currentSchemaVersion`. Older versions are read. Throws `EditError` naming
    /// `resolved.schemaVersion`.
    static func checkResolvedVersion(_ root: Any) throws {
        guard let o = root as? [String: Any], let r = o["resolved"] as? [String: Any] else { return }
        let field = "resolved.schemaVersion", current = EditResolution.currentSchemaVersion
        guard let v = r["schemaVersion"] else {
            throw EditError(field, "is missing: a resolved edit names its format's version (this segue, \(SegueVersion.current), reads version \(current)); resolve the edit again")
        }
        if !isBool(v), let n = v as? NSNumber, n.doubleValue == n.doubleValue.rounded(), n.doubleValue > Double(current) {
            let by = (r["segueVersion"] as? String).map { " (by segue \($0))" } ?? ""
            throw EditError(field, "is \(n.int64Value): this edit was resolved in a newer format\(by); this segue (\(SegueVersion.current)) reads resolved edits of schema version \(current) and older: resolve it again with this segue, or render it with a newer one")
        }
    }

    /// The bundle a resolved edit's relative paths are in (`resolved.bundle`, an `.otioz`), nil for other edits;
    /// the version checked first (`checkResolvedVersion`). Whoever opens the edit extracts it and parses the edit
    /// with its folder as the base (`EditDocument`). Throws `EditError` (not JSON, a version this Segue does not read).
    public static func resolvedBundle(in data: Data) throws -> String? {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: []) else { return nil }
        try checkResolvedVersion(root)
        return ((root as? [String: Any])?["resolved"] as? [String: Any])?["bundle"] as? String
    }

    /// The fields of an edit read from another format (`EditSchema.sourceFields`).
    static func sourceFields(_ e: EditFields, into edit: inout Edit) {
        if let list = e.objects("markers") {
            edit.markers = list.map { m in
                EditMarker(name: m.string("name") ?? "", start: m.seconds("start") ?? .zero, duration: m.seconds("duration") ?? .zero,
                           colour: m.string("colour"), comment: m.string("comment") ?? "", on: m.string("on") ?? "timeline")
            }
        }
        if let t = e.seconds("globalStartTime") { edit.globalStartTime = t }
        if let r = e.frameRate("timecodeRate") { edit.timecodeRate = r }
        if let r = e.frameRate("fallbackFrameRate") { edit.fallbackFrameRate = r }
        if let w = e["warnings"] as? [Any] { edit.warnings = w.compactMap { $0 as? String } }
    }

    /// The `resolved` section (`EditSchema.resolved`), its paths relative to `base`. Throws `EditError`: its output
    /// settings are not the edit's (the file was edited after it was resolved).
    static func resolution(_ r: EditFields, edit: Edit, base: String) throws -> EditResolution {
        let size = r.object("renderSize").map { PixelSize(width: $0.int("width") ?? 1, height: $0.int("height") ?? 1) } ?? PixelSize(width: 1, height: 1)
        var policy = InputPolicy()
        if let p = r.object("inputPolicy") {
            policy.root = p.string("root")
            policy.outputRoot = p.string("outputRoot")
            policy.allowIndirectInputs = p.bool("allowIndirectInputs") ?? false
            if let l = p.object("limits") {
                func whole(_ name: String) -> Int? { l.number(name).flatMap { $0 < 9e18 ? Int($0) : nil } }
                if let v = whole("maxPicturePixels") { policy.limits.maxPicturePixels = v }
                if let v = whole("maxLargeStillPixels") { policy.limits.maxLargeStillPixels = v }
                if let v = l.number("maxDuration") { policy.limits.maxDuration = v }
                if let v = whole("maxClips") { policy.limits.maxClips = v }
                if let v = whole("maxPictureMemory") { policy.limits.maxPictureMemory = v }
            }
        }
        var output = OutputSettings()
        if let o = r.object("output") {
            if let c = o.choice("codec", OutputSettings.Codec.self) { output.codec = c; output.codecFromFileName = false }
            if let v = o.int("crf") { output.crf = v }
            if let v = o.bool("smart") { output.smart = v }
            if let v = o.string("preset") { output.preset = v }
            output.encoder = o.string("encoder")
            if let v = o.choice("toneMap", ToneMapCurve.self) { output.toneMap = v }
            if let v = o.choice("dynamicRange", DynamicRange.self) { output.dynamicRange = v }
            let truePeak = o.number("truePeak")
            if let v = o.number("loudness") { output.loudness = LoudnessTarget(integrated: v, truePeak: truePeak ?? LoudnessTarget.defaultTruePeak) }
        }
        if output != edit.output {
            throw EditError(r.path("output"), "the resolved output settings are not the edit's output (the file was changed after it was resolved): resolve the edit again")
        }
        var resolution = EditResolution(renderSize: size, frameRate: r.frameRate("frameRate") ?? FrameRate(30), frameCount: Int64(r.int("frames") ?? 1),
                                        output: output, audio: r.bool("audio") ?? true, inputPolicy: policy,
                                        frameTimeout: r.number("frameTimeout"), bundle: r.string("bundle"),
                                        media: (r.objects("media") ?? []).map { resolvedMedia($0, base: base) },
                                        files: (r.objects("files") ?? []).map { f in
                                            ResolvedFile(path: resolved(f.string("path") ?? "", base: base), fingerprint: fingerprint(f) ?? FileFingerprint(size: 0, modified: 0, sha256: ""))
                                        })
        resolution.schemaVersion = r.int("schemaVersion") ?? EditResolution.currentSchemaVersion
        resolution.segueVersion = r.string("segueVersion") ?? ""
        return resolution
    }

    /// `size`, `modified` and `sha256` of a file entry; nil when they are left out (a pattern, a URL).
    static func fingerprint(_ f: EditFields) -> FileFingerprint? {
        guard let size = f.number("size"), let modified = f.number("modified"), let sha = f.string("sha256") else { return nil }
        return FileFingerprint(size: Int64(size), modified: Int64(modified), sha256: sha)
    }

    static func resolvedMedia(_ m: EditFields, base: String) -> ResolvedMedia {
        var sequence: ImageSequence?
        if m["rate"] != nil || m["missingFrames"] != nil {
            var s = ImageSequence()
            if let r = m.frameRate("rate") { s.rate = r }
            if let p = m.choice("missingFrames", ImageSequence.MissingFrames.self) { s.missingFrames = p }
            sequence = s
        }
        return ResolvedMedia(path: resolved(m.string("path") ?? "", base: base), fingerprint: fingerprint(m), audio: m.bool("audio") ?? false,
                             colour: m.object("colour").map(colour), imageSequence: sequence,
                             info: m.object("info").map(sourceInfo) ?? SourceInfo(codedSize: PixelSize(width: 1, height: 1), nominalFrameRate: nil, duration: .zero, hasAudio: false))
    }

    /// A probe's facts (`EditSchema.sourceInfo`).
    static func sourceInfo(_ o: EditFields) -> SourceInfo {
        let coded = o.object("codedSize").map { PixelSize(width: $0.int("width") ?? 1, height: $0.int("height") ?? 1) } ?? PixelSize(width: 1, height: 1)
        var s = SourceInfo(codedSize: coded, sampleAspectRatio: o.number("sampleAspectRatio") ?? 1,
                           orientation: o.object("orientation").map { Orientation(a: $0.int("a") ?? 1, b: $0.int("b") ?? 0, c: $0.int("c") ?? 0, d: $0.int("d") ?? 1) } ?? .identity,
                           nominalFrameRate: o.number("nominalFrameRate"), duration: o.seconds("duration") ?? .zero, hasAudio: o.bool("hasAudio") ?? false)
        s.baseFrameRate = o.number("baseFrameRate")
        s.measuredFrameRate = o.number("measuredFrameRate")
        s.streamRate = o.frameRate("streamRate")
        s.captureRate = o.number("captureRate")
        if let t = o.seconds("firstFrameTime") { s.firstFrameTime = t }
        if let t = o.seconds("timestampTolerance") { s.timestampTolerance = t }
        if let n = o.int("audioTrackCount") { s.audioTrackCount = n }
        s.defaultAudioTrack = o.int("defaultAudioTrack")
        if let c = o.object("colour") {
            let siting = c.object("siting").map { ChromaSiting(x: $0.number("x") ?? 0, y: $0.number("y") ?? 0.5) } ?? .left
            s.colour = YCbCrColour(matrix: c.choice("matrix", YCbCrMatrix.self) ?? .bt709, range: c.choice("range", ColourRange.self) ?? .limited,
                                   siting: siting, transfer: c.choice("transfer", TransferFunction.self) ?? .sdr,
                                   primaries: c.choice("primaries", ColourPrimaries.self) ?? .bt709, peakLuminance: c.number("peakLuminance"))
        }
        if let list = o["colourOverridden"] as? [Any] { s.colourOverridden = list.compactMap { $0 as? String } }
        if let f = o.choice("fieldOrder", FieldOrder.self) { s.fieldOrder = f }
        if let b = o.bool("isStill") { s.isStill = b }
        s.orientationSource = o.string("orientationSource")
        s.exifOrientation = o.int("exifOrientation")
        s.largeStill = o.string("largeStill")
        s.imageSequence = o.string("imageSequence")
        if let b = o.bool("hasAlpha") { s.hasAlpha = b }
        if let d = o.object("dolbyVision") {
            s.dolbyVision = DolbyVisionConfiguration(versionMajor: d.int("versionMajor") ?? 1, versionMinor: d.int("versionMinor") ?? 0,
                                                     profile: d.int("profile") ?? 0, level: d.int("level") ?? 0, rpuPresent: d.bool("rpuPresent") ?? false,
                                                     enhancementLayerPresent: d.bool("enhancementLayerPresent") ?? false,
                                                     baseLayerPresent: d.bool("baseLayerPresent") ?? false, compatibilityID: d.int("compatibilityID") ?? 0)
        }
        return s
    }
}

extension EditFields {
    /// A frame rate: a number or a fraction as a string (`EditSchema.frameRate`).
    func frameRate(_ name: String) -> FrameRate? {
        if let s = string(name) { return FrameRate.parse(s) }
        return number(name).flatMap(FrameRate.fromDecimal)
    }
}
