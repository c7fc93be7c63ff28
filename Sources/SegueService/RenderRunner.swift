import Foundation

/// Runs the queue: `jobs` renders at once, each in a child process — this executable's `segue render`, or with
/// `Engine.slurm` its `segue farm slurm --wait` (the chunks a Slurm job array, the child following them; after a
/// restart `segue farm resume --wait` follows the same jobs: nothing rendered twice) — under the untrusted-edit policy
/// (`--root` the tenant's assets, `--output-root` the job's folder, the CLI's default limits and frame watchdog),
/// reading its `--progress json` lines. A child that crashes fails its render, never the server.
public final class RenderRunner: @unchecked Sendable {
    /// Where renders run.
    public enum Engine: Sendable, Equatable {
        case local
        /// `segue farm slurm` in `chunks` chunks, with `arguments` (`--partition P`).
        case slurm(chunks: Int, arguments: [String])
    }
    let store: RenderStore
    let layout: ServiceLayout
    let executable: String
    let jobs: Int
    let engine: Engine
    /// The body of a render's webhook, from its final record (nil: none is recorded).
    let callbackBody: @Sendable (RenderRecord) -> String

    private let condition = NSCondition()
    private var running: Set<String> = []
    private var children: [String: Process] = [:]
    private var live: [String: (frames: Int64, total: Int64, fps: Double)] = [:]
    private var stopping = false
    /// Frames written by the children of this server since it started (for /metrics).
    public private(set) var framesWritten: Int64 = 0

    public init(store: RenderStore, layout: ServiceLayout, executable: String, jobs: Int, engine: Engine = .local,
                callbackBody: @escaping @Sendable (RenderRecord) -> String) {
        self.store = store; self.layout = layout; self.executable = executable; self.jobs = max(1, jobs); self.engine = engine
        self.callbackBody = callbackBody
    }

    /// The child's command line for render `id` of `tenant`: `segue render`, or on Slurm `segue farm slurm --wait`
    /// (`farm resume --wait` when a farm render of it was submitted before: a restart follows the same jobs).
    func arguments(_ id: String, tenant: String) -> [String] {
        let dir = layout.job(id)
        let values = FileManager.default.fileExists(atPath: "\(dir)/values.json") ? ["--values", "\(dir)/values.json"] : []
        let policy = ["--root", layout.assets(tenant), "--output-root", dir, "--progress", "json"]
        switch engine {
        case .local:
            return ["render", "\(dir)/edit.json", "-o", layout.output(id)] + policy + values
        case .slurm(let chunks, let extra):
            let farm = "\(dir)/farm"
            if FileManager.default.fileExists(atPath: "\(farm)/farm.json") { return ["farm", "resume", farm, "--wait", "--progress", "json"] }
            return ["farm", "slurm", "\(dir)/edit.json", "--chunks", "\(chunks)", "-o", layout.output(id), "--work-dir", farm, "--wait"] + policy + values + extra
        }
    }

    /// Recovers what a killed server left (`recover`) and starts taking renders from the queue.
    public func start() throws {
        try recover()
        let t = Thread { [self] in schedule() }
        t.name = "segue serve: queue"
        t.start()
    }

    /// Renders left `rendering` by a server that was killed: a child of it still running is killed (it would write the
    /// output a second time); a render whose output was written (renamed into place: complete) is done without
    /// rendering again; the others are queued again, in their order. Throws `SQLiteError`.
    public func recover() throws {
        for (id, pid) in try store.unfinishedRuns() { Self.killOrphan(pid: pid, job: layout.job(id)) }
        for id in try store.interrupted() {
            if FileManager.default.fileExists(atPath: layout.output(id)) {
                try store.database.query("UPDATE runs SET ended = ?, outcome = 'done' WHERE render_id = ? AND ended IS NULL", [.real(RenderStore.now), .text(id)])
                try store.finish(id, status: .done, callbackBody: callbackBody)
            } else {
                try store.abandonRuns(of: id)
                try store.requeue(id)
            }
        }
    }

    /// Wakes the scheduler (a render was queued).
    public func wake() { condition.lock(); condition.broadcast(); condition.unlock() }

    /// Stops starting renders (the running ones go on).
    public func stop() { condition.lock(); stopping = true; condition.broadcast(); condition.unlock() }

    /// Stops starting renders, sends the running children SIGTERM (each removes its temporary output) and waits
    /// (`timeout` seconds at most) until they have ended; their renders go back to the queue, to run again when the
    /// service starts. True when every child ended in time.
    @discardableResult
    public func shutDown(timeout: Double) -> Bool {
        condition.lock()
        stopping = true
        let running = Array(children.values)
        condition.unlock()
        for child in running { child.terminate() }
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock(); defer { condition.unlock() }
        while !self.running.isEmpty { if !condition.wait(until: deadline) { return false } }
        return true
    }

    /// Cancels a queued or rendering render (its child gets SIGTERM: the CLI removes its temporary output). False when
    /// it had already ended.
    public func cancel(_ id: String) throws -> Bool {
        guard try store.finish(id, status: .cancelled, callbackBody: callbackBody) else { return false }
        condition.lock()
        let child = children[id]
        condition.unlock()
        child?.terminate()
        // On Slurm the jobs outlive the child that follows them: cancel them too.
        let farm = "\(layout.job(id))/farm"
        if case .slurm = engine, FileManager.default.fileExists(atPath: "\(farm)/farm.json") {
            let scancel = Process()
            scancel.executableURL = URL(fileURLWithPath: executable)
            scancel.arguments = ["farm", "cancel", farm]
            scancel.standardOutput = FileHandle.nullDevice
            scancel.standardError = FileHandle.nullDevice
            if (try? scancel.run()) != nil { scancel.waitUntilExit() }
        }
        return true
    }

    /// The latest progress of a running render (frames, total, fps).
    public func progress(_ id: String) -> (frames: Int64, total: Int64, fps: Double)? {
        condition.lock(); defer { condition.unlock() }
        return live[id]
    }

    /// Frames per second of all running renders together.
    public var fps: Double {
        condition.lock(); defer { condition.unlock() }
        return live.values.reduce(0) { $0 + $1.fps }
    }

    private func schedule() {
        while true {
            condition.lock()
            while stopping || running.count >= jobs { _ = condition.wait(until: Date().addingTimeInterval(1)) }
            condition.unlock()
            let next: RenderRecord?
            do { next = try store.claimNext() } catch {
                FileHandle.standardError.write(Data("segue serve: \(error)\n".utf8))
                next = nil
            }
            guard let record = next else {
                condition.lock(); _ = condition.wait(until: Date().addingTimeInterval(0.5)); condition.unlock()
                continue
            }
            condition.lock(); running.insert(record.id); condition.unlock()
            let t = Thread { [self] in run(record) }
            t.name = "segue serve: render \(record.id)"
            t.start()
        }
    }

    private func run(_ record: RenderRecord) {
        let id = record.id
        defer {
            condition.lock(); running.remove(id); children[id] = nil; live[id] = nil; condition.broadcast(); condition.unlock()
        }
        if FileManager.default.fileExists(atPath: layout.output(id)) {
            _ = try? store.finish(id, status: .done, callbackBody: callbackBody)
            return
        }
        let dir = layout.job(id)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments(id, tenant: record.tenant)
        child.currentDirectoryURL = URL(fileURLWithPath: dir)
        let errors = Pipe()
        child.standardError = errors
        child.standardOutput = FileHandle.nullDevice
        child.standardInput = FileHandle.nullDevice
        do {
            try child.run()
        } catch {
            _ = try? store.finish(id, status: .failed, error: "segue serve: the render process could not start", callbackBody: callbackBody)
            return
        }
        condition.lock(); children[id] = child; condition.unlock()
        try? store.runStarted(id, attempt: record.attempts, pid: child.processIdentifier)
        if (try? store.render(id))??.status == .cancelled { child.terminate() }

        var messages: [String] = []
        var lastWrite = Date.distantPast
        let reader = errors.fileHandleForReading
        var pending = Data()
        func line(_ text: String) {
            if let report = Self.progressReport(text) {
                condition.lock()
                framesWritten += max(0, report.frames - (live[id]?.frames ?? 0))
                live[id] = report
                condition.unlock()
                if Date().timeIntervalSince(lastWrite) > 0.25 {
                    lastWrite = Date()
                    try? store.progress(id, frames: report.frames, total: report.total, fps: report.fps)
                }
            } else if !text.isEmpty {
                messages.append(text)
                if messages.count > 40 { messages.removeFirst() }
            }
        }
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 10) {
                line(String(decoding: pending[pending.startIndex..<nl], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...nl)
            }
        }
        line(String(decoding: pending, as: UTF8.self))
        child.waitUntilExit()
        let status = child.terminationReason == .uncaughtSignal ? -child.terminationStatus : child.terminationStatus
        let report = progress(id)
        condition.lock(); let shuttingDown = stopping; condition.unlock()
        let outcome: RenderStatus
        if shuttingDown && !(status == 0 && FileManager.default.fileExists(atPath: layout.output(id))) {
            try? store.requeue(id)
            try? store.runEnded(id, pid: child.processIdentifier, exitStatus: status, outcome: "interrupted")
            return
        } else if status == 0 && FileManager.default.fileExists(atPath: layout.output(id)) {
            try? store.progress(id, frames: report?.total ?? 0, total: report?.total ?? 0, fps: report?.fps ?? 0)
            outcome = (try? store.finish(id, status: .done, frames: report?.total, callbackBody: callbackBody)) == true ? .done : .cancelled
        } else {
            let said = messages.filter { $0.hasPrefix("segue:") }
            var text = (said.isEmpty ? Array(messages.suffix(5)) : said).joined(separator: "\n")
            if status < 0 { text = "the render process ended with signal \(-status)" + (text.isEmpty ? "" : ": " + text) }
            if text.isEmpty { text = "the render process exited with status \(status)" }
            let failed = (try? store.finish(id, status: .failed, error: layout.scrub(text, tenant: record.tenant, job: id), callbackBody: callbackBody)) == true
            outcome = failed ? .failed : .cancelled
        }
        try? store.runEnded(id, pid: child.processIdentifier, exitStatus: status, outcome: outcome.rawValue)
    }

    /// A `--progress json` line of the CLI (`RenderProgress`): frames, total, fps; nil for any other line.
    static func progressReport(_ line: String) -> (frames: Int64, total: Int64, fps: Double)? {
        guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let frame = (object["frame"] as? NSNumber)?.int64Value, let total = (object["total"] as? NSNumber)?.int64Value else { return nil }
        return (frame, total, (object["fps"] as? NSNumber)?.doubleValue ?? 0)
    }

    /// Kills a child a killed server left running, when the process is still that render's (its command line names
    /// the job's folder), and waits (up to 5 s) until it is gone.
    static func killOrphan(pid: Int32, job: String) {
        guard pid > 0, let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
              String(decoding: cmdline, as: UTF8.self).contains(job + "/") else { return }
        kill(pid, SIGKILL)
        for _ in 0..<500 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return }
            if stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z") { return }
            usleep(10_000)
        }
    }
}
