import CFFmpeg
import Foundation
import SegueCore

/// A media file opened for reading: the one place Segue calls `avformat_open_input`, under an `InputPolicy`.
///
/// - Before anything is opened, the path is checked (`MediaInput.check`): a local regular file (a FIFO or a device
///   is refused at once, where opening it would block or never end), inside the policy's root; a URL is refused
///   (`concat:` of local files only with `allowIndirectInputs`).
/// - The demuxer that would read the file is found by probing its first bytes (`av_probe_input_buffer2`) before any
///   demuxer reads it; one that pulls in other files or URLs (`MediaInput.indirectFormats`: HLS, DASH, ffconcat, IMF,
///   SDP, …) is refused unless `allowIndirectInputs`, naming what the file really is ("holiday.mp4 is an HLS playlist,
///   not a media file").
/// - libavformat opens it with the protocol whitelist `file` (`file,concat` with the opt-in), a format whitelist of
///   every demuxer but the indirect ones (copied by libavformat to the contexts an ffconcat list opens), image2 file
///   name patterns off (`pattern_type=none`), MP4 external data references off (`enable_drefs=0`) and ffconcat's
///   `safe=1` (relative names of plain characters only).
/// - Every further file a demuxer opens goes through the context's `io_open`, which asks an `InputGuard` first:
///   without the opt-in nothing but the file itself may be opened; with it, only local regular files inside the root.
/// - `avformat_find_stream_info` decodes with libavcodec's `max_pixels` at the policy's picture limit, so a picture
///   whose header claims too many pixels is refused before its buffer is allocated.
final class InputFile {
    let ctx: UnsafeMutablePointer<AVFormatContext>
    let path: String
    let policy: InputPolicy
    /// Asked by the context's `io_open`; must outlive the context (it is released after `deinit` closes it).
    private let inputGuard: InputGuard

    /// Opens and probes a media file under `policy` (no default: every caller says which). Wraps `avformat_open_input`
    /// + `avformat_find_stream_info`.
    /// - Throws: `InputRefused` (the policy refuses the file or what it pulls in), `MediaError` (it cannot be opened).
    /// `options` go to the demuxer after the policy's own (e.g. `image2`'s `pattern_type=none` for a sequence's
    /// pictures, which are opened by their literal names even where indirect inputs are allowed).
    init(path: String, policy: InputPolicy, options demuxerOptions: [String: String] = [:]) throws {
        _ = FF.setup
        self.path = path
        self.policy = policy
        try MediaInput.check(path, policy: policy)
        let whitelist = policy.allowIndirectInputs ? "file,concat" : "file"
        let probed = MediaInput.probeFormat(path, protocols: whitelist)
        let indirect = probed.flatMap(MediaInput.indirectKind)
        if let what = indirect, !policy.allowIndirectInputs {
            throw InputRefused(path: path, message: MediaInput.refusal(what))
        }
        // An ffconcat list's files are opened by contexts of their own, not through this one's io_open: checked here.
        if probed.map({ $0.split(separator: ",").contains("concat") }) == true { try MediaInput.checkConcatList(path, policy: policy) }
        inputGuard = InputGuard(path: path, policy: policy, kind: indirect)
        guard let allocated = avformat_alloc_context() else {
            throw MediaError(path: path, function: "avformat_alloc_context", message: "out of memory")
        }
        segue_install_io_guard(allocated, inputGuard.storage)
        var c: UnsafeMutablePointer<AVFormatContext>? = allocated
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "protocol_whitelist", whitelist, 0)
        av_dict_set(&options, "format_whitelist", MediaInput.formatWhitelist(also: indirect != nil ? probed : nil), 0)
        if !policy.allowIndirectInputs { av_dict_set(&options, "pattern_type", "none", 0) }   // image2: the name as it is
        av_dict_set(&options, "enable_drefs", "0", 0)   // mov: no external data references
        av_dict_set(&options, "safe", "1", 0)           // concat: relative, plain names only
        for (k, v) in demuxerOptions.sorted(by: { $0.key < $1.key }) { av_dict_set(&options, k, v, 0) }
        let rc = FFmpegLog.reading(path) { avformat_open_input(&c, path, nil, &options) }
        guard rc >= 0, let ctx = c else {
            if let why = inputGuard.refusal { throw InputRefused(path: path, message: why) }
            if !policy.allowIndirectInputs, let what = MediaInput.sniffPlaylist(path) { throw InputRefused(path: path, message: MediaInput.refusal(what)) }
            if rc == -EPERM, indirect == MediaInput.indirectFormats["concat"] {
                throw InputRefused(path: path, message: "is an ffconcat list naming a file libavformat's safe mode refuses: only relative names of letters, digits, '.', '_' and '-' (not starting with '.') are read")
            }
            throw MediaError(path: path, function: "avformat_open_input", code: rc, message: "cannot open: \(FF.message(rc))")
        }
        self.ctx = ctx
        // Per-stream decoder options for the frames find_stream_info decodes: the picture limit.
        let n = max(1, Int(ctx.pointee.nb_streams))
        let streamOptions = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: n)
        streamOptions.initialize(repeating: nil, count: n)
        defer {
            for i in 0..<n { av_dict_free(&streamOptions[i]) }
            streamOptions.deallocate()
        }
        for i in 0..<n { av_dict_set(&streamOptions[i], "max_pixels", String(FF.maxPixels(policy.limits.maxPicturePixels)), 0) }
        let found = FFmpegLog.reading(path) { avformat_find_stream_info(ctx, streamOptions) }
        if let why = inputGuard.refusal { throw InputRefused(path: path, message: why) }
        try FF.check(found, "avformat_find_stream_info", path: path)
    }
    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = ctx
        avformat_close_input(&c)
    }
    func stream(_ i: Int32) -> UnsafeMutablePointer<AVStream> { ctx.pointee.streams[Int(i)]! }

    /// Reads the next packet into `packet`; FFmpeg's log lines meanwhile (its parsers') name this file. Wraps
    /// `av_read_frame`: 0, or a negative AVERROR (`AVERROR_EOF` at the end).
    func readPacket(_ packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        FFmpegLog.reading(path) { av_read_frame(ctx, packet) }
    }

    /// Calls `body` with every packet of the file, in file order, to its end (each unreferenced after).
    /// - Throws: `MediaError` (a read fails), or what `body` throws.
    func forEachPacket(_ body: (AVPacket) throws -> Void) throws {
        let pkt = Packet()
        while true {
            let rc = readPacket(pkt.ptr)
            if rc == FF.eof { return }
            try FF.check(rc, "av_read_frame", path: path)
            defer { av_packet_unref(pkt.ptr) }
            try body(pkt.ptr.pointee)
        }
    }

    /// Index of the best stream of `type`, or nil. Wraps `av_find_best_stream`.
    func bestStream(_ type: AVMediaType) -> Int32? {
        let i = av_find_best_stream(ctx, type, -1, -1, nil, 0)
        return i >= 0 ? i : nil
    }

    /// The file's audio streams in file order (stream indices): Segue's audio track `n` is `audioStreams[n]`.
    var audioStreams: [Int32] {
        (0..<Int32(ctx.pointee.nb_streams)).filter { stream($0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
    }

    /// The audio track used when the edit names none, as players choose: the first audio stream flagged default
    /// (`AV_DISPOSITION_DEFAULT`: Matroska's FlagDefault, an enabled QuickTime/MP4 track), else the first audio
    /// stream; nil when the file has no audio. An index into `audioStreams`.
    var defaultAudioTrack: Int? {
        let streams = audioStreams
        if streams.isEmpty { return nil }
        return streams.firstIndex { stream($0).pointee.disposition & AV_DISPOSITION_DEFAULT != 0 } ?? 0
    }
}

/// The policy's side of `io_open` (see `InputFile`): the file itself may always be opened; anything else only with
/// `allowIndirectInputs`, and then only a local regular file inside the root. Remembers why it refused, for the
/// error. Used on the thread that reads the file.
final class InputGuard {
    let path: String
    let policy: InputPolicy
    /// What the file is, when it is a kind that pulls in others ("an HLS playlist").
    let kind: String?
    let storage: UnsafeMutablePointer<SegueIOGuard>
    /// Why the last refused open was refused, in words.
    private(set) var refusal: String?

    init(path: String, policy: InputPolicy, kind: String?) {
        self.path = path; self.policy = policy; self.kind = kind
        storage = .allocate(capacity: 1)
        storage.initialize(to: SegueIOGuard(default_open: nil, allow: { context, url in
            guard let context, let url else { return segue_averror_eperm() }
            let me = Unmanaged<InputGuard>.fromOpaque(context).takeUnretainedValue()
            return me.allows(String(cString: url)) ? 0 : segue_averror_eperm()
        }, context: nil))
        storage.pointee.context = Unmanaged.passUnretained(self).toOpaque()
    }
    deinit { storage.deallocate() }

    func allows(_ url: String) -> Bool {
        if url == path { return true }
        let what = kind ?? "a file that pulls in other files"
        guard policy.allowIndirectInputs else {
            refusal = MediaInput.refusal(what) + " (it reads \(url))"
            return false
        }
        do {
            let scheme = InputPolicy.urlScheme(of: url)
            guard scheme == nil || scheme == "file" else {
                refusal = "is \(what) that reads \(url): only local files may be read"
                return false
            }
            try policy.checkInput(path: url, field: "")
            return true
        } catch let e as EditError {
            refusal = "is \(what) that reads a file Segue may not open: \(e.message)"
            return false
        } catch {
            refusal = "is \(what) that reads \(url): \(error)"
            return false
        }
    }
}

/// Checks and facts about inputs before libavformat or libheif reads them.
enum MediaInput {
    /// Refuses what the policy refuses before anything opens `path` (`InputPolicy.checkInput`: a URL, a FIFO, a device,
    /// a folder, a file outside the root).
    /// - Throws: `InputRefused`.
    static func check(_ path: String, policy: InputPolicy) throws {
        do { try policy.checkInput(path: path, field: "") } catch let e as EditError {
            throw InputRefused(path: path, message: e.message.hasPrefix(path + " ") ? String(e.message.dropFirst(path.count + 1)) : e.message)
        }
    }

    /// The policy for the files Segue wrote itself and reads back by stream copy (chunks, audio passes): plain files
    /// as always, but no picture-size limit (a chunk of a 16384×16384 render is 268 megapixels).
    static let ownFiles: InputPolicy = {
        var p = InputPolicy.default
        p.limits.maxPicturePixels = Int(Int64.max)
        p.limits.maxLargeStillPixels = Int(Int64.max)
        return p
    }()

    /// Demuxers that pull in other files or URLs, by name, with what a file they read is.
    static let indirectFormats: [String: String] = [
        "hls": "an HLS playlist", "dash": "a DASH manifest", "concat": "an ffconcat list", "imf": "an IMF composition playlist",
        "webm_dash_manifest": "a WebM DASH manifest", "sdp": "an SDP session description (network streams)",
        "rtsp": "an RTSP session (network streams)", "rtp": "an RTP session (network streams)", "sap": "an SAP announcement (network streams)",
        "lavfi": "a libavfilter graph", "avisynth": "an AviSynth script", "vapoursynth": "a VapourSynth script",
    ]

    /// What a demuxer named `name` (possibly several names, comma-separated) reads, if it pulls in other files.
    static func indirectKind(_ name: String) -> String? {
        name.split(separator: ",").lazy.compactMap { indirectFormats[String($0)] }.first
    }

    /// The refusal message for a file that is `what`.
    static func refusal(_ what: String) -> String {
        "is \(what), not a media file: it pulls in other files or URLs (--allow-indirect-inputs, or \"allowIndirectInputs\": true in the edit, opens it; what it reads must then be a local file, inside --root where one is given)"
    }

    /// Checks the files an ffconcat list names (its `file` lines, each name read with libavutil's `av_get_token`, as
    /// the concat demuxer reads it, relative to the list's folder) against `policy`, and refuses a list that names
    /// another playlist: the concat demuxer opens them with contexts of their own, which `InputGuard` does not see.
    /// - Throws: `InputRefused`.
    static func checkConcatList(_ path: String, policy: InputPolicy) throws {
        var st = stat()
        guard stat(path, &st) == 0, st.st_size <= 1 << 20, let data = FileManager.default.contents(atPath: path) else {
            throw InputRefused(path: path, message: "is an ffconcat list of more than 1 MiB, or one that cannot be read")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let text = line.drop { $0 == " " || $0 == "\t" }
            guard text.hasPrefix("file"), let after = text.dropFirst(4).first, after == " " || after == "\t" else { continue }
            let name: String = String(text.dropFirst(4)).withCString { p in
                var cursor: UnsafePointer<CChar>? = p
                guard let token = av_get_token(&cursor, " \t\r\n") else { return "" }
                defer { av_free(token) }
                return String(cString: token)
            }
            guard !name.isEmpty else { continue }
            let file = name.hasPrefix("/") || InputPolicy.urlScheme(of: name) != nil ? name : folder.appendingPathComponent(name).path
            do { try policy.checkInput(path: file, field: "") } catch let e as EditError {
                throw InputRefused(path: path, message: "is an ffconcat list that names a file Segue may not open: \(e.message)")
            }
            if let kind = probeFormat(file, protocols: "file").flatMap(indirectKind) {
                throw InputRefused(path: path, message: "is an ffconcat list that names \(kind) (\(name)): a list inside a list is not opened")
            }
        }
    }

    /// The name of the demuxer libavformat would choose for `path` (`av_probe_input_buffer2` on its first bytes and
    /// its name), found without letting any demuxer read it; nil when none recognises it.
    static func probeFormat(_ path: String, protocols: String) -> String? {
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "protocol_whitelist", protocols, 0)
        var pb: UnsafeMutablePointer<AVIOContext>? = nil
        guard FFmpegLog.reading(path, { avio_open2(&pb, path, AVIO_FLAG_READ, nil, &options) }) >= 0, pb != nil else { return nil }
        defer { avio_closep(&pb) }
        var format: UnsafePointer<AVInputFormat>? = nil
        guard FFmpegLog.reading(path, { av_probe_input_buffer2(pb, &format, path, nil, 0, 0) }) >= 0, let f = format else { return nil }
        return String(cString: f.pointee.name)
    }

    /// What a file that no demuxer took looks like, from its first bytes, when it is a playlist of some kind.
    static func sniffPlaylist(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0, InputPolicy.nonRegularKind(st.st_mode) == nil,
              let h = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? h.close() }
        let head = String(decoding: (try? h.read(upToCount: 1024)) ?? Data(), as: UTF8.self)
        let trimmed = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("#EXTM3U") { return "an M3U playlist" }
        if trimmed.hasPrefix("ffconcat version") { return "an ffconcat list" }
        if head.contains("<MPD") { return "a DASH manifest" }
        if trimmed.hasPrefix("[playlist]") { return "a PLS playlist" }
        return nil
    }

    /// Every demuxer's name except the indirect ones (and `also`, the one the policy allows this time): libavformat's
    /// `format_whitelist`, which it copies to the contexts a demuxer opens for the files it pulls in.
    static func formatWhitelist(also allowed: String?) -> String {
        allowed.map { $0 + "," + directFormats } ?? directFormats
    }
    private static let directFormats: String = {
        var names: [String] = []
        var state: UnsafeMutableRawPointer? = nil
        while let f = av_demuxer_iterate(&state) {
            let name = String(cString: f.pointee.name)
            if indirectKind(name) == nil { names.append(name) }
        }
        return names.joined(separator: ",")
    }()
}
