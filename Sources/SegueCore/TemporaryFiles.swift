import Foundation
import Synchronization

/// The hidden temporary files an output is written through (renamed into place only when it is finished), their
/// names, and the removal of those a killed render left behind.
///
/// A temporary file lies beside its output (an image sequence's is a folder of frames beside them) and is named
/// `.NAME.segue-HOST-PID-N.tmp`: `NAME` the output's file name,
/// `HOST` this machine's name (letters, digits, `.` and `-` kept, anything else `_`), `PID` the writing process, `N` a
/// count within it (renders at once in one process never share a file). A process killed with SIGKILL cannot remove its
/// file; the next render of the same output does (`removeStale(of:)`): it removes the temporary files of that output
/// (and only those) made on this machine by a process that no longer exists. Files of a process still running, and
/// files made on another machine of a farm sharing the folder (whose processes this machine cannot see), are left
/// alone. Names without a host (`.NAME.segue-PID-N.tmp`, `.NAME.segue-PID.tmp`, as Segue named them before) are taken
/// to be this machine's.
public enum TemporaryFiles {
    /// This machine's name as it appears in temporary names (`gethostname`, sanitized; "localhost" when unknown).
    public static let host: String = {
        var buf = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buf, buf.count - 1) == 0 ? String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let clean = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "_" })
        return clean.isEmpty ? "localhost" : clean
    }()

    /// The temporary path for `output` written by this process, `count` telling apart this process's files.
    public static func path(for output: String, count: Int) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).segue-\(host)-\(getpid())-\(count).tmp").path
    }

    /// Temporary files named so far in this process (their names' count).
    private static let count = Mutex(0)

    /// A new temporary path for `output` (`path(for:count:)` with the next count of this process): writers at once in
    /// one process (a library user's renders, a take's rewrite beside a preview) never share a file.
    public static func next(for output: String) -> String {
        path(for: output, count: count.withLock { c -> Int in c += 1; return c })
    }

    /// The host and process that wrote the temporary file `name` of the output named `outputName`, or nil when `name`
    /// is not one of its temporary files. Host nil for a name without one (made by an older Segue).
    public static func writer(of name: String, outputName: String) -> (host: String?, pid: Int32)? {
        let prefix = ".\(outputName).segue-", suffix = ".tmp"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        func number(_ s: String) -> Bool { !s.isEmpty && s.allSatisfy(\.isASCII) && s.allSatisfy(\.isNumber) }
        // HOST-PID-N (the host may hold "-"), PID-N or PID.
        if parts.count >= 3, number(parts[parts.count - 1]), number(parts[parts.count - 2]), let pid = Int32(parts[parts.count - 2]) {
            return (parts.dropLast(2).joined(separator: "-"), pid)
        }
        if parts.count == 2, number(parts[0]), number(parts[1]), let pid = Int32(parts[0]) { return (nil, pid) }
        if parts.count == 1, number(parts[0]), let pid = Int32(parts[0]) { return (nil, pid) }
        return nil
    }

    /// Whether process `pid` exists on this machine (`kill(pid, 0)`: success, or EPERM for another user's).
    public static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes the temporary files of `output` that a process of this machine which no longer exists left behind.
    /// - Returns: the names removed.
    @discardableResult
    public static func removeStale(of output: String) -> [String] {
        let url = URL(fileURLWithPath: output)
        let dir = url.deletingLastPathComponent().path, name = url.lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        var removed: [String] = []
        for n in names.sorted() {
            guard let w = writer(of: n, outputName: name), w.host == nil || w.host == host, w.pid != getpid(), !processExists(w.pid) else { continue }
            // An image sequence's temporary file is a folder of frames.
            if (try? FileManager.default.removeItem(atPath: dir + "/" + n)) != nil { removed.append(n) }
        }
        return removed
    }
}
