import Foundation

/// What Segue takes from phones' slow-motion files (docs/time.md, "Slow motion from phones").
public enum SlowMotion {
    /// Above this rate (frames per second) a track from an Apple device is taken as slow motion recorded in real
    /// time (iPhones record slow motion at 120 or 240 fps, ordinary video at most at 60).
    public static let highFrameRate = 60.0
}

/// The slow-motion sections a Samsung phone keeps in the SEF trailer appended after an MP4's boxes (FFmpeg does not
/// read it). Samsung records slow motion in real time at the high rate (240 or 120 fps, frames stamped at that rate);
/// its Gallery plays the sections this data lists slowed down. The layout is the one ExoPlayer/Media3 reads
/// (`androidx.media3.extractor.mp4.SefReader`), all integers little-endian:
///
/// - the file's last 8 bytes: the trailer's length L (UInt32, not counting these 8 bytes) and `SEFT`;
/// - at `fileLength − L − 8`: `SEFH`, a version (UInt32), an entry count (UInt32), then that many 12-byte entries
///   (UInt16 padding, UInt16 type, UInt32 distance back from `SEFH` to the entry's data, UInt32 data size);
/// - each entry's data: UInt16 padding, UInt16 type, UInt32 name length, the name (`SlowMotion_Data`, …), the value.
///
/// `SlowMotion_Data`'s value is ASCII sections `START_MS:END_MS:E` joined by `*`, each played at 1/2^(E−1) speed.
/// Hostile-input safe: every offset and length is checked against the bytes read; a malformed trailer throws.
public enum SamsungSEF {
    /// A section the phone's gallery plays slowed: source milliseconds and the factor it slows by (8: 1/8 speed).
    public struct Section: Equatable, Sendable, CustomStringConvertible {
        public var startMs: Int, endMs: Int, slowdown: Int
        public var description: String {
            String(format: "%.3f–%.3f s at 1/%d", Double(startMs) / 1000, Double(endMs) / 1000, slowdown)
        }
    }

    /// Why a trailer was refused: `message` says which field is out of bounds.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { "malformed Samsung SEF trailer: \(message)" }
    }

    /// The most trailer bytes read (a real trailer is a few hundred bytes; its entries' data sits just before it).
    public static let maximumTrailerBytes = 1 << 20
    /// The most entries accepted.
    public static let maximumEntries = 1024

    /// The `SlowMotion_Data` sections of the file at `path`: nil when the file has no SEF trailer (or it cannot be
    /// read as a regular file), [] when the trailer has no slow-motion entry.
    /// - Throws: `Malformed` when the trailer is there but does not hold together.
    public static func slowMotionSections(path: String) throws -> [Section]? {
        // Only a regular file: opening a FIFO or a device to look for a trailer could block or consume its data.
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
              let h = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? h.close() }
        guard let size = try? h.seekToEnd(), size >= 8, (try? h.seek(toOffset: size - 8)) != nil,
              let footer = try? h.read(upToCount: 8), footer.count == 8, footer.suffix(4) == Data("SEFT".utf8) else { return nil }
        let n = UInt64(min(UInt64(maximumTrailerBytes), size))
        try? h.seek(toOffset: size - n)
        guard let data = try? h.read(upToCount: Int(n)), data.count == Int(n) else { return nil }
        return try slowMotionSections(tail: [UInt8](data))
    }

    /// The `SlowMotion_Data` sections of a file whose last bytes are `tail`: nil without `SEFT` at its end.
    /// - Throws: `Malformed` (a length, count or offset outside `tail`, a section that is not `START:END:E`).
    public static func slowMotionSections(tail b: [UInt8]) throws -> [Section]? {
        guard b.count >= 8, Array(b[(b.count - 4)...]) == Array("SEFT".utf8) else { return nil }
        func u32(_ i: Int) throws -> Int {
            guard i >= 0, i + 4 <= b.count else { throw Malformed(message: "field at \(i) beyond the bytes read") }
            return Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
        }
        let length = try u32(b.count - 8)
        guard length >= 12, length <= b.count - 8 else { throw Malformed(message: "trailer length \(length) outside the \(b.count - 8) bytes before SEFT") }
        let head = b.count - 8 - length
        guard Array(b[head..<head + 4]) == Array("SEFH".utf8) else { throw Malformed(message: "no SEFH where the length points") }
        let count = try u32(head + 8)
        guard count <= maximumEntries, head + 12 + 12 * count <= b.count - 8 else {
            throw Malformed(message: "\(count) entries do not fit in a \(length)-byte trailer")
        }
        var sections: [Section] = []
        for k in 0..<count {
            let e = head + 12 + 12 * k
            let back = try u32(e + 4), size = try u32(e + 8)
            let start = head - back
            guard back > 0, start >= 0, size >= 8, start + size <= head else {
                throw Malformed(message: "entry \(k)'s data (\(size) bytes, \(back) before SEFH) outside the file's bytes read")
            }
            let nameLength = try u32(start + 4)
            guard nameLength <= size - 8 else { throw Malformed(message: "entry \(k)'s name longer than its data") }
            let name = String(decoding: b[(start + 8)..<(start + 8 + nameLength)], as: UTF8.self)
            guard name == "SlowMotion_Data" else { continue }
            let value = String(decoding: b[(start + 8 + nameLength)..<(start + size)], as: UTF8.self)
            for part in value.split(separator: "*") {
                let f = part.split(separator: ":", omittingEmptySubsequences: false)
                guard f.count == 3, let s = Int(f[0]), let t = Int(f[1]), let x = Int(f[2].trimmingCharacters(in: .controlCharacters)),
                      s >= 0, t > s, (1...6).contains(x) else {
                    throw Malformed(message: "SlowMotion_Data section \"\(part.prefix(40))\" is not START_MS:END_MS:E (E 1…6)")
                }
                sections.append(Section(startMs: s, endMs: t, slowdown: 1 << (x - 1)))
            }
        }
        return sections
    }
}
