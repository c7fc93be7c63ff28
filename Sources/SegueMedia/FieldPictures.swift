import CFFmpeg
import SegueCore

/// `VideoReader`'s deinterlacing state: whether its clip is interlaced, the `bwdif` graph, and the pictures the
/// graph has given that `decodeNext` has not returned yet (one frame in gives up to two pictures out).
struct FieldPictures {
    /// The stream's own field order (`AVCodecParameters.field_order`), in display order.
    var declared: FieldOrder = .progressive
    /// The field order of the first decoded frame flagged interlaced (`interlaced_frame`, `top_field_first`).
    var flagged: FieldOrder?
    /// Whether frames go through the deinterlacer: the stream declares interlacing, or a frame was flagged
    /// interlaced (and the reader deinterlaces). Stays on for the rest of the reader's life, across seeks.
    var active = false
    /// How far before a wanted picture a seek lands while deinterlacing: two frame durations (a frame's pictures
    /// need the frames before and after it); 0.2 s when the stream has no average rate.
    var seekMargin = MediaTime(value: 1, timescale: 5)
    var deinterlacer: Deinterlacer?
    /// The last frame returned before the clip turned out to be interlaced (a stream switching from progressive to
    /// interlaced frames): it goes into the new graph first, as the frame before the first interlaced one.
    var previous: (pts: Int64, frame: Frame)?
    /// The PTS (half units) of that frame's picture, which the graph passes through again and which is dropped.
    var alreadyReturned: Int64?
    /// Pictures ready to be returned, in presentation order, PTS in half units of the stream time base.
    var ready: [(pts: Int64, frame: Frame)] = []

    /// What the clip is: the decoded frames' flags when any was flagged interlaced, else the stream's word.
    var fieldOrder: FieldOrder { flagged ?? declared }

    /// Drops the graph and its pictures (after a seek: `bwdif` must not mix frames from before and after).
    mutating func reset() {
        deinterlacer = nil
        ready.removeAll()
        previous = nil
        alreadyReturned = nil
    }

    /// Appends the graph's pictures to `ready`, dropping the one that was returned before the graph existed.
    mutating func take(_ pictures: [(pts: Int64, frame: Frame)]) {
        for p in pictures {
            if let r = alreadyReturned {
                alreadyReturned = nil
                if p.pts == r { continue }
            }
            ready.append(p)
        }
    }

    /// `AVFieldOrder` in display order: TT and BT show the top field first, BB and TB the bottom field
    /// (TB/BT: "top/bottom coded first, the other displayed first").
    static func fieldOrder(_ order: AVFieldOrder) -> FieldOrder {
        switch order {
        case AV_FIELD_TT, AV_FIELD_BT: return .topFieldFirst
        case AV_FIELD_BB, AV_FIELD_TB: return .bottomFieldFirst
        default: return .progressive
        }
    }
}

extension VideoReader {
    /// The next picture in presentation order, or nil at the end of the stream; its PTS counts half units of the
    /// stream time base (a frame at PTS `p` is at `2·p`).
    ///
    /// Progressive frames are returned as decoded. Once the clip is known to be interlaced (`FieldPictures.active`)
    /// every frame goes through `Deinterlacer` (`bwdif`, one picture per field): an interlaced frame at `p` gives
    /// a picture at `2·p` and one at `p + p_next` (half-way to the next frame), a frame not flagged interlaced comes
    /// through untouched at `2·p`. At the end of the stream the graph is flushed, so the last frame's pictures come
    /// out too. Throws `MediaError` for libavfilter failures (a decoding failure ends the stream, see `decodeFrame`).
    func decodeNext() throws -> (pts: Int64, frame: Frame)? {
        while fields.ready.isEmpty {
            guard let (pts, frame) = try decodeFrame() else {
                // End of stream: bwdif holds the last frame until it knows there is no next one.
                guard let d = fields.deinterlacer else { return nil }
                fields.deinterlacer = nil
                fields.take(try d.finish())
                if fields.ready.isEmpty { return nil }
                break
            }
            let f = frame.ptr
            if f.pointee.interlaced_frame != 0 {
                if fields.flagged == nil { fields.flagged = f.pointee.top_field_first != 0 ? .topFieldFirst : .bottomFieldFirst }
                if deinterlaces { fields.active = true }
            }
            guard fields.active else {
                if deinterlaces { fields.previous = (pts, frame) }
                return (2 * pts, frame)
            }
            if let d = fields.deinterlacer, !d.accepts(f) {
                // The size or pixel format changed mid-stream (a broadcast capture): finish the old graph first.
                fields.deinterlacer = nil
                fields.take(try d.finish())
            }
            if fields.deinterlacer == nil {
                let st = file.stream(streamIndex).pointee
                let sar = SampleAspectRatio(stream: file.stream(streamIndex), frame: f).used
                let d = try Deinterlacer(width: f.pointee.width, height: f.pointee.height, format: f.pointee.format,
                                         timeBase: timeBase, sampleAspectRatio: sar, frameRate: st.avg_frame_rate, path: path)
                fields.deinterlacer = d
                if let p = fields.previous, d.accepts(p.frame.ptr) {
                    // Already returned: it goes in as the frame before this one (bwdif reads it), and its picture,
                    // passed through untouched, is dropped when it comes out.
                    p.frame.ptr.pointee.pts = p.pts
                    fields.take(try d.push(p.frame, keepingReference: true))
                    fields.alreadyReturned = 2 * p.pts
                }
                fields.previous = nil
            }
            f.pointee.pts = pts
            fields.take(try fields.deinterlacer!.push(frame))
        }
        return fields.ready.removeFirst()
    }
}
