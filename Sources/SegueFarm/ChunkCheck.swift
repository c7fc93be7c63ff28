import Foundation
import SegueCore
import SeguePipeline
import SegueMedia

/// A sidecar's record of the finished file it describes (`file`, beside the sidecar): its size and SHA-256, so that a
/// swapped, truncated or damaged file is found.
public protocol FinishedFileRecord {
    var file: String { get }
    var bytes: Int64 { get }
    var sha256: String { get }
}

extension FinishedFileRecord {
    /// True when the file at `path` is still, byte for byte, the one recorded (size and SHA-256).
    func describes(_ path: String) -> Bool {
        guard let (bytes, sha) = try? ChunkRender.fingerprint(path) else { return false }
        return bytes == self.bytes && sha == sha256
    }
}

/// The JSON sidecar written beside each finished chunk (`chunk_0007.json`): what `stitch` checks.
public struct ChunkRecord: Codable, Equatable, Sendable, FinishedFileRecord {
    public let index: Int
    /// Output frames `[start, end)`, and the frames in the chunk file.
    public let start: Int64, end: Int64, frames: Int64
    /// The plan's hashes of the encoder settings and of the edit.
    public let settingsHash: String, editHash: String
    /// SHA-256 of the chunk's codec header (identical for every chunk of a plan).
    public let codecHeaderHash: String
    public let file: String, bytes: Int64, sha256: String
    /// The renderer, the wall-clock seconds the chunk took, and the machine that rendered it.
    public let renderer: String, seconds: Double, host: String
}

/// The sidecar of the audio pass (`audio.json` beside `audio.m4a`), written by `render-audio --plan`.
public struct AudioRecord: Codable, Equatable, Sendable, FinishedFileRecord {
    public let editHash: String
    /// The mix: samples (must equal the plan's), at `sampleRate` Hz in `channels` channels, encoded as `codec`.
    public let samples: Int64, sampleRate: Int, channels: Int, codec: String
    public let file: String, bytes: Int64, sha256: String
}

/// Checks of finished chunks.
public enum ChunkRender {
    static func sidecarPath(_ media: String) -> String {
        (media as NSString).deletingPathExtension + ".json"
    }

    /// Size and SHA-256 of a finished file.
    static func fingerprint(_ path: String) throws -> (bytes: Int64, sha256: String) {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
        guard let bytes, let sha = Digest.sha256(file: path) else {
            throw MediaError(path: path, function: "read", message: "cannot read the finished file back")
        }
        return (bytes, sha)
    }

    /// Writes `value` as pretty JSON through a temporary file (plans and sidecars).
    static func writeJSON<T: Encodable>(_ value: T, to path: String) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try e.encode(value)
        try RenderJob.writeAtomically(to: path) { temp in
            guard FileManager.default.createFile(atPath: temp, contents: data + Data("\n".utf8)) else {
                throw MediaError(path: path, function: "open", message: "cannot write the file: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Removes temporary files an earlier attempt at this chunk left when it was killed (SIGKILL at a time limit
    /// leaves no chance to clean up): `.chunk_0007.mp4.segue-PID-N.tmp`.
    static func removeStaleTemporaries(of file: String, in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for n in names where n.hasPrefix(".\(file).segue-") && n.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(n)")
        }
    }

    /// Checks the audio pass of `plan` at `path`: its sidecar matches the plan and the file is the one it
    /// describes. Returns what is wrong in words, or nil.
    public static func verifyAudio(_ plan: ChunkPlan, at path: String) -> String? {
        guard let pass = plan.audio else { return nil }
        guard FileManager.default.fileExists(atPath: path) else { return "missing (\((path as NSString).lastPathComponent) is not there)" }
        guard let data = FileManager.default.contents(atPath: sidecarPath(path)),
              let r = try? JSONDecoder().decode(AudioRecord.self, from: data) else {
            return "no readable sidecar \((sidecarPath(path) as NSString).lastPathComponent) (render it with --plan)"
        }
        if r.editHash != plan.editHash { return "rendered from another version of the edit" }
        if r.samples != pass.samples || r.sampleRate != pass.sampleRate || r.codec != pass.codec {
            return "holds \(r.samples) samples of \(r.codec) at \(r.sampleRate) Hz; the plan says \(pass.samples) of \(pass.codec) at \(pass.sampleRate) Hz"
        }
        guard r.describes(path) else {
            return "the file is not the one its sidecar describes (changed, truncated or damaged)"
        }
        return nil
    }

    /// Checks chunk `chunk` of `plan` in `directory`: the sidecar is there and matches the plan, and the video
    /// file is byte for byte the one the sidecar describes (size and SHA-256), which was checked for the planned
    /// number of frames, continuous timestamps, a keyframe first and its codec header before it was put in place.
    /// When it is not, the packets are read to say what differs. Never trusts an engine's exit status.
    /// - Returns: the sidecar, or what is wrong in words.
    public static func verify(_ chunk: ChunkPlan.Chunk, in directory: String, plan: ChunkPlan) -> Result<ChunkRecord, ChunkProblem> {
        let video = "\(directory)/\(chunk.file)", sidecar = sidecarPath(video)
        func problem(_ s: String) -> Result<ChunkRecord, ChunkProblem> { .failure(ChunkProblem(index: chunk.index, reason: s)) }
        guard FileManager.default.fileExists(atPath: video) else { return problem("missing (\(chunk.file) is not there)") }
        guard let data = FileManager.default.contents(atPath: sidecar) else { return problem("unfinished (no sidecar \((sidecar as NSString).lastPathComponent))") }
        guard let r = try? JSONDecoder().decode(ChunkRecord.self, from: data) else { return problem("its sidecar is unreadable") }
        if r.settingsHash != plan.settingsHash { return problem("rendered with other encoder settings (settings hash \(r.settingsHash.prefix(12)) ≠ plan's \(plan.settingsHash.prefix(12)))") }
        if r.editHash != plan.editHash { return problem("rendered from another version of the edit") }
        if r.index != chunk.index || r.start != chunk.start || r.end != chunk.end {
            return problem("its sidecar is for frames [\(r.start), \(r.end)), the plan's chunk \(chunk.index) is [\(chunk.start), \(chunk.end))")
        }
        if r.frames != chunk.frames { return problem("its sidecar records \(r.frames) frames, the plan says \(chunk.frames)") }
        // The file the sidecar describes was checked (frames, keyframe first, timestamps, size) before it was put
        // in place: if it is still that file byte for byte, there is nothing more to read.
        if r.describes(video) { return .success(r) }
        // It is not: say what differs where the packets show it.
        guard let rate = plan.rate else { return problem("the plan has no frame rate") }
        let s: VideoPacketSummary
        do { s = try VideoPacketSummary(path: video, frameRate: rate) } catch { return problem("unreadable: \(error)") }
        if s.frames != chunk.frames { return problem("has \(s.frames) frames, the plan says \(chunk.frames)") }
        if s.headerHash != r.codecHeaderHash { return problem("its codec header differs from its sidecar's") }
        if !s.startsWithKeyframe { return problem("does not start with a keyframe") }
        if !s.timestampsContinuous { return problem("its timestamps are not 0…\(chunk.frames - 1), one per frame") }
        if s.width != plan.width || s.height != plan.height { return problem("is \(s.width)x\(s.height), the plan says \(plan.width)x\(plan.height)") }
        return problem("the file is not the one its sidecar describes (swapped, changed, truncated or damaged)")
    }
}

/// What is wrong with one chunk.
public struct ChunkProblem: Error, CustomStringConvertible, Sendable {
    public let index: Int
    public let reason: String
    public var description: String { "chunk \(index): \(reason)" }
}
