import CFFmpeg
import Foundation
import SegueCore

/// Writes a take's files and distributes its packets over them: one file, or with `--segment S` a new file at the
/// first video keyframe at or after every S seconds of the take (`take_%03d.mp4`). Each file starts with that
/// keyframe at time 0; audio packets go to the file whose time range holds their start, so no packet is lost or
/// written twice. Audio that comes before the keyframe that ends its file is known is held until it is. Without
/// video, a new file starts at the first audio packet at or after the boundary.
///
/// Timestamps come in each stream's own time base, counted from the take's start; the segmenter subtracts its
/// file's start (the keyframe's own timestamp, exactly, in the video stream).
///
/// Each file is an `OutputFile` in the take's row of the output-format table (`RecordingFormat.take`), written as
/// fragmented MP4 as the packets come (`RecordingFormat.fragmentedMuxOptions`: a fragment at each video keyframe and at
/// least every 2 s of media, each flushed to the file when it is complete), so that a process killed mid-take
/// (`kill -9`, power loss) leaves a file that plays up to its last complete fragment; as
/// `AVCaptureMovieFileOutput.movieFragmentInterval`. It is written straight to its final name (a crashed take must be
/// where the user looks for it), never over another file. Once finished it is rewritten as a plain MP4 with the index
/// first (`makeFaststart`).
final class TakeSegmenter {
    let pattern: String
    let segmentSeconds: Double?
    let format: RecordingFormat
    let templates: [StreamParameters]
    let videoStream: Int?
    let faststart: Bool
    let log: (String) -> Void
    private(set) var current: OutputFile?
    private(set) var files: [String] = []
    private(set) var fragmented: [String] = []
    /// Bytes of the files finished so far.
    private(set) var finishedBytes: Int64 = 0
    private var index = 0
    /// The current file's start: a timestamp and its time base.
    private var start: (ts: Int64, tb: AVRational) = (0, AVRational(num: 1, den: 1_000_000))
    private var nextBoundaryUS: Int64?
    private var held: [(packet: Packet, stream: Int, tb: AVRational, us: Int64)] = []

    /// - Parameter pattern: the file name, or with `segmentSeconds` a name with one `%d`-style pattern (`%03d`).
    /// - Parameter templates: the take's streams, in order (the video first).
    init(pattern: String, segmentSeconds: Double?, format: RecordingFormat, templates: [StreamParameters], videoStream: Int?, faststart: Bool,
         log: @escaping (String) -> Void) {
        self.pattern = pattern
        self.segmentSeconds = segmentSeconds
        self.format = format
        self.templates = templates
        self.videoStream = videoStream
        self.faststart = faststart
        self.log = log
        nextBoundaryUS = segmentSeconds.map { Int64($0 * 1e6) }
    }

    /// The name of file `n`: `pattern` itself, or formatted with `n` when segmenting.
    func name(_ n: Int) -> String {
        segmentSeconds == nil ? pattern : TakeSegmenter.format(pattern, n)
    }

    /// `pattern` with its one `%d`, `%Nd` or `%0Nd` replaced by `n`.
    static func format(_ pattern: String, _ n: Int) -> String {
        guard let r = pattern.range(of: "%0?[0-9]*d", options: .regularExpression) else { return pattern }
        return pattern.replacingCharacters(in: r, with: String(format: String(pattern[r]), n))
    }

    /// Whether `pattern` holds exactly one `%d`-style pattern (and no other `%`).
    static func isPattern(_ pattern: String) -> Bool {
        pattern.components(separatedBy: "%").count == 2 && pattern.range(of: "%0?[0-9]*d", options: .regularExpression) != nil
    }

    /// The bytes written to the current file so far plus those of the finished ones.
    var bytes: Int64 { finishedBytes + (current?.size ?? 0) }
    var fileIndex: Int { index }

    /// Writes a video packet whose presentation time is `us` µs into the take.
    func writeVideo(_ packet: UnsafeMutablePointer<AVPacket>, stream: Int, tb: AVRational, us: Int64) throws {
        let key = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
        if key, let b = nextBoundaryUS, us >= b, current != nil {
            try startNewFile(at: (packet.pointee.pts, tb), us: us)
        }
        try write(packet, stream: stream, tb: tb)
    }

    /// Writes an audio packet starting `us` µs into the take (held while its file is not yet known).
    func writeAudio(_ packet: UnsafeMutablePointer<AVPacket>, stream: Int, tb: AVRational, us: Int64) throws {
        if let b = nextBoundaryUS, us >= b {
            if videoStream == nil {
                if current != nil { try startNewFile(at: (packet.pointee.pts, tb), us: us) }
            } else {
                let p = Packet()
                av_packet_ref(p.ptr, packet)
                held.append((p, stream, tb, us))
                return
            }
        }
        try write(packet, stream: stream, tb: tb)
    }

    private func write(_ packet: UnsafeMutablePointer<AVPacket>, stream: Int, tb: AVRational) throws {
        if current == nil { try open() }
        let shift = av_rescale_q(start.ts, start.tb, tb)
        if packet.pointee.pts != FF.noPTS { packet.pointee.pts -= shift }
        if packet.pointee.dts != FF.noPTS { packet.pointee.dts -= shift }
        try current!.write(packet, stream: stream, from: tb)
    }

    /// Creates the next file (which must not exist) with the take's streams, and writes its header.
    private func open() throws {
        let file = try OutputFile(path: name(index), container: format.take.container, placement: .new)
        for t in templates { _ = try file.addStream(t) }
        try file.writeHeader(options: format.fragmentedMuxOptions)
        current = file
        files.append(file.path)
    }

    /// Ends the current file at the keyframe `at` (µs `us`): held audio before it goes into it, the rest into the next.
    private func startNewFile(at key: (ts: Int64, tb: AVRational), us: Int64) throws {
        let before = held.filter { $0.us < us }, after = held.filter { $0.us >= us }
        held = []
        for h in before { try write(h.packet.ptr, stream: h.stream, tb: h.tb) }
        try finishCurrent()
        index += 1
        start = key
        while let b = nextBoundaryUS, b <= us { nextBoundaryUS = b + Int64(segmentSeconds! * 1e6) }
        try open()
        for h in after { try writeAudio(h.packet.ptr, stream: h.stream, tb: h.tb, us: h.us) }
    }

    private func finishCurrent() throws {
        guard let f = current else { return }
        try f.finish()
        current = nil
        if faststart {
            do {
                if try !makeFaststart(f.path) {
                    fragmented.append(f.path)
                    log("warning: \(f.path): not enough free disk to rewrite it with the index first; it stays fragmented MP4 (it plays as it is)")
                }
            } catch {
                fragmented.append(f.path)
                log("warning: \(f.path): could not rewrite it with the index first (\(error)); it stays fragmented MP4")
            }
        } else {
            fragmented.append(f.path)
        }
        finishedBytes += OutputFile.fileSize(f.path) ?? 0
    }

    /// Rewrites the finished fragmented take at `path` as a plain MP4 with its index first (the row's `muxOptions`:
    /// `+faststart`), by stream copy through a hidden temporary file beside it that is renamed over it
    /// (`StreamCopy.remux`), when the disk has room for the copy (its size again, plus 16 MiB); otherwise the take
    /// stays fragmented (it plays as it is). Returns true when rewritten.
    /// - Throws: `MediaError` when the copy fails (the fragmented take is kept).
    func makeFaststart(_ path: String) throws -> Bool {
        guard let size = OutputFile.fileSize(path) else { return false }
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var fs = statvfs()
        guard statvfs(dir.isEmpty ? "." : dir, &fs) == 0, Int64(fs.f_bavail) * Int64(fs.f_frsize) > size + (16 << 20) else { return false }
        try StreamCopy.remux(path, to: path, container: format.take.container, muxOptions: format.take.muxOptions)
        return true
    }

    /// Writes what is held and finishes the last file.
    func finish() throws {
        let rest = held
        held = []
        if current != nil { for h in rest { try write(h.packet.ptr, stream: h.stream, tb: h.tb) } }
        try finishCurrent()
    }
}
