import Foundation

/// What an edit says about a numbered sequence of pictures (an item whose path is a printf pattern,
/// `frames/img_%04d.png`): its frame rate and what stands in for a number missing from the run.
public struct ImageSequence: Equatable, Sendable {
    /// What a missing picture (a number between the first and the last that has no file) becomes.
    public enum MissingFrames: String, CaseIterable, Sendable {
        /// The sequence is refused, naming the missing numbers (the default: a render farm's lost frame is a fault).
        case error
        /// The picture before it stays on screen.
        case hold
        /// An opaque black picture of the sequence's size.
        case black
    }
    /// Pictures per second (the item's `rate`; default `defaultRate`).
    public var rate: FrameRate
    public var missingFrames: MissingFrames
    /// 24 fps: what a sequence without a `rate` plays at (the rate VFX and film hand-overs use).
    public static let defaultRate = FrameRate(24)
    public init(rate: FrameRate = ImageSequence.defaultRate, missingFrames: MissingFrames = .error) {
        self.rate = rate; self.missingFrames = missingFrames
    }
}

/// A printf-style file-name pattern for numbered pictures, as FFmpeg's `image2` and OpenTimelineIO's
/// `ImageSequenceReference` write them: the file name holds one `%d` (the number as is) or `%0Nd` (zero-padded to at
/// least N digits; FFmpeg reads `%Nd` so too); `%%` stands for a `%`. Only the file name may hold the pattern, not the
/// folders.
public struct ImageSequencePattern: Equatable, Sendable, CustomStringConvertible {
    /// The folder (absolute or relative, as given), and the file name's text before and after the number.
    public let directory: String, prefix: String, suffix: String
    /// The least number of digits (0 for `%d`).
    public let width: Int

    /// Parses `path`; nil when its file name holds no number pattern (or more than one, or a `%` that is neither
    /// `%%` nor a number pattern).
    public init?(path: String) {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        var prefix = "", suffix = "", width: Int? = nil
        var chars = Array(name)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%" else { if width == nil { prefix.append(c) } else { suffix.append(c) }; continue }
            if chars.first == "%" {
                chars = chars.dropFirst()
                if width == nil { prefix.append("%") } else { suffix.append("%") }
                continue
            }
            guard width == nil else { return nil }
            var digits = ""
            while let d = chars.first, d.isASCII, d.isNumber { digits.append(d); chars = chars.dropFirst() }
            // As FFmpeg's av_get_frame_filename: %d, or %Nd / %0Nd, both zero-padded to N digits.
            guard chars.first == "d" else { return nil }
            chars = chars.dropFirst()
            width = Int(digits) ?? 0
            guard width! <= 12 else { return nil }
        }
        guard let w = width else { return nil }
        self.directory = path.contains("/") ? url.deletingLastPathComponent().path : "."
        self.prefix = prefix; self.suffix = suffix; self.width = w
    }

    /// The file name of picture `n` (`String(format: "%0Nd", n)` between prefix and suffix).
    public func name(_ n: Int) -> String {
        let digits = String(n)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits + suffix
    }
    /// The path of picture `n`.
    public func path(_ n: Int) -> String { directory + "/" + name(n) }

    /// The number of the picture whose file name is `name`, or nil when `name` is not one of the pattern's.
    public func number(of name: String) -> Int? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), self.name(n) == name else { return nil }
        return n
    }

    /// The numbers of the pictures in the folder, ascending. - Throws: `EditError` when the folder cannot be read.
    public func numbers() throws -> [Int] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw EditError(directory, "cannot list the image sequence's folder (\(error.localizedDescription))")
        }
        return names.compactMap { number(of: $0) }.sorted()
    }

    /// "img_%04d.png".
    public var description: String {
        let esc = { (s: String) in s.replacingOccurrences(of: "%", with: "%%") }
        return esc(prefix) + (width > 0 ? "%0\(width)d" : "%d") + esc(suffix)
    }

    /// Picture file-name extensions (lower case) that make a numbered run of files on a command line look like an
    /// image sequence.
    public static let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff", "dpx", "exr", "bmp", "webp", "tga"]

    /// When `paths` (clips given on a command line: a shell glob such as `frames/*.png`) include `minimum` or more
    /// pictures of one numbered run (the same folder, text and extension around a number), the pattern that names them
    /// (`frames/img_%04d.png`, zero-padded when their numbers are) and how many there are; nil otherwise.
    public static func detect(_ paths: [String], minimum: Int = 10) -> (pattern: String, count: Int, first: Int, last: Int)? {
        var runs: [String: [Int]] = [:]
        var lengths: [String: (min: Int, max: Int, padded: Bool)] = [:]
        for p in paths {
            let url = URL(fileURLWithPath: p)
            guard pictureExtensions.contains(url.pathExtension.lowercased()) else { continue }
            let name = url.lastPathComponent
            // The last run of digits in the name is the frame number.
            guard let end = name.lastIndex(where: { $0.isASCII && $0.isNumber }) else { continue }
            var start = end
            while start > name.startIndex, name[name.index(before: start)].isASCII, name[name.index(before: start)].isNumber { start = name.index(before: start) }
            let digits = String(name[start...end])
            guard digits.count <= 12, let n = Int(digits) else { continue }
            let dir = p.contains("/") ? String(p[...p.lastIndex(of: "/")!]) : ""
            let key = dir + String(name[..<start]).replacingOccurrences(of: "%", with: "%%") + "\u{0}" + String(name[name.index(after: end)...]).replacingOccurrences(of: "%", with: "%%")
            runs[key, default: []].append(n)
            let l = lengths[key] ?? (digits.count, digits.count, false)
            lengths[key] = (min(l.min, digits.count), max(l.max, digits.count), l.padded || (digits.hasPrefix("0") && digits.count > 1))
        }
        guard let (key, numbers) = runs.max(by: { $0.value.count < $1.value.count }), numbers.count >= minimum, let l = lengths[key] else { return nil }
        let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
        // Numbers all of one length (img_1001 … img_1048), or zero-padded: %0Nd; else (1, 2, … 10) %d.
        let width = l.min == l.max || l.padded ? "%0\(l.max)d" : "%d"
        return (String(parts[0]) + width + String(parts[1]), numbers.count, numbers.min()!, numbers.max()!)
    }
}
