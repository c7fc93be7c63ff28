import CSQLite
import Foundation

/// A failure of SQLite, carrying its message (`sqlite3_errmsg`) and result code.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    /// What was being done ("opening queue.sqlite3", the statement).
    public let doing: String
    public var description: String { "SQLite: \(doing): \(message) (code \(code))" }
}

/// A value bound to or read from a statement.
public enum SQLValue: Sendable, Equatable {
    case null, int(Int64), real(Double), text(String)

    public var int: Int64? { if case .int(let i) = self { return i }; if case .real(let d) = self { return Int64(d) }; return nil }
    public var real: Double? { if case .real(let d) = self { return d }; if case .int(let i) = self { return Double(i) }; return nil }
    public var text: String? { if case .text(let s) = self { return s }; return nil }
}

/// One row of a query: its columns by name.
public typealias SQLRow = [String: SQLValue]

/// The one owner of a `sqlite3` connection: opened in WAL mode (a `kill -9` loses no committed transaction), one
/// statement at a time (a lock serialises the threads of the server), closed on deinit.
public final class SQLiteDatabase: @unchecked Sendable {
    private var handle: OpaquePointer?
    private let lock = NSRecursiveLock()
    /// The database file.
    public let path: String

    /// Opens (creating it) the database at `path`, in WAL mode with `synchronous=FULL` and a 5 s busy timeout.
    /// Throws `SQLiteError` when it cannot be opened.
    public init(path: String) throws {
        self.path = path
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw SQLiteError(code: rc, message: message, doing: "opening \(URL(fileURLWithPath: path).lastPathComponent)")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements without results (schema, pragmas). Throws `SQLiteError`.
    public func execute(_ sql: String) throws {
        try locked {
            var error: UnsafeMutablePointer<CChar>?
            let rc = sqlite3_exec(handle, sql, nil, nil, &error)
            if rc != SQLITE_OK {
                let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
                sqlite3_free(error)
                throw SQLiteError(code: rc, message: message, doing: sql)
            }
        }
    }

    /// Runs one statement with `?` parameters bound in order; returns its rows. Throws `SQLiteError`.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws -> [SQLRow] {
        try locked {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(sql) }
            defer { sqlite3_finalize(statement) }
            for (i, p) in parameters.enumerated() {
                let k = Int32(i + 1)
                let rc: Int32 = switch p {
                case .null: sqlite3_bind_null(statement, k)
                case .int(let v): sqlite3_bind_int64(statement, k, v)
                case .real(let v): sqlite3_bind_double(statement, k, v)
                case .text(let v): sqlite3_bind_text(statement, k, v, -1, segue_sqlite_transient())
                }
                guard rc == SQLITE_OK else { throw failure(sql) }
            }
            var rows: [SQLRow] = []
            while true {
                let rc = sqlite3_step(statement)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else { throw failure(sql) }
                var row = SQLRow()
                for c in 0..<sqlite3_column_count(statement) {
                    let name = String(cString: sqlite3_column_name(statement, c))
                    row[name] = switch sqlite3_column_type(statement, c) {
                    case SQLITE_INTEGER: .int(sqlite3_column_int64(statement, c))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, c))
                    case SQLITE_NULL: .null
                    default: .text(String(cString: sqlite3_column_text(statement, c)))
                    }
                }
                rows.append(row)
            }
            return rows
        }
    }

    /// Runs `body` in one transaction (BEGIN IMMEDIATE … COMMIT; ROLLBACK when it throws).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try locked {
            try execute("BEGIN IMMEDIATE")
            do {
                let result = try body()
                try execute("COMMIT")
                return result
            } catch {
                try? execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Rows changed by the last statement.
    public var changes: Int { locked { Int(sqlite3_changes(handle)) } }

    private func failure(_ sql: String) -> SQLiteError {
        SQLiteError(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), doing: sql)
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
