import CCrypto

/// The signature of a webhook's body: the `X-Segue-Signature` header `segue serve` sends with each callback, so that a
/// receiver can tell the POST came from the server and was not altered. HMAC-SHA256 (RFC 2104 over FIPS 180-4's
/// SHA-256) computed by OpenSSL's libcrypto (`EVP_Q_mac`), never by hand-written code.
public enum WebhookSignature {
    /// The header's value for `body` keyed by `key` (the submitter's bearer token, its UTF-8 bytes): `"sha256="`
    /// followed by the 64 lowercase hexadecimal digits of HMAC-SHA256(key, body). Deterministic; an empty body or an
    /// empty key are valid inputs (HMAC is defined for both). Never fails: OpenSSL can only refuse when out of memory
    /// or without its default provider, which is a broken installation (a precondition failure names OpenSSL's
    /// error then).
    public static func header(body: [UInt8], key: String) -> String {
        "sha256=" + hex(hmacSHA256(body: body, key: Array(key.utf8)))
    }

    /// HMAC-SHA256 of `body` keyed by `key`: 32 bytes.
    static func hmacSHA256(body: [UInt8], key: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var written = 0
        // EVP_Q_mac reads key and data only for the call; an empty buffer is passed as a valid pointer and length 0.
        let ok = key.withNonNullBytes { k, kCount in
            body.withNonNullBytes { b, bCount in
                out.withUnsafeMutableBufferPointer { o in
                    EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, k, kCount, b, bCount, o.baseAddress, o.count, &written)
                }
            }
        }
        precondition(ok != nil && written == 32, "OpenSSL HMAC-SHA256 failed: \(openSSLError())")
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var s = [UInt8]()
        s.reserveCapacity(bytes.count * 2)
        for b in bytes {
            s.append(digits[Int(b >> 4)])
            s.append(digits[Int(b & 15)])
        }
        return String(decoding: s, as: UTF8.self)
    }

    /// OpenSSL's message for the last error on this thread's queue.
    private static func openSSLError() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(ERR_get_error(), &buffer, buffer.count)
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
