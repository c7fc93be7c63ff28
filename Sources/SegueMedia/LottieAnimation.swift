import CFFmpeg
import CLottie
import Foundation
import SegueCore

/// A Lottie animation (Bodymovin JSON, `.json`; or a dotLottie archive, `.lottie`), drawn frame by frame by rlottie at
/// the size it is shown. One owner of the rlottie handle.
///
/// Time: a clip at the file's own frame rate (`fr`, as an exact fraction: 29.97 is 30000/1001) whose frames are the
/// file's `ip` ..< `op`: `frameCount` = ⌈op − ip⌉ frames, lasting `frameCount / fr` seconds. The reader steps through
/// it as through an image sequence (`PictureSequence`: picture k at k / fr seconds, no timestamp tolerance), so source
/// time `s` shows frame ⌊s · fr⌋ (Lottie frame ip + ⌊s · fr⌋), held after the last; rlottie is asked for that whole
/// frame, never a position between frames.
///
/// Alpha: rlottie draws premultiplied ARGB32; its values become premultiplied RGBA pictures as they are (only the bytes
/// reordered: `VectorPicture.rgba(premultipliedARGB:size:)`), so alpha is applied once.
///
/// External files: rlottie would load an image asset's `u` + `p` from the disk; such an animation is refused (the
/// input policy never sees those paths). Images embedded as `data:` URLs are left to rlottie.
final class LottieAnimation: PictureSequence {
    let path: String
    /// The animation's own size (`w` × `h`), at least 1×1.
    let size: PixelSize
    /// Its frame rate (`fr`).
    let rate: FrameRate
    /// Its first frame (`ip`) and its number of frames (⌈`op` − `ip`⌉, at least 1).
    let firstFrame: Double, frameCount: Int
    /// What the animation is, for `segue probe`: "Lottie 5.7.4" or "dotLottie archive (animation x)".
    let kind: String
    private let handle: OpaquePointer
    /// The frame `decodeNext` gives next.
    private var next = 0
    /// The largest animation JSON read (file, or member of an archive).
    static let maxJSONBytes = 64 << 20

    /// The animation's length: `frameCount` frames at `rate`.
    var duration: MediaTime { MediaTime(frame: Int64(frameCount), rate: rate) }
    /// One tick per frame.
    var timeBase: AVRational { AVRational(num: rate.denominator, den: rate.numerator) }

    /// Whether `path` is a Lottie animation: a `.lottie` file, or a `.json` file whose top-level object has the fields
    /// every Lottie animation has (`fr`, `ip`, `op`, `w`, `h` and `layers`). An edit file is not one.
    static func isLottie(path: String) -> Bool {
        switch (path as NSString).pathExtension.lowercased() {
        case "lottie": return true
        case "json":
            // A regular file only (a FIFO would block the read), of at most `maxJSONBytes`.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), attributes[.type] as? FileAttributeType == .typeRegular,
                  (attributes[.size] as? NSNumber)?.intValue ?? .max <= maxJSONBytes,
                  let data = FileManager.default.contents(atPath: path),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return ["fr", "ip", "op", "w", "h", "layers"].allSatisfy { object[$0] != nil }
        default: return false
        }
    }

    /// Reads and parses `path` (already checked against `policy` by the caller): the JSON file, or a `.lottie` archive's
    /// animation (`DotLottie`). Its size is checked against `policy.limits.maxPicturePixels`.
    /// - Throws: `MediaError` naming the path (unreadable, too large, not a Lottie animation, a field out of range, an
    ///   external image asset, rlottie cannot load it), `EditError` for a damaged or hostile archive, `LimitExceeded`
    ///   for an animation larger than the picture limit.
    init(path: String, policy: InputPolicy) throws {
        self.path = path
        let data: Data
        var kind = "Lottie"
        if (path as NSString).pathExtension.lowercased() == "lottie" {
            let member = try DotLottie.animation(in: path, limit: UInt64(LottieAnimation.maxJSONBytes))
            data = member.data
            kind = "dotLottie archive (\(member.name))"
        } else {
            guard let bytes = FileManager.default.contents(atPath: path) else { throw MediaError(path: path, function: nil, message: "cannot read the Lottie file") }
            guard bytes.count <= LottieAnimation.maxJSONBytes else {
                throw MediaError(path: path, function: nil, message: "Lottie file of \(bytes.count) bytes, over the \(LottieAnimation.maxJSONBytes) read")
            }
            data = bytes
        }
        let fields = try LottieAnimation.fields(data, path: path)
        size = fields.size
        rate = fields.rate
        firstFrame = fields.ip
        frameCount = fields.count
        self.kind = fields.version.map { "\(kind) \($0)" } ?? kind
        if Double(size.width) * Double(size.height) > Double(policy.limits.maxPicturePixels) { throw LimitExceeded.picture(path, size, policy.limits) }
        // rlottie reads a NUL-terminated string; no cache key (the file may change between renders), no resource folder.
        let text = data + Data([0])
        guard let h = text.withUnsafeBytes({ lottie_animation_from_data($0.bindMemory(to: CChar.self).baseAddress, "", "") }) else {
            throw MediaError(path: path, function: "lottie_animation_from_data", message: "rlottie cannot load the animation")
        }
        handle = h
    }

    deinit { lottie_animation_destroy(handle) }

    /// The fields Segue reads from the animation's JSON: `w`, `h`, `fr`, `ip`, `op`, `v`; refuses image assets that
    /// name a file or URL (`u` + `p` not a `data:` URL).
    /// - Throws: `MediaError` naming `path` and the field.
    static func fields(_ data: Data, path: String) throws -> (size: PixelSize, rate: FrameRate, ip: Double, count: Int, version: String?) {
        func refuse(_ message: String) -> MediaError { MediaError(path: path, function: nil, message: message) }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { throw refuse("not a Lottie animation: not a JSON object") }
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double {
            guard let v = (object[key] as? NSNumber)?.doubleValue else { throw refuse("not a Lottie animation: no number \"\(key)\"") }
            guard range.contains(v) else { throw refuse("Lottie \"\(key)\" is \(v), outside \(range.lowerBound)…\(range.upperBound)") }
            return v
        }
        let w = try number("w", 1...65536), h = try number("h", 1...65536)
        guard let rate = FrameRate.fromDecimal(try number("fr", 0.01...1000)) else { throw refuse("Lottie \"fr\" is not a frame rate") }
        let ip = try number("ip", -1e7...1e7), op = try number("op", -1e7...1e7)
        guard op > ip, op - ip <= 1e7 else { throw refuse("Lottie \"op\" (\(op)) must come after \"ip\" (\(ip))") }
        guard object["layers"] is [Any] else { throw refuse("not a Lottie animation: no \"layers\"") }
        for case let asset as [String: Any] in object["assets"] as? [Any] ?? [] {
            guard let p = asset["p"] as? String else { continue }   // a precomposition
            if !p.hasPrefix("data:") {
                let name = ((asset["u"] as? String) ?? "") + p
                throw refuse("image asset \(asset["id"] as? String ?? "?") names a file or URL (\(name)), which is not read: embed it as a data: URL")
            }
        }
        return (PixelSize(width: Int(w.rounded()), height: Int(h.rounded())), rate, ip, Int((op - ip - 1e-9).rounded(.up)), object["v"] as? String)
    }

    /// Frame `k` (from the first, 0 ..< `frameCount`; clamped) drawn at `target` pixels, as RGBA with premultiplied alpha.
    func draw(frame k: Int, at target: PixelSize) -> RGBAImage {
        var words = [UInt32](repeating: 0, count: target.width * target.height)
        let frame = max(0, min(frameCount - 1, k))
        words.withUnsafeMutableBufferPointer { lottie_animation_render(handle, frame, $0.baseAddress, target.width, target.height, target.width * 4) }
        return VectorPicture.rgba(premultipliedARGB: words, size: target)
    }

    // MARK: PictureSequence: 1×1 stand-ins whose pts is the frame number; the picture is drawn when asked for, at the
    // size it is shown (`VideoReader.lottiePicture`).

    func decodeNext() throws -> (pts: Int64, frame: Frame)? {
        guard next < frameCount else { return nil }
        let f = try Frame.allocated(width: 1, height: 1, format: AV_PIX_FMT_RGBA)
        f.ptr.pointee.color_range = AVCOL_RANGE_JPEG
        f.ptr.pointee.pts = Int64(next)
        next += 1
        return (f.ptr.pointee.pts, f)
    }

    func seek(toFrame k: Int64) { next = Int(max(0, min(Int64(frameCount - 1), k))) }
}

/// Whether `path` is a Lottie animation (`.lottie`, or a `.json` file with a Lottie animation's fields): the command
/// line reads such a `.json` given alone as a clip, not as an edit file.
public func isLottieAnimation(path: String) -> Bool { LottieAnimation.isLottie(path: path) }

/// Pictures read one frame at a time, frame k at k ticks of the reader's time base, each a keyframe of its own: an
/// image sequence's files (`ImageSequenceReader`), a Lottie animation's frames (`LottieAnimation`).
protocol PictureSequence: AnyObject {
    /// The next frame and its number, nil past the last.
    func decodeNext() throws -> (pts: Int64, frame: Frame)?
    /// Positions the sequence so that `decodeNext` gives frame `k` (clamped) next.
    func seek(toFrame k: Int64)
}
