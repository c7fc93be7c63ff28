import Foundation
import SegueCore
import SeguePipeline

/// One machine: the chunks as local processes (`segue render --plan … --chunk I`), at most `jobs` at once, the audio
/// pass beside them and the stitch once they have all succeeded — the engine for a render node with more cores than
/// one x264 uses (16–64), where Slurm is more than the job needs. The plan, `farm.json`, status from the chunk checks,
/// resume and the stitch are the engine-neutral `Farm`'s, as for Slurm.
///
/// `submit` starts a job and returns at once (chunks and audio run on threads of this process); submitting the stitch
/// waits for the jobs it depends on, then runs it unless one of them failed (Slurm's `--kill-on-invalid-dep`), so
/// `segue farm local` returns when the output is written or something failed. A chunk that exits 75 (transient) runs
/// again up to `retries` times after `retryDelay` seconds; any other failure, a kill included, is final until
/// `segue farm resume`. Each attempt logs to `logs/chunk_NNNN.attemptA.log`, as under Slurm.
///
/// What runs where is kept in `local-queue.json` in the work folder (the coordinating process's id, each job's chunk
/// processes and states), so that `segue farm status` from another shell lists chunks as pending or running while the
/// coordinator (or a chunk it started) is alive, and as failed once nothing is left to finish them.
public final class LocalEngine: FarmEngine, @unchecked Sendable {
    /// Chunk processes at once.
    public let jobs: Int
    /// Where progress lines go (the command's standard error).
    private let log: @Sendable (String) -> Void
    private let lock = NSCondition()
    /// Jobs submitted by this process, by id; guarded by `lock`.
    private var submitted: [String: LocalJob] = [:]
    private var nextID = 0

    /// - Parameter jobs: chunk processes at once; nil: `LocalEngine.defaultJobs`.
    public init(jobs: Int? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.jobs = max(1, jobs ?? LocalEngine.defaultJobs)
        self.log = log
    }

    /// One chunk process per 8 cores (at least 1): x264 `medium` at 1080p keeps about that many busy with its frame
    /// threads and lookahead, so a 64-core node runs 8 chunks at once, a 2-core machine 1.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 8) }

    public var name: String { "local" }
    public var chunkIndexVariable: String { "SEGUE_CHUNK_INDEX" }
    public func nodeCount() -> Int { 1 }
    public var runsHere: Bool { true }

    func script(_ kind: FarmJobKind, _ layout: FarmLayout) -> String { layout.script(kind, extension: "sh") }

    /// The command lines of each kind of job (chunk `index` for `.chunks`), as run and as written to the scripts.
    func arguments(_ kind: FarmJobKind, index: Int?, job: FarmJob) -> [String] {
        let layout = job.layout
        switch kind {
        case .chunks:
            return ["render", "--plan", layout.plan, "--chunk", index.map(String.init) ?? "auto", "-o", layout.chunks, "--progress", "none"]
                + job.state.options.renderArguments
        case .audio: return ["render-audio", "--plan", layout.plan, "-o", "\(layout.chunks)/\(job.plan.audio?.file ?? "")"]
        case .stitch: return ["stitch", "--plan", layout.plan, layout.chunks, "-o", job.output]
        }
    }

    /// Scripts for running a step by hand (`SEGUE_CHUNK_INDEX=3 sh chunks.sh`); `segue farm local` runs the same commands itself.
    public func writeScripts(_ job: FarmJob) throws {
        let segue = shellQuoted(job.state.segue)
        let kinds: [FarmJobKind] = job.plan.audio != nil ? [.chunks, .audio, .stitch] : [.chunks, .stitch]
        for kind in kinds {
            let command = arguments(kind, index: nil, job: job).map(shellQuoted).joined(separator: " ")
            let text = """
            #!/bin/sh
            # Segue \(kind.rawValue) for \(job.layout.plan), as `segue farm local` runs it\(kind == .chunks ? " (the chunk index in $\(chunkIndexVariable))" : "").
            exec \(segue) \(command)

            """
            let path = script(kind, job.layout)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755]) else {
                throw FarmError("--work-dir: cannot write \(path)")
            }
        }
    }

    public func manualSubmitCommands(_ job: FarmJob) -> [String] {
        let kinds: [FarmJobKind] = job.plan.audio != nil ? [.chunks, .audio, .stitch] : [.chunks, .stitch]
        return kinds.map { kind in
            let s = shellQuoted(script(kind, job.layout))
            return kind == .chunks ? "for i in \(job.plan.chunks.map(\.index).map(String.init).joined(separator: " ")); do \(chunkIndexVariable)=$i \(s); done" : s
        }
    }

    public func submit(_ kind: FarmJobKind, chunks: [Int]?, after: [String], afterAny: [String], job: FarmJob) throws -> String {
        lock.lock()
        nextID += 1
        let id = "local-\(getpid())-\(nextID)"
        lock.unlock()
        let tasks = kind == .chunks ? (chunks ?? job.plan.chunks.map(\.index)) : [-1]
        let local = LocalJob(id: id, kind: kind, tasks: tasks, queueFile: LocalQueue(work: job.layout.work))
        lock.lock()
        submitted[id] = local
        lock.unlock()
        local.record()
        switch kind {
        case .chunks, .audio:
            let limit = kind == .chunks ? jobs : 1
            let worker = Thread { [self] in run(local, job: job, limit: limit) }
            worker.start()
        case .stitch:
            // Waits here: for this process's jobs by their threads, for an earlier coordinator's by its processes.
            let mine = (after + afterAny).compactMap { id in lock.withLock { submitted[id] } }
            mine.forEach { $0.waitUntilFinished() }
            LocalQueue(work: job.layout.work).waitForOthers(jobs: Set(after + afterAny).subtracting(mine.map(\.id)))
            let failed = after.compactMap { id in lock.withLock { submitted[id] } }.filter { !$0.succeeded }
            if !failed.isEmpty {
                let what = failed.map { $0.kind == .chunks ? "chunk(s) \(Farm.compactRanges($0.failedTasks))" : "the \($0.kind.rawValue) pass" }
                log("segue: the stitch does not run: \(what.joined(separator: ", ")) failed; `segue farm resume \(shellQuoted(job.layout.work))` renders them again")
                local.finish(task: -1, state: "CANCELLED")
            } else {
                run(local, job: job, limit: 1)
            }
        }
        return id
    }

    /// Runs `local`'s tasks, at most `limit` processes at once, retrying transient failures (exit 75).
    private func run(_ local: LocalJob, job: FarmJob, limit: Int) {
        let o = job.state.options
        let group = DispatchGroup()
        let slots = DispatchSemaphore(value: limit)
        for task in local.tasks {
            slots.wait()
            group.enter()
            let t = Thread { [self] in
                defer { slots.signal(); group.leave() }
                var attempt = 0
                while true {
                    let rc = runOnce(local, task: task, attempt: attempt, job: job)
                    if rc == 0 { local.finish(task: task, state: "COMPLETED"); return }
                    if rc == 75 && attempt < o.retries {
                        log("segue: \(local.name(task)) failed transiently (exit 75): running it again in \(o.retryDelay) s (retry \(attempt + 1) of \(o.retries))")
                        local.set(task: task, state: "PENDING", pid: nil)
                        Thread.sleep(forTimeInterval: Double(o.retryDelay))
                        attempt += 1
                        continue
                    }
                    log("segue: \(local.name(task)) failed (\(rc < 0 ? "killed by signal \(-rc)" : "exit \(rc)")); see \(logPath(local, task: task, attempt: attempt, job: job))")
                    local.finish(task: task, state: "FAILED")
                    return
                }
            }
            t.start()
        }
        group.wait()
    }

    func logPath(_ local: LocalJob, task: Int, attempt: Int, job: FarmJob) -> String {
        local.kind == .chunks ? "\(job.layout.logs)/\(ChunkPlan.stem(index: task)).attempt\(attempt).log" : "\(job.layout.logs)/\(local.kind.rawValue).log"
    }

    /// One attempt: the process's exit status, or minus the signal that ended it.
    private func runOnce(_ local: LocalJob, task: Int, attempt: Int, job: FarmJob) -> Int32 {
        let path = logPath(local, task: task, attempt: attempt, job: job)
        let header = "segue: \(local.name(task)), attempt \(attempt), \(local.id) on \(ProcessInfo.processInfo.hostName), \(ISO8601DateFormatter().string(from: Date()))\n"
        guard FileManager.default.createFile(atPath: path, contents: Data(header.utf8)) else { return 1 }
        guard let out = FileHandle(forWritingAtPath: path) else { return 1 }
        defer { try? out.close() }
        out.seekToEndOfFile()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: job.state.segue)
        p.arguments = arguments(local.kind, index: task >= 0 ? task : nil, job: job)
        var env = ProcessInfo.processInfo.environment
        if task >= 0 { env[chunkIndexVariable] = String(task) }
        p.environment = env
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            out.write(Data("segue: cannot start \(job.state.segue): \(error)\n".utf8))
            return 1
        }
        local.set(task: task, state: "RUNNING", pid: p.processIdentifier)
        p.waitUntilExit()
        let rc = p.terminationReason == .uncaughtSignal ? -p.terminationStatus : p.terminationStatus
        out.write(Data("segue: exit status \(p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : rc)\n".utf8))
        return rc
    }

    /// Nothing without a work folder: the queue lives in it (`queue(_:)`).
    public func queue() -> [QueueEntry] { [] }
    /// The jobs `local-queue.json` in the work folder lists: pending while their coordinator lives, running while
    /// their process does; the others as they ended (or `FAILED` when their process is gone without saying).
    public func queue(_ layout: FarmLayout) -> [QueueEntry] { LocalQueue(work: layout.work).entries() }
    public func cancel(_ jobIDs: [String]) throws {}
    /// Stops the processes of an earlier coordinator's jobs (SIGTERM; this process's own have finished by the time
    /// `Farm` cancels anything: the stitch it replaces ran or was skipped).
    public func cancel(_ jobIDs: [String], _ layout: FarmLayout) throws {
        LocalQueue(work: layout.work).terminate(jobs: Set(jobIDs))
    }
}

/// One job of `LocalEngine`: its tasks (chunk indices, or -1 for the audio pass and the stitch) and their states.
final class LocalJob: @unchecked Sendable {
    let id: String
    let kind: FarmJobKind
    let tasks: [Int]
    private let queueFile: LocalQueue
    private let lock = NSCondition()
    private var states: [Int: (state: String, pid: Int32?)] = [:]

    init(id: String, kind: FarmJobKind, tasks: [Int], queueFile: LocalQueue) {
        self.id = id; self.kind = kind; self.tasks = tasks; self.queueFile = queueFile
        for t in tasks { states[t] = ("PENDING", nil) }
    }

    func name(_ task: Int) -> String { kind == .chunks ? "chunk \(task)" : "the \(kind.rawValue) pass" }

    func set(task: Int, state: String, pid: Int32?) {
        lock.withLock { states[task] = (state, pid) }
        record()
    }
    func finish(task: Int, state: String) {
        lock.lock()
        states[task] = (state, nil)
        lock.broadcast()
        lock.unlock()
        record()
    }
    /// Writes this job's states to `local-queue.json`.
    func record() {
        let entries = lock.withLock { tasks.map { LocalQueue.Entry(job: id, task: kind == .chunks ? $0 : nil, state: states[$0]!.state, pid: states[$0]!.pid) } }
        queueFile.update(job: id, entries: entries)
    }
    private var done: Bool { states.values.allSatisfy { ["COMPLETED", "FAILED", "CANCELLED"].contains($0.state) } }
    func waitUntilFinished() {
        lock.lock()
        while !done { lock.wait() }
        lock.unlock()
    }
    var succeeded: Bool { lock.withLock { states.values.allSatisfy { $0.state == "COMPLETED" } } }
    var failedTasks: [Int] { lock.withLock { tasks.filter { states[$0]!.state != "COMPLETED" } } }
}
