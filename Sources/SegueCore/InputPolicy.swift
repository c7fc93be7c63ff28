import Foundation

/// What an edit may read, from where, and how much it may ask for: the rules that let a render farm or a service
/// render edit files and media it did not write (docs/untrusted-edits.md).
///
/// - Inputs are plain local files: every path an edit names (`Edit.inputPaths`: clips, music, shader files, image
///   parameters) must be a regular file — a FIFO, a device, a socket or a directory is refused at once, before
///   anything opens it (`checkInput`, `checkFile`). URLs (`http:`, `tee:`, `subfile:`, …) are refused; `file:` is
///   a path; `concat:` (a list of local files joined by libavformat) only with `allowIndirectInputs`.
/// - Media files are opened by libavformat with the protocol whitelist `file` (SegueMedia's one opening function),
///   and demuxers that pull in other files (HLS, DASH, ffconcat, IMF, SDP, image2 patterns) are refused unless
///   `allowIndirectInputs`; with it, what they pull in obeys the same rules (a local regular file inside `root`).
/// - `root`: every path, after resolving `..` and symbolic links, must lie inside this folder.
/// - `outputRoot`: the same for what a render writes (`checkOutput`).
/// - `limits`: picture size, edit length, clip count, decoded-picture memory (`ResourceLimits`).
///
/// Path checks throw `EditError` (exit status 2) naming the edit-file field; limits throw `LimitExceeded` (exit
/// status 2) naming the limit and the option that raises it.
public struct InputPolicy: Equatable, Sendable, Codable {
    /// Open inputs that pull in other files: HLS and DASH playlists, ffconcat lists and `concat:` paths, IMF, image2
    /// patterns (`--allow-indirect-inputs`, or the edit's `"allowIndirectInputs": true`: `applied(to:)`). Their
    /// nested inputs must still be local regular files, inside `root` where one is set.
    public var allowIndirectInputs = false
    /// The folder every input must lie in (`--root`), or nil for anywhere. Compared after resolving `..` and symbolic
    /// links, of the inputs and of the root itself.
    public var root: String?
    /// The folder every output must lie in (`--output-root`), or nil for anywhere.
    public var outputRoot: String?
    /// Resource limits (`--max-megapixels`, `--max-duration`, `--max-clips`, `--max-picture-memory`).
    public var limits = ResourceLimits()
    /// Folders Segue extracted an edit's bundle into (an `.otioz`, itself checked against `root` when it was opened):
    /// files inside them pass the root check. Set by `applied(to:)` from `Edit.bundleFolder`; not recorded in chunk
    /// plans (each process extracts its own).
    public var bundleFolders: [String] = []

    enum CodingKeys: String, CodingKey { case allowIndirectInputs, root, outputRoot, limits }

    public init(allowIndirectInputs: Bool = false, root: String? = nil, outputRoot: String? = nil, limits: ResourceLimits = ResourceLimits()) {
        self.allowIndirectInputs = allowIndirectInputs; self.root = root; self.outputRoot = outputRoot; self.limits = limits
    }

    /// Plain files only, no root, the default limits.
    public static let `default` = InputPolicy()

    // MARK: paths

    /// Checks a media input (a clip, the music, an image parameter: what libavformat opens) named by edit-file
    /// field `field`: a URL is refused (`file:` is a path; `concat:` of local files only with
    /// `allowIndirectInputs`, each of them checked); a path must be a regular file inside `root`. A file that does not
    /// exist passes (whoever opens it says "not found") unless it would lie outside `root`.
    /// - Throws: `EditError` naming `field`.
    public func checkInput(path: String, field: String) throws {
        if let scheme = InputPolicy.urlScheme(of: path) {
            switch scheme {
            case "file":
                try checkInput(path: InputPolicy.filePath(ofURL: path), field: field)
            case "concat" where allowIndirectInputs:
                let parts = path.dropFirst("concat:".count).split(separator: "|").map(String.init)
                guard !parts.isEmpty else { throw EditError(field, "\(path): the concat: list names no file") }
                for p in parts {
                    guard p.hasPrefix("/"), InputPolicy.urlScheme(of: p) == nil else {
                        throw EditError(field, "\(path): concat: joins local files given by absolute paths (got \"\(p)\")")
                    }
                    try checkInput(path: p, field: field)
                }
            case "concat", "concatf", "subfile", "hls", "crypto", "cache", "async", "data", "tee", "pipe", "fd":
                throw EditError(field, "\(path) is a \(scheme): URL, which reads other files or streams, not a media file"
                                + (scheme == "concat" ? "; --allow-indirect-inputs (or \"allowIndirectInputs\": true) allows concat: of local files" : ""))
            default:
                throw EditError(field, "\(path) is a URL (\(scheme):), not a file: Segue reads local files only")
            }
            return
        }
        try checkFile(path: path, field: field)
    }

    /// Checks a file Segue reads itself (a gl-transitions shader; fonts and captions files alike): a regular local
    /// file inside `root`; no URL of any kind. A missing file passes, as for `checkInput`.
    /// - Throws: `EditError` naming `field`.
    public func checkFile(path: String, field: String) throws {
        if let scheme = InputPolicy.urlScheme(of: path), scheme != "file" {
            throw EditError(field, "\(path) is a URL (\(scheme):), not a file: Segue reads local files only")
        }
        let path = InputPolicy.urlScheme(of: path) == "file" ? InputPolicy.filePath(ofURL: path) : path
        let lexical = URL(fileURLWithPath: path).standardized.path
        let root = try resolvedRoot()
        let bundled = bundleFolders.contains { InputPolicy.isInside(lexical, $0) }
        if let root, !bundled, !InputPolicy.isInside(lexical, root.given) && !InputPolicy.isInside(lexical, root.real) {
            throw EditError(field, "\(path) is outside the root \(root.given) (--root): the edit may only name files inside it")
        }
        var st = stat()
        guard stat(lexical, &st) == 0 else {
            // Missing (or unreachable): the opener says so, but never about a place outside the root.
            if let root, let real = InputPolicy.realPathOfExistingPart(lexical), !InputPolicy.isInside(real, root.real),
               !bundleFolders.contains(where: { InputPolicy.isInside(real, $0) }) {
                throw EditError(field, "\(path) leads outside the root \(root.given) (--root) through a symbolic link")
            }
            return
        }
        if let root, let real = InputPolicy.realPath(lexical), !InputPolicy.isInside(real, root.real),
           !bundleFolders.contains(where: { InputPolicy.isInside(real, $0) }) {
            throw EditError(field, "\(path) leads outside the root \(root.given) (--root) through a symbolic link")
        }
        if let kind = InputPolicy.nonRegularKind(st.st_mode) {
            throw EditError(field, "\(path) is \(kind), not a media file: inputs must be regular files")
        }
    }

    /// Checks an output path (`-o`, a chunk folder) against `outputRoot`: its folder, symbolic links resolved, plus
    /// its name must lie inside it.
    /// - Throws: `UsageError` naming `option`.
    public func checkOutput(path: String, option: String = "-o") throws {
        guard let given = outputRoot else { return }
        guard let rootReal = InputPolicy.realPath(URL(fileURLWithPath: given).standardized.path) else {
            throw UsageError("--output-root \(given) does not exist")
        }
        let lexical = URL(fileURLWithPath: path).standardized
        let folder = lexical.deletingLastPathComponent().path
        let real = (InputPolicy.realPathOfExistingPart(folder) ?? folder) + "/" + lexical.lastPathComponent
        guard InputPolicy.isInside(real, rootReal) else {
            throw UsageError("\(option) \(path) is outside the output root \(given) (--output-root)")
        }
    }

    // MARK: helpers

    /// The root as given (standardized) and with symbolic links resolved; nil without a root.
    /// - Throws: `UsageError` when the root does not exist or is not a folder.
    func resolvedRoot() throws -> (given: String, real: String)? {
        guard let r = root else { return nil }
        let given = URL(fileURLWithPath: r).standardized.path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: given, isDirectory: &isDir), isDir.boolValue, let real = InputPolicy.realPath(given) else {
            throw UsageError("--root \(r) is not a folder")
        }
        return (given, real)
    }

    /// FFmpeg's protocol names (libavformat 5.1's `protocols.c`, and the ones its configure may add): a path that
    /// starts with one of them and a colon is a URL to libavformat, whatever the rest is.
    public static let urlSchemes: Set<String> = [
        "async", "bluray", "cache", "concat", "concatf", "crypto", "data", "fd", "ffrtmpcrypt", "ffrtmphttp", "file", "ftp",
        "gopher", "gophers", "hls", "http", "httpproxy", "https", "icecast", "ipfs", "ipns", "librist", "libsmbclient", "libsrt",
        "libssh", "libzmq", "md5", "mmsh", "mmst", "pipe", "prompeg", "rist", "rtmp", "rtmpe", "rtmps", "rtmpt", "rtmpte",
        "rtmpts", "rtp", "rtsp", "sctp", "sftp", "smb", "srt", "srtp", "subfile", "tcp", "tee", "tls", "udp", "udplite", "unix", "zmq",
    ]

    /// The URL scheme `path` starts with (`http` for `http://host/a.mp4`, `concat` for `concat:/a.ts|/b.ts`), lower
    /// case, if it is one libavformat knows (`urlSchemes`); nil for a path.
    public static func urlScheme(of path: String) -> String? {
        guard let colon = path.firstIndex(of: ":") else { return nil }
        let scheme = path[..<colon].lowercased()
        return urlSchemes.contains(scheme) ? scheme : nil
    }

    /// The path of a `file:` URL (`file:/a`, `file:///a`, `file:a`).
    static func filePath(ofURL url: String) -> String {
        var rest = String(url.dropFirst("file:".count))
        if rest.hasPrefix("//") { rest = String(rest.dropFirst(2)) }
        return rest.removingPercentEncoding ?? rest
    }

    /// What a file of mode `mode` is when it is not a regular file ("a FIFO (named pipe)", "a character device", …).
    public static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// Whether `path` is `folder` or inside it (both absolute and standardized).
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `realpath(3)`: absolute, every symbolic link and `..` resolved; nil when the file does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// `realPath` of the longest part of `path` that exists, with the rest appended (for a file not made yet).
    static func realPathOfExistingPart(_ path: String) -> String? {
        var head = URL(fileURLWithPath: path).standardized
        var tail: [String] = []
        while head.path != "/" {
            if let r = realPath(head.path) { return ([r] + tail.reversed()).joined(separator: "/").replacingOccurrences(of: "//", with: "/") }
            tail.append(head.lastPathComponent)
            head = head.deletingLastPathComponent()
        }
        return "/" + tail.reversed().joined(separator: "/")
    }
}

/// Resource limits with defaults a server can live with; each can be raised (`InputPolicy.limits`, and the
/// `segue` options named in `option`).
public struct ResourceLimits: Equatable, Sendable, Codable {
    /// The largest picture decoded whole, in pixels (width × height as stored): a decompression bomb — a PNG header
    /// claiming 100000×100000, a HEIF whose `ispe` claims 20000×20000 — is refused before anything is allocated
    /// (libavcodec's `max_pixels`, the size the container declares, libheif's image sizes). Default 200 000 000
    /// (200 megapixels: 800 MB as RGBA). Pictures decoded whole are bounded besides by libavutil's own size check
    /// (about 268 megapixels) and by the memory budget (`maxPictureMemory`).
    public var maxPicturePixels = 200_000_000
    /// The largest PNG or JPEG read shrunk on load (`SourceInfo.largeStill`: libpng row by row, libjpeg's DCT
    /// scaling, never the whole picture in memory), in pixels, checked against its header before a row is read.
    /// Default 1 000 000 000 (1 gigapixel: a 20000×20000 PNG or a 30000×8000 panorama, read in a bounded few hundred
    /// MiB; the cost that grows with the pixel count is decoding time, about a second per 100 megapixels).
    /// `--max-megapixels` sets this and `maxPicturePixels` together.
    public var maxLargeStillPixels = 1_000_000_000
    /// The longest edit, in seconds. Default 7200 (2 hours).
    public var maxDuration: Double = 7200
    /// The most clips an edit may have. Default 1000.
    public var maxClips = 1000
    /// The decoded-picture memory budget, in bytes: the pictures of the clips on screen at one instant (a
    /// transition shows two), each counted as 4 bytes per pixel (`pictureBytes`). Default 2 GiB.
    public var maxPictureMemory = 2 << 30

    public init() {}

    enum CodingKeys: String, CodingKey { case maxPicturePixels, maxLargeStillPixels, maxDuration, maxClips, maxPictureMemory }
    /// Decodes the limits a plan or a library user wrote; a limit absent (written before it existed) keeps its default.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maxPicturePixels = try c.decodeIfPresent(Int.self, forKey: .maxPicturePixels) ?? maxPicturePixels
        maxLargeStillPixels = try c.decodeIfPresent(Int.self, forKey: .maxLargeStillPixels) ?? maxLargeStillPixels
        maxDuration = try c.decodeIfPresent(Double.self, forKey: .maxDuration) ?? maxDuration
        maxClips = try c.decodeIfPresent(Int.self, forKey: .maxClips) ?? maxClips
        maxPictureMemory = try c.decodeIfPresent(Int.self, forKey: .maxPictureMemory) ?? maxPictureMemory
    }

    /// The limits, with the option of the `segue` command that raises each.
    public enum Limit: String, Sendable, Equatable, CaseIterable {
        case picturePixels, largeStillPixels, duration, clips, pictureMemory
        /// The `segue` option that sets it.
        public var option: String {
            switch self {
            case .picturePixels, .largeStillPixels: return "--max-megapixels"
            case .duration: return "--max-duration"
            case .clips: return "--max-clips"
            case .pictureMemory: return "--max-picture-memory"
            }
        }
        /// The `ResourceLimits` property that sets it (library users).
        public var property: String {
            switch self {
            case .picturePixels: return "maxPicturePixels"
            case .largeStillPixels: return "maxLargeStillPixels"
            case .duration: return "maxDuration"
            case .clips: return "maxClips"
            case .pictureMemory: return "maxPictureMemory"
            }
        }
        /// What the option takes.
        var unit: String {
            switch self {
            case .picturePixels, .largeStillPixels: return "MEGAPIXELS"
            case .duration: return "SECONDS"
            case .clips: return "N"
            case .pictureMemory: return "MIB"
            }
        }
    }

    /// The memory a source's decoded picture is counted at: 4 bytes per stored pixel (an RGBA still's size; more
    /// than 8-bit 4:2:0 video's 1.5, less than 16-bit 4:4:4's 6).
    /// The bytes a source's decoded picture holds: 4 a pixel of its `decodedSize` (a large still's shrunk size).
    public static func pictureBytes(_ source: SourceInfo) -> Int { source.decodedSize.width * source.decodedSize.height * 4 }

    public static func megapixels(_ pixels: Int) -> String { String(format: "%.7g megapixels", Double(pixels) / 1e6) }
    public static func mebibytes(_ bytes: Int) -> String { String(format: "%.4g MiB", Double(bytes) / Double(1 << 20)) }
    public static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(format: "%.3f", s) }
}

/// A resource limit refused the edit (`ResourceLimits`): says which limit, what the edit asked for, and how to raise
/// it. Exit status 2.
public struct LimitExceeded: SegueError, Equatable {
    public let limit: ResourceLimits.Limit
    /// The edit-file field concerned (`clips[2].path`, `clips`), or empty.
    public var field: String
    /// What the edit asks for, in words ("huge.png has 100000x100000 pictures (10000 megapixels)").
    public let detail: String
    /// The limit, in words ("200 megapixels").
    public let allowed: String

    public init(_ limit: ResourceLimits.Limit, field: String = "", detail: String, allowed: String) {
        self.limit = limit; self.field = field; self.detail = detail; self.allowed = allowed
    }
    public var description: String {
        (field.isEmpty ? "" : "\(field): ") + "\(detail), over the limit of \(allowed); raise it with \(limit.option) \(limit.unit)"
            + " (ResourceLimits.\(limit.property) in the library) if the input is trusted"
    }
    public var exitStatus: Int32 { ExitStatus.invalid }

    /// A picture of `size` in the file at `path`, over `limits.maxPicturePixels` (or, with `largeStill`, a PNG or
    /// JPEG read shrunk on load over `limits.maxLargeStillPixels`).
    public static func picture(_ path: String, _ size: PixelSize, _ limits: ResourceLimits, field: String = "",
                               largeStill: Bool = false) -> LimitExceeded {
        LimitExceeded(largeStill ? .largeStillPixels : .picturePixels, field: field,
                      detail: "\(URL(fileURLWithPath: path).lastPathComponent) has a \(size.width)x\(size.height) picture (\(ResourceLimits.megapixels(size.width * size.height)))",
                      allowed: ResourceLimits.megapixels(largeStill ? limits.maxLargeStillPixels : limits.maxPicturePixels))
    }
}

/// An input the policy refuses once it is opened (`InputPolicy`): a file that is not what its name says (an HLS
/// playlist saved as `holiday.mp4`), or that pulls in files it may not. Exit status 2.
public struct InputRefused: SegueError, Equatable {
    /// The file, as given.
    public let path: String
    /// What it is and why it is refused: "is an HLS playlist, not a media file: …".
    public let message: String
    /// The edit-file field naming it, where known (`clips[0].path`).
    public var field: String

    public init(path: String, message: String, field: String = "") {
        self.path = path; self.message = message; self.field = field
    }
    public var description: String {
        (field.isEmpty ? "" : "\(field): ") + "\(URL(fileURLWithPath: path).lastPathComponent) \(message)"
    }
    public var exitStatus: Int32 { ExitStatus.invalid }
}
