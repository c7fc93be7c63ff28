import Foundation
import CZip
import SegueCore

/// A zip archive opened for reading with libzip (`.otioz` bundles): the one owner of its `zip_t`, discarded on
/// deinit. libzip checks the archive's structure on opening (`ZIP_CHECKCONS`) and each member's CRC as it is read.
public final class ZipArchive {
    /// One member of the archive, as its central directory describes it.
    public struct Entry: Sendable {
        public let index: UInt64
        /// The member's name (a path with `/` separators), as stored.
        public let name: String
        /// Uncompressed size in bytes.
        public let size: UInt64
        /// Modification time (seconds since 1970), as stored (DOS time: 2 s steps).
        public let modified: Int
        /// A folder entry (its name ends in `/`).
        public let isDirectory: Bool
        /// What the entry is when it is neither a regular file nor a folder ("a symbolic link", …), from its Unix mode.
        public let specialKind: String?
        /// Whether it is encrypted.
        public let isEncrypted: Bool
    }

    public let path: String
    private let handle: OpaquePointer

    /// Opens the archive at `path`.
    /// - Throws: `EditError` naming the file when it is not a zip archive or is damaged (libzip's message).
    public init(path: String) throws {
        var code: Int32 = 0
        guard let z = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            throw EditError(path, "is not a readable zip archive: \(ZipArchive.message(code: code))")
        }
        self.path = path
        handle = z
    }

    deinit { zip_discard(handle) }

    /// libzip's message for an error code.
    static func message(code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return String(cString: zip_error_strerror(&error))
    }

    /// The archive's last error, in libzip's words.
    private var lastError: String { String(cString: zip_strerror(handle)) }

    /// Every member, in the archive's order.
    /// - Throws: `EditError` when the directory cannot be read.
    public func entries() throws -> [Entry] {
        let count = zip_get_num_entries(handle, 0)
        guard count >= 0 else { throw EditError(path, "cannot list the archive: \(lastError)") }
        var out: [Entry] = []
        for i in 0..<UInt64(count) {
            var st = zip_stat_t()
            zip_stat_init(&st)
            guard zip_stat_index(handle, i, 0, &st) == 0, let name = st.name else {
                throw EditError(path, "cannot read member \(i) of the archive: \(lastError)")
            }
            var system: UInt8 = 0, attributes: UInt32 = 0
            var special: String?
            if zip_file_get_external_attributes(handle, i, 0, &system, &attributes) == 0, UInt32(system) == ZIP_OPSYS_UNIX {
                let mode = mode_t(attributes >> 16)
                if mode & S_IFMT != 0, mode & S_IFMT != S_IFDIR {
                    special = mode & S_IFMT == S_IFLNK ? "a symbolic link" : InputPolicy.nonRegularKind(mode)
                }
            }
            let text = String(cString: name)
            out.append(Entry(index: i, name: text, size: st.size, modified: Int(st.mtime), isDirectory: text.hasSuffix("/"),
                             specialKind: special, isEncrypted: st.encryption_method != UInt16(ZIP_EM_NONE)))
        }
        return out
    }

    /// The whole of a member, at most `limit` bytes.
    /// - Throws: `EditError` when it is larger, or cannot be read (a CRC error: libzip's message).
    public func data(of entry: Entry, limit: UInt64) throws -> Data {
        guard entry.size <= limit else { throw EditError(path, "\(entry.name) is \(entry.size) bytes, more than the \(limit) allowed") }
        var data = Data(count: Int(entry.size))
        try copy(entry) { offset, bytes in data.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
        return data
    }

    /// Writes a member to a new file at `destination` (created exclusively, mode 0600), its modification time the
    /// member's, so that two extractions of one bundle give files that fingerprint alike.
    /// - Throws: `EditError` for a damaged member, `MediaError` when the file cannot be written.
    public func extract(_ entry: Entry, to destination: String) throws {
        let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw MediaError(path: destination, function: "open", code: -errno, message: "cannot create the extracted file: \(String(cString: strerror(errno)))", outputIO: true)
        }
        var closed = false
        defer { if !closed { close(fd) } }
        try copy(entry) { _, bytes in
            var rest = bytes[...]
            while !rest.isEmpty {
                let n = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard n > 0 else {
                    throw MediaError(path: destination, function: "write", code: -errno, message: "cannot write the extracted file: \(String(cString: strerror(errno)))", outputIO: true)
                }
                rest = rest.dropFirst(n)
            }
        }
        var times = [timespec(tv_sec: entry.modified, tv_nsec: 0), timespec(tv_sec: entry.modified, tv_nsec: 0)]
        _ = futimens(fd, &times)
        closed = true
        guard close(fd) == 0 else {
            throw MediaError(path: destination, function: "close", code: -errno, message: "cannot write the extracted file: \(String(cString: strerror(errno)))", outputIO: true)
        }
    }

    /// Reads a member in chunks, handing each to `sink` with its offset; checks that it holds exactly its size.
    private func copy(_ entry: Entry, into sink: (Int, Data) throws -> Void) throws {
        guard !entry.isEncrypted else { throw EditError(path, "\(entry.name) is encrypted") }
        guard let file = zip_fopen_index(handle, entry.index, 0) else {
            throw EditError(path, "cannot open \(entry.name) in the archive: \(lastError)")
        }
        defer { zip_fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, UInt64($0.count)) }
            if n < 0 { throw EditError(path, "\(entry.name) is damaged: \(String(cString: zip_file_strerror(file)))") }
            if n == 0 { break }
            guard UInt64(offset) + UInt64(n) <= entry.size else { throw EditError(path, "\(entry.name) holds more than its declared \(entry.size) bytes") }
            try sink(offset, Data(buffer[0..<Int(n)]))
            offset += Int(n)
        }
        guard UInt64(offset) == entry.size else { throw EditError(path, "\(entry.name) holds \(offset) bytes, not its declared \(entry.size)") }
    }
}
