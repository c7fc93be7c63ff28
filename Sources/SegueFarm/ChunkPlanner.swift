import Foundation
import SegueCore
import SeguePipeline
import SegueEdit
import SegueMedia

/// Makes and reads `ChunkPlan`s: the contract between `segue plan --chunks`, the chunk workers and `stitch`.
public enum ChunkPlanner {
    /// Resolves `edit` (probing every clip, unless it is resolved already: `RenderJob.resolvedEdit`) and splits it
    /// into `count` chunks; the plan holds the resolved edit (`ChunkPlan.resolvedEdit`), which every worker renders.
    /// - Parameters:
    ///   - editPath: the edit file, recorded in the plan so workers and `stitch` can name it in commands.
    ///   - audio: include the audio pass (false: the stitched file has video only); a resolved edit's own choice wins.
    ///   - policy: the input policy the edit is resolved (or checked) under, recorded for the workers
    ///     (`ChunkPlan.inputPolicy`).
    ///   - frameTimeout: recorded in the resolved edit (`--frame-timeout`).
    ///   - bundle: the `.otioz` the edit was read from, recorded so that each worker extracts it again.
    ///   - chunkSeconds: instead of `count` equal chunks, chunks of this many seconds (rounded to whole frames) at fixed
    ///     boundaries (`ChunkPlan.ranges(total:length:)`: `--cache` without `--chunks`).
    /// - Throws: `EditError` (invalid edit), `UsageError` (more chunks than frames), `MediaError` (a clip cannot be read).
    public static func plan(_ edit: Edit, editPath: String, chunks count: Int, audio: Bool = true, policy: InputPolicy = .default,
                            frameTimeout: Double? = 120, bundle: String? = nil, chunkSeconds: Int? = nil) throws -> ChunkPlan {
        let format = edit.output.format
        if edit.output.smart { try RenderJob.checkSmart(edit, keepPartial: false) }
        guard format.chunkable else {
            let chunkable = OutputFormat.all.filter(\.chunkable).map { "--codec \($0.codec.rawValue)" }.joined(separator: " or ")
            throw UsageError("\(format.name) is rendered in one pass, not in chunks (segue farm, --cache, --chunks): render it without them, or render the chunks with \(chunkable)")
        }
        var options = RenderOptions()
        options.audio = audio
        options.inputPolicy = policy
        options.frameTimeout = frameTimeout
        let resolved = try RenderJob.resolvedEdit(edit, options: options, bundle: bundle).edit
        // The workers read the written edit: the plan is made from it as they will read it.
        let json = try EditFileWriter.json(resolved)
        let read = try readResolved(json, bundleFolder: resolved.bundleFolder, policy: policy)
        let saved = read.resolution!
        let timeline = try RenderJob.resolve(read, policy: policy)
        var ranges = try chunkSeconds.map { s in
            try ChunkPlan.ranges(total: timeline.frameCount, length: max(1, MediaTime(value: Int64(s), timescale: 1).rounded(toUnitsOf: Int64(timeline.frameRate.numerator), per: Int64(timeline.frameRate.denominator))))
        } ?? ChunkPlan.ranges(total: timeline.frameCount, count: count)
        // A smart render is cut only where each chunk can be a smart render of its own (`SmartPlan.chunkRanges`); one
        // that copies nothing renders as usual, in the chunks asked for.
        var smart: ChunkPlan.Smart?
        if timeline.output.smart {
            let s = try SmartPlan.make(timeline)
            if let source = s.matchedStream {
                ranges = s.chunkRanges(ranges)
                smart = ChunkPlan.Smart(source: source.path, copiedFrames: s.copiedFrames, encodedFrames: s.encodedFrames, lines: s.lines)
            }
        }
        let pass: ChunkPlan.AudioPass? = saved.audio ? ChunkPlan.AudioPass(
            sampleRate: timeline.audio.sampleRate, channels: timeline.audio.channels,
            samples: MediaTime(frame: timeline.frameCount, rate: timeline.frameRate).rounded(toUnitsOf: Int64(timeline.audio.sampleRate)),
            codec: format.audioCodec, file: "audio.\(format.audioPassExtension)") : nil
        let settings = settingsDescription(timeline)
        return ChunkPlan(edit: URL(fileURLWithPath: editPath).standardizedFileURL.path, resolvedEdit: json,
                         inputs: timeline.mediaPaths + (timeline.music.map { [$0.path] } ?? []), editHash: editHash(timeline),
                         settings: settings, settingsHash: Digest.sha256(settings),
                         format: format.codec, width: timeline.renderSize.width, height: timeline.renderSize.height, frameRate: timeline.frameRate,
                         totalFrames: timeline.frameCount,
                         chunks: ranges.enumerated().map { i, r in
                             ChunkPlan.Chunk(index: i, start: r.lowerBound, end: r.upperBound, file: ChunkPlan.fileName(index: i, format: format))
                         },
                         audio: pass, inputPolicy: policy, smart: smart)
    }

    /// A resolved edit's JSON read back as a worker reads it, its bundle's relative paths from `bundleFolder` (the one
    /// this process extracted).
    static func readResolved(_ json: JSONValue, bundleFolder: String?, policy: InputPolicy) throws -> Edit {
        var p = policy
        if let f = bundleFolder { p.bundleFolders.append(f) }
        var edit = try EditFile.parse(data: json.serialized(), baseDirectory: bundleFolder ?? "/", policy: p)
        edit.bundleFolder = bundleFolder
        return edit
    }

    /// The edit `plan` was made from, as every worker renders it (`ChunkPlan.resolvedEdit`): for an edit of an `.otioz`
    /// bundle, with the bundle extracted (keep the document while the edit renders).
    /// - Throws: `EditError` (the plan's edit is not one this Segue reads).
    public static func document(of plan: ChunkPlan) throws -> EditDocument {
        try EditDocument.resolved(plan.resolvedEdit.serialized(), name: plan.edit, policy: plan.inputPolicy ?? .default)
    }

    /// The encoder settings every chunk must share, in words (hashed into `ChunkPlan.settingsHash`).
    static func settingsDescription(_ t: Timeline) -> String {
        let o = t.output, format = o.format
        var s = "segue-chunks/\(ChunkPlan.formatVersion) codec=\(o.codec.rawValue) encoder=\(format.videoEncoder(o))"
        if format.takesEncoderSettings { s += " crf=\(o.crf) preset=\(o.preset)" }
        let colour = "pix_fmt=\(format.pixelFormat(o.dynamicRange) ?? "?") colour=" + (o.dynamicRange == .sdr ? "bt709/limited" : "bt2020/\(o.dynamicRange.rawValue)/limited")
        // A smart render's chunks copy packets and encode with the copied stream's settings: never a normal render's.
        return s + " size=\(t.renderSize) rate=\(t.frameRate) \(colour) tonemap=\(o.toneMap.rawValue)" + (o.smart ? " smart" : "")
    }

    /// SHA-256 of what decides the output: the resolved timeline (as `segue plan --json` reports it: still durations
    /// and the background colour included), every clip's and the music's settings (each transition's type,
    /// parameters, easing, blending and shader text included), each of their files' fingerprint
    /// (`Digest.fingerprint`: size, modification time, SHA-256 of the first and last MiB), so chunks of two different
    /// versions of a clip are never stitched, and the SHA-256 of each transition's shader file and image parameters
    /// (so that an edited shader or image invalidates the plan), and of the caption file and font files. Paths inside an
    /// extracted `.otioz` bundle count from its folder.
    static func editHash(_ t: Timeline) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var text = (try? e.encode(TimelineReport(t))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        for p in t.mediaPaths + (t.music.map { [$0.path] } ?? []) {
            text += "\n\(p) \(Digest.fingerprint(file: p) ?? "unreadable")"
        }
        // The caption file and font files: an edited caption file or font invalidates the plan.
        for f in t.textFiles { text += "\n\(f) \(Digest.sha256(file: f) ?? "unreadable")" }
        for transition in t.placements.compactMap(\.spec.transition) {
            var files = transition.shader.map { [$0.path] } ?? []
            for case .image(let path) in transition.params.values.sorted(by: { "\($0)" < "\($1)" }) { files.append(path) }
            for f in files { text += "\n\(f) \(Digest.sha256(file: f) ?? "unreadable")" }
        }
        text += "\n" + String(describing: t.placements.map(\.spec)) + "\n" + String(describing: t.audioPlacements.map(\.spec))
            + "\n" + String(describing: t.music)
        // An .otioz bundle is extracted afresh by every process, into a folder of its own: paths inside it count
        // relative to it (the extracted files keep the bundle's modification times, so their fingerprints agree).
        // (JSON writes the folder with its slashes escaped.)
        for folder in t.inputPolicy.bundleFolders {
            text = text.replacingOccurrences(of: folder, with: "<bundle>").replacingOccurrences(of: folder.replacingOccurrences(of: "/", with: "\\/"), with: "<bundle>")
        }
        return Digest.sha256(text)
    }

    /// Writes `plan` as pretty-printed JSON, atomically.
    public static func write(_ plan: ChunkPlan, to path: String) throws {
        try ChunkRender.writeJSON(plan, to: path)
    }

    /// Reads a plan file.
    /// - Throws: `UsageError` if the file is missing, not a plan, or of another format version.
    public static func load(_ path: String) throws -> ChunkPlan {
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("plan: cannot read \(path)") }
        // The version first: a plan of another format (version 1 did not record the output format) is refused as such.
        struct Versioned: Decodable { let version: Int }
        func notAPlan(_ error: Error) -> UsageError {
            UsageError("plan: \(path) is not a Segue chunk plan (\(error.localizedDescription)); make one with `segue plan EDIT.json --chunks N -o plan.json`")
        }
        let version: Int
        do { version = try JSONDecoder().decode(Versioned.self, from: data).version } catch { throw notAPlan(error) }
        guard version == ChunkPlan.formatVersion else {
            let why = version == 2 ? " (its workers replay the command line, editArguments, on the edit file; format 3 holds the resolved edit they render)" : ""
            throw UsageError("plan: \(path) is plan format \(version)\(why); this segue reads format \(ChunkPlan.formatVersion): make the plan again")
        }
        let plan: ChunkPlan
        do { plan = try JSONDecoder().decode(ChunkPlan.self, from: data) } catch { throw notAPlan(error) }
        if let why = plan.inconsistency { throw UsageError("plan: \(path) is inconsistent: \(why); make the plan again") }
        return plan
    }

    /// Checks that `plan` was made from `edit` with the same settings.
    /// - Throws: `PlanMismatch` naming what changed.
    public static func check(_ plan: ChunkPlan, matches timeline: Timeline) throws {
        let settings = settingsDescription(timeline)
        if plan.settingsHash != Digest.sha256(settings) {
            throw PlanMismatch(.settings(edit: settings, plan: plan.settings))
        }
        if plan.editHash != editHash(timeline) || plan.totalFrames != timeline.frameCount {
            throw PlanMismatch(.edit)
        }
    }
}
