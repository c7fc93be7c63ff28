import Foundation
import SegueCore
import SegueEdit
import SegueMedia

/// An `.otioz` bundle (OpenTimelineIO's zip of `content.otio` and `media/`) extracted into a temporary folder of its
/// own, which is removed (with everything in it) when this is released, and on SIGINT/SIGTERM (`SignalCleanup`). The
/// one owner of that folder.
///
/// Hostile bundles are refused before anything is written: a member whose name is absolute, holds `..` or a
/// backslash, a symbolic link or device, an encrypted member, more than `maxMembers` members, a `content.otio` over
/// `maxContentBytes`, or members that would not fit in the free space of the temporary folder's file system.
/// libzip checks the archive's structure and each member's CRC; each member must hold exactly its declared size.
public final class ExtractedBundle: Sendable {
    /// The folder (absolute, symbolic links resolved), holding the members under their names.
    public let folder: String
    /// The timeline, `content.otio`.
    public let content: Data
    private let cleanupSlot: Int?

    public static let maxMembers = 100_000
    public static let maxContentBytes: UInt64 = 64 << 20

    /// Extracts the bundle at `path` into a new folder in `NSTemporaryDirectory()`.
    /// - Throws: `EditError` (not a bundle, a refused member, no `content.otio`), `MediaError` (the folder or a file
    ///   cannot be written: disk full).
    public init(bundle path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw EditError(path, "cannot read the bundle (missing or not readable)") }
        if let kind = InputPolicy.nonRegularKind(st.st_mode) { throw EditError(path, "the bundle is \(kind), not a file") }
        let archive = try ZipArchive(path: path)
        let entries = try archive.entries()
        guard entries.count <= ExtractedBundle.maxMembers else {
            throw EditError(path, "the bundle has \(entries.count) members, more than \(ExtractedBundle.maxMembers)")
        }
        for e in entries {
            let parts = e.name.split(separator: "/", omittingEmptySubsequences: false)
            if e.name.isEmpty || e.name.hasPrefix("/") || e.name.contains("\\") || e.name.contains("\0") || parts.contains("..") {
                throw EditError(path, "the bundle's member \"\(e.name)\" would land outside the bundle's folder (an absolute name, .. or \\): refused")
            }
            if let kind = e.specialKind { throw EditError(path, "the bundle's member \"\(e.name)\" is \(kind): refused") }
            if e.isEncrypted { throw EditError(path, "the bundle's member \"\(e.name)\" is encrypted") }
        }
        guard let contentEntry = entries.first(where: { $0.name == "content.otio" }) else {
            throw EditError(path, "is not an .otioz bundle: it has no content.otio")
        }
        content = try archive.data(of: contentEntry, limit: ExtractedBundle.maxContentBytes)

        let files = entries.filter { !$0.isDirectory && $0.name != "content.otio" }
        let total = files.reduce(UInt64(0)) { $0 + $1.size }
        var template = Array((NSTemporaryDirectory() + "/segue-otioz-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw MediaError(path: NSTemporaryDirectory(), function: "mkdtemp", code: -errno, message: "cannot make a folder for the bundle: \(String(cString: strerror(errno)))", outputIO: true)
        }
        let created = String(cString: made)
        let root = InputPolicy.realPath(created) ?? created
        folder = root
        var fs = statvfs()
        if statvfs(root, &fs) == 0, total > UInt64(fs.f_bavail) * UInt64(fs.f_frsize) {
            rmdir(root)
            throw MediaError(path: path, function: nil, message: "the bundle's media (\(total) bytes) do not fit in the free space of \(NSTemporaryDirectory())")
        }
        // What to remove on a signal: every file, then the folders deepest first, the bundle's folder last.
        let targets = files.map { "\(root)/\($0.name)" }
        var dirs = Set<String>()
        for e in entries {
            var parts = e.name.split(separator: "/").map(String.init)
            if !e.isDirectory { parts.removeLast() }
            for k in parts.indices { dirs.insert(parts[0...k].joined(separator: "/")) }
        }
        let sortedDirs = dirs.sorted { $0.split(separator: "/").count > $1.split(separator: "/").count || ($0.split(separator: "/").count == $1.split(separator: "/").count && $0 > $1) }
        cleanupSlot = SignalCleanup.registerFolder(targets + sortedDirs.map { "\(root)/\($0)" } + [root])
        for d in dirs.sorted(by: { $0.count < $1.count }) {
            let full = "\(root)/\(d)"
            if mkdir(full, 0o700) != 0 && errno != EEXIST {
                throw MediaError(path: full, function: "mkdir", code: -errno, message: "cannot make a folder of the bundle: \(String(cString: strerror(errno)))", outputIO: true)
            }
        }
        for e in files { try archive.extract(e, to: "\(root)/\(e.name)") }
        // Every property is set: a throw above runs deinit, which removes the folder and its registration.
    }

    deinit {
        ExtractedBundle.remove(folder)
        SignalCleanup.unregisterFolder(cleanupSlot)
    }

    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
