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
