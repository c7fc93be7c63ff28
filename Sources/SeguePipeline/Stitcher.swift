import Foundation
import SegueCore
import SegueMedia

/// Stitch refused: chunks are missing or wrong. Lists each with the command that renders it again.
public struct StitchRefused: Error, CustomStringConvertible {
    public let problems: [ChunkProblem]
    /// One command per chunk to render again, in chunk order.
    public let commands: [String]
    public var description: String {
        "\(problems.count) chunk(s) missing or wrong:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
            + "\nrender them with:\n" + commands.map { "  \($0)" }.joined(separator: "\n")
    }
}

/// Joins verified chunks and the audio pass into the final file.
public enum Stitcher {
    /// What a stitch wrote.
    public struct Result {
        public let path: String
        public let frames: Int64
        public let seconds: Double
        public let audioSeconds: Double
    }

    /// The problems of every chunk of `plan` in `directory`, in chunk order (empty when all are good). Besides
    /// each chunk's own checks (`ChunkRender.verify`), every chunk must have the same codec header as chunk 0.
    public static func problems(_ plan: ChunkPlan, directory: String) -> [ChunkProblem] {
        var problems: [ChunkProblem] = []
        var header: String?
        for chunk in plan.chunks {
            switch ChunkRender.verify(chunk, in: directory, plan: plan) {
            case .failure(let p): problems.append(p)
            case .success(let r):
                if let h = header, h != r.codecHeaderHash {
                    problems.append(ChunkProblem(index: chunk.index, reason: "its codec header differs from the other chunks' (another encoder build or settings?)"))
                } else { header = header ?? r.codecHeaderHash }
            }
        }
        return problems
    }

    /// The command that renders chunk `index` again.
    public static func command(plan: ChunkPlan, planPath: String, directory: String, index: Int) -> String {
        "segue render --plan \(shellQuoted(planPath)) --chunk \(index) -o \(shellQuoted(directory))"
    }

    /// Verifies every chunk, then joins them by stream copy with the audio pass (`audioPath`, default the plan's
    /// audio file in `directory`) into `output` (written to a temporary file, renamed on success), and checks the
    /// result: `plan.totalFrames` frames with continuous timestamps and audio as long as the video.
    /// - Throws: `StitchRefused` (chunks missing or wrong: exit 2), `EditError` (bad output name, no audio pass),
    ///   `MediaError`.
    @discardableResult
    public static func stitch(_ plan: ChunkPlan, planPath: String, directory: String, audioPath: String? = nil,
                              to output: String) throws -> Result {
        let ffv1 = plan.chunks[0].file.hasSuffix(".mkv")
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        if ffv1 && ext != "mkv" { throw EditError("output", "FFV1 chunks are joined into Matroska: give the output a .mkv name (got \(output))") }
        if !ffv1 && !["mp4", "m4v", "mov"].contains(ext) { throw EditError("output", "give the output a .mp4 name (got \(output))") }
        let bad = problems(plan, directory: directory)
        if !bad.isEmpty {
            throw StitchRefused(problems: bad, commands: bad.map { command(plan: plan, planPath: planPath, directory: directory, index: $0.index) })
        }
        var audio: String?
        if let pass = plan.audio {
            let a = audioPath ?? "\(directory)/\(pass.file)"
            guard FileManager.default.fileExists(atPath: a) else {
                throw EditError("audio", "the audio pass \(a) is missing: render it with `segue render-audio --plan \(shellQuoted(planPath)) -o \(shellQuoted(a))`")
            }
            audio = a
        }
        let rate = plan.rate!
        let pieces = plan.chunks.map { StreamCopy.Piece(path: "\(directory)/\($0.file)", startFrame: $0.start) }
        return try RenderJob.writeAtomically(to: output) { temp in
            try StreamCopy.concatenate(pieces, frameRate: rate, audioPath: audio, to: temp, container: ffv1 ? "matroska" : "mp4")
            let s = try VideoPacketSummary(path: temp, frameRate: rate)
            guard s.frames == plan.totalFrames, s.timestampsContinuous else {
                throw MediaError(path: output, function: nil, message: "the joined file has \(s.frames) frames (continuous timestamps: \(s.timestampsContinuous)); the plan says \(plan.totalFrames)")
            }
            let seconds = MediaTime(frame: plan.totalFrames, rate: rate).seconds
            // AAC comes in 1024-sample frames: the audio may end up to one frame after the video.
            if let pass = plan.audio, s.audioPackets == 0 || abs(s.audioSeconds - seconds) > 2048.0 / Double(pass.sampleRate) {
                throw MediaError(path: output, function: nil, message: String(format: "the joined audio lasts %.3f s, the video %.3f s", s.audioSeconds, seconds))
            }
            return Result(path: output, frames: s.frames, seconds: seconds, audioSeconds: s.audioSeconds)
        }
    }
}

/// `s` quoted for a POSIX shell when it needs quoting.
public func shellQuoted(_ s: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
    if !s.isEmpty && s.allSatisfy(safe.contains) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
