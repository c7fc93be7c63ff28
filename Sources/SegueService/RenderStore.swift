import Foundation

/// A render's state.
public enum RenderStatus: String, Sendable, CaseIterable {
    case queued, rendering, done, failed, cancelled
    public var ended: Bool { self == .done || self == .failed || self == .cancelled }
}

/// One render as the queue holds it.
public struct RenderRecord: Sendable, Equatable {
    public var id: String
    public var tenant: String
    public var status: RenderStatus
    /// Frames written so far, of `totalFrames` (0 until the render reports).
    public var frames: Int64
    public var totalFrames: Int64
    /// Frames per second of the latest report.
    public var fps: Double
    /// The error as the command line words it, without server paths (failed renders).
    public var error: String?
    public var callback: String?
    /// Unix times in seconds.
    public var created: Double
    public var started: Double?
    public var finished: Double?
    /// Child processes started for it (more than one only when a server was killed while it rendered).
    public var attempts: Int

    /// 0…1.
    public var progress: Double { status == .done ? 1 : totalFrames > 0 ? min(1, Double(frames) / Double(totalFrames)) : 0 }

    /// The JSON object of `GET /v1/renders/{id}` (docs/service.md).
    public var json: [String: Any] {
        func time(_ t: Double?) -> Any { t.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) } ?? NSNull() }
        return ["id": id, "status": status.rawValue, "progress": (progress * 1000).rounded() / 1000, "frames": frames,
                "totalFrames": totalFrames, "fps": (fps * 100).rounded() / 100, "error": error ?? NSNull(),
                "callback": callback ?? NSNull(), "created": time(created), "started": time(started), "finished": time(finished),
                "attempts": attempts]
    }
}

/// The durable queue: renders, the child processes run for them, tenants' assets and webhooks owed, in one SQLite file.
/// Every change is one committed statement or transaction, so a `kill -9` of the server loses nothing accepted.
public final class RenderStore: @unchecked Sendable {
    public let database: SQLiteDatabase

    /// Opens (creating) the queue at `path`. Throws `SQLiteError`.
    public init(path: String) throws {
        database = try SQLiteDatabase(path: path)
        try database.execute("""
            CREATE TABLE IF NOT EXISTS renders (id TEXT PRIMARY KEY, tenant TEXT NOT NULL, status TEXT NOT NULL,
                frames INTEGER NOT NULL DEFAULT 0, total_frames INTEGER NOT NULL DEFAULT 0, fps REAL NOT NULL DEFAULT 0,
                error TEXT, callback TEXT, created REAL NOT NULL, started REAL, finished REAL, attempts INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS renders_status ON renders (status);
            CREATE TABLE IF NOT EXISTS runs (render_id TEXT NOT NULL, attempt INTEGER NOT NULL, pid INTEGER, started REAL NOT NULL,
                ended REAL, exit_status INTEGER, outcome TEXT);
            CREATE TABLE IF NOT EXISTS assets (tenant TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL, sha256 TEXT,
                created REAL NOT NULL, PRIMARY KEY (tenant, name));
            CREATE TABLE IF NOT EXISTS deliveries (id INTEGER PRIMARY KEY AUTOINCREMENT, render_id TEXT NOT NULL, tenant TEXT NOT NULL,
                url TEXT NOT NULL, body TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt REAL NOT NULL,
                delivered REAL, abandoned REAL, last_status INTEGER, last_error TEXT);
            """)
    }

    static var now: Double { Date().timeIntervalSince1970 }

    // MARK: renders

    /// Adds a queued render.
    public func insert(id: String, tenant: String, callback: String?) throws {
        try database.query("INSERT INTO renders (id, tenant, status, callback, created) VALUES (?, ?, 'queued', ?, ?)",
                           [.text(id), .text(tenant), callback.map { .text($0) } ?? .null, .real(Self.now)])
    }

    public func render(_ id: String) throws -> RenderRecord? { try database.query("SELECT * FROM renders WHERE id = ?", [.text(id)]).first.map(record) }

    /// A tenant's renders, newest first (at most `limit`), of one status if given.
    public func renders(tenant: String, status: RenderStatus? = nil, limit: Int = 100) throws -> [RenderRecord] {
        let filter = status.map { _ in " AND status = ?" } ?? ""
        return try database.query("SELECT * FROM renders WHERE tenant = ?\(filter) ORDER BY rowid DESC LIMIT ?",
                                  [.text(tenant)] + (status.map { [.text($0.rawValue)] } ?? []) + [.int(Int64(limit))]).map(record)
    }

    /// Takes the oldest queued render: marks it rendering and counts the attempt. Nil when none is queued.
    public func claimNext() throws -> RenderRecord? {
        try database.transaction {
            guard let row = try database.query("SELECT id FROM renders WHERE status = 'queued' ORDER BY rowid LIMIT 1").first,
                  let id = row["id"]?.text else { return nil }
            try database.query("UPDATE renders SET status = 'rendering', started = ?, attempts = attempts + 1, frames = 0 WHERE id = ?",
                               [.real(Self.now), .text(id)])
            return try render(id)
        }
    }

    public func progress(_ id: String, frames: Int64, total: Int64, fps: Double) throws {
        try database.query("UPDATE renders SET frames = ?, total_frames = ?, fps = ? WHERE id = ? AND status = 'rendering'",
                           [.int(frames), .int(total), .real(fps), .text(id)])
    }

    /// Ends a render (done, failed or cancelled). A render with a callback gets its webhook owed recorded in the same
    /// transaction, its body `callbackBody` of the final record. Returns false when it had already ended (a cancel
    /// that came first).
    @discardableResult
    public func finish(_ id: String, status: RenderStatus, error: String? = nil, frames: Int64? = nil,
                       callbackBody: (RenderRecord) -> String) throws -> Bool {
        try database.transaction {
            try database.query("UPDATE renders SET status = ?, error = ?, finished = ?, frames = COALESCE(?, frames) WHERE id = ? AND status IN ('queued', 'rendering')",
                               [.text(status.rawValue), error.map { .text($0) } ?? .null, .real(Self.now), frames.map { .int($0) } ?? .null, .text(id)])
            guard database.changes == 1 else { return false }
            if let r = try render(id), let url = r.callback {
                try database.query("INSERT INTO deliveries (render_id, tenant, url, body, next_attempt) VALUES (?, ?, ?, ?, ?)",
                                   [.text(id), .text(r.tenant), .text(url), .text(callbackBody(r)), .real(Self.now)])
            }
            return true
        }
    }

    /// Puts renders left `rendering` (by a server that was killed) back in the queue, in their order.
    public func requeue(_ id: String) throws {
        try database.query("UPDATE renders SET status = 'queued', frames = 0 WHERE id = ? AND status = 'rendering'", [.text(id)])
    }

    /// Counts of renders by status (every status present, 0 for none).
    public func countsByStatus() throws -> [RenderStatus: Int] {
        var counts = Dictionary(uniqueKeysWithValues: RenderStatus.allCases.map { ($0, 0) })
        for row in try database.query("SELECT status, COUNT(*) AS n FROM renders GROUP BY status") {
            if let s = row["status"]?.text.flatMap(RenderStatus.init), let n = row["n"]?.int { counts[s] = Int(n) }
        }
        return counts
    }

    private func record(_ row: SQLRow) -> RenderRecord {
        RenderRecord(id: row["id"]?.text ?? "", tenant: row["tenant"]?.text ?? "", status: RenderStatus(rawValue: row["status"]?.text ?? "") ?? .failed,
                     frames: row["frames"]?.int ?? 0, totalFrames: row["total_frames"]?.int ?? 0, fps: row["fps"]?.real ?? 0,
                     error: row["error"]?.text, callback: row["callback"]?.text, created: row["created"]?.real ?? 0,
                     started: row["started"]?.real, finished: row["finished"]?.real, attempts: Int(row["attempts"]?.int ?? 0))
    }

    // MARK: child processes

    /// Records a child process started for a render's attempt.
    public func runStarted(_ id: String, attempt: Int, pid: Int32) throws {
        try database.query("INSERT INTO runs (render_id, attempt, pid, started) VALUES (?, ?, ?, ?)",
                           [.text(id), .int(Int64(attempt)), .int(Int64(pid)), .real(Self.now)])
    }

    /// Records how a child process ended: its exit status (negative: the signal that ended it) and the render's outcome
    /// (done, failed, cancelled, or interrupted: the service was stopped and the render queued again).
    public func runEnded(_ id: String, pid: Int32, exitStatus: Int32, outcome: String) throws {
        try database.query("UPDATE runs SET ended = ?, exit_status = ?, outcome = ? WHERE render_id = ? AND pid = ? AND ended IS NULL",
                           [.real(Self.now), .int(Int64(exitStatus)), .text(outcome), .text(id), .int(Int64(pid))])
    }

    /// The child processes of renders that a killed server left without an end: (render id, pid).
    public func unfinishedRuns() throws -> [(id: String, pid: Int32)] {
        try database.query("SELECT render_id, pid FROM runs WHERE ended IS NULL").compactMap { row in
            guard let id = row["render_id"]?.text, let pid = row["pid"]?.int else { return nil }
            return (id, Int32(pid))
        }
    }

    /// Closes the runs a killed server left open (their processes are gone).
    public func abandonRuns(of id: String) throws {
        try database.query("UPDATE runs SET ended = ?, outcome = 'interrupted' WHERE render_id = ? AND ended IS NULL", [.real(Self.now), .text(id)])
    }

    /// Every render's runs that ended with the render done: a render rendered twice has two.
    public func completedRunCounts() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try database.query("SELECT render_id, COUNT(*) AS n FROM runs WHERE outcome = 'done' GROUP BY render_id") {
            if let id = row["render_id"]?.text, let n = row["n"]?.int { counts[id] = Int(n) }
        }
        return counts
    }

    /// Renders left `rendering` (a server killed while they ran).
    public func interrupted() throws -> [String] {
        try database.query("SELECT id FROM renders WHERE status = 'rendering' ORDER BY rowid").compactMap { $0["id"]?.text }
    }

    // MARK: assets

    public func assetStored(tenant: String, name: String, size: Int64, sha256: String?) throws {
        try database.query("INSERT OR REPLACE INTO assets (tenant, name, size, sha256, created) VALUES (?, ?, ?, ?, ?)",
                           [.text(tenant), .text(name), .int(size), sha256.map { .text($0) } ?? .null, .real(Self.now)])
    }

    public func hasAsset(tenant: String, name: String) throws -> Bool {
        try !database.query("SELECT 1 FROM assets WHERE tenant = ? AND name = ?", [.text(tenant), .text(name)]).isEmpty
    }
}
