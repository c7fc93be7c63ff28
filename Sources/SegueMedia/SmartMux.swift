import CFFmpeg
import SegueCore

/// Writes a smart render's video (`OutputSettings.smart`): stretches of a source's packets copied as they are and
/// stretches encoded on their own (each a closed GOP starting at an IDR picture, in a file of its own), one after the
/// other, with the audio of a separate file beside them.
///
/// The output's `avcC` holds the copied stream's parameter sets and the encoder's (whose ids differ: x264's
/// `sps-id`), so every packet finds the SPS and PPS it names. HEVC (x265 numbers its sets as the copied stream does):
/// the sets travel in band, an `hev1` sample entry with the copied stream's `hvcC`, the copied stretches' own VPS, SPS
/// and PPS put in front of their first packet and of each IDR picture. Timestamps are rewritten in whole output frames: a
/// packet of a piece goes to frame `startFrame` + its frame in the piece (display order); decoding times are the
/// packets' order less the largest reordering delay of any piece, so they increase across every seam and no packet
/// is decoded after it is shown.
public enum SmartMux {
    /// One stretch of the output's video.
    public struct Piece: Sendable {
        public enum Source: Sendable {
            /// Every video packet of a file Segue encoded (its frame 0 is the piece's first frame).
            case encoded(path: String)
            /// The packets `packets` (decoding order) of a source whose display-order frames `firstFrame`… they show
            /// (`SmartStream`: `packetFrames` gives the frame each packet shows).
            case copied(SmartStream, packets: Range<Int>, firstFrame: Int)
        }
        public let source: Source
        /// The output frame of the piece's first frame.
        public let startFrame: Int64
        public init(_ source: Source, startFrame: Int64) { self.source = source; self.startFrame = startFrame }
    }

    /// Writes `pieces` (in output order, together every frame of the output) with the audio of `audioPath` (its
    /// packets as they are) to `path` in `container` with `muxOptions`.
    /// - Returns: video packets written.
    /// - Throws: `MediaError` (a file cannot be read, the encoded pieces' parameter sets differ, a copied piece's
    ///   packets are not the ones its index named, the output cannot be written).
    @discardableResult
    public static func write(_ pieces: [Piece], frameRate: FrameRate, audioPath: String?, to path: String,
                             container: String, muxOptions: [String: String], parameterSource: SmartStream? = nil) throws -> Int64 {
        let frameBase = AVRational(num: frameRate.denominator, den: frameRate.numerator)
        let firstCopied = parameterSource
            ?? pieces.lazy.compactMap { piece -> SmartStream? in if case .copied(let s, _, _) = piece.source { return s }; return nil }.first
        guard let firstCopied else { throw MediaError(path: path, function: nil, message: "nothing is copied") }
        // HEVC: x265's parameter sets have the copied stream's ids, so both go in band, before each copied IDR.
        let inBand = firstCopied.codec == "hevc" ? HEVCConfiguration(firstCopied.parameterSets)?.inBand : nil
        // The stream's parameters are the copied stream's.
        let copiedConfig = AVCConfiguration(firstCopied.parameterSets)
        let source = try InputFile(path: firstCopied.path, policy: MediaInput.ownFiles)
        guard let sourceIndex = source.bestStream(AVMEDIA_TYPE_VIDEO) else { throw MediaError(path: firstCopied.path, function: nil, message: "no video stream") }
        let params = try StreamParameters(copying: source.stream(sourceIndex), path: firstCopied.path)
        // First pass: each piece's packets' frames (display order within the piece), and the parameter sets.
        var shown: [[Int]] = []
        var encodedConfig: AVCConfiguration?
        for piece in pieces {
            switch piece.source {
            case .encoded(let file):
                let r = try PieceReader(StreamCopy.Piece(path: file, startFrame: 0), type: AVMEDIA_TYPE_VIDEO)
                let par = r.stream.pointee.codecpar.pointee
                let bytes = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
                if inBand == nil {
                    guard let c = AVCConfiguration(bytes) else { throw MediaError(path: file, function: nil, message: "the encoded stretch has no avcC") }
                    // A chunk of a smart render holds the copied stream's sets too: each set once, no two with one id.
                    guard let merged = encodedConfig.map({ $0.merging(c) }) ?? c else {
                        throw MediaError(path: file, function: nil, message: "the encoded stretches' parameter sets differ from one another with the same ids")
                    }
                    encodedConfig = merged
                }
                var frames: [Int] = []
                while try r.next() { frames.append(Int(r.frame(r.packet.ptr.pointee.pts, frameBase))) }
                shown.append(frames)
            case .copied(let stream, let packets, let firstFrame):
                shown.append(stream.copied(packets).map { stream.packetFrames[$0] - firstFrame })
            }
        }
        // Every piece shows each of its frames once: none dropped, duplicated or outside it at a seam.
        for (piece, frames) in zip(pieces, shown) where frames.sorted() != Array(0..<frames.count) {
            let file: String
            switch piece.source { case .encoded(let p): file = p; case .copied(let s, _, _): file = s.path }
            throw MediaError(path: file, function: nil, message: "a stretch's packets do not show its frames 0…\(frames.count - 1) once each")
        }
        // H.264: one avcC with both streams' parameter sets (their ids differ); HEVC: the copied stream's hvcC, hev1.
        var bytes = firstCopied.parameterSets
        if inBand == nil, let c = copiedConfig {
            guard let all = encodedConfig.map({ c.merging($0) }) ?? c else {
                throw MediaError(path: path, function: nil, message: "the encoded stretches' parameter sets have the ids of the copied stream's")
            }
            bytes = all.bytes
        }
        // The largest reordering delay: how many packets before its own place in display order a frame is decoded.
        let delay = shown.map { frames in frames.enumerated().map { $0.offset - $0.element }.max() ?? 0 }.max() ?? 0

        let out = try OutputFile(path: path, container: container)
        let par = params.codec.ptr
        if inBand != nil { par.pointee.codec_tag = Encoder.fourCC("hev1") }
        av_freep(&par.pointee.extradata)
        par.pointee.extradata = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)).assumingMemoryBound(to: UInt8.self)
        bytes.withUnsafeBufferPointer { par.pointee.extradata.update(from: $0.baseAddress!, count: bytes.count) }
        par.pointee.extradata_size = Int32(bytes.count)
        var stream = params
        stream.timeBase = frameBase
        stream.frameRate = AVRational(num: frameRate.numerator, den: frameRate.denominator)
        stream.displayMatrix = nil
        let vi = try out.addStream(stream)
        let audio = try audioPath.map { try PieceReader(StreamCopy.Piece(path: $0, startFrame: 0), type: AVMEDIA_TYPE_AUDIO) }
        let ai = try audio.map { try out.addStream(StreamParameters(copying: $0.stream, path: path)) }
        try out.writeHeader(options: muxOptions)

        var audioPending = try audio?.next() ?? false
        var decoded: Int64 = 0
        /// Writes the audio packets that decode before video decoding time `dts` (output frames).
        func audioBefore(_ dts: Int64?) throws {
            while audioPending, let a = audio, let ai {
                if let dts, av_compare_ts(a.packet.ptr.pointee.dts, a.stream.pointee.time_base, dts, frameBase) > 0 { return }
                try out.write(a.packet.ptr, stream: ai, from: a.stream.pointee.time_base)
                audioPending = try a.next()
            }
        }
        func put(_ packet: UnsafeMutablePointer<AVPacket>, frame: Int, of piece: Piece, prefix: [UInt8]? = nil) throws {
            let dts = decoded - Int64(delay)
            let withSets = try prefix.map { try prefixed(packet, $0, path: path) }
            let p = withSets?.ptr ?? packet
            try audioBefore(dts)
            p.pointee.pts = piece.startFrame + Int64(frame)
            p.pointee.dts = dts
            p.pointee.duration = 1
            try out.write(p, stream: vi, from: frameBase)
            decoded += 1
        }
        for (k, piece) in pieces.enumerated() {
            switch piece.source {
            case .encoded(let file):
                let r = try PieceReader(StreamCopy.Piece(path: file, startFrame: 0), type: AVMEDIA_TYPE_VIDEO)
                var j = 0
                while try r.next() { try put(r.packet.ptr, frame: shown[k][j], of: piece); j += 1 }
            case .copied(let stream, let packets, _):
                var j = 0
                try copyPackets(stream, packets) { p in
                    let sets = j == 0 || p.pointee.flags & AV_PKT_FLAG_KEY != 0 ? inBand : nil
                    try put(p, frame: shown[k][j], of: piece, prefix: sets)
                    j += 1
                }
            }
        }
        try audioBefore(nil)
        try out.finish()
        return decoded
    }

    /// A new packet of `prefix` followed by `packet`'s data, with its properties (timestamps, flags).
    static func prefixed(_ packet: UnsafeMutablePointer<AVPacket>, _ prefix: [UInt8], path: String) throws -> Packet {
        let q = Packet()
        let size = Int(packet.pointee.size)
        try FF.check(av_new_packet(q.ptr, Int32(prefix.count + size)), "av_new_packet", path: path)
        try FF.check(av_packet_copy_props(q.ptr, packet), "av_packet_copy_props", path: path)
        prefix.withUnsafeBufferPointer { q.ptr.pointee.data.update(from: $0.baseAddress!, count: prefix.count) }
        if size > 0 { (q.ptr.pointee.data + prefix.count).update(from: packet.pointee.data, count: size) }
        return q
    }

    /// Calls `body` with each of `stream`'s video packets `packets` (decoding order) that a copy writes
    /// (`SmartStream.copied`: an HEVC CRA picture's RASL pictures are left out when the copy starts at it, and the CRA
    /// picture is made a broken link, `HEVCConfiguration.brokenLink`), read after a seek to the keyframe at or before
    /// the first: each must have the timestamp the index gives it (`SmartStream.packetPTS`).
    static func copyPackets(_ stream: SmartStream, _ packets: Range<Int>, _ body: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        let skipped = stream.gop(startingAt: packets.lowerBound)?.skippedPackets ?? 0..<0
        let r = try PieceReader(StreamCopy.Piece(path: stream.path, startFrame: 0), type: AVMEDIA_TYPE_VIDEO)
        let first = stream.packetPTS[packets.lowerBound]
        // A failed seek reads from the start: slower, the same packets.
        if packets.lowerBound > 0 { _ = av_seek_frame(r.file.ctx, r.index, first, AVSEEK_FLAG_BACKWARD) }
        var found = false
        while !found, try r.next() { found = r.packet.ptr.pointee.pts == first }
        var n = packets.lowerBound
        while found && n < packets.upperBound {
            guard r.packet.ptr.pointee.pts == stream.packetPTS[n] else { break }
            // A CRA picture a copy starts at is a broken link: its picture order count starts again, after the encoded
            // stretch's (H.265 §8.3.1), whether or not it has RASL pictures.
            if n == packets.lowerBound && stream.codec == "hevc" {
                try FF.check(av_packet_make_writable(r.packet.ptr), "av_packet_make_writable", path: stream.path)
                HEVCConfiguration.brokenLink(UnsafeMutableBufferPointer(start: r.packet.ptr.pointee.data, count: Int(r.packet.ptr.pointee.size)), lengthSize: 4)
            }
            if !skipped.contains(n) { try body(r.packet.ptr) }
            n += 1
            if n < packets.upperBound { guard try r.next() else { break } }
        }
        guard n == packets.upperBound else {
            throw MediaError(path: stream.path, function: nil, message: "its packets \(packets.lowerBound)…\(packets.upperBound - 1) are not the ones its index read (the file changed while rendering?)")
        }
    }
}
