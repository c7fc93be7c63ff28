import Foundation
import SegueCore
import SegueEdit
import SegueMedia

// The resolved edit (`segue resolve`, docs/edit-file.md "The resolved edit"): an edit with what its render decides
// before frame 0 recorded in it (`EditResolution`), so that it renders again — on this machine, on a farm's workers,
// in the library — from the same facts, without probing its media again.

extension RenderOptions {
    /// These options for rendering an edit resolved as `resolution`: its audio choice, as it was resolved (what is
    /// written); everything else as it is — the input policy too: the caller's policy is what the render may read (a
    /// resolved edit's recorded policy is a record, which the command line adopts when it is given no input options,
    /// as it adopts a chunk plan's; a library caller's stricter policy is never loosened by a file). Nil: unchanged.
    public func adopting(_ resolution: EditResolution?) -> RenderOptions {
        guard let r = resolution else { return self }
        var o = self
        o.audio = r.audio
        return o
    }
}

extension RenderJob {
    /// `edit` resolved (every media file probed under `options.inputPolicy`, the timeline made) with what was decided
    /// recorded in it (`Edit.resolution`: the render size, rate and length, the output settings, `options`' audio
    /// choice, input policy and frame timeout, each media file's facts and fingerprint, the other files'
    /// fingerprints), and its timeline. An edit already resolved is returned as it is, with the timeline made from its
    /// recorded facts (`resolve`).
    /// - Parameters:
    ///   - bundle: the `.otioz` the edit was read from (its media inside `Edit.bundleFolder`), recorded so that a
    ///     reader of the written edit extracts it again.
    ///   - fingerprints: take each file's fingerprint (its first and last MiB are read); false for a resolved edit
    ///     that is rendered at once and not kept (`render`), whose files are not checked again.
    /// - Throws: what `resolve` throws.
    public static func resolvedEdit(_ edit: Edit, options: RenderOptions, bundle: String? = nil, fingerprints: Bool = true,
                                    watchdog: Watchdog? = nil) throws -> (edit: Edit, timeline: Timeline) {
        if edit.resolution != nil { return (edit, try resolve(edit, policy: options.inputPolicy, watchdog: watchdog)) }
        var media: [ResolvedMedia] = []
        func recorded(_ path: String, audio: Bool, colour: ColourOverride?, sequence: ImageSequence?, _ probe: () throws -> SourceInfo) throws -> SourceInfo {
            let info = try probe()
            let local = fingerprints && InputPolicy.urlScheme(of: path) == nil && sequence == nil
            media.append(ResolvedMedia(path: path, fingerprint: local ? fingerprint(path) : nil, audio: audio, colour: colour,
                                       imageSequence: sequence, info: info))
            return info
        }
        let timeline = try resolveProbing(edit, policy: options.inputPolicy, watchdog: watchdog, probe: { spec, policy in
            try recorded(spec.path, audio: false, colour: spec.colour, sequence: spec.imageSequence) {
                try probeSource(path: spec.path, colourOverride: spec.colour, sequence: spec.imageSequence, policy: policy)
            }
        }, probeAudio: { path, policy in
            try recorded(path, audio: true, colour: nil, sequence: nil) { try probeAudioSource(path: path, policy: policy) }
        })
        var policy = options.inputPolicy
        policy.bundleFolders = []
        var resolved = edit
        resolved.resolution = EditResolution(renderSize: timeline.renderSize, frameRate: timeline.frameRate, frameCount: timeline.frameCount,
                                             output: edit.output, audio: options.audio, inputPolicy: policy, frameTimeout: options.frameTimeout,
                                             bundle: edit.bundleFolder != nil ? bundle : nil, media: media,
                                             files: fingerprints ? otherFiles(of: edit).compactMap { p in fingerprint(p).map { ResolvedFile(path: p, fingerprint: $0) } } : [])
        return (resolved, timeline)
    }

    /// The files `edit` reads besides its media items' (music, shaders, shader images, fonts, the caption file), once
    /// each, in the order the edit names them; URLs left out.
    static func otherFiles(of edit: Edit) -> [String] {
        let media = Set(Timeline.mediaItems(of: edit).map(\.spec.path))
        var seen = Set<String>()
        return edit.inputPaths.map(\.path).filter { InputPolicy.urlScheme(of: $0) == nil && !media.contains($0) && seen.insert($0).inserted }
    }

    /// The fingerprint of the file at `path` (`Digest.fingerprint`), nil when it cannot be read.
    static func fingerprint(_ path: String) -> FileFingerprint? {
        Digest.fingerprint(file: path).flatMap { FileFingerprint(words: $0) }
    }

    /// The timeline of a resolved edit, from its recorded facts: the input policy checked as for any edit; every file
    /// checked against its fingerprint (a changed or missing one refused, naming it); each media item's facts taken from
    /// `saved` (an image sequence or a URL probed again, and refused when it gives other facts); the timeline then
    /// made as `resolve` makes it and refused when it does not come out at the recorded size, rate and length (the edit
    /// was changed, or another Segue decides otherwise).
    /// - Throws: `StaleResolvedEdit` naming a changed file, `EditError` (`resolved` does not describe the edit), both
    ///   exit status 2; what `resolve` throws.
    static func resolveSaved(_ edit: Edit, _ saved: EditResolution, policy: InputPolicy, watchdog: Watchdog?) throws -> Timeline {
        func stale(_ path: String, _ why: String) -> StaleResolvedEdit { StaleResolvedEdit(path: path, what: why) }
        func check(_ path: String, _ recorded: FileFingerprint) throws {
            guard let now = fingerprint(path) else { throw stale(path, "is missing or unreadable") }
            if let what = recorded.difference(now) { throw stale(path, "changed (\(what))") }
        }
        // The other files first (a changed shader, font or song), then each media file as the timeline asks for it.
        let files = Dictionary(saved.files.map { ($0.path, $0.fingerprint) }, uniquingKeysWith: { a, _ in a })
        let media = Set(Timeline.mediaItems(of: edit).map(\.spec.path))
        for (field, path) in edit.inputPaths where InputPolicy.urlScheme(of: path) == nil && !media.contains(path) {
            guard let recorded = files[path] else {
                throw EditError(field, "\(path) is not among the files the edit was resolved with (resolved.files): the edit changed after it was resolved; resolve it again")
            }
            try check(path, recorded)
        }
        func facts(_ path: String, audio: Bool, colour: ColourOverride?, sequence: ImageSequence?, probe: () throws -> SourceInfo) throws -> SourceInfo {
            guard let m = saved.media(path: path, audio: audio, colour: colour, sequence: sequence) else {
                throw EditError("resolved.media", "has no facts of \(path)\(audio ? " (as audio)" : ""): the edit changed after it was resolved; resolve it again")
            }
            if let recorded = m.fingerprint { try check(path, recorded); return m.info }
            // An image sequence (many files) or a URL: probed again, and the same facts or none.
            let now = try probe()
            if now != m.info { throw stale(path, "gives other facts (\(now.codedSize), \(now.duration.seconds) s)") }
            return m.info
        }
        var unresolved = edit
        unresolved.resolution = nil
        let timeline = try resolveProbing(unresolved, policy: policy, watchdog: watchdog, checksMusic: false, probe: { spec, p in
            try facts(spec.path, audio: false, colour: spec.colour, sequence: spec.imageSequence) {
                try probeSource(path: spec.path, colourOverride: spec.colour, sequence: spec.imageSequence, policy: p)
            }
        }, probeAudio: { path, p in
            try facts(path, audio: true, colour: nil, sequence: nil) { try probeAudioSource(path: path, policy: p) }
        })
        if timeline.renderSize != saved.renderSize || timeline.frameRate != saved.frameRate || timeline.frameCount != saved.frameCount {
            throw EditError("resolved", "the edit resolves to \(timeline.renderSize) at \(timeline.frameRate) fps, \(timeline.frameCount) frames, "
                            + "not the recorded \(saved.renderSize) at \(saved.frameRate) fps, \(saved.frameCount) frames (the edit changed, or segue "
                            + "\(saved.segueVersion) decided otherwise): resolve it again")
        }
        return timeline
    }
}

/// A file a resolved edit reads changed (or went) since it was resolved: rendering it would not give what was resolved.
/// Exit status 2; never worth a retry.
public struct StaleResolvedEdit: SegueError, Equatable {
    /// The file.
    public let path: String
    /// What happened to it, in words: "changed (its size (1000 → 1200 bytes))", "is missing or unreadable".
    public let what: String
    /// What to do about it; "resolve the edit again" unless the caller knows better (`farm resume`).
    public var remedy = "resolve the edit again (segue resolve; for a chunk plan, make the plan again)"
    public init(path: String, what: String) { self.path = path; self.what = what }
    public var description: String { "\(path) \(what) since the edit was resolved: \(remedy)" }
    public var exitStatus: Int32 { ExitStatus.invalid }
}
