import Foundation
import SegueCore
import SegueEdit
import SeguePipeline

/// Options of `segue farm ENGINE`. The scheduler-specific ones (partition, gres, time) are passed on where the engine
/// has such a notion.
public struct FarmOptions: Codable, Sendable {
    public var chunks = 4
    /// The stitched output file (absolute).
    public var output = ""
    /// Plan, scripts, chunks and logs; default `<output>.segue-farm` beside the output.
    public var workDir: String?
    /// The work folder, absolute: `workDir`, or `<output>.segue-farm` beside the output.
    public var workFolder: String {
        URL(fileURLWithPath: workDir ?? URL(fileURLWithPath: output).standardizedFileURL.path + ".segue-farm").standardizedFileURL.path
    }
    /// The queue to run in (Slurm's partition).
    public var partition: String?
    /// Resources per chunk job, e.g. "gpu:1" (Slurm's gres; chunk jobs only).
    public var gres: String?
    /// Time limit per chunk job, in the engine's form ("30", "1:00:00").
    public var time: String?
    /// At most this many chunks at once.
    public var maxParallel: Int?
    /// Retries of a chunk that exits 75 (transient).
    public var retries = 2
    /// Seconds a retried chunk waits before it may start again.
    public var retryDelay = 10
    public var audio = true
    /// Allow a work folder that other nodes may not see on a multi-node cluster.
    public var allowLocal = false
    /// Arguments passed on to every `segue render --chunk` (e.g. `--backend gpu`).
    public var renderArguments: [String] = []
    public init() {}
}

/// What `segue farm ENGINE` submitted: `farm.json` in the work folder, read by `farm status` and `farm resume`.
public struct FarmState: Codable, Sendable {
    public struct Submission: Codable, Sendable {
        public let kind: FarmJobKind
        public let jobID: String
        /// Chunk indices of a chunks submission.
        public let indices: [Int]?
        public let submitted: Date
    }
    /// The engine's name (`FarmEngine.name`); nil in work folders written before engines had names: Slurm.
    public var engine: String?
    /// Absolute paths.
    public let edit: String, plan: String, chunkDir: String, logDir: String
    /// The segue executable the jobs run.
    public let segue: String
    public let options: FarmOptions
    public var submissions: [Submission]
}

/// Renders an edit on a job scheduler, whichever (`FarmEngine`): plans the chunks, writes the engine's scripts,
/// submits the chunk jobs, the audio pass and a stitch that waits for both, and keeps `farm.json` so that `status`
/// and `resume` work from the work folder alone.
public enum Farm {
    /// Plans `edit`, writes the engine's scripts, and (unless `dryRun`) submits the chunks, the audio pass and the
    /// stitch. Prints through `log`.
    /// - Parameters:
    ///   - edit: the edit, resolved already (`RenderJob.resolvedEdit`: its command-line options folded in, its frame
    ///     timeout recorded) or as written (then resolved here under `policy`); the plan holds it resolved, and every
    ///     worker, the audio pass and `farm resume` render that.
    ///   - editPath: the edit file (absolute paths of clips are resolved already in `edit`).
    ///   - bundle: the `.otioz` the edit was read from (each worker extracts it again).
    ///   - segue: absolute path of the segue executable every node runs (it must be visible there).
    ///   - policy: the input policy (`--root`, …) the edit is planned under; recorded in the plan, which every worker,
    ///     the audio pass and `farm resume` open the edit's files under.
    /// - Returns: the state written to `farm.json`.
    /// - Throws: `EditError` (invalid edit), `UsageError` (invalid options, a node-local work folder on a cluster): exit 2;
    ///   `FarmError` (the scheduler failed, the work folder cannot be written), `MediaError`: exit 1.
    @discardableResult
    public static func submit(_ edit: Edit, editPath: String, bundle: String? = nil, options: FarmOptions, engine: FarmEngine,
                              segue: String, dryRun: Bool, policy: InputPolicy = .default, log: (String) -> Void) throws -> FarmState {
        let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
        // As `segue render`: where the edit names no codec, the output's name chooses the format (`-o x.mkv`: FFV1),
        // refused before anything renders where it is not rendered in chunks (`ChunkPlanner.plan`) or the name is no
        // format's.
        let edit = RenderJob.chosenByName(edit, output)
        let work = options.workFolder
        let layout = FarmLayout(work: work)
        if let k = options.maxParallel, k < 1 { throw UsageError("--max-parallel must be ≥ 1 (got \(k))") }
        if options.retries < 0 { throw UsageError("--retries must be ≥ 0 (got \(options.retries))") }
        if !engine.runsHere {
            try checkShared([work, (output as NSString).deletingLastPathComponent], nodes: dryRun ? 0 : engine.nodeCount(),
                            allowLocal: options.allowLocal, log: log)
        }
        for d in [work, layout.chunks, layout.logs] {
            do { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) } catch {
                throw FarmError("--work-dir: cannot create \(d): \(error.localizedDescription)")
            }
        }
        try policy.checkOutput(path: output)
        try policy.checkOutput(path: work + "/plan.json", option: "--work-dir")
        try RenderJob.refuseOverwriting(inputsOf: edit, with: output, others: [("the edit file", editPath)])
        let plan = try ChunkPlanner.plan(edit, editPath: editPath, chunks: options.chunks, audio: options.audio, policy: policy, bundle: bundle)
        try plan.checkOutputName(output, renderer: "the farm")
        try ChunkPlanner.write(plan, to: layout.plan)
        var state = FarmState(engine: engine.name, edit: plan.edit, plan: layout.plan, chunkDir: layout.chunks, logDir: layout.logs,
                              segue: segue, options: options, submissions: [])
        try engine.writeScripts(FarmJob(state: state, plan: plan, layout: layout))
        log("segue: plan \(layout.plan): \(plan.totalFrames) frames at \(plan.frameRate) fps in \(plan.chunks.count) chunks\(plan.smartNote)")
        if FileManager.default.fileExists(atPath: output) {
            log("segue: note: \(output) exists; the stitch will replace it (`farm status` counts it as done only once it is rewritten)")
        }
        // Saved before anything is submitted, so that `farm status` and `farm resume` work whatever happens next.
        try save(state, layout)
        if dryRun {
            log("segue: dry run: wrote the \(engine.name) scripts in \(work); submit with:")
            for c in engine.manualSubmitCommands(FarmJob(state: state, plan: plan, layout: layout)) { log("  " + c) }
            return state
        }
        try submitJobs(&state, engine: engine, layout: layout, plan: plan, chunkIndices: plan.chunks.map(\.index),
                       audio: plan.audio != nil, waitFor: [], log: log)
        return state
    }

    /// Refuses (or warns about) folders other nodes may not see. `nodes`: the cluster's size, 0 when unknown.
    static func checkShared(_ paths: [String], nodes: Int, allowLocal: Bool, log: (String) -> Void) throws {
        var seen = Set<String>()
        for p in paths {
            let fs = FilesystemCheck(path: p)
            guard seen.insert(fs.path).inserted else { continue }
            switch fs.verdict {
            case .shared: continue
            case .nodeLocal where nodes > 1 && !allowLocal:
                throw UsageError("--work-dir: \(fs.explanation), and this cluster has \(nodes) nodes: put the work folder and output on a shared filesystem (or pass --allow-local)")
            default:
                let scope = nodes == 1 ? "fine on this single-node cluster"
                    : nodes == 0 ? "chunks rendered on other nodes would be lost" : "chunks rendered on the other \(nodes - 1) node(s) would be lost"
                log("warning: \(fs.explanation); \(scope)")
            }
        }
    }

    /// Submits chunk jobs for `chunkIndices`, the audio pass if `audio`, and a stitch job depending on them
    /// (after they succeed) and on the still-queued jobs `waitFor` (after they finish: stitch verifies the chunks
    /// itself). `farm.json` is saved after each submission.
    static func submitJobs(_ state: inout FarmState, engine: FarmEngine, layout: FarmLayout, plan: ChunkPlan, chunkIndices: [Int],
                           audio: Bool, waitFor: [String], log: (String) -> Void) throws {
        var ok: [String] = []
        let now = Date()
        func job() -> FarmJob { FarmJob(state: state, plan: plan, layout: layout) }
        if !chunkIndices.isEmpty {
            let id = try engine.submit(.chunks, chunks: chunkIndices, after: [], afterAny: [], job: job())
            state.submissions.append(.init(kind: .chunks, jobID: id, indices: chunkIndices, submitted: now))
            try save(state, layout)
            ok.append(id)
            log("segue: \(engine.runsHere ? "started" : "submitted") chunks \(compactRanges(chunkIndices)) as job \(id)")
        }
        if audio {
            let id = try engine.submit(.audio, chunks: nil, after: [], afterAny: [], job: job())
            state.submissions.append(.init(kind: .audio, jobID: id, indices: nil, submitted: now))
            try save(state, layout)
            ok.append(id)
            log("segue: \(engine.runsHere ? "started" : "submitted") the audio pass as job \(id)")
        }
        let id = try engine.submit(.stitch, chunks: nil, after: ok, afterAny: waitFor, job: job())
        state.submissions.append(.init(kind: .stitch, jobID: id, indices: nil, submitted: now))
        try save(state, layout)
        let deps = (ok.isEmpty ? [] : ["after \(ok.joined(separator: ", ")) succeed"]) + (waitFor.isEmpty ? [] : ["after \(waitFor.joined(separator: ", ")) finish"])
        log("segue: \(engine.runsHere ? "ran" : "submitted") the stitch as job \(id)" + (deps.isEmpty ? "" : " (\(deps.joined(separator: "; ")))"))
        if !engine.runsHere { log("segue: follow it with `segue farm status \(shellQuoted(layout.work))`") }
    }

    static func save(_ state: FarmState, _ layout: FarmLayout) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        e.dateEncodingStrategy = .iso8601
        guard FileManager.default.createFile(atPath: layout.state, contents: try e.encode(state)) else {
            throw FarmError("--work-dir: cannot write \(layout.state)")
        }
    }

    /// The state, plan and engine of the farm render in `work` (`engine` instead of the one `farm.json` names, if given).
    /// - Throws: `UsageError` if `work` is not a farm work folder or names an unknown engine, `FarmError` if its state is unreadable.
    static func load(_ work: String, engine: FarmEngine? = nil) throws -> (FarmState, ChunkPlan, FarmLayout, FarmEngine) {
        let layout = FarmLayout(work: URL(fileURLWithPath: work).standardizedFileURL.path)
        guard let data = FileManager.default.contents(atPath: layout.state) else {
            throw UsageError("\(layout.state) not found: give the work folder of a `segue farm` run")
        }
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        let state: FarmState
        do { state = try d.decode(FarmState.self, from: data) } catch { throw FarmError("\(layout.state) is unreadable: \(error)") }
        let name = state.engine ?? "slurm"
        guard let engine = engine ?? FarmEngines.named(name) else {
            throw UsageError("\(layout.state) was written for the \(name) engine, which this segue does not know")
        }
        return (state, try ChunkPlanner.load(layout.plan), layout, engine)
    }

    /// What `farm.json` in `work` says (its `engine` is nil in work folders written before engines had names: Slurm).
    /// - Throws: `UsageError` if `work` is not a farm work folder, `FarmError` if its state is unreadable.
    public static func savedState(_ work: String) throws -> FarmState {
        let layout = FarmLayout(work: URL(fileURLWithPath: work).standardizedFileURL.path)
        guard let data = FileManager.default.contents(atPath: layout.state) else {
            throw UsageError("\(layout.state) not found: give the work folder of a `segue farm` run")
        }
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        do { return try d.decode(FarmState.self, from: data) } catch { throw FarmError("\(layout.state) is unreadable: \(error)") }
    }

    /// "0-3,5,7-8".
    public static func compactRanges(_ xs: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        let s = xs.sorted()
        while i < s.count {
            var j = i
            while j + 1 < s.count && s[j + 1] == s[j] + 1 { j += 1 }
            parts.append(i == j ? "\(s[i])" : "\(s[i])-\(s[j])")
            i = j + 1
        }
        return parts.joined(separator: ",")
    }
}
