import CFFmpeg
import Foundation
import SegueCore

/// A numbered sequence of pictures (`frames/img_%04d.png`: `ImageSequencePattern`) read as a video at the sequence's
/// rate: picture `first + k` is frame `k`, shown from `k / rate` s. The first number is the smallest the folder holds
/// (VFX pipelines start at 1001, renders at 0 or 1), the last the largest; a number between them without a file is
/// missing, and `ImageSequence.MissingFrames` says what stands in: the sequence is refused (`error`), the picture before
/// stays (`hold`: no frame is made, so the frame rule keeps showing it), or a black picture is made (`black`).
///
/// Each picture is one still file, decoded by libavcodec (PNG 8- and 16-bit, TIFF, DPX, OpenEXR, JPEG, …).
/// `openPicture(number:)` is the one place a sequence's files are opened: each by its own literal name, FFmpeg's
/// `image2` demuxer told `pattern_type=none`, so no pattern ever reaches FFmpeg (the input policy can allow a
/// sequence's pictures there and refuse `image2` patterns everywhere else).
final class ImageSequenceReader: PictureSequence {
    let pattern: ImageSequencePattern
    let sequence: ImageSequence
    /// Every picture file is opened under it (a plain file inside the root, the picture-size limit).
    let policy: InputPolicy
    /// The numbers present, ascending; `first` and `last` of them; those missing between.
    let numbers: Set<Int>
    let first: Int, last: Int
    let missing: [Int]
    /// The next frame `decodeNext` returns (0 = `first`).
    private var next = 0
    /// The first picture's size and format, for black stand-ins.
    private var blackFrame: Frame?

    /// Frames in the sequence (`last − first + 1`, the missing ones included).
    var count: Int { last - first + 1 }
    /// The stream time base: one tick per frame (1 / rate).
    var timeBase: AVRational { AVRational(num: sequence.rate.denominator, den: sequence.rate.numerator) }

    /// Lists the pictures of `path` (a pattern). - Throws: `MediaError` when the folder holds none, or (policy `error`)
    /// when numbers are missing between the first and the last, naming them.
    init(path: String, sequence: ImageSequence, policy: InputPolicy) throws {
        guard let p = ImageSequencePattern(path: path) else {
            throw MediaError(path: path, function: nil, message: "is not a numbered picture pattern such as frames/img_%04d.png")
        }
        pattern = p
        self.sequence = sequence
        self.policy = policy
        let found: [Int]
        do { found = try p.numbers() } catch let e as EditError {
            throw MediaError(path: path, function: nil, message: e.message)
        }
        guard let lo = found.first, let hi = found.last else {
            throw MediaError(path: path, function: nil, message: "image sequence: no picture in \(p.directory) is named \(p) (e.g. \(p.name(1)))")
        }
        guard hi - lo < 10_000_000 else {
            throw MediaError(path: path, function: nil, message: "image sequence: numbers \(lo)…\(hi) span more than 10 million frames")
        }
        let present = Set(found)
        numbers = present
        first = lo; last = hi
        missing = found.count == hi - lo + 1 ? [] : (lo...hi).filter { !present.contains($0) }
        if !missing.isEmpty && sequence.missingFrames == .error {
            throw MediaError(path: path, function: nil, message: "image sequence: \(missing.count) picture\(missing.count == 1 ? " is" : "s are") missing between \(p.name(lo)) and \(p.name(hi)): "
                             + ImageSequenceReader.ranges(missing) + " (give the item \"missingFrames\": \"hold\" or \"black\" to render it anyway)")
        }
    }

    /// "1010, 1020–1022".
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        while i < numbers.count {
            var j = i
            while j + 1 < numbers.count && numbers[j + 1] == numbers[j] + 1 { j += 1 }
            parts.append(i == j ? "\(numbers[i])" : "\(numbers[i])–\(numbers[j])")
            i = j + 1
        }
        return parts.prefix(20).joined(separator: ", ") + (parts.count > 20 ? ", …" : "")
    }

    /// Opens picture `number` (its own file, literally named) and decodes it. The one place a sequence's files are
    /// opened (see the type's comment), under the policy. - Throws: `MediaError` naming the file, `InputRefused` and
    /// `LimitExceeded` (the policy refuses it).
    func openPicture(number: Int) throws -> Frame {
        let path = pattern.path(number)
        // A picture over the limit fails inside libavcodec (max_pixels), which logs its size: refused by name.
        _ = FFmpegLog.takeRefusedPictureSize()
        do { return try decodePicture(path) } catch let e as MediaError { throw VideoReader.pictureLimit(path, policy) ?? e }
    }

    private func decodePicture(_ path: String) throws -> Frame {
        let file = try InputFile(path: path, policy: policy, options: ["pattern_type": "none"])
        guard let vi = file.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MediaError(path: path, function: nil, message: "image sequence: not a picture")
        }
        // The size the picture's header declares, checked before it is decoded (as VideoReader does for a file).
        let par = file.stream(vi).pointee.codecpar.pointee
        let declared = PixelSize(width: Int(par.width), height: Int(par.height))
        if declared.width * declared.height > policy.limits.maxPicturePixels { throw LimitExceeded.picture(path, declared, policy.limits) }
        let decoder = try Decoder(stream: file.stream(vi), path: path, threads: 1, maxPixels: policy.limits.maxPicturePixels)
        let packet = Packet()
        let frame = Frame()
        while true {
            let r = file.readPacket(packet.ptr)
            if r < 0 {
                avcodec_send_packet(decoder.ctx, nil)
            } else {
                defer { av_packet_unref(packet.ptr) }
                guard packet.ptr.pointee.stream_index == vi else { continue }
                try FF.check(avcodec_send_packet(decoder.ctx, packet.ptr), "avcodec_send_packet", path: path)
            }
            let rc = avcodec_receive_frame(decoder.ctx, frame.ptr)
            if rc == 0 { return frame }
            if rc != FF.eagain || r < 0 {
                throw MediaError(path: path, function: "avcodec_receive_frame", code: rc, message: "image sequence: the picture cannot be decoded: \(FF.message(rc))")
            }
        }
    }

    /// The next frame (PTS in frames from the first), or nil after the last: a missing number is skipped (`hold`) or
    /// made black (`black`).
    func decodeNext() throws -> (pts: Int64, frame: Frame)? {
        while next < count {
            let k = next
            next += 1
            let n = first + k
            if numbers.contains(n) {
                let f = try openPicture(number: n)
                f.ptr.pointee.pts = Int64(k)
                if blackFrame == nil { blackFrame = try ImageSequenceReader.black(like: f) }
                return (Int64(k), f)
            }
            if sequence.missingFrames == .black, let b = blackFrame {
                let f = try ImageSequenceReader.black(like: b)
                f.ptr.pointee.pts = Int64(k)
                return (Int64(k), f)
            }
        }
        return nil
    }

    /// Positions the reader so that `decodeNext` gives frame `k` (clamped to the sequence) next.
    func seek(toFrame k: Int64) {
        next = Int(max(0, min(Int64(count - 1), k)))
        // A black stand-in needs a picture before it for its size: the first one is always present.
        if blackFrame == nil, next > 0, sequence.missingFrames == .black, let f = try? openPicture(number: first) {
            blackFrame = try? ImageSequenceReader.black(like: f)
        }
    }

    /// An opaque black RGBA picture of `frame`'s size.
    static func black(like frame: Frame) throws -> Frame {
        let f = try Frame.allocated(width: Int(frame.ptr.pointee.width), height: Int(frame.ptr.pointee.height), format: AV_PIX_FMT_RGBA)
        let stride = Int(f.ptr.pointee.linesize.0), base = f.ptr.pointee.data.0!
        for y in 0..<Int(f.ptr.pointee.height) {
            for x in 0..<Int(f.ptr.pointee.width) { base[y * stride + 4 * x + 3] = 255 }
        }
        f.ptr.pointee.color_range = AVCOL_RANGE_JPEG
        return f
    }
}
