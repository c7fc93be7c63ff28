import Foundation
import SegueCore

/// What a render decides before its first frame, saved with the edit (`segue resolve`, the edit file's `resolved`
/// section; docs/edit-file.md, "The resolved edit"): the render size, rate and length the edit resolved to, its output
/// settings, what it may read (the input policy and its limits), the frame timeout, and per media file the probed facts
/// the timeline relies on (`SourceInfo`) with the file's fingerprint.
///
/// An edit that carries one renders from it: its media are not probed again but checked against their fingerprints
/// (a changed file is refused, naming it), and the timeline must come out at the recorded size, rate and length
/// (`RenderJob.resolve`).
public struct EditResolution: Equatable, Sendable {
    /// The version of this section's format this Segue writes and reads: 1. A resolved edit of a newer version is
    /// refused naming it; older ones are read (there is only 1 so far).
    public static let currentSchemaVersion = 1
    public var schemaVersion = EditResolution.currentSchemaVersion
    /// The Segue that resolved it (`SegueVersion.current`).
    public var segueVersion = SegueVersion.current
    /// The output's size and rate, and its length in frames, as the timeline decided them.
    public var renderSize: PixelSize
    public var frameRate: FrameRate
    public var frameCount: Int64
    /// The output's encoder settings (the edit's `output` with the command line's options): `codecFromFileName` when
    /// the render's output name is still to choose the format.
    public var output: OutputSettings
    /// Whether the render writes the audio mix (`--no-audio`: false).
    public var audio: Bool
    /// What the edit may read and write and how much it may ask for (`--root`, `--output-root`,
    /// `--allow-indirect-inputs`, the limits). Without the folders of extracted bundles, which are each process's own.
    public var inputPolicy: InputPolicy
    /// Seconds a frame may take (`--frame-timeout`); nil: no watchdog.
    public var frameTimeout: Double?
    /// The OpenTimelineIO bundle (`.otioz`, absolute) the edit's relative paths are in: each process that reads the
    /// resolved edit extracts it and reads those paths from its folder. Nil for other edits, whose paths are absolute.
    public var bundle: String?
    /// Every media item's file as it was probed (once per file, colour override, audio or video use and image
    /// sequence), in the order the timeline probes them.
    public var media: [ResolvedMedia]
    /// The other files the edit reads (music, shaders, shader images, fonts, the caption file): their fingerprints.
    public var files: [ResolvedFile]

    public init(renderSize: PixelSize, frameRate: FrameRate, frameCount: Int64, output: OutputSettings, audio: Bool,
                inputPolicy: InputPolicy, frameTimeout: Double?, bundle: String? = nil, media: [ResolvedMedia], files: [ResolvedFile]) {
        self.renderSize = renderSize; self.frameRate = frameRate; self.frameCount = frameCount; self.output = output
        self.audio = audio; self.inputPolicy = inputPolicy; self.frameTimeout = frameTimeout; self.bundle = bundle
        self.media = media; self.files = files
    }

    /// The probed facts of the file `path` read as `audio` (an audio track's item) or not, with `colour` and
    /// `sequence`: what `RenderJob.resolve` would probe.
    public func media(path: String, audio: Bool, colour: ColourOverride?, sequence: ImageSequence?) -> ResolvedMedia? {
        media.first { $0.path == path && $0.audio == audio && $0.colour == colour && $0.imageSequence == sequence }
    }
}

/// What identifies a file's content without reading all of it: its size, modification time (whole seconds since
/// 1970) and the SHA-256 of its first and last MiB (the whole file when smaller): `Digest.fingerprint`. A re-encoded
/// file differs in its head (container header, first frames) or tail (index, last frames); a file touched without
/// changes counts as changed (the safe side).
public struct FileFingerprint: Equatable, Sendable {
    public var size: Int64
    public var modified: Int64
    public var sha256: String
    public init(size: Int64, modified: Int64, sha256: String) { self.size = size; self.modified = modified; self.sha256 = sha256 }

    /// From `Digest.fingerprint`'s words ("SIZE MTIME SHA256"); nil when they are not three such words.
    public init?(words: String) {
        let w = words.split(separator: " ")
        guard w.count == 3, let size = Int64(w[0]), let modified = Int64(w[1]) else { return nil }
        self.init(size: size, modified: modified, sha256: String(w[2]))
    }

    /// What differs in `now` (the file as it is now), in words ("its size (1000 → 1200 bytes)"), or nil.
    public func difference(_ now: FileFingerprint) -> String? {
        if size != now.size { return "its size (\(size) → \(now.size) bytes)" }
        if modified != now.modified { return "its modification time (\(modified) → \(now.modified) s since 1970)" }
        if sha256 != now.sha256 { return "its content (the SHA-256 of its first and last MiB)" }
        return nil
    }
}

/// A file the edit reads (music, a shader, a shader's image, a font, the caption file) and its fingerprint.
public struct ResolvedFile: Equatable, Sendable {
    /// Absolute.
    public var path: String
    public var fingerprint: FileFingerprint
    public init(path: String, fingerprint: FileFingerprint) { self.path = path; self.fingerprint = fingerprint }
}

/// A media file as the timeline probed it: for an audio track's item (`audio`) the audio probe, else the video probe
/// with the item's colour override and image-sequence settings; its facts (`SourceInfo`) and, for a local file, its
/// fingerprint. An image sequence (a pattern of many files) and a URL have none: they are probed again when the edit
/// renders and must give the same facts.
public struct ResolvedMedia: Equatable, Sendable {
    /// Absolute.
    public var path: String
    public var fingerprint: FileFingerprint?
    public var audio: Bool
    public var colour: ColourOverride?
    public var imageSequence: ImageSequence?
    public var info: SourceInfo
    public init(path: String, fingerprint: FileFingerprint?, audio: Bool, colour: ColourOverride?, imageSequence: ImageSequence?, info: SourceInfo) {
        self.path = path; self.fingerprint = fingerprint; self.audio = audio; self.colour = colour
        self.imageSequence = imageSequence; self.info = info
    }
}
