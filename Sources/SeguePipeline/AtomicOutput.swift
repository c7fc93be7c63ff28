import Foundation
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
    static func checkOutput(_ settings: OutputSettings, path: String, keepsAlpha: Bool = false, audio: AudioSettings? = nil) throws {
        let format = settings.format
        guard format.accepts(fileName: path) else { throw UsageError(mismatch(format, path: path, named: !settings.codecFromFileName)) }
        guard format.dynamicRanges.contains(settings.dynamicRange) else {
            throw EditError("output.dynamicRange", "\(format.name) is SDR only; HDR (\(settings.dynamicRange.rawValue)) is written by --codec h264, ffv1, vp9, av1 or prores")
        }
        if keepsAlpha {
            guard format.alphaPixelFormat != nil else {
                let withAlpha = OutputFormat.all.filter { $0.alphaPixelFormat != nil }.map { "--codec \($0.codec.rawValue)" }.joined(separator: ", ")
                throw EditError("background", "transparent needs an output that keeps alpha (\(withAlpha)); \(format.name) has none")
            }
            guard settings.dynamicRange == .sdr else { throw EditError("background", "transparent is for SDR output; an HDR output keeps no alpha") }
        }
        if let e = settings.encoder {
            guard format.takesEncoderSettings else {
                throw EditError("output.encoder", "an encoder applies to H.264, VP9 and AV1 output, not to \(format.name) (--codec \(format.codec.rawValue))")
            }
            if let why = MediaWriter.problem(withVideoEncoder: e, format: format, dynamicRange: settings.dynamicRange, alpha: keepsAlpha) { throw EditError("output.encoder", why) }
        } else if let why = MediaWriter.problem(withVideoEncoder: format.videoEncoder(settings), format: format, dynamicRange: settings.dynamicRange,
                                                alpha: keepsAlpha) {
            throw MediaError(path: path, function: nil, message: "\(format.name) needs \(format.videoEncoder(settings)): \(why)")
        }
        if let a = audio, let why = MediaWriter.problem(withAudioOf: format, sampleRate: a.sampleRate) { throw EditError("audio.sampleRate", why) }
    }

    /// The one sentence refusing an output name `format` does not write: what it writes and into which name, and
    /// which format the name would take. Where no codec was named (`named` false: the name chooses the format) and the
    /// name is no format's, it says so and lists the formats, without blaming a `--codec` the user did not give.
    static func mismatch(_ format: OutputFormat, path: String, named: Bool = true) -> String {
        let name = (path as NSString).lastPathComponent
        let formats = OutputFormat.all.map { "\($0.codec.rawValue) .\($0.extensions[0])" }.joined(separator: ", ")
        if !named && OutputFormat.forFileName(path) == nil && !OutputFormat.all.contains(where: { $0.extensions.contains(OutputFormat.fileExtension(path)) }) {
            return "\(name): its name says no format Segue writes; name the output for one, or give --codec (the formats: \(formats))"
        }
        let wanted = format.isImageSequence ? "a \(format.extensionsInWords)" : "a \(format.extensionsInWords) name"
        if let other = OutputFormat.forFileName(path) {
            return "--codec \(format.codec.rawValue) writes \(format.name), which needs \(wanted), not \(name) (\(other.name): --codec \(other.codec.rawValue))"
        }
        if OutputFormat.all.contains(where: { $0.isImageSequence && $0.extensions.contains(OutputFormat.fileExtension(path)) }) {
            return "\(name) is one picture; an image sequence's name is a numbered pattern such as frames/%05d.\(OutputFormat.fileExtension(path)) (--codec \(format.codec.rawValue) writes \(format.name), which needs \(wanted))"
        }
        return "--codec \(format.codec.rawValue) writes \(format.name), which needs \(wanted), not \(name) (the formats: \(formats))"
    }

    /// `withFormatOfFileName` for an edit that is written down before it renders (a farm's or a cache's plan, whose
    /// workers read it): where the name chose another format than the default, the codec is recorded as named
    /// (`codecFromFileName` false), so that the written edit keeps it.
    public static func chosenByName(_ edit: Edit, _ path: String) -> Edit {
        var chosen = withFormatOfFileName(edit, path)
        if chosen.output.codec != edit.output.codec {
            chosen.output.codecFromFileName = false
            // A resolved edit that left the format to the output's name (`EditResolution.output`) records the choice.
            chosen.resolution?.output = chosen.output
        }
        return chosen
    }

    /// `edit` with its output format chosen by `path`'s name when the edit names none (`OutputSettings.codecFromFileName`)
    /// and the name is another format's (`-o clip.webm`: VP9 in WebM; `-o frames/%05d.png`: a PNG sequence).
    public static func withFormatOfFileName(_ edit: Edit, _ path: String) -> Edit {
        guard edit.output.codecFromFileName, !edit.output.format.accepts(fileName: path), let f = OutputFormat.chosen(byFileName: path) else { return edit }
        var e = edit
        e.output.codec = f.codec
        return e
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

    /// Runs `write` on a hidden temporary file beside `path` (`TemporaryFiles.path`) and renames it to `path` only if
    /// `write` succeeds; on any error (or SIGINT/SIGTERM) the temporary file is removed and an existing file at `path` is
    /// untouched. Temporary files of `path` left by a killed process are removed first (`TemporaryFiles.removeStale`).
    /// With `keepOnSignal` (`RenderOptions.keepPartial`: a fragmented file that plays however far it was written),
    /// SIGINT and SIGTERM move the temporary file into place as it is instead.
    /// - Throws: what `write` throws (a `MediaError` about the temporary file names `path` instead), or a
    ///   `MediaError` if the rename fails.
    package static func writeAtomically<T>(to path: String, keepOnSignal: Bool = false, _ write: (String) throws -> T) throws -> T {
        // What a render of this output killed earlier (SIGKILL) left behind goes first (`TemporaryFiles.removeStale`).
        TemporaryFiles.removeStale(of: path)
        // Host, PID and a per-process count: renders at once in one process (a library user's) never share a file.
        let temp = TemporaryFiles.next(for: path)
        let slot = SignalCleanup.register(temp, keepAs: keepOnSignal ? path : nil)
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

extension RenderJob {
    /// `writeAtomically` for an image sequence (`pattern`: `DIR/%05d.png`): `write` fills a hidden temporary folder in
    /// `DIR` (`TemporaryFiles.path`, `.#05d.png.segue-HOST-PID-N.tmp`, removed on failure, and by a later render if the
    /// process is killed) through the
    /// same pattern; on success the files of the pattern already in `DIR` go, and the new ones move in.
    /// - Throws: what `write` throws (naming `pattern` rather than the temporary folder), or a `MediaError` when a file
    ///   cannot be moved.
    static func writeSequenceAtomically<T>(to pattern: String, _ write: (String) throws -> T) throws -> T {
        let url = URL(fileURLWithPath: pattern), dir = url.deletingLastPathComponent().path, name = url.lastPathComponent
        // The temporary folder is named for the pattern with its `%` as `#` (.#05d.png.segue-HOST-PID-N.tmp): FFmpeg's
        // image2 reads a `%` anywhere in the path as a number.
        let standIn = dir + "/" + name.replacingOccurrences(of: "%", with: "#")
        TemporaryFiles.removeStale(of: standIn)
        let temp = TemporaryFiles.next(for: standIn)
        do {
            try FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: false)
        } catch {
            throw MediaError(path: pattern, function: "mkdir", message: "cannot make the temporary folder: \(error.localizedDescription)", outputIO: true)
        }
        do {
            let result = try write(temp + "/" + name)
            guard let p = ImageSequencePattern(path: pattern) else { preconditionFailure("an image sequence's output is a pattern") }
            for old in try p.numbers() { unlink(p.path(old)) }
            for file in try FileManager.default.contentsOfDirectory(atPath: temp).sorted() where rename(temp + "/" + file, dir + "/" + file) != 0 {
                throw MediaError(path: dir + "/" + file, function: "rename", code: -errno, message: "cannot move the frame into place: \(String(cString: strerror(errno)))", outputIO: true)
            }
            try? FileManager.default.removeItem(atPath: temp)
            return result
        } catch let e as MediaError where e.path?.hasPrefix(temp) ?? false {
            try? FileManager.default.removeItem(atPath: temp)
            throw e.about(pattern)
        } catch {
            try? FileManager.default.removeItem(atPath: temp)
            throw error
        }
    }
}

/// Removes the temporary output files when the process is interrupted (SIGINT → exit 130, SIGTERM → exit 143), or
/// moves into place those to keep (`RenderOptions.keepPartial`). `unlink`, `rename` and `_exit` are
/// async-signal-safe; the paths are kept in fixed tables of C strings that the handler only reads. Renders running at
/// once (a library user's) each hold a slot.
public enum SignalCleanup {
    /// Slots for the paths of the renders in progress; nil where free. Written only under `lock`; the signal handler
    /// only reads (it cannot take a lock), hence nonisolated(unsafe).
    nonisolated(unsafe) static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slots)
        p.initialize(repeating: nil, count: slots)
        return p
    }()
    static let slots = 64
    /// Per slot of `paths`, where to move that file instead of removing it (nil: remove it). Written and read as `paths`.
    nonisolated(unsafe) static let keeps: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slots)
        p.initialize(repeating: nil, count: slots)
        return p
    }()
    static let lock = NSLock()

    /// Temporary folders (an extracted `.otioz` bundle): per slot a nil-terminated list of C strings, the files
    /// first and the folders after them, deepest first. Like `paths`, written under `lock` and only read by handlers.
    nonisolated(unsafe) static let folders: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>.allocate(capacity: folderSlots)
        p.initialize(repeating: nil, count: folderSlots)
        return p
    }()
    static let folderSlots = 16

    /// Installs the handlers (the CLI calls this once).
    public static func installHandlers() {
        _ = paths
        _ = keeps
        _ = folders
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { s in
                SignalCleanup.removeAll()
                _exit(128 + s)
            }
        }
    }
    /// Ends the process at once with `status`, as the signal handlers do (`removeAll` first): for a command that
    /// handles SIGINT itself and is interrupted a second time.
    public static func exitNow(_ status: Int32) -> Never {
        removeAll()
        _exit(status)
    }
    /// Removes every registered temporary file and folder now, or, `keeping`, moves a file to keep into place (what
    /// the signal handlers do; the watchdog's last act, which keeps nothing). Reads the tables without the lock, as
    /// the handlers do: it runs when another thread may be stuck holding anything. Only `unlink`, `rename` and
    /// `rmdir`, which are async-signal-safe.
    static func removeAll(keeping: Bool = true) {
        for i in 0..<slots {
            guard let p = paths[i] else { continue }
            if keeping, let keep = keeps[i], rename(p, keep) == 0 { continue }
            unlink(p)
        }
        for i in 0..<folderSlots {
            guard let list = folders[i] else { continue }
            var k = 0
            while let p = list[k] {
                if unlink(p) != 0 { rmdir(p) }
                k += 1
            }
        }
    }
    /// Registers a temporary folder: `entries` are its files, then its folders deepest first, itself last. Returns
    /// its slot for `unregisterFolder` (nil when every slot is taken).
    static func registerFolder(_ entries: [String]) -> Int? {
        let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: entries.count + 1)
        for (k, e) in entries.enumerated() { list[k] = strdup(e) }
        list[entries.count] = nil
        lock.lock()
        defer { lock.unlock() }
        guard let i = (0..<folderSlots).first(where: { folders[$0] == nil }) else {
            freeList(list)
            return nil
        }
        folders[i] = list
        return i
    }
    static func unregisterFolder(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        let old = folders[slot]
        folders[slot] = nil
        lock.unlock()
        if let old { freeList(old) }
    }
    private static func freeList(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
        var k = 0
        while let p = list[k] { free(p); k += 1 }
        list.deallocate()
    }
    /// Registers `p`, to be removed on a signal, or with `keepAs` moved there; returns its slot for `unregister` (nil
    /// when every slot is taken: then `p` is not removed on a signal, only by the render's own error handling).
    static func register(_ p: String, keepAs: String? = nil) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard let i = (0..<slots).first(where: { paths[$0] == nil }) else { return nil }
        keeps[i] = keepAs.map { strdup($0) }
        paths[i] = strdup(p)
        return i
    }
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        let old = paths[slot], keep = keeps[slot]
        paths[slot] = nil
        keeps[slot] = nil
        lock.unlock()
        free(old)
        free(keep)
    }
}
