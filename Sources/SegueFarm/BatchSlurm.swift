import Foundation
import SegueCore

/// `segue batch … --engine slurm`: the rows to render as one Slurm job array (`--array=1-T%K`), a task per row or,
/// past `maxArrayTasks` rows, the rows grouped evenly into that many tasks; task T renders its lines of `rows.txt` (the
/// rows' numbers), each by `segue batch TEMPLATE DATA --row K …`, which renders the row and records its result
/// beside the results file (`Batch.record`). The submitting process waits for the array, taking
/// each row's result as its task records it; a task that records none (killed, its node lost) failed, its log named.
/// Run again, the rows that stand are skipped and the others form a new array: that is the resume.
extension Batch {
    /// The array job's script and logs: `batch-results.jsonl.slurm/` beside the results file.
    public var slurmFolder: String { "\(resultsPath).slurm" }
    var slurmScriptPath: String { "\(slurmFolder)/batch.sbatch" }
    var slurmRowsPath: String { "\(slurmFolder)/rows.txt" }
    /// The most tasks an array gets (under Slurm's default `MaxArraySize` of 1001); more rows share tasks.
    public static let maxArrayTasks = 1000

    /// Rows a task renders, for `count` rows to render.
    static func rowsPerTask(_ count: Int) -> Int { max(1, (count + maxArrayTasks - 1) / maxArrayTasks) }

    /// The array job's script: `segue` and `arguments` (`batch TEMPLATE DATA -o PATTERN …`, without `--row`) run for
    /// each of the task's `perTask` rows (its lines of `rows.txt`), with `options`' partition, time limit and generic
    /// resources; the task fails when one of its rows did.
    public func slurmScript(segue: String, arguments: [String], options: FarmOptions, perTask: Int = 1) -> String {
        var header = "#SBATCH --job-name=segue-batch\n"
        if let p = options.partition { header += "#SBATCH --partition=\(p)\n" }
        if let t = options.time { header += "#SBATCH --time=\(t)\n" }
        if let g = options.gres { header += "#SBATCH --gres=\(g)\n" }
        return """
        #!/bin/bash
        # Segue batch rows: array task T (from 1) renders lines (T-1)*\(perTask)+1 … T*\(perTask) of rows.txt, each a row's
        # number. Written by `segue batch --engine slurm`, which submits it with --array and --output (Slurm's log, in
        # \(slurmFolder)/logs). Each row records its result in \(resultsPath).rows/ROW.json.
        \(header)set -u
        first=$(( (SLURM_ARRAY_TASK_ID - 1) * \(perTask) + 1 ))
        status=0
        for row in $(sed -n "${first},$((first + \(perTask) - 1))p" \(shellQuoted(slurmRowsPath))); do
          \(([segue] + arguments).map(shellQuoted).joined(separator: " ")) --row "$row" || status=1
        done
        exit "$status"

        """
    }

    /// Renders the rows that do not stand as a Slurm job array and waits for it (`squeue` polled every `poll`
    /// seconds), each row's result taken as its task records it; returns the results in row order. With `dryRun`
    /// the script is written and the `sbatch` command said (`log`), nothing submitted, no result. Throws `FarmError`
    /// (the script cannot be written, `sbatch` fails).
    public func runSlurm(segue: String, arguments: [String], options: FarmOptions, dryRun: Bool, poll: Double = 2,
                         log: @escaping @Sendable (String) -> Void, progress: @escaping @Sendable (BatchProgress) -> Void) throws -> [BatchResult] {
        let pendingRows = BatchRun.classify(self).pending.map(\.1.row.number)
        if dryRun {
            guard !pendingRows.isEmpty else { log("segue: every row is done: nothing to submit"); return [] }
            let arguments = try writeArray(rows: pendingRows, segue: segue, arguments: arguments, options: options)
            log("segue: wrote \(slurmScriptPath) and \(slurmRowsPath); submit it with:\n  sbatch " + arguments.map(shellQuoted).joined(separator: " "))
            return []
        }
        let run = BatchRun(self, progress: progress)
        guard !run.pending.isEmpty else { return run.results }
        let rows = run.pending.map(\.1.row.number), perTask = Batch.rowsPerTask(rows.count)
        let id = try SlurmEngine.jobID(ExternalCommand.run("sbatch", try writeArray(rows: rows, segue: segue, arguments: arguments, options: options)))
        log("segue: submitted rows \(Farm.compactRanges(rows)) as Slurm job array \(id)" + (perTask > 1 ? " (\(perTask) rows a task)" : ""))
        var waiting = run.pending
        func collect() {
            waiting = waiting.filter { k, job in
                guard let r = ownResult(job.row.number) else { return true }
                run.finish(k, r)
                return false
            }
        }
        while !waiting.isEmpty {
            Thread.sleep(forTimeInterval: poll)
            let queued = (try? ExternalCommand.run("squeue", ["-h", "-j", id, "-o", "%i"]))?.contains { !$0.isWhitespace } ?? false
            collect()
            if !queued { break }
        }
        collect()
        for (k, job) in waiting {
            let task = (rows.firstIndex(of: job.row.number) ?? 0) / perTask + 1
            run.finish(k, BatchResult(row: job.row.number, output: job.output, status: "failed",
                                      error: "its array task \(id)_\(task) recorded no result: see \(slurmFolder)/logs/task-\(id)_\(task).out"))
        }
        return run.results
    }

    /// Writes the script and the rows' list for `rows`; returns `sbatch`'s arguments.
    func writeArray(rows: [Int], segue: String, arguments: [String], options: FarmOptions) throws -> [String] {
        try FileManager.default.createDirectory(atPath: "\(slurmFolder)/logs", withIntermediateDirectories: true)
        let perTask = Batch.rowsPerTask(rows.count), tasks = (rows.count + perTask - 1) / perTask
        let script = slurmScript(segue: segue, arguments: arguments, options: options, perTask: perTask)
        guard FileManager.default.createFile(atPath: slurmScriptPath, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]),
              FileManager.default.createFile(atPath: slurmRowsPath, contents: Data(rows.map { "\($0)\n" }.joined().utf8)) else {
            throw FarmError("cannot write \(slurmScriptPath) and \(slurmRowsPath)")
        }
        return ["--parsable", "--array=1-\(tasks)" + (options.maxParallel.map { "%\($0)" } ?? ""), "--output=\(slurmFolder)/logs/task-%A_%a.out", slurmScriptPath]
    }
}
