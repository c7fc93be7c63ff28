import Foundation
import Segue
import SeguePipeline
import SegueFarm
import SegueMedia

/// `segue batch TEMPLATE DATA -o 'out/{{id}}.mp4'`: a render per row of DATA (`Batch`), each row by a process of its
/// own (`segue batch … --row K`, what an array task runs), `--jobs` at once; the results file and the progress across
/// the batch. Exits 1 when a row failed (the others are rendered).
func batchCommand(_ a: Arguments) throws {
    guard a.positional.count == 2 else { throw UsageError("give a template (an edit file) and its data (.csv or .jsonl): segue batch TEMPLATE DATA -o 'out/{{id}}.mp4'") }
    let template = a.positional[0]
    guard Arguments.editFileExtensions.contains(URL(fileURLWithPath: template).pathExtension.lowercased()) else {
        throw UsageError("the template is an edit file (.json, .otio, .otioz), got \(template)")
    }
    guard let pattern = a.output, !pattern.isEmpty else { throw UsageError("missing -o PATTERN, e.g. -o 'out/{{id}}.mp4'") }
    if let p = a.poster, !["png", "jpg", "jpeg"].contains(URL(fileURLWithPath: p).pathExtension.lowercased()) {
        throw UsageError("the poster is a PNG or a JPEG: give --poster a .png or .jpg pattern (got \(p))")
    }
    if Template.names(in: pattern).isEmpty { throw UsageError("-o names every row's output: give a pattern with a column, e.g. -o 'out/{{id}}.mp4' (got \(pattern))") }
    let rows = try BatchData.read(path: a.positional[1])
    if rows.isEmpty { throw UsageError("\(a.positional[1]) has no rows: a batch renders one output a row (a CSV's first line names the columns)") }
    let batch = try Batch(rows: rows, output: pattern, poster: a.poster, results: a.results)
    try a.inputPolicy.checkOutput(path: batch.resultsPath, option: "--results")
    if a.row == nil, let text = Arguments.templateText(template) {
        // Once for the batch: a column or value no placeholder uses (a misspelt header) fills nothing.
        var columns = a.templateValues
        for row in rows { for (name, value) in row.values.values { columns[name] = value } }
        for w in Template.unusedValueWarnings(columns, in: [text, pattern] + (a.poster.map { [$0] } ?? []), given: "column or --set") {
            say("segue: warning: \(w)")
        }
    }
    if let k = a.row {
        // The row's result recorded for whoever runs the batch (this machine's runner, or an array job's collector).
        let job = try batch.job(row: k), started = Date()
        do { try renderBatchRow(job, template: template, a) } catch {
            batch.record(batch.result(job, error: "\(error)", started: started))
            throw error
        }
        return batch.record(batch.result(job, error: nil, started: started))
    }

    // Each row's process gets the command line as given, but for what only this process uses.
    // (--results too: a row's process records its result beside the results file.)
    let own: Set<String> = ["--jobs", "--progress", "--row", "--engine", "--partition", "--gres", "--time", "--max-parallel", "--dry-run"]
    let forwarded = a.givenOptions.filter { !own.contains($0.option.name) }.flatMap { [$0.option.name] + ($0.value.map { [$0] } ?? []) }
    let segue = executablePath()
    let style = a.progress ?? defaultProgressStyle()
    let printer = batchProgressPrinter(style)
    let started = Date()
    let results: [BatchResult]
    if a.batchEngine == "slurm" {
        // Absolute paths: the tasks run wherever Slurm starts them.
        let absolute = a.positional.map { URL(fileURLWithPath: $0).standardized.path }
        results = try batch.runSlurm(segue: segue, arguments: ["batch"] + absolute + forwarded, options: a.farm, dryRun: a.dryRun, log: { say($0) }, progress: printer)
        if a.dryRun { return }
    } else {
        if a.dryRun { throw UsageError("--dry-run applies to --engine slurm (a local batch writes nothing to submit)") }
        let jobs = a.farm.maxParallel ?? max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        results = batch.run(jobs: jobs, render: { job in
            Batch.runProcess(segue, ["batch", template, a.positional[1], "--row", String(job.row.number)] + forwarded)
        }, progress: printer)
    }
    for r in results where r.status == "failed" && style != .json { say("segue: row \(r.row) failed: \(r.error ?? "")") }
    let count = { (s: String) in results.filter { $0.status == s }.count }
    say(String(format: "segue: batch of %d rows: %d rendered, %d skipped, %d failed in %.1f s; results in %@",
               results.count, count("ok"), count("skipped"), count("failed"), Date().timeIntervalSince(started), batch.resultsPath))
    if count("failed") > 0 { throw BatchFailed(failed: results.filter { $0.status == "failed" }.map(\.row), resultsPath: batch.resultsPath) }
}

/// One row (`--row K`): the template with the row's values (over `--set` and `--values`) rendered to the row's
/// output, as `segue render` renders an edit, and its poster frame as `segue frame` draws it.
private func renderBatchRow(_ job: Batch.Job, template: String, _ given: Arguments) throws {
    if let why = job.nameError { throw UsageError("row \(job.row.number): \(why)") }
    var b = given
    b.warnsOfUnusedValues = false
    b.positional = [template]
    b.output = job.output
    for (name, value) in job.row.values.values { b.templateValues[name] = value }
    let (edit, a) = try b.resolvedInput()
    let out = try a.requireOutput()
    job.makeFolders()
    let options = a.exportOptions
    let result = try waitFor { try await ExportSession(edit: edit, outputPath: out, options: options).export() }
    say("segue: wrote \(result.path): row \(job.row.number), \(result.frames) frames")
    if let poster = job.poster {
        try a.inputPolicy.checkOutput(path: poster)
        let at = MediaTime(seconds: given.posterAt ?? 0)
        let f = try waitFor { try await renderFrame(edit, .time(at), options: options) }
        if poster.lowercased().hasSuffix(".png") { try writePNG(f.image, to: poster) } else { try StillImage.writeJPEG(f.image, to: poster) }
    }
}

/// Some rows of a batch failed (the others were rendered); the results file says why. Exit status 1.
struct BatchFailed: SegueError {
    let failed: [Int]
    let resultsPath: String
    var description: String { "\(failed.count) row(s) failed (\(failed.map(String.init).joined(separator: ", "))); see \(resultsPath)" }
    var exitStatus: Int32 { ExitStatus.failed }
}

/// Prints a batch's progress on standard error: a line redrawn in place (TTY), plain lines, or JSON lines.
func batchProgressPrinter(_ style: ProgressStyle) -> @Sendable (BatchProgress) -> Void {
    @Sendable func write(_ s: String) { FileHandle.standardError.write(s.data(using: .utf8)!) }
    @Sendable func text(_ p: BatchProgress) -> String {
        let eta = p.eta.map { String(format: "%d:%02d", Int($0.rounded()) / 60, Int($0.rounded()) % 60) } ?? "--:--"
        return String(format: "rows %d/%d  failed %d  skipped %d  %.2f rows/s  eta %@", p.done, p.total, p.failed, p.skipped, p.rowsPerSecond, eta)
    }
    switch style {
    case .none: return { _ in }
    case .json:
        return { p in
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            if let d = try? e.encode(p) { write(String(decoding: d, as: UTF8.self) + "\n") }
        }
    case .plain: return { p in write(text(p) + "  (row \(p.row) \(p.status))\n") }
    case .bar: return { p in write("\r" + text(p) + " " + (p.done == p.total ? "\n" : "")) }
    }
}
