import Foundation
import SegueCore

/// `segue batch … --engine slurm`: the rows to render as one Slurm job array, a task per row (`--array=LIST%K`,
/// `SLURM_ARRAY_TASK_ID` the row's number), each task `segue batch TEMPLATE DATA --row K …`, which renders the row and
/// records its result beside the results file (`Batch.record`). The submitting process waits for the array, taking
/// each row's result as its task records it; a task that records none (killed, its node lost) failed, its log named.
/// Run again, the rows that stand are skipped and the others form a new array: that is the resume.
extension Batch {
    /// The array job's script and logs: `batch-results.jsonl.slurm/` beside the results file.
    public var slurmFolder: String { "\(resultsPath).slurm" }
    var slurmScriptPath: String { "\(slurmFolder)/batch.sbatch" }

    /// The array job's script: `segue` and `arguments` (`batch TEMPLATE DATA -o PATTERN …`, without `--row`) run for
    /// the task's row, with `options`' partition, time limit and generic resources.
    public func slurmScript(segue: String, arguments: [String], options: FarmOptions) -> String {
        var header = "#SBATCH --job-name=segue-batch\n"
        if let p = options.partition { header += "#SBATCH --partition=\(p)\n" }
        if let t = options.time { header += "#SBATCH --time=\(t)\n" }
        if let g = options.gres { header += "#SBATCH --gres=\(g)\n" }
        return """
        #!/bin/bash
        # Segue batch rows, one array task per row (SLURM_ARRAY_TASK_ID is the row's number, from 1). Written by
        # `segue batch --engine slurm`, which submits it with --array (the rows to render) and --output (Slurm's log,
        # in \(slurmFolder)/logs). Each task records its result in \(resultsPath).rows/ROW.json.
        \(header)exec \(([segue] + arguments).map(shellQuoted).joined(separator: " ")) --row "$SLURM_ARRAY_TASK_ID"

        """
    }

    /// Renders the rows that do not stand as a Slurm job array and waits for it (`squeue` polled every `poll`
    /// seconds), each row's result taken as its task records it; returns the results in row order. With `dryRun`
    /// the script is written and the `sbatch` command said (`log`), nothing submitted, no result. Throws `FarmError`
    /// (the script cannot be written, `sbatch` fails).
    public func runSlurm(segue: String, arguments: [String], options: FarmOptions, dryRun: Bool, poll: Double = 2,
                         log: @escaping @Sendable (String) -> Void, progress: @escaping @Sendable (BatchProgress) -> Void) throws -> [BatchResult] {
        try FileManager.default.createDirectory(atPath: "\(slurmFolder)/logs", withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: slurmScriptPath, contents: Data(slurmScript(segue: segue, arguments: arguments, options: options).utf8),
                                             attributes: [.posixPermissions: 0o755]) else { throw FarmError("cannot write \(slurmScriptPath)") }
        if dryRun {
            let rows = BatchRun.classify(self).pending.map(\.1.row.number)
            guard !rows.isEmpty else { log("segue: every row is done: nothing to submit"); return [] }
            log("segue: wrote \(slurmScriptPath); submit it with:\n  sbatch " + sbatchArguments(rows: rows, options: options).map(shellQuoted).joined(separator: " "))
            return []
        }
        let run = BatchRun(self, progress: progress)
        guard !run.pending.isEmpty else { return run.results }
        let id = try SlurmEngine.jobID(ExternalCommand.run("sbatch", sbatchArguments(rows: run.pending.map(\.1.row.number), options: options)))
        log("segue: submitted rows \(Farm.compactRanges(run.pending.map(\.1.row.number))) as Slurm job array \(id)")
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
            run.finish(k, BatchResult(row: job.row.number, output: job.output, status: "failed",
                                      error: "its array task \(id)_\(job.row.number) recorded no result: see \(slurmFolder)/logs/row-\(id)_\(job.row.number).out"))
        }
        return run.results
    }

    func sbatchArguments(rows: [Int], options: FarmOptions) -> [String] {
        ["--parsable", "--array=" + Farm.compactRanges(rows) + (options.maxParallel.map { "%\($0)" } ?? ""),
         "--output=\(slurmFolder)/logs/row-%A_%a.out", slurmScriptPath]
    }
}
