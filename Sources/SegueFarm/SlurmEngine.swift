import Foundation
import SegueCore
import SeguePipeline

/// Slurm: the chunks as one job array (`--array=0-(N-1)%K`, `SLURM_ARRAY_TASK_ID`), the audio pass and the stitch as
/// jobs, the stitch with `--dependency=afterok:…` and `--kill-on-invalid-dep=yes` so that a chunk failing for good
/// cancels it. A chunk that exits 75 requeues itself (`scontrol requeue`) while `SLURM_RESTART_COUNT` is below the
/// retries.
public struct SlurmEngine: FarmEngine {
    public init() {}
    public var name: String { "slurm" }
    public var chunkIndexVariable: String { "SLURM_ARRAY_TASK_ID" }

    public func nodeCount() -> Int {
        guard let out = try? ExternalCommand.run("sinfo", ["-h", "-N", "-o", "%N"]) else { return 0 }
        return Set(out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }).count
    }

    func script(_ kind: FarmJobKind, _ layout: FarmLayout) -> String { layout.script(kind, extension: "sbatch") }

    public func writeScripts(_ job: FarmJob) throws {
        let (state, layout, plan) = (job.state, job.layout, job.plan)
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
        \(common)exec \(segue) stitch --plan \(planPath) \(chunks) -o \(q(job.output))

        """
        for (kind, text) in [(FarmJobKind.chunks, chunkScript), (.audio, audioScript), (.stitch, stitchScript)] where kind != .audio || audioPath != nil {
            let path = script(kind, layout)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755]) else {
                throw FarmError("--work-dir: cannot write \(path)")
            }
        }
    }

    /// `sbatch` arguments for one of the scripts: Slurm's own log in the logs folder (given here rather than in
    /// the script, where `#SBATCH` lines cannot quote a path with spaces), appended to across requeues.
    func sbatchArguments(_ kind: FarmJobKind, layout: FarmLayout, extra: [String] = []) -> [String] {
        let pattern = kind == .chunks ? "slurm-chunks-%A_%a.out" : "slurm-\(kind.rawValue)-%j.out"
        return ["--parsable", "--output=\(layout.logs)/\(pattern)", "--open-mode=append"] + extra + [script(kind, layout)]
    }

    func dependencyArguments(after: [String], afterAny: [String]) -> [String] {
        var deps: [String] = []
        if !after.isEmpty { deps.append("afterok:" + after.joined(separator: ":")) }
        if !afterAny.isEmpty { deps.append("afterany:" + afterAny.joined(separator: ":")) }
        return deps.isEmpty ? [] : ["--dependency=" + deps.joined(separator: ","), "--kill-on-invalid-dep=yes"]
    }

    public func submit(_ kind: FarmJobKind, chunks: [Int]?, after: [String], afterAny: [String], job: FarmJob) throws -> String {
        var extra = dependencyArguments(after: after, afterAny: afterAny)
        if kind == .chunks, let c = chunks, c.count != job.plan.chunks.count {
            extra.append("--array=" + c.map(String.init).joined(separator: ",") + (job.state.options.maxParallel.map { "%\($0)" } ?? ""))
        }
        return try SlurmEngine.jobID(ExternalCommand.run("sbatch", sbatchArguments(kind, layout: job.layout, extra: extra)))
    }

    public func manualSubmitCommands(_ job: FarmJob) -> [String] {
        let kinds: [FarmJobKind] = job.plan.audio != nil ? [.chunks, .audio, .stitch] : [.chunks, .stitch]
        return kinds.map { kind in
            let extra = kind == .stitch ? dependencyArguments(after: job.plan.audio != nil ? ["CHUNKS", "AUDIO"] : ["CHUNKS"], afterAny: []) : []
            return "sbatch " + sbatchArguments(kind, layout: job.layout, extra: extra).map(shellQuoted).joined(separator: " ")
        }
    }

    public func queue() -> [QueueEntry] {
        guard let out = try? ExternalCommand.run("squeue", ["-h", "-r", "-o", "%F|%K|%T|%r"]) else { return [] }
        return out.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard f.count == 4 else { return nil }
            return QueueEntry(job: f[0], task: Int(f[1]), state: f[2], reason: f[3])
        }
    }

    public func cancel(_ jobIDs: [String]) throws {
        guard !jobIDs.isEmpty else { return }
        try ExternalCommand.run("scancel", jobIDs)
    }

    /// `sbatch --parsable` prints "ID" or "ID;CLUSTER".
    static func jobID(_ out: String) throws -> String {
        let id = out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ";").first.map(String.init) ?? ""
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw FarmError("sbatch printed no job id (got \(out))") }
        return id
    }
}
