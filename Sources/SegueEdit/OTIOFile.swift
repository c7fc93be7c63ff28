import Foundation
import SegueCore

/// What a render does with media a timeline names but that is not there (`--missing-media`).
public enum MissingMediaPolicy: String, CaseIterable, Sendable {
    /// Refuse the timeline, naming every missing file at once (`MissingMedia`, exit status 1).
    case error
    /// Black for the missing clip's time on the track (silence on an audio track).
    case black
    /// Black with the missing file's name across the middle (a black fill, and a text item on a track right above it;
    /// silence on an audio track).
    case slate
}

/// How an OpenTimelineIO timeline is read.
public struct OTIOReadOptions: Sendable {
    /// What to do with missing media (default: refuse).
    public var missingMedia: MissingMediaPolicy = .error
    /// The input policy: each media reference is checked before it is looked at (`InputPolicy.checkInput`), shader
    /// files of transitions too.
    public var policy: InputPolicy = .default
    /// The folder an `.otioz` bundle was extracted into: media references must be relative paths inside it.
    public var bundleFolder: String?
    /// The values of the timeline's placeholders (`{{name}}` in any string: a media path, a clip's name, a title in
    /// `metadata.segue`; `Template.substituteOTIO`). In the timeline's `metadata.segue` a placeholder alone takes the
    /// type of the field it fills; elsewhere a number or boolean value alone stays one, and text is text.
    public var values = TemplateValues()
    public init(missingMedia: MissingMediaPolicy = .error, policy: InputPolicy = .default, bundleFolder: String? = nil,
                values: TemplateValues = TemplateValues()) {
        self.missingMedia = missingMedia; self.policy = policy; self.bundleFolder = bundleFolder; self.values = values
    }
}

/// Media that a timeline names and that is not there, under `MissingMediaPolicy.error`: every one of them. Exit
/// status 1.
public struct MissingMedia: SegueError, Equatable {
    /// Each missing file (or clip without one), with the clip and the field naming it.
    public let items: [String]
    public var description: String {
        "\(items.count) missing media file\(items.count == 1 ? "" : "s") (--missing-media black or slate renders without them):\n  "
            + items.joined(separator: "\n  ")
    }
    public var exitStatus: Int32 { ExitStatus.failed }
}

/// An OpenTimelineIO timeline read as an `Edit` (docs/otio.md): `segue render timeline.otio`.
///
/// Read natively from OTIO's JSON (`otio_json`; bare `NaN`, `Inf`, `Infinity` numbers included): `Timeline.1`,
/// `Stack.1`, `Track.1` and the old `Sequence.1`, `Clip.1` (`media_reference`) and `Clip.2` (`media_references`,
/// `active_media_reference_key`), `Gap.1`, `Transition.1`, `ExternalReference.1` (file URLs, and paths relative to
/// the timeline), `MissingReference.1`, `GeneratorReference.1` (`SolidColor` and black: a fill; others: missing
/// media), `ImageSequenceReference.1` (an image sequence), `LinearTimeWarp.1`, `FreezeFrame.1`, nested stacks,
/// `enabled: false`, markers, `global_start_time`; unknown schemas and effects are warnings naming them. Output
/// properties (size, rate, codec, …) come from the timeline's `metadata.segue` (the edit file's top-level fields).
public struct OTIOFile: Sendable {
    /// The timeline as an edit: video tracks bottom first (nested stacks flattened), audio tracks, markers, warnings.
    public let edit: Edit
    /// The timeline's name.
    public let name: String

    /// Reads the timeline at `path` (relative media paths against its folder).
    /// - Throws: `EditError` (unreadable file, not OTIO JSON, a malformed object or time: names the JSON path),
    ///   `MissingMedia` (under `.error`, every missing file at once).
    public static func load(path: String, options: OTIOReadOptions = OTIOReadOptions()) throws -> OTIOFile {
        var st = stat()
        if stat(path, &st) == 0, let kind = InputPolicy.nonRegularKind(st.st_mode) {
            throw EditError(path, "the timeline is \(kind), not a file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EditError(path, "cannot read the timeline (missing or not readable)")
        }
        let base = URL(fileURLWithPath: path).standardized.deletingLastPathComponent().path
        return try parse(data: data, baseDirectory: base, options: options)
    }

    /// Reads a timeline from OTIO JSON bytes, relative media paths against `baseDirectory`.
    /// - Throws: as `load`.
    public static func parse(data: Data, baseDirectory: String, options: OTIOReadOptions = OTIOReadOptions()) throws -> OTIOFile {
        let clean = OTIOJSON.sanitized(data)
        var root: Any
        do { root = try JSONSerialization.jsonObject(with: clean, options: []) } catch {
            throw EditError("", "the timeline is not valid OTIO JSON" + EditFile.syntaxLocation(data: clean, error: error))
        }
        if Template.mayHold(clean) { root = try Template.substituteOTIO(root, values: options.values) }
        var reader = OTIOReader(options: options, base: options.bundleFolder ?? baseDirectory)
        guard var timeline = OTIOObject(root, path: "") else { throw EditError("", "not an OpenTimelineIO document (no OTIO_SCHEMA)") }
        if timeline.schema == "SerializableCollection" {
            let children = timeline["children"] as? [Any] ?? []
            guard let (k, first) = children.enumerated().lazy.compactMap({ k, c in OTIOObject(c, path: "children[\(k)]").map { (k, $0) } })
                    .first(where: { $0.1.schema == "Timeline" }) else {
                throw EditError("children", "the collection holds no Timeline")
            }
            if children.count > 1 { reader.warnings.append("the file is a collection of \(children.count) objects: rendering its first timeline (children[\(k)] \"\(first.name)\")") }
            timeline = first
        }
        guard timeline.schema == "Timeline" else {
            throw EditError("OTIO_SCHEMA", "is \(timeline.schemaName): Segue renders a Timeline (a Timeline.1 at the top of the file)")
        }
        _ = reader.know(timeline)
        let tracksPath = timeline.path.isEmpty ? "tracks" : "\(timeline.path).tracks"
        guard let stackObject = OTIOObject(timeline["tracks"], path: tracksPath), ["Stack", "Track", "Sequence"].contains(stackObject.schema) else {
            throw EditError(tracksPath, "is required: the timeline's Stack of tracks")
        }
        _ = reader.know(stackObject)
        var stack = try reader.composition(stackObject, audio: false)
        if stack.kind != .stack {   // a file whose top holds one track
            stack = OTIOComposition(kind: .stack, name: stack.name, path: stack.path, sourceRange: nil, children: [.composition(stack)])
        }
        if !reader.missing.isEmpty { throw MissingMedia(items: reader.missing) }

        // Lay out the video tracks, then the audio tracks.
        let window = (MediaTime.zero, stack.duration)
        let videoDrafts = reader.layStack(stack, video: true, window: window, at: .zero)
        let audioDrafts = reader.layStack(stack, video: false, window: window, at: .zero)
        var tracks: [VideoTrack] = []
        for d in videoDrafts {
            var slates: [(start: MediaTime, length: MediaTime, name: String)] = []
            let items = try reader.expand(d, video: true, slates: &slates)
            if !items.isEmpty { tracks.append(VideoTrack(clips: items)) }
            if !slates.isEmpty { tracks.append(VideoTrack(clips: slates.map(OTIOFile.slateText))) }
        }
        var audioTracks: [AudioTrack] = []
        for d in audioDrafts {
            var none: [(start: MediaTime, length: MediaTime, name: String)] = []
            let items = try reader.expand(d, video: false, slates: &none)
            guard items.contains(where: { $0.file != nil }) else { continue }   // silence only
            var track = AudioTrack(clips: items)
            if let duck = d.segue?["duck"] { track.duck = try EditFile.bool(duck, "metadata.segue.duck") }
            audioTracks.append(track)
        }
        guard MediaTime.zero < stack.duration else { throw EditError(tracksPath, "the timeline is empty: it lasts 0 s") }
        if tracks.isEmpty { tracks = [VideoTrack(clips: [.gap(stack.duration)])] }   // audio only: a picture of the background
        var edit = Edit(tracks: tracks, audioTracks: audioTracks)

        if let segue = timeline.segueMetadata {
            let prefix = (timeline.path.isEmpty ? "" : "\(timeline.path).") + "metadata.segue"
            try EditFile.properties(EditFields.open(segue, .object(EditSchema.otioTimeline), prefix), into: &edit, base: reader.base)
        }
        if let g = timeline.child("global_start_time") {
            edit.globalStartTime = try OTIOTime.seconds(of: g)
            edit.timecodeRate = OTIOJSON.number(g["rate"]).flatMap { OTIOTime.frameRate($0) }
            if reader.firstRate == nil { reader.firstRate = OTIOJSON.number(g["rate"]) }
        }
        edit.fallbackFrameRate = reader.firstRate.flatMap { OTIOTime.frameRate($0) }
        edit.markers = reader.markers.sorted { $0.start < $1.start }
        edit.warnings = reader.summary()
        return OTIOFile(edit: edit, name: timeline.name)
    }
}

extension OTIOFile {
    /// The text of a slate: the missing file's name, a title's default look (white, centred, 1/12 of the render
    /// height), wrapped at 90 % of the width, at its place on the track (cut to cut) over the black that stands for the file.
    static func slateText(_ slate: (start: MediaTime, length: MediaTime, name: String)) -> ClipSpec {
        var style = TextStyle()
        style.maxWidth = 0.9
        var item = ClipSpec(content: .text(TextSpec(text: slate.name, style: style)), duration: slate.length)
        item.at = slate.start
        return item
    }
}

extension OTIOReader {
    /// Every warning, the repeated ones gathered: effects not rendered, unknown schemas, newer schema versions.
    func summary() -> [String] {
        var out = warnings
        if !ignoredEffects.isEmpty {
            let total = ignoredEffects.values.reduce(0, +)
            out.append("\(total) effect\(total == 1 ? "" : "s") not rendered: "
                       + ignoredEffects.sorted { $0.key < $1.key }.map { "\($0.key)\($0.value > 1 ? " ×\($0.value)" : "")" }.joined(separator: ", "))
        }
        for (schema, seen) in unknownSchemas.sorted(by: { $0.key < $1.key }) {
            out.append("unknown schema \(schema) (\(seen.count == 1 ? "at" : "\(seen.count) times, first at") \(seen.path)): skipped (a gap where it has a source_range)")
        }
        if !newerSchemas.isEmpty {
            out.append("schema versions newer than this reader knows: \(newerSchemas.sorted().joined(separator: ", "))")
        }
        return out
    }
}
