import CFFmpeg
import SegueCore

/// What a video file holds, read from its packets without decoding: what `stitch` checks every chunk and
/// the stitched output against.
public struct VideoPacketSummary: Sendable {
    /// Video packets (one per frame for the codecs Segue writes).
    public let frames: Int64
    /// SHA-256 of the codec header (see `StreamCopy.headerHash`).
    public let headerHash: String
    /// Whether the first packet in decoding order is a keyframe (an IDR frame for H.264).
    public let startsWithKeyframe: Bool
    public let width: Int, height: Int
    /// Whether the presentation times, in frames of the given rate, are exactly 0, 1, …, frames − 1
    /// (continuous, unique, starting at 0).
    public let timestampsContinuous: Bool
    /// Audio packets and the audio's length in seconds (0 without audio).
    public let audioPackets: Int64
    public let audioSeconds: Double

    /// Reads every packet of `path`.
    /// - Parameter frameRate: the rate the video was written at (timestamps are checked in its frames).
    /// - Throws: `MediaError` if the file cannot be read or has no video stream.
    public init(path: String, frameRate: FrameRate) throws {
        let file = try InputFile(path: path, policy: MediaInput.ownFiles)
        guard let vi = file.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MediaError(path: path, function: nil, message: "no video stream")
        }
        let ai = file.bestStream(AVMEDIA_TYPE_AUDIO)
        let vst = file.stream(vi)
        headerHash = StreamCopy.headerHash(vst.pointee.codecpar)
        width = Int(vst.pointee.codecpar.pointee.width)
        height = Int(vst.pointee.codecpar.pointee.height)
        let frameBase = AVRational(num: frameRate.denominator, den: frameRate.numerator)
        var frames: Int64 = 0, audio: Int64 = 0, audioEnd: Int64 = 0, audioStart: Int64 = .max
        var first = true, key = false
        var times = [Bool]()
        var continuous = true
        try file.forEachPacket { p in
            if p.stream_index == vi {
                if first { key = (p.flags & AV_PKT_FLAG_KEY) != 0; first = false }
                frames += 1
                guard p.pts != FF.noPTS else { continuous = false; return }
                let n = av_rescale_q_rnd(p.pts, vst.pointee.time_base, frameBase, AV_ROUND_NEAR_INF)
                if n < 0 || n > Int64(Int32.max) { continuous = false; return }
                if Int(n) >= times.count { times += [Bool](repeating: false, count: Int(n) + 1 - times.count) }
                if times[Int(n)] { continuous = false }
                times[Int(n)] = true
            } else if let ai, p.stream_index == ai, p.pts != FF.noPTS {
                audio += 1
                let tb = file.stream(ai).pointee.time_base
                let us = AVRational(num: 1, den: 1_000_000)
                audioStart = min(audioStart, av_rescale_q(max(0, p.pts), tb, us))
                audioEnd = max(audioEnd, av_rescale_q(p.pts + p.duration, tb, us))
            }
        }
        self.frames = frames
        startsWithKeyframe = key
        timestampsContinuous = continuous && Int64(times.count) == frames && !times.contains(false)
        audioPackets = audio
        audioSeconds = audio > 0 ? Double(audioEnd - audioStart) / 1e6 : 0
    }
}

/// Writes files by stream copy (no re-encoding), through the one output owner (`OutputFile`, streams of copied packets:
/// `StreamParameters`): farm chunks stitched into one file, a take rewritten with its index first.
public enum StreamCopy {
    /// One input: a video file whose frame 0 is output frame `startFrame`.
    public struct Piece {
        public let path: String
        public let startFrame: Int64
        public init(path: String, startFrame: Int64) { self.path = path; self.startFrame = startFrame }
    }

    /// Concatenates `pieces` (in order; each must have the same codec header) and muxes the audio of `audioPath`
    /// beside them, to `path` in `container` (an FFmpeg muxer: `OutputFormat.container`) with the muxer's `muxOptions`
    /// (`OutputFormat.muxOptions`, e.g. MP4's `+faststart`).
    ///
    /// Video timestamps are rewritten in whole frames: a packet at frame k of its piece (its presentation time as
    /// the demuxer gives it, edit lists applied) goes to frame `startFrame + k`; decoding times keep their offset
    /// from the presentation times (B-frame reordering delay), so they stay increasing across the seams.
    /// Audio packets keep their timestamps (and with them the AAC priming the edit list hides).
    /// Packets of both streams are written in time order, so memory does not grow with the edit.
    /// - Returns: video and audio packets written.
    /// - Throws: `MediaError` naming the file that failed.
    @discardableResult
    public static func concatenate(_ pieces: [Piece], frameRate: FrameRate, audioPath: String?, to path: String,
                                   container: String, muxOptions: [String: String] = [:]) throws -> (video: Int64, audio: Int64) {
        guard let firstPiece = pieces.first else { throw MediaError(path: path, function: nil, message: "nothing to join") }
        let out = try OutputFile(path: path, container: container)
        var video = try PieceReader(firstPiece, type: AVMEDIA_TYPE_VIDEO)
        let vi = try out.addStream(StreamParameters(copying: video.stream, path: path))
        let audio = try audioPath.map { try PieceReader(Piece(path: $0, startFrame: 0), type: AVMEDIA_TYPE_AUDIO) }
        let ai = try audio.map { try out.addStream(StreamParameters(copying: $0.stream, path: path)) }
        try out.writeHeader(options: muxOptions)

        let frameBase = AVRational(num: frameRate.denominator, den: frameRate.numerator)
        let header = headerHash(out.stream(vi).pointee.codecpar)
        var nextPiece = 1
        var counts: (video: Int64, audio: Int64) = (0, 0)
        var videoPending = try video.next()
        var audioPending = try audio?.next() ?? false
        while true {
            // Move to the next piece when this one is used up.
            while !videoPending && nextPiece < pieces.count {
                video = try PieceReader(pieces[nextPiece], type: AVMEDIA_TYPE_VIDEO)
                nextPiece += 1
                guard headerHash(video.stream.pointee.codecpar) == header else {
                    throw MediaError(path: video.path, function: nil, message: "its codec header differs from the first piece's: cannot join by stream copy")
                }
                videoPending = try video.next()
            }
            guard videoPending || audioPending else { break }
            var takeVideo = videoPending
            if videoPending, audioPending, let a = audio {
                // Earlier decoding time first.
                takeVideo = av_compare_ts(video.frame(video.packet.ptr.pointee.dts, frameBase), frameBase, a.packet.ptr.pointee.dts, a.stream.pointee.time_base) <= 0
            }
            if takeVideo {
                let p = video.packet.ptr
                p.pointee.pts = video.frame(p.pointee.pts, frameBase)
                p.pointee.dts = video.frame(p.pointee.dts, frameBase)
                p.pointee.duration = 1
                try out.write(p, stream: vi, from: frameBase)
                counts.video += 1
                videoPending = try video.next()
            } else if let a = audio, let ai {
                try out.write(a.packet.ptr, stream: ai, from: a.stream.pointee.time_base)
                counts.audio += 1
                audioPending = try a.next()
            }
        }
        try out.finish()
        return counts
    }

    /// Copies every packet of `source` into `path` (`container`, with `muxOptions`: MP4's `+faststart`), the streams'
    /// timestamps and display matrices as they are, through a hidden temporary file renamed over `path` when complete
    /// (`path` may be `source` itself).
    /// - Throws: `MediaError` (the source cannot be read, the copy cannot be written; `path` is then untouched).
    static func remux(_ source: String, to path: String, container: String, muxOptions: [String: String]) throws {
        let input = try InputFile(path: source, policy: .default)   // a file Segue itself just wrote
        let out = try OutputFile(path: path, container: container, placement: .replacing)
        for i in 0..<Int32(input.ctx.pointee.nb_streams) { _ = try out.addStream(StreamParameters(copying: input.stream(i), path: path)) }
        try out.writeHeader(options: muxOptions)
        let pkt = Packet()
        while true {
            let r = input.readPacket(pkt.ptr)
            if r == FF.eof { break }
            try FF.check(r, "av_read_frame", path: source)
            let i = pkt.ptr.pointee.stream_index
            try out.write(pkt.ptr, stream: Int(i), from: input.stream(i).pointee.time_base)
        }
        try out.finish()
    }

    /// SHA-256 of a video codec header as a demuxer reports it: codec, profile, level, size, pixel format and the
    /// extradata (avcC with SPS/PPS for H.264 in MP4). Chunks of one plan must all have the same.
    static func headerHash(_ par: UnsafeMutablePointer<AVCodecParameters>) -> String {
        let p = par.pointee
        var bytes = Array("\(p.codec_id.rawValue) \(p.profile) \(p.level) \(p.width)x\(p.height) \(p.format) ".utf8)
        if let e = p.extradata, p.extradata_size > 0 { bytes += UnsafeBufferPointer(start: e, count: Int(p.extradata_size)) }
        return Digest.sha256(bytes)
    }
}

/// Reads the packets of one stream of a file, in file order.
final class PieceReader {
    let file: InputFile
    let piece: StreamCopy.Piece
    let stream: UnsafeMutablePointer<AVStream>
    let index: Int32
    let packet = Packet()
    var path: String { piece.path }

    init(_ piece: StreamCopy.Piece, type: AVMediaType) throws {
        self.piece = piece
        file = try InputFile(path: piece.path, policy: MediaInput.ownFiles)
        guard let i = file.bestStream(type) else {
            throw MediaError(path: piece.path, function: nil, message: type == AVMEDIA_TYPE_VIDEO ? "no video stream" : "no audio stream")
        }
        index = i
        stream = file.stream(i)
    }

    /// A timestamp of this piece (in its stream's time base) as a frame of the output (`frameBase`: 1 / frame rate).
    func frame(_ ts: Int64, _ frameBase: AVRational) -> Int64 {
        av_rescale_q_rnd(ts, stream.pointee.time_base, frameBase, AV_ROUND_NEAR_INF) + piece.startFrame
    }

    /// Reads the next packet of the stream into `packet`; false at the end of the file.
    func next() throws -> Bool {
        av_packet_unref(packet.ptr)
        while true {
            let rc = file.readPacket(packet.ptr)
            if rc == FF.eof { return false }
            try FF.check(rc, "av_read_frame", path: piece.path)
            if packet.ptr.pointee.stream_index == index {
                guard packet.ptr.pointee.pts != FF.noPTS else {
                    throw MediaError(path: piece.path, function: nil, message: "a packet has no timestamp")
                }
                if packet.ptr.pointee.dts == FF.noPTS { packet.ptr.pointee.dts = packet.ptr.pointee.pts }
                return true
            }
            av_packet_unref(packet.ptr)
        }
    }
}
