import Foundation
import SegueCore
import SegueEdit
import SegueMedia

/// One row's outcome, a line of the batch's results file (JSON Lines): the row, its output, `ok`, `failed` or
/// `skipped` (its output was there with the recorded hash), why it failed, how long it took in seconds, and the
/// output's SHA-256 (hex) when it is there.
public struct BatchResult: Codable, Sendable, Equatable {
    public var row: Int
    public var output: String
    public var status: String
    public var error: String?
    public var seconds: Double
    public var sha256: String?
    public var poster: String?
    public init(row: Int, output: String, status: String, error: String? = nil, seconds: Double = 0, sha256: String? = nil, poster: String? = nil) {
        self.row = row; self.output = output; self.status = status; self.error = error; self.seconds = seconds; self.sha256 = sha256; self.poster = poster
    }
}

/// Where a batch stands, after each row (`--progress`): rows finished (rendered, failed or skipped) of `total`,
/// rows a second over the rendered ones, and the seconds left at that rate.
public struct BatchProgress: Codable, Sendable {
    public let done: Int, failed: Int, skipped: Int, total: Int
    public let elapsed: Double, rowsPerSecond: Double
    /// Seconds left (nil: not known yet).
    public let eta: Double?
    /// The row that just finished and how.
    public let row: Int, status: String
}

/// A batch (`segue batch TEMPLATE DATA -o 'out/{{id}}.mp4'`): one output per row of its data, each named by the
/// output pattern filled from the row (`Template.fill`), rendered by `render` (a separate process per row in the
/// command line: `segue batch … --row K`, which is what an array task runs), `jobs` at once. A row that fails fails
/// alone. The results file has a line per row, rewritten (atomically) as each finishes; a row whose output is there
/// with the hash a previous run recorded is skipped.
public struct Batch: Sendable {
    /// A row with its output (and poster) named.
    public struct Job: Sendable {
        public let row: BatchRow
        /// The output's name; "" when the pattern could not be filled (`nameError` says why).
        public let output: String
        public let poster: String?
        public let nameError: String?

        /// Makes the folders the output and the poster go in.
        public func makeFolders() {
            for path in [output] + (poster.map { [$0] } ?? []) where !path.isEmpty {
                try? FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            }
        }
    }
    public let jobs: [Job]
    public let resultsPath: String

    /// Names each row's output and poster. Throws `BatchDataError` when two rows would write the same file.
    /// - Parameters:
    ///   - output: the output pattern (`out/{{id}}.mp4`); `poster` the poster's (`out/{{id}}.png`), or nil.
    ///   - results: the results file; nil: `batch-results.jsonl` in the pattern's folder before its first placeholder
    ///     (`fixedFolder`).
    public init(rows: [BatchRow], output: String, poster: String?, results: String?) throws {
        var seen: [String: Int] = [:]
        jobs = try rows.map { row in
            do {
                let out = try Batch.name(output, row: row, field: "-o")
                let post = try poster.map { try Batch.name($0, row: row, field: "--poster") }
                for name in [out] + (post.map { [$0] } ?? []) {
                    let key = URL(fileURLWithPath: name).standardized.path
                    if let other = seen[key] { throw BatchDataError("rows \(other) and \(row.number) both write \(name): name the outputs by a column that differs") }
                    seen[key] = row.number
                }
                return Job(row: row, output: out, poster: post, nameError: nil)
            } catch let e as EditError {
                return Job(row: row, output: "", poster: nil, nameError: "\(e)")
            }
        }
        resultsPath = results ?? URL(fileURLWithPath: Batch.fixedFolder(of: output)).appendingPathComponent("batch-results.jsonl").path
    }

    /// `pattern` filled from `row`: the file a row writes. A value fills a name, never a path: the filled name has the
    /// pattern's folders (no `/`, `.` or `..` of a value's adds one: `'out/{{name}}.mp4'` with `../../x` would write
    /// outside `out`) and no control character (a line break in a file name).
    /// - Throws: `EditError` naming `field`: a placeholder without a value, or a value that would do either.
    static func name(_ pattern: String, row: BatchRow, field: String) throws -> String {
        let filled = try Template.fill(pattern, values: row.values, field: field)
        let want = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let got = filled.split(separator: "/", omittingEmptySubsequences: false)
        let moved = got.count != want.count || zip(want, got).contains { p, f in p != f && (f == "." || f == ".." || f.isEmpty) }
        let control = filled.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            && !pattern.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        if moved || control {
            let shown = filled.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? String(format: "\\u%04X", $0.value) : String($0) }.joined()
            throw EditError(field, "the row's values make the name \"\(shown)\": a value fills a file name, and may not hold /, . or .., or a control character (\(pattern))")
        }
        return filled
    }

    /// The folder of `pattern` before its first placeholder (`out` for `out/{{country}}/{{id}}.mp4`, `.` for
    /// `{{id}}.mp4`): where the results file goes by default, whatever the rows' values.
    static func fixedFolder(of pattern: String) -> String {
        let fixed = pattern.range(of: "{{").map { String(pattern[..<$0.lowerBound]) } ?? pattern
        guard let slash = fixed.lastIndex(of: "/") else { return "." }
        return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
    }

    /// Row `number`'s job. Throws `BatchDataError` when there is none.
    public func job(row number: Int) throws -> Job {
        guard let j = jobs.first(where: { $0.row.number == number }) else { throw BatchDataError("there is no row \(number) (the data has \(jobs.count) rows)") }
        return j
    }

    /// The results a previous run wrote, by row (none when the file is missing; unreadable lines are ignored).
    public func previousResults() -> [Int: BatchResult] {
        guard let text = try? String(contentsOfFile: resultsPath, encoding: .utf8) else { return [:] }
        var d: [Int: BatchResult] = [:]
        for line in text.split(separator: "\n") {
            if let r = try? JSONDecoder().decode(BatchResult.self, from: Data(line.utf8)) { d[r.row] = r }
        }
        return d
    }

    /// Whether a previous run's result still stands: it rendered this output, the file is there with its hash, and
    /// so is the poster asked for.
    func stands(_ previous: BatchResult?, _ job: Job) -> String? {
        guard let p = previous, p.status == "ok" || p.status == "skipped", p.output == job.output, let hash = p.sha256,
              Digest.sha256(file: job.output) == hash else { return nil }
        if let poster = job.poster, !FileManager.default.fileExists(atPath: poster) { return nil }
        return hash
    }

    /// Runs the batch: each row not skipped is rendered by `render` (nil: rendered; else why it failed), at most `jobs`
    /// rows at once, and its result recorded; `progress` hears of each row as it finishes. Returns the results in row
    /// order. The folders of the outputs and of the results file are made first.
    public func run(jobs limit: Int, render: @escaping @Sendable (Job) -> String?, progress: @escaping @Sendable (BatchProgress) -> Void) -> [BatchResult] {
        let run = BatchRun(self, progress: progress)
        let group = DispatchGroup(), slots = DispatchSemaphore(value: max(1, limit))
        for (k, job) in run.pending {
            slots.wait()
            group.enter()
            let t = Thread {
                defer { slots.signal(); group.leave() }
                let t0 = Date()
                let error = render(job)
                // The row's own record when its process left one (an array task's result), else what this process saw.
                run.finish(k, ownResult(job.row.number) ?? result(job, error: error, started: t0))
            }
            t.start()
        }
        group.wait()
        return run.results
    }

    /// The result row `number`'s process recorded (`record`), if there is one.
    func ownResult(_ number: Int) -> BatchResult? {
        FileManager.default.contents(atPath: rowResultPath(number)).flatMap { try? JSONDecoder().decode(BatchResult.self, from: $0) }
    }

    /// Where the process that renders row `number` records its result (`segue batch … --row K`, an array task):
    /// `ROWS/K.json` beside the results file (`batch-results.jsonl.rows/`).
    public func rowResultPath(_ number: Int) -> String { "\(resultsPath).rows/\(number).json" }

    /// A row's result once its render ended (`error` nil: rendered) after starting at `started`: `ok` with the output's
    /// SHA-256, or `failed` with why (the output missing though the render said nothing).
    public func result(_ job: Job, error: String?, started: Date) -> BatchResult {
        let seconds = (Date().timeIntervalSince(started) * 1000).rounded() / 1000
        let hash = error == nil ? Digest.sha256(file: job.output) : nil
        return BatchResult(row: job.row.number, output: job.output, status: error == nil && hash != nil ? "ok" : "failed",
                           error: error ?? (hash == nil ? "the output was not written" : nil), seconds: seconds, sha256: hash, poster: job.poster)
    }

    /// Records row `r.row`'s result where the batch reads it (`rowResultPath`), replacing the file atomically.
    public func record(_ r: BatchResult) {
        let path = rowResultPath(r.row)
        try? FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        write([r], to: path)
    }

    /// Writes the results known so far, a JSON line per row in row order, replacing the file atomically.
    func writeResults(_ results: [BatchResult]) { write(results, to: resultsPath) }

    private func write(_ results: [BatchResult], to path: String) {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = results.compactMap { try? e.encode($0) }.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
        let temp = path + ".\(getpid()).tmp"
        if FileManager.default.createFile(atPath: temp, contents: Data(text.utf8)) { rename(temp, path) }
    }

    /// Runs `segue` with `arguments` (a row: `batch TEMPLATE DATA --row K …`), its standard output and error read;
    /// returns nil when it exits 0, else its last message (the last line beginning `segue:`, or the exit status).
    public static func runProcess(_ segue: String, _ arguments: [String]) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: segue)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return "cannot start \(segue): \(error)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationReason == .exit && p.terminationStatus == 0 { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let status = p.terminationReason == .uncaughtSignal ? "killed by signal \(p.terminationStatus)" : "exit \(p.terminationStatus)"
        guard let last = lines.last(where: { $0.hasPrefix("segue: ") && !$0.hasPrefix("segue: wrote") }) else { return status }
        return String(last.dropFirst("segue: ".count)) + " (\(status))"
    }
}

/// A batch being run: the rows a previous run's results let stand are skipped and those whose names could not be
/// filled failed at once; the others are `pending` (their folders made, their old records removed) until `finish`.
/// Each result rewrites the results file and is reported to `progress`.
final class BatchRun: Sendable {
    let batch: Batch
    let pending: [(Int, Batch.Job)]
    private let state: BatchState
    private let finishing = NSLock()
    private let started = Date()
    private let progress: @Sendable (BatchProgress) -> Void

    init(_ batch: Batch, progress: @escaping @Sendable (BatchProgress) -> Void) {
        self.batch = batch; self.progress = progress
        state = BatchState(count: batch.jobs.count)
        try? FileManager.default.createDirectory(atPath: URL(fileURLWithPath: batch.resultsPath).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let (pending, done) = BatchRun.classify(batch)
        for (_, job) in pending {
            job.makeFolders()
            unlink(batch.rowResultPath(job.row.number))
        }
        self.pending = pending
        for (k, r) in done { finish(k, r) }
    }

    /// The rows to render (index in `batch.jobs`, job) and those finished already: skipped (a previous result stands)
    /// or failed (the output's name could not be filled).
    static func classify(_ batch: Batch) -> (pending: [(Int, Batch.Job)], done: [(Int, BatchResult)]) {
        let previous = batch.previousResults()
        var pending: [(Int, Batch.Job)] = [], done: [(Int, BatchResult)] = []
        for (k, job) in batch.jobs.enumerated() {
            if let hash = batch.stands(previous[job.row.number], job) {
                done.append((k, BatchResult(row: job.row.number, output: job.output, status: "skipped", sha256: hash, poster: job.poster)))
            } else if let why = job.nameError {
                done.append((k, BatchResult(row: job.row.number, output: job.output, status: "failed", error: why)))
            } else {
                pending.append((k, job))
            }
        }
        return (pending, done)
    }

    /// Records row `k`'s (index in `batch.jobs`) result. One row at a time: the results file is rewritten and progress
    /// reported in the order the results were recorded (rows finishing together must not write an older file last, or
    /// through one temporary file at once).
    func finish(_ k: Int, _ r: BatchResult) {
        finishing.lock(); defer { finishing.unlock() }
        let (p, all) = state.record(k, r, started: started)
        batch.writeResults(all)
        progress(p)
    }

    var results: [BatchResult] { state.results.compactMap { $0 } }
}

/// The results and counts of a running batch, shared by its threads.
private final class BatchState: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [BatchResult?]
    var results: [BatchResult?] { lock.lock(); defer { lock.unlock() }; return stored }
    private var done = 0, failed = 0, skipped = 0, rendered = 0
    init(count: Int) { stored = Array(repeating: nil, count: count) }

    /// Records row `k`'s result; returns the progress and the results so far.
    func record(_ k: Int, _ r: BatchResult, started: Date) -> (BatchProgress, [BatchResult]) {
        lock.lock(); defer { lock.unlock() }
        stored[k] = r
        done += 1
        if r.status == "failed" { failed += 1 }
        if r.status == "skipped" { skipped += 1 } else { rendered += 1 }
        let elapsed = Date().timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(rendered) / elapsed : 0
        let left = stored.count - done
        let p = BatchProgress(done: done, failed: failed, skipped: skipped, total: stored.count, elapsed: elapsed, rowsPerSecond: rate,
                              eta: left == 0 ? 0 : rate > 0 ? Double(left) / rate : nil, row: r.row, status: r.status)
        return (p, stored.compactMap { $0 })
    }
}
