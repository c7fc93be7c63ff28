import Foundation
import Synchronization
import SegueCore
import SegueEdit
import SegueMedia

// What a render writes and where: the output checked against its format and against the inputs, written through a
// hidden temporary file that only a finished render moves into place, and removed on SIGINT/SIGTERM.
extension RenderJob {
    /// Checks what `settings` ask for against their output format (`OutputFormat`) before anything is opened: a named
    /// encoder only where the format takes one, and one that exists and takes the format's pixel format; the default
    /// HDR encoder present; a file name with one of the format's extensions.
    /// - Throws: `EditError` ("output.encoder"), `UsageError` (the file name), `MediaError` (this FFmpeg lacks the
    ///   default encoder for HDR).
    static func checkOutput(_ settings: OutputSettings, path: String) throws {
        let format = settings.format
        if let e = settings.encoder {
            guard format.takesEncoderSettings else {
                throw EditError("output.encoder", "an encoder applies to \(OutputFormat.mp4.containerName) output, not to \(format.name) (--codec \(format.codec.rawValue))")
            }
            if let why = MediaWriter.problem(withVideoEncoder: e, format: format, dynamicRange: settings.dynamicRange) { throw EditError("output.encoder", why) }
        } else if settings.dynamicRange != .sdr, let why = MediaWriter.problem(withVideoEncoder: format.videoEncoder(settings), format: format,
                                                                               dynamicRange: settings.dynamicRange) {
            throw MediaError(path: path, function: nil, message: "\(settings.dynamicRange.rawValue.uppercased()) output needs \(format.videoEncoder(settings)): \(why)")
        }
        guard format.accepts(fileName: path) else {
            let others = OutputFormat.all.filter { $0 != format }.map { "--codec \($0.codec.rawValue) for .\($0.extensions[0])" }
            throw UsageError("\(format.name) is written into \(format.containerName): give the output a \(format.extensionsInWords) name"
                             + (others.isEmpty ? "" : ", or use \(others.joined(separator: ", "))") + " (got \(path))")
        }
    }

    /// Refuses an output that would replace an input: any file the edit reads (`Edit.inputPaths`), or one of `others`
    /// (described in words, e.g. "the edit file"). Paths are compared after resolving symbolic links, and files by device
    /// and inode, so a hard link to an input is refused too.
    /// - Throws: `UsageError`.
    public static func refuseOverwriting(inputsOf edit: Edit?, with output: String, others: [(what: String, path: String)] = []) throws {
        func resolved(_ p: String) -> URL { URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath() }
        let out = resolved(output)
        var inputs = others
        if let edit {
            let single = edit.tracks.count == 1 && edit.audioTracks.isEmpty
            inputs = edit.inputPaths.map { i in
                if i.field == "music.path" { return ("the music file", i.path) }
                if single, i.field.hasPrefix("clips["), i.field.hasSuffix("].path"), let n = Int(i.field.dropFirst(6).dropLast(6)) {
                    return ("clip \(n)'s input", i.path)
                }
                return ("an input of the edit (\(i.field))", i.path)
            } + inputs
        }
        // The same file under another name (a hard link, a bind mount) is the same device and inode.
        func identity(_ p: String) -> (dev_t, ino_t)? {
            var st = stat()
            return stat(p, &st) == 0 ? (st.st_dev, st.st_ino) : nil
        }
        let outID = identity(output)
        func sameFile(_ p: String) -> Bool {
            guard let o = outID, let i = identity(p) else { return false }
            return i == o
        }
        if let hit = inputs.first(where: { resolved($0.path) == out || sameFile($0.path) }) {
            throw UsageError("the output path \(output) is \(hit.what)\(resolved(hit.path) == out ? "" : " (the same file under another name)"); choose another output path")
        }
    }

    /// Temporary files made so far in this process (their names' count).
    private static let temporaryCount = Mutex(0)

    /// Runs `write` on a hidden temporary file beside `path` (`TemporaryFiles.path`) and renames it to `path` only if
    /// `write` succeeds; on any error (or SIGINT/SIGTERM) the temporary file is removed and an existing file at `path` is
    /// untouched. Temporary files of `path` left by a killed process are removed first (`TemporaryFiles.removeStale`).
    /// - Throws: what `write` throws (a `MediaError` about the temporary file names `path` instead), or a
    ///   `MediaError` if the rename fails.
    static func writeAtomically<T>(to path: String, _ write: (String) throws -> T) throws -> T {
        // What a render of this output killed earlier (SIGKILL) left behind goes first (`TemporaryFiles.removeStale`).
        TemporaryFiles.removeStale(of: path)
        // Host, PID and a per-process count: renders at once in one process (a library user's) never share a file.
        let n = temporaryCount.withLock { c -> Int in c += 1; return c }
        let temp = TemporaryFiles.path(for: path, count: n)
        let slot = SignalCleanup.register(temp)
        defer { SignalCleanup.unregister(slot) }
        do {
            let result = try write(temp)
            if rename(temp, path) != 0 {
                throw MediaError(path: path, function: "rename", code: -errno, message: "cannot move the finished file into place: \(String(cString: strerror(errno)))", outputIO: true)
            }
            return result
        } catch let e as MediaError where e.path == temp {
            unlink(temp)
            // Name the file the user asked for, not the hidden temporary one.
            throw e.about(path)
        } catch {
            unlink(temp)
            throw error
        }
    }
}

/// Removes the temporary output files when the process is interrupted (SIGINT → exit 130, SIGTERM → exit 143).
/// `unlink` and `_exit` are async-signal-safe; the paths are kept in a fixed table of C strings that the handler only
/// reads. Renders running at once (a library user's) each hold a slot.
public enum SignalCleanup {
    /// Slots for the paths of the renders in progress; nil where free. Written only under `lock`; the signal handler
    /// only reads (it cannot take a lock), hence nonisolated(unsafe).
    nonisolated(unsafe) static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slots)
        p.initialize(repeating: nil, count: slots)
        return p
    }()
    static let slots = 64
    static let lock = NSLock()

    /// Installs the handlers (the CLI calls this once).
    public static func installHandlers() {
        _ = paths
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { s in
                for i in 0..<SignalCleanup.slots { if let p = SignalCleanup.paths[i] { unlink(p) } }
                _exit(128 + s)
            }
        }
    }
    /// Registers `p`; returns its slot for `unregister` (nil when every slot is taken: then `p` is not removed on a
    /// signal, only by the render's own error handling).
    static func register(_ p: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard let i = (0..<slots).first(where: { paths[$0] == nil }) else { return nil }
        paths[i] = strdup(p)
        return i
    }
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        let old = paths[slot]
        paths[slot] = nil
        lock.unlock()
        free(old)
    }
}
