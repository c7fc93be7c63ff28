import CFFmpeg
import SegueCore

// VideoReader's reading of the container's own timing: the end of its last packet (a stream's duration when the
// container does not record it), the spacing its timestamps show (for an implausible average rate), and whether
// decoding stopped before the container's last packet (a file that really ends early).
extension VideoReader {
    /// The end (PTS + duration) of the last video packet, found by seeking near the end of a second
    /// instance of the file and reading on (so this reader's position is untouched); nil if it cannot seek and the
    /// container has a duration.
    /// A packet lasts at least `minimumDuration` ticks (the measured frame interval, when the container's own frame
    /// duration is implausible).
    func lastPacketEnd(minimumDuration: Int64 = 0) throws -> Int64? {
        try lastPackets().map { $0.end + max(0, minimumDuration - $0.duration) }
    }

    /// The PTS of the last video packet and the end (PTS + duration) of the one that ends last, read from a second
    /// instance of the file from the keyframe before its end (this reader's position is untouched); nil when it cannot
    /// seek there or reads no packet with a timestamp (a file cut short behind its index).
    func lastPackets() throws -> (lastPTS: Int64, end: Int64, duration: Int64)? {
        var probe = try InputFile(path: path, policy: policy)
        if av_seek_frame(probe.ctx, streamIndex, Int64.max / 4, AVSEEK_FLAG_BACKWARD) < 0 {
            // It cannot seek: where the container does not know its duration either (an ffconcat list), every packet is
            // read from the start of a fresh instance (the failed seek may have moved the demuxer).
            if probe.ctx.pointee.duration > 0 { return nil }
            probe = try InputFile(path: path, policy: policy)
        }
        let pkt = Packet()
        var last: (lastPTS: Int64, end: Int64, duration: Int64)?
        while probe.readPacket(pkt.ptr) >= 0 {
            defer { av_packet_unref(pkt.ptr) }
            guard pkt.ptr.pointee.stream_index == streamIndex, pkt.ptr.pointee.pts != FF.noPTS else { continue }
            let p = pkt.ptr.pointee.pts, d = max(0, pkt.ptr.pointee.duration)
            if last == nil { last = (p, p + d, d) }
            if p + d > last!.end { last!.end = p + d; last!.duration = d }
            last!.lastPTS = max(last!.lastPTS, p)
        }
        return last
    }

    /// The median spacing of the first 120 video packets' timestamps (presentation order), in stream ticks, and the
    /// rate it makes (frames per second), read from a second instance of the file; nil when fewer than two packets
    /// carry a timestamp. For a stream whose average rate is implausible (`SourceInfo.isPlausibleFrameRate`).
    func medianFrameInterval() throws -> (rate: Double, interval: Int64)? {
        let probe = try InputFile(path: path, policy: policy)
        let pkt = Packet()
        var times: [Int64] = []
        while times.count < 120, probe.readPacket(pkt.ptr) >= 0 {
            defer { av_packet_unref(pkt.ptr) }
            guard pkt.ptr.pointee.stream_index == streamIndex, pkt.ptr.pointee.pts != FF.noPTS else { continue }
            times.append(pkt.ptr.pointee.pts)
        }
        times.sort()
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return nil }
        let median = gaps[gaps.count / 2]
        return (Double(timeBase.den) / (Double(median) * Double(timeBase.num)), median)
    }

    /// Whether the reader stopped before the container's last video packet: a read error ended it, or it held its
    /// last picture past where the clip should still have pictures (`heldPastEnd`) and the picture it holds is not the
    /// last packet the container has (a file cut short behind its index). A variable-frame-rate file whose last frame
    /// lasts long (its duration reaches past the last timestamp, as the container says) has decoded its last packet,
    /// and does not end early. The container's last packet is read once, when it is first asked for.
    public var endsEarly: Bool {
        if readErrors > 0 { return true }
        guard heldPastEnd > 0, !isStill, pictureSequence == nil else { return false }
        if containerLastPTS == nil { containerLastPTS = .some((try? lastPackets())??.lastPTS) }
        guard let last = containerLastPTS!, let decoded = lastPTS else { return true }
        return decoded < last
    }
}
