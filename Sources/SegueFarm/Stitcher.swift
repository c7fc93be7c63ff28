import Foundation
import SegueCore
import SeguePipeline
import SegueMedia

/// Stitch refused: chunks are missing or wrong. Lists each with the command that renders it again.
public struct StitchRefused: SegueError {
    public let problems: [ChunkProblem]
    /// What is wrong with the audio pass, if anything.
    public let audioProblem: String?
    /// One command per chunk to render again, in chunk order, then the audio pass's.
    public let commands: [String]
    public init(problems: [ChunkProblem], audioProblem: String?, commands: [String]) {
        self.problems = problems; self.audioProblem = audioProblem; self.commands = commands
    }
    public var description: String {
        var lines: [String] = []
        if !problems.isEmpty { lines.append("\(problems.count) chunk(s) missing or wrong:") }
        lines += problems.map { "  \($0)" }
        if let a = audioProblem { lines.append("the audio pass: \(a)") }
        return (lines + ["render again with:"] + commands.map { "  \($0)" }).joined(separator: "\n")
    }
    /// Exit status 2: the chunks must be rendered again before the stitch can succeed; trying it again as it is
    /// cannot help.
    public var exitStatus: Int32 { ExitStatus.invalid }
}

/// Joins verified chunks and the audio pass into the final file.
public enum Stitcher {
    /// What a stitch wrote.
    public struct Result {
        public let path: String
        public let frames: Int64
        public let seconds: Double
        public let audioSeconds: Double
        /// Things worth knowing that do not stop the stitch (chunks drawn by different renderers).
        public let warnings: [String]
    }

    /// The problems of every chunk of `plan` in `directory`, in chunk order (empty when all are good). Besides
    /// each chunk's own checks (`ChunkRender.verify`), every chunk must have the same codec header as chunk 0.
    public static func problems(_ plan: ChunkPlan, directory: String) -> [ChunkProblem] {
        check(plan, directory: directory).problems
    }

    /// The problems, and the sidecars of the chunks that passed.
    static func check(_ plan: ChunkPlan, directory: String) -> (problems: [ChunkProblem], records: [ChunkRecord]) {
        var problems: [ChunkProblem] = [], records: [ChunkRecord] = []
        var header: String?
        for chunk in plan.chunks {
            switch ChunkRender.verify(chunk, in: directory, plan: plan) {
            case .failure(let p): problems.append(p)
            case .success(let r):
                // A smart render's chunks differ in their parameter sets (the copied stream's, the encoder's or both):
                // `SmartMux` joins them into one record.
                if plan.smart == nil, let h = header, h != r.codecHeaderHash {
                    problems.append(ChunkProblem(index: chunk.index, reason: "its codec header differs from the other chunks' (another encoder build or settings?)"))
                } else {
                    header = header ?? r.codecHeaderHash
                    records.append(r)
                }
            }
        }
        return (problems, records)
    }

    /// The command that renders chunk `index` again.
    public static func command(plan: ChunkPlan, planPath: String, directory: String, index: Int) -> String {
        "segue render --plan \(shellQuoted(planPath)) --chunk \(index) -o \(shellQuoted(directory))"
    }

    /// Verifies every chunk, then joins them by stream copy with the audio pass (`audioPath`, default the plan's
    /// audio file in `directory`) into `output` (written to a temporary file, renamed on success), and checks the
    /// result: `plan.totalFrames` frames with continuous timestamps and audio as long as the video.
    /// - Throws: `StitchRefused` (chunks or the audio pass missing or wrong: exit 2), `UsageError` (bad output name,
    ///   an output that is an input), `MediaError`.
    @discardableResult
    public static func stitch(_ plan: ChunkPlan, planPath: String, directory: String, audioPath: String? = nil,
                              to output: String) throws -> Result {
        let audio = plan.audio.map { audioPath ?? "\(directory)/\($0.file)" }
        try RenderJob.refuseOverwriting(inputsOf: nil, with: output, others:
            plan.inputs.map { ("an input of the edit", $0) } + [("the edit file", plan.edit), ("the plan", planPath)]
            + (audio.map { [("the audio pass", $0)] } ?? []) + plan.chunks.map { ("chunk \($0.index)", "\(directory)/\($0.file)") })
        let format = plan.outputFormat
        guard format.accepts(fileName: output) else {
            throw UsageError("the chunks are \(format.name): give the output a \(format.extensionsInWords) name (got \(output))")
        }
        let (bad, records) = check(plan, directory: directory)
        let audioProblem = audio.flatMap { ChunkRender.verifyAudio(plan, at: $0) }
        if !bad.isEmpty || audioProblem != nil {
            var commands = bad.map { command(plan: plan, planPath: planPath, directory: directory, index: $0.index) }
            if audioProblem != nil, let a = audio { commands.append("segue render-audio --plan \(shellQuoted(planPath)) -o \(shellQuoted(a))") }
            throw StitchRefused(problems: bad, audioProblem: audioProblem, commands: commands)
        }
        let renderers = Set(records.map(\.renderer))
        let warnings = renderers.count > 1 ? ["the chunks were drawn by different renderers (\(renderers.sorted().joined(separator: "; "))): seams may show small differences"] : []
        let rate = plan.rate!
        let pieces = plan.chunks.map { StreamCopy.Piece(path: "\(directory)/\($0.file)", startFrame: $0.start) }
        return try RenderJob.writeAtomically(to: output) { temp in
            if let smart = plan.smart {
                // Each chunk's packets as they are, behind the copied stream's parameters (`SmartMux`).
                let source = try SmartIndex.read(path: smart.source, policy: plan.inputPolicy ?? .default)
                try SmartMux.write(pieces.map { SmartMux.Piece(.encoded(path: $0.path), startFrame: $0.startFrame) }, frameRate: rate,
                                   audioPath: audio, to: temp, container: format.container, muxOptions: format.muxOptions, parameterSource: source)
            } else {
                try StreamCopy.concatenate(pieces, frameRate: rate, audioPath: audio, to: temp, container: format.container, muxOptions: format.muxOptions)
            }
            let s = try VideoPacketSummary(path: temp, frameRate: rate)
            guard s.frames == plan.totalFrames, s.timestampsContinuous else {
                throw MediaError(path: output, function: nil, message: "the joined file has \(s.frames) frames (continuous timestamps: \(s.timestampsContinuous)); the plan says \(plan.totalFrames)")
            }
            let seconds = MediaTime(frame: plan.totalFrames, rate: rate).seconds
            // AAC comes in 1024-sample frames: the audio may end up to one frame after the video.
            if let pass = plan.audio, s.audioPackets == 0 || abs(s.audioSeconds - seconds) > 2048.0 / Double(pass.sampleRate) {
                throw MediaError(path: output, function: nil, message: String(format: "the joined audio lasts %.3f s, the video %.3f s", s.audioSeconds, seconds))
            }
            return Result(path: output, frames: s.frames, seconds: seconds, audioSeconds: s.audioSeconds, warnings: warnings)
        }
    }
}

/// `s` quoted for a POSIX shell when it needs quoting.
public func shellQuoted(_ s: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
    if !s.isEmpty && s.allSatisfy(safe.contains) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
