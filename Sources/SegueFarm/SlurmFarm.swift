import Foundation
import SegueCore
import SeguePipeline

/// Options of `segue farm slurm`.
public struct SlurmOptions: Codable, Sendable {
    public var chunks = 4
    /// The stitched output file (absolute).
    public var output = ""
    /// Plan, scripts, chunks and logs; default `<output>.segue-farm` beside the output.
    public var workDir: String?
    public var partition: String?
    /// e.g. "gpu:1" (chunk jobs only).
    public var gres: String?
    /// Time limit per chunk job, in any Slurm form ("30", "1:00:00").
    public var time: String?
    /// At most this many chunks at once (`--array=…%K`).
    public var maxParallel: Int?
    /// Retries of a chunk that exits 75 (transient), by requeueing itself.
    public var retries = 2
    /// Seconds a requeued chunk waits before it may start again.
    public var retryDelay = 10
    public var audio = true
    /// Allow a work folder that other nodes may not see on a multi-node cluster.
    public var allowLocal = false
    /// Arguments passed on to every `segue render --chunk` (e.g. `--backend gpu`).
    public var renderArguments: [String] = []
    public init() {}
}

/// What `segue farm slurm` submitted: `farm.json` in the work folder, read by `farm status` and `farm resume`.
public struct FarmState: Codable, Sendable {
    public struct Submission: Codable, Sendable {
        /// "chunks", "audio" or "stitch".
        public let kind: String
        public let jobID: String
        /// Chunk indices of a chunks submission.
        public let indices: [Int]?
        public let submitted: Date
    }
    /// Absolute paths.
    public let edit: String, plan: String, chunkDir: String, logDir: String
    /// The segue executable the jobs run.
    public let segue: String
    public let options: SlurmOptions
    public var submissions: [Submission]
}

/// Renders an edit on a Slurm cluster: a job array of chunk workers, an audio job, and a stitch job that waits for
/// both (`afterok`; `--kill-on-invalid-dep=yes` cancels it when a chunk fails for good).
public enum SlurmFarm {
    /// The files of a farm render in `workDir`.
    struct Layout {
        let work: String
        var plan: String { "\(work)/plan.json" }
        var state: String { "\(work)/farm.json" }
        var chunks: String { "\(work)/chunks" }
        var logs: String { "\(work)/logs" }
        func script(_ kind: String) -> String { "\(work)/\(kind).sbatch" }
    }

    /// Plans `edit`, writes the sbatch scripts, and (unless `dryRun`) submits the chunk array, the audio pass and the
    /// stitch job. Prints through `log`.
    /// - Parameters:
    ///   - editPath: the edit file (absolute paths of clips are resolved already in `edit`).
    ///   - segue: absolute path of the segue executable every node runs (it must be visible there).
    /// - Returns: the state written to `farm.json`.
    /// - Throws: `EditError` (invalid edit or options: exit 2), `FarmError` (sbatch failed), `MediaError`.
    @discardableResult
    public static func submit(_ edit: Edit, editPath: String, editArguments: [String] = [], options: SlurmOptions, segue: String, dryRun: Bool,
                              log: (String) -> Void) throws -> FarmState {
        let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
        let work = URL(fileURLWithPath: options.workDir ?? output + ".segue-farm").standardizedFileURL.path
        let layout = Layout(work: work)
        if let k = options.maxParallel, k < 1 { throw EditError("--max-parallel", "must be ≥ 1 (got \(k))") }
        if options.retries < 0 { throw EditError("--retries", "must be ≥ 0 (got \(options.retries))") }
        try checkShared([work, (output as NSString).deletingLastPathComponent], allowLocal: options.allowLocal, dryRun: dryRun, log: log)
        for d in [work, layout.chunks, layout.logs] {
            do { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) } catch {
                throw EditError("--work-dir", "cannot create \(d): \(error.localizedDescription)")
            }
        }
        try RenderJob.refuseOverwriting(inputsOf: edit, with: output, others: [("the edit file", editPath)])
        let plan = try ChunkPlanner.plan(edit, editPath: editPath, editArguments: editArguments, chunks: options.chunks, audio: options.audio)
        try ChunkPlanner.write(plan, to: layout.plan)
        let edit = plan.edit
        var state = FarmState(edit: edit, plan: layout.plan, chunkDir: layout.chunks, logDir: layout.logs, segue: segue,
                              options: options, submissions: [])
        try writeScripts(state, layout: layout, plan: plan, output: output)
        log("segue: plan \(layout.plan): \(plan.totalFrames) frames at \(plan.frameRate) fps in \(plan.chunks.count) chunks")
        if FileManager.default.fileExists(atPath: output) {
            log("segue: note: \(output) exists; the stitch will replace it (`farm status` counts it as done only once it is rewritten)")
        }
        // Saved before anything is submitted, so that `farm status` and `farm resume` work whatever happens next.
        try save(state, layout)
        if dryRun {
            let kinds = plan.audio != nil ? ["chunks", "audio", "stitch"] : ["chunks", "stitch"]
            log("segue: dry run: wrote " + kinds.map { layout.script($0) }.joined(separator: ", ") + "; submit with:")
            for kind in kinds {
                var extra: [String] = []
                if kind == "stitch" { extra = ["--dependency=afterok:CHUNKS" + (plan.audio != nil ? ":AUDIO" : ""), "--kill-on-invalid-dep=yes"] }
                log("  sbatch " + sbatchArguments(kind, layout: layout, extra: extra).map(shellQuoted).joined(separator: " "))
            }
            return state
        }
        try submitJobs(&state, layout: layout, plan: plan, chunkIndices: plan.chunks.map(\.index),
                       audio: plan.audio != nil, waitFor: [], log: log)
        return state
    }

    /// Refuses (or warns about) folders other nodes may not see.
    static func checkShared(_ paths: [String], allowLocal: Bool, dryRun: Bool, log: (String) -> Void) throws {
        // A dry run may be made away from the cluster: do not ask it.
        let nodes = dryRun ? 0 : (try? ExternalCommand.run("sinfo", ["-h", "-N", "-o", "%N"]))
            .map { Set($0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }).count } ?? 0
        var seen = Set<String>()
        for p in paths {
            let fs = FilesystemCheck(path: p)
            guard seen.insert(fs.path).inserted else { continue }
            switch fs.verdict {
            case .shared: continue
            case .nodeLocal where nodes > 1 && !allowLocal:
                throw EditError("--work-dir", "\(fs.explanation), and this cluster has \(nodes) nodes: put the work folder and output on a shared filesystem (or pass --allow-local)")
            default:
                let scope = nodes == 1 ? "fine on this single-node cluster"
                    : nodes == 0 ? "chunks rendered on other nodes would be lost" : "chunks rendered on the other \(nodes - 1) node(s) would be lost"
                log("warning: \(fs.explanation); \(scope)")
            }
        }
    }

    static func writeScripts(_ state: FarmState, layout: Layout, plan: ChunkPlan, output: String) throws {
        let o = state.options
        let q = shellQuoted
        var common = ""
        if let p = o.partition { common += "#SBATCH --partition=\(p)\n" }
        if let t = o.time { common += "#SBATCH --time=\(t)\n" }
        let segue = q(state.segue), planPath = q(layout.plan), chunks = q(layout.chunks), logs = layout.logs
        let extra = o.renderArguments.map(q).joined(separator: " ")
        let array = "0-\(plan.chunks.count - 1)" + (o.maxParallel.map { "%\($0)" } ?? "")
        let chunkScript = """
        #!/bin/bash
        # Segue chunk workers, one array task per chunk of \(layout.plan). Written by `segue farm slurm`, which
        # submits it with --output (Slurm's log, in \(logs)) and --open-mode=append on the sbatch command line.
        # A chunk that exits 75 (transient: GPU/EGL start-up, I/O) requeues itself up to \(o.retries) time(s);
        # exit 2 (invalid edit) and 1 are final. Each attempt logs to \(logs)/chunk_NNNN.attemptA.log.
        #SBATCH --job-name=segue-chunks
        #SBATCH --array=\(array)
        #SBATCH --requeue
        \(common)\(o.gres.map { "#SBATCH --gres=\($0)\n" } ?? "")set -u
        attempt=${SLURM_RESTART_COUNT:-0}
        log=\(q(logs))/chunk_$(printf %04d "$SLURM_ARRAY_TASK_ID").attempt$attempt.log
        echo "segue: chunk $SLURM_ARRAY_TASK_ID, attempt $attempt, job $SLURM_JOB_ID on $(hostname), $(date -Is)" >"$log"
        \(segue) render --plan \(planPath) --chunk auto -o \(chunks) --progress none \(extra) >>"$log" 2>&1
        rc=$?
        echo "segue: exit status $rc" >>"$log"
        if [ "$rc" -eq 75 ] && [ "$attempt" -lt \(o.retries) ]; then
          task="${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
          echo "segue: transient failure: requeueing $task (retry $((attempt + 1)) of \(o.retries)) in \(o.retryDelay) s" >>"$log"
          # Slurm holds a requeued job back for about two minutes; a detached helper (outside this job, which the
          # requeue ends) sets the retry delay instead. Where it cannot outlive the job, Slurm's delay applies.
          setsid -f sh -c "sleep 2; scontrol update JobId=$task StartTime=now+\(o.retryDelay)" </dev/null >/dev/null 2>&1
          scontrol requeue "$task" >>"$log" 2>&1
        fi
        exit "$rc"

        """
        let audioPath = plan.audio.map { "\(layout.chunks)/\($0.file)" }
        let audioScript = """
        #!/bin/bash
        # Segue audio pass: the whole mix in one file. Written by `segue farm slurm`.
        #SBATCH --job-name=segue-audio
        \(common)exec \(segue) render-audio --plan \(planPath) -o \(q(audioPath ?? ""))

        """
        let stitchScript = """
        #!/bin/bash
        # Segue stitch: verifies every chunk and joins them with the audio by stream copy. Written by `segue farm slurm`.
        #SBATCH --job-name=segue-stitch
        \(common)exec \(segue) stitch --plan \(planPath) \(chunks) -o \(q(output))

        """
        for (kind, text) in [("chunks", chunkScript), ("audio", audioScript), ("stitch", stitchScript)] where kind != "audio" || audioPath != nil {
            let path = layout.script(kind)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755]) else {
                throw EditError("--work-dir", "cannot write \(path)")
            }
        }
    }

    /// Submits chunk jobs for `chunkIndices`, the audio pass if `audio`, and a stitch job depending on them
    /// (afterok) and on the still-queued jobs `waitFor` (afterany: stitch verifies the chunks itself).
    static func submitJobs(_ state: inout FarmState, layout: Layout, plan: ChunkPlan, chunkIndices: [Int], audio: Bool,
                           waitFor: [String], log: (String) -> Void) throws {
        var ok: [String] = []
        let now = Date()
        if !chunkIndices.isEmpty {
            var extra: [String] = []
            if chunkIndices.count != plan.chunks.count {
                extra.append("--array=" + chunkIndices.map(String.init).joined(separator: ",") + (state.options.maxParallel.map { "%\($0)" } ?? ""))
            }
            let id = try jobID(ExternalCommand.run("sbatch", sbatchArguments("chunks", layout: layout, extra: extra)))
            state.submissions.append(.init(kind: "chunks", jobID: id, indices: chunkIndices, submitted: now))
            try save(state, layout)
            ok.append(id)
            log("segue: submitted chunks \(compactRanges(chunkIndices)) as job array \(id)")
        }
        if audio {
            let id = try jobID(ExternalCommand.run("sbatch", sbatchArguments("audio", layout: layout)))
            state.submissions.append(.init(kind: "audio", jobID: id, indices: nil, submitted: now))
            try save(state, layout)
            ok.append(id)
            log("segue: submitted the audio pass as job \(id)")
        }
        var deps: [String] = []
        if !ok.isEmpty { deps.append("afterok:" + ok.joined(separator: ":")) }
        if !waitFor.isEmpty { deps.append("afterany:" + waitFor.joined(separator: ":")) }
        let extra = deps.isEmpty ? [] : ["--dependency=" + deps.joined(separator: ","), "--kill-on-invalid-dep=yes"]
        let id = try jobID(ExternalCommand.run("sbatch", sbatchArguments("stitch", layout: layout, extra: extra)))
        state.submissions.append(.init(kind: "stitch", jobID: id, indices: nil, submitted: now))
        try save(state, layout)
        log("segue: submitted the stitch as job \(id)" + (deps.isEmpty ? "" : " (after \(deps.joined(separator: ",")))"))
        log("segue: follow it with `segue farm status \(shellQuoted(layout.work))`")
    }

    /// `sbatch` arguments for one of the scripts: Slurm's own log in the logs folder (given here rather than in
    /// the script, where `#SBATCH` lines cannot quote a path with spaces), appended to across requeues.
    static func sbatchArguments(_ kind: String, layout: Layout, extra: [String] = []) -> [String] {
        let pattern = kind == "chunks" ? "slurm-chunks-%A_%a.out" : "slurm-\(kind)-%j.out"
        return ["--parsable", "--output=\(layout.logs)/\(pattern)", "--open-mode=append"] + extra + [layout.script(kind)]
    }

    /// `sbatch --parsable` prints "ID" or "ID;CLUSTER".
    static func jobID(_ out: String) throws -> String {
        let id = out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ";").first.map(String.init) ?? ""
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw FarmError("sbatch printed no job id (got \(out))") }
        return id
    }

    static func save(_ state: FarmState, _ layout: Layout) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        e.dateEncodingStrategy = .iso8601
        guard FileManager.default.createFile(atPath: layout.state, contents: try e.encode(state)) else {
            throw EditError("--work-dir", "cannot write \(layout.state)")
        }
    }

    static func load(_ work: String) throws -> (FarmState, ChunkPlan, Layout) {
        let layout = Layout(work: URL(fileURLWithPath: work).standardizedFileURL.path)
        guard let data = FileManager.default.contents(atPath: layout.state) else {
            throw EditError("work-dir", "\(layout.state) not found: give the work folder of a `segue farm slurm` run")
        }
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        let state: FarmState
        do { state = try d.decode(FarmState.self, from: data) } catch { throw EditError("work-dir", "\(layout.state) is unreadable: \(error)") }
        return (state, try ChunkPlanner.load(layout.plan), layout)
    }

    /// "0-3,5,7-8".
    static func compactRanges(_ xs: [Int]) -> String {
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
