import Foundation
import SegueCore

/// How an edit is split for a render farm: output-frame ranges that each worker renders on its own, the
/// settings every chunk must share, and the audio pass. Engine-neutral: a worker needs only its chunk index
/// (Slurm's `SLURM_ARRAY_TASK_ID`, Kubernetes' `JOB_COMPLETION_INDEX`, an OpenJD task parameter).
///
/// Written by `segue plan --chunks N -o plan.json`, read by `segue render --plan`, `segue stitch` and
/// `segue farm`.
public struct ChunkPlan: Codable, Equatable, Sendable {
    /// One chunk: output frames `[start, end)`.
    public struct Chunk: Codable, Equatable, Sendable {
        public let index: Int
        public let start: Int64
        public let end: Int64
        public var frames: Int64 { end - start }
        /// File name of the chunk's video, e.g. `chunk_0007.mp4`.
        public let file: String
        public init(index: Int, start: Int64, end: Int64, file: String) {
            self.index = index; self.start = start; self.end = end; self.file = file
        }
    }
    /// The audio pass: the whole mix in one file (AAC per chunk would add priming and padding at every seam).
    public struct AudioPass: Codable, Equatable, Sendable {
        public let sampleRate: Int
        public let channels: Int
        /// Samples of the whole mix: round(totalFrames / frame rate × sampleRate).
        public let samples: Int64
        /// The audio encoder (`OutputFormat.audioCodec`): "aac" (MP4 output) or "pcm_f32le" (FFV1 output).
        public let codec: String
        /// File name in the chunk folder, e.g. `audio.m4a` (`OutputFormat.audioPassExtension`).
        public let file: String
        public init(sampleRate: Int, channels: Int, samples: Int64, codec: String, file: String) {
            self.sampleRate = sampleRate; self.channels = channels; self.samples = samples; self.codec = codec; self.file = file
        }
    }

    /// A smart render's chunks (`OutputSettings.smart`, docs/smart-rendering.md): cut where the smart plan may be cut
    /// (`SmartPlan.chunkRanges`: at a copied stretch's IDR pictures and where its encoded runs start), each chunk a smart
    /// render of its frames, joined by `SmartMux`.
    public struct Smart: Codable, Equatable, Sendable {
        /// The first copied file: its parameter sets and stream parameters head the stitched file's (`SmartMux`).
        public let source: String
        /// Output frames copied and encoded.
        public let copiedFrames: Int64, encodedFrames: Int64
        /// The smart plan in words (`SmartPlan.lines`).
        public let lines: [String]
        public init(source: String, copiedFrames: Int64, encodedFrames: Int64, lines: [String]) {
            self.source = source; self.copiedFrames = copiedFrames; self.encodedFrames = encodedFrames; self.lines = lines
        }
    }

    /// The plan format; a reader refuses other versions. 2: the output format is recorded (`format`). 3: the plan holds
    /// the resolved edit every worker renders (`resolvedEdit`) instead of the command line to replay (`editArguments`).
    public static let formatVersion = 3
    public let version: Int
    /// The output format every chunk, the audio pass and the stitched file are written in (`OutputFormat`): `stitch`
    /// reads it here rather than guessing it from the chunks' file names.
    public let format: OutputSettings.Codec
    /// Absolute path of the edit file the plan was made from (for messages and the output checks; workers read
    /// `resolvedEdit`).
    public let edit: String
    /// The edit every worker, the audio pass and `farm resume` render: the edit file with the command line's options
    /// folded in and what its render decided before frame 0 (`segue resolve`'s edit file, as JSON: docs/edit-file.md,
    /// "The resolved edit"). Its media are not probed again but checked against their fingerprints.
    public let resolvedEdit: JSONValue
    /// Every media file the edit reads (clips, music), absolute: no output may replace one.
    public let inputs: [String]
    /// SHA-256 of the resolved timeline (clips, source ranges, transitions, render size, frame rate, music):
    /// a chunk rendered from a changed edit is refused.
    public let editHash: String
    /// The encoder settings every chunk shares, in words, and their SHA-256.
    public let settings: String
    public let settingsHash: String
    public let width: Int, height: Int
    /// "30000/1001".
    public let frameRate: String
    public let totalFrames: Int64
    /// Seconds: totalFrames / frame rate.
    public let duration: Double
    public let chunks: [Chunk]
    /// nil when the edit has no audio.
    public let audio: AudioPass?
    /// The input policy the plan was made under (`--root`, `--allow-indirect-inputs`, the limits): every worker, the
    /// audio pass and `farm resume` open the edit's files under it. Nil in plans written before it was recorded.
    public let inputPolicy: InputPolicy?
    /// A smart render's chunks (`Smart`); nil for a normal render (and for a smart edit with nothing to copy, which
    /// renders as usual).
    public let smart: Smart?

    public init(edit: String, resolvedEdit: JSONValue, inputs: [String] = [], editHash: String, settings: String, settingsHash: String,
                format: OutputSettings.Codec, width: Int, height: Int, frameRate: FrameRate, totalFrames: Int64, chunks: [Chunk], audio: AudioPass?,
                inputPolicy: InputPolicy? = nil, smart: Smart? = nil) {
        version = ChunkPlan.formatVersion
        self.format = format
        self.edit = edit; self.resolvedEdit = resolvedEdit; self.inputs = inputs; self.editHash = editHash; self.settings = settings; self.settingsHash = settingsHash
        self.width = width; self.height = height; self.frameRate = frameRate.description
        self.totalFrames = totalFrames
        duration = MediaTime(frame: totalFrames, rate: frameRate).seconds
        self.chunks = chunks; self.audio = audio; self.inputPolicy = inputPolicy; self.smart = smart
    }

    /// Splits `[0, total)` into `count` contiguous ranges as equal as whole frames allow: chunk `i` starts at
    /// ⌊i × total / count⌋. The ranges cover every frame once, in order; they may cut anywhere (also inside a
    /// transition, since every frame can be rendered on its own).
    /// - Throws: `UsageError` if `count` < 1 or there are more chunks than frames.
    public static func ranges(total: Int64, count: Int) throws -> [Range<Int64>] {
        guard count >= 1 else { throw UsageError("--chunks: need at least 1 chunk (got \(count))") }
        guard Int64(count) <= total else {
            throw UsageError("--chunks: \(count) chunks for \(total) frames: every chunk needs at least one frame")
        }
        let n = Int64(count)
        // total × i stays far inside Int64 for any edit MediaTime can hold (≤ 2^40 frames × 2^20 chunks).
        return (0..<n).map { i in (total * i / n)..<(total * (i + 1) / n) }
    }

    /// Splits `[0, total)` at fixed boundaries: chunk `i` is `[i × length, min((i + 1) × length, total))`, so that an
    /// edit whose length changes keeps the frames of its earlier chunks (`--cache`).
    /// - Throws: `UsageError` if `length` < 1.
    public static func ranges(total: Int64, length: Int64) throws -> [Range<Int64>] {
        guard length >= 1 else { throw UsageError("chunks need at least 1 frame each (got \(length))") }
        return stride(from: Int64(0), to: total, by: Int(length)).map { $0..<min($0 + length, total) }
    }

    /// The chunk file name for index `i`: `chunk_0007.mp4` (`OutputFormat.chunkExtension`: `.mkv` for FFV1).
    public static func fileName(index i: Int, format: OutputFormat) -> String {
        stem(index: i) + "." + format.chunkExtension
    }

    /// The chunk's name without extension, `chunk_0007`: its sidecar, logs and counters are named after it.
    public static func stem(index i: Int) -> String {
        let digits = String(i)
        return "chunk_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// What is inconsistent in the plan (chunks that do not cover `[0, totalFrames)` exactly, in order, with the
    /// standard file names), or nil.
    public var inconsistency: String? {
        guard rate != nil else { return "no valid frame rate (\(frameRate))" }
        guard !chunks.isEmpty else { return "no chunks" }
        var next: Int64 = 0
        for (i, c) in chunks.enumerated() {
            guard c.index == i else { return "chunk \(i) is numbered \(c.index)" }
            guard c.start == next, c.end > c.start else {
                return "chunk \(i) covers [\(c.start), \(c.end)); it must start at frame \(next) and hold at least one frame"
            }
            guard c.file == ChunkPlan.fileName(index: i, format: outputFormat) else {
                return "chunk \(i)'s file is named \(c.file)"
            }
            next = c.end
        }
        return next == totalFrames ? nil : "the chunks end at frame \(next), the edit at \(totalFrames)"
    }

    /// For a smart plan, what it copies, in words for the messages that name the chunks (" (smart: 50 frames copied,
    /// 46 encoded; cut at the copied stretches' keyframes and where encoded runs start)"); "" for others.
    public var smartNote: String {
        smart.map { " (smart: \($0.copiedFrames) frames copied, \($0.encodedFrames) encoded; cut at the copied stretches' keyframes and where encoded runs start)" } ?? ""
    }

    /// The row of `format` in the output-format table.
    public var outputFormat: OutputFormat { OutputFormat.of(format) }

    /// Refuses an output name the chunks' format does not take (the stitch would), before anything renders;
    /// `renderer` names what renders in chunks in the message ("the farm", "--cache"). Throws `UsageError`.
    public func checkOutputName(_ output: String, renderer: String) throws {
        guard !outputFormat.accepts(fileName: output) else { return }
        let others = OutputFormat.all.filter(\.chunkable).map { "--codec \($0.codec.rawValue) (\($0.extensionsInWords))" }.joined(separator: ", ")
        throw UsageError("\(renderer) renders \(outputFormat.name) in chunks: give the output a \(outputFormat.extensionsInWords) name (got \(output)); the formats rendered in chunks: \(others)")
    }

    /// The frame rate as a `FrameRate`.
    public var rate: FrameRate? { FrameRate.parse(frameRate) }
}

/// A chunk plan that was not made from the edit (and settings) it is used with: rendering its chunks would give a
/// file that is not the edit. Exit status 2; never worth a retry.
public struct PlanMismatch: SegueError, Equatable {
    public enum Difference: Equatable, Sendable {
        /// The encoder settings differ, each in words (`ChunkPlan.settings`).
        case settings(edit: String, plan: String)
        /// The resolved edit differs: a clip, a range, a transition, a clip file's content.
        case edit
    }
    public let difference: Difference
    /// What to do about it, in words; "make the plan again" unless the caller knows better (`farm resume`).
    public var remedy: String
    public init(_ difference: Difference, remedy: String = "make the plan again") {
        self.difference = difference; self.remedy = remedy
    }
    public var description: String {
        switch difference {
        case .settings(let edit, let plan): return "plan: the edit's encoder settings (\(edit)) differ from the plan's (\(plan)): \(remedy)"
        case .edit: return "plan: the edit (or one of its clips) changed since the plan was made: \(remedy)"
        }
    }
    public var exitStatus: Int32 { ExitStatus.invalid }
}
