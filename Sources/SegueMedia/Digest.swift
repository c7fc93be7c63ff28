import CFFmpeg
import Foundation

/// Content hashes for plans, chunk sidecars and codec headers: SHA-256 from libavutil's `av_hash`.
public enum Digest {
    /// SHA-256 of `bytes` as 64 lowercase hex digits.
    public static func sha256(_ bytes: [UInt8]) -> String {
        hashed { c in bytes.withUnsafeBufferPointer { av_hash_update(c, $0.baseAddress, $0.count) }; return true }!
    }

    /// SHA-256 of the UTF-8 bytes of `text`.
    public static func sha256(_ text: String) -> String { sha256(Array(text.utf8)) }

    /// SHA-256 of the file at `path`, read in 1 MiB blocks; nil if it cannot be read.
    public static func sha256(file path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        return hashed { c in
            while true {
                let n = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
                if n > 0 { block.withUnsafeBufferPointer { av_hash_update(c, $0.baseAddress, n) } }
                if n < block.count { return ferror(f) == 0 }
            }
        }
    }

    /// What identifies a media file's content without reading all of it: "size mtime sha256", the size in bytes, the
    /// modification time in whole seconds, and the SHA-256 of its first and last MiB (the whole file when smaller).
    /// A re-encoded clip of the same size differs in its head (container header, first frames) and tail (index,
    /// last frames); a file touched without changes counts as changed (the safe side). Nil if it cannot be read.
    public static func fingerprint(file path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.int64Value,
              let modified = attributes[.modificationDate] as? Date,
              let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        let window = 1 << 20
        var block = [UInt8](repeating: 0, count: window)
        let digest = hashed { c in
            for offset in size <= 2 * Int64(window) ? [Int64(0)] : [0, size - Int64(window)] {
                guard fseeko(f, off_t(offset), SEEK_SET) == 0 else { return false }
                var left = size <= 2 * Int64(window) ? Int(size) : window
                while left > 0 {
                    let n = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, min(left, $0.count), f) }
                    if n == 0 { return ferror(f) == 0 }
                    block.withUnsafeBufferPointer { av_hash_update(c, $0.baseAddress, n) }
                    left -= n
                }
            }
            return true
        }
        return digest.map { "\(size) \(Int64(modified.timeIntervalSince1970)) \($0)" }
    }

    /// Runs `feed` on a fresh SHA-256 context; the hex digest, or nil when `feed` returns false.
    private static func hashed(_ feed: (OpaquePointer) -> Bool) -> String? {
        var ctx: OpaquePointer? = nil
        guard av_hash_alloc(&ctx, "SHA256") >= 0, let c = ctx else { fatalError("libavutil has no SHA256") }
        defer { av_hash_freep(&ctx) }
        av_hash_init(c)
        guard feed(c) else { return nil }
        var out = [UInt8](repeating: 0, count: 2 * 64 + 1)
        out.withUnsafeMutableBufferPointer { av_hash_final_hex(c, $0.baseAddress, Int32($0.count)) }
        return String(decoding: out.prefix { $0 != 0 }, as: UTF8.self)
    }
}
