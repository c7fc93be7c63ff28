import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `local-queue.json` in a work folder: what `LocalEngine` runs, for `segue farm status` and `farm resume` from
/// other processes. Each entry names its job, chunk, state ("PENDING", "RUNNING", "COMPLETED", "FAILED",
/// "CANCELLED"), the process running it and the coordinating process; a process is named by its id and its start
/// time (`/proc/PID/stat`), so that a reused process id is not taken for it.
struct LocalQueue {
    struct ProcessName: Codable, Equatable {
        let pid: Int32
        let start: UInt64
        /// This process.
        static var current: ProcessName { ProcessName(pid: getpid())! }
        /// `pid` with its start time, or nil when no such process runs.
        init?(pid: Int32) {
            guard let start = ProcessName.startTime(pid) else { return nil }
            self.pid = pid; self.start = start
        }
        /// Whether the process still runs (and is the same one).
        var alive: Bool { ProcessName.startTime(pid) == start }
        /// Field 22 of `/proc/PID/stat` (clock ticks after boot), read after the command name (which may hold spaces).
        static func startTime(_ pid: Int32) -> UInt64? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.range(of: ")", options: .backwards) else { return nil }
            let fields = text[close.upperBound...].split(separator: " ")
            // After ")": state is field 3, so starttime (22) is the 20th.
            guard fields.count > 19, let start = UInt64(fields[19]) else { return nil }
            // A zombie has exited: not running.
            return fields[0] == "Z" ? nil : start
        }
    }

    struct Entry: Codable, Equatable {
        let job: String
        let task: Int?
        let state: String
        /// The process running it (RUNNING only).
        var process: ProcessName?
        /// The process that started the job and runs what is pending.
        var coordinator: ProcessName?
        init(job: String, task: Int?, state: String, pid: Int32?) {
            self.job = job; self.task = task; self.state = state
            process = pid.flatMap(ProcessName.init(pid:))
            coordinator = .current
        }
    }

    /// The work folder; nil: no queue.
    let work: String?
    var path: String? { work.map { "\($0)/local-queue.json" } }
    /// One writer at a time in this process (each write replaces the file atomically).
    private static let writing = NSLock()

    func read() -> [Entry] {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }

    /// Replaces `job`'s entries.
    func update(job: String, entries: [Entry]) {
        guard let path else { return }
        LocalQueue.writing.lock()
        defer { LocalQueue.writing.unlock() }
        let all = read().filter { $0.job != job } + entries
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? e.encode(all) else { return }
        let temp = "\(path).\(getpid()).tmp"
        if FileManager.default.createFile(atPath: temp, contents: data) { rename(temp, path) }
    }

    /// The entries as a scheduler's queue: pending while the coordinator lives, running while the process does,
    /// FAILED when what should finish them is gone.
    func entries() -> [QueueEntry] {
        read().map { e in
            var state = e.state
            if state == "RUNNING" && e.process?.alive != true { state = e.coordinator?.alive == true ? "COMPLETING" : "FAILED" }
            if state == "PENDING" && e.coordinator?.alive != true { state = "FAILED" }
            let reason = state == "RUNNING" ? "pid \(e.process!.pid)" : state == "PENDING" ? "waiting for a slot" : "None"
            return QueueEntry(job: e.job, task: e.task, state: state, reason: reason)
        }
    }

    /// Waits until none of `jobs` (another coordinator's) is pending or running.
    func waitForOthers(jobs: Set<String>) {
        guard !jobs.isEmpty else { return }
        while entries().contains(where: { jobs.contains($0.job) && $0.active }) { Thread.sleep(forTimeInterval: 0.5) }
    }

    /// Sends SIGTERM to the running processes of `jobs`.
    func terminate(jobs: Set<String>) {
        for e in read() where jobs.contains(e.job) && e.state == "RUNNING" {
            if let p = e.process, p.alive { kill(p.pid, SIGTERM) }
        }
    }
}
