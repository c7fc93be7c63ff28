import CFFmpeg

/// Content hashes for plans, chunk sidecars and codec headers: SHA-256 from libavutil's `av_hash`.
public enum Digest {
    /// SHA-256 of `bytes` as 64 lowercase hex digits.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var ctx: OpaquePointer? = nil
        guard av_hash_alloc(&ctx, "SHA256") >= 0, let c = ctx else { fatalError("libavutil has no SHA256") }
        defer { av_hash_freep(&ctx) }
        av_hash_init(c)
        bytes.withUnsafeBufferPointer { av_hash_update(c, $0.baseAddress, $0.count) }
        var out = [UInt8](repeating: 0, count: 2 * 64 + 1)
        out.withUnsafeMutableBufferPointer { av_hash_final_hex(c, $0.baseAddress, Int32($0.count)) }
        return String(decoding: out.prefix { $0 != 0 }, as: UTF8.self)
    }
    /// SHA-256 of the UTF-8 bytes of `text`.
    public static func sha256(_ text: String) -> String { sha256(Array(text.utf8)) }
}
