extension Array where Element == UInt8 {
    /// Calls `body` with a valid pointer to the bytes and their count, also when there are none (a pointer to one
    /// unused byte and 0): C APIs such as `EVP_Q_mac` and `CURLOPT_POSTFIELDS` give NULL another meaning. The pointer is
    /// valid during the call only.
    func withNonNullBytes<R>(_ body: (UnsafeRawPointer, Int) throws -> R) rethrows -> R {
        if isEmpty { return try [UInt8(0)].withUnsafeBytes { try body($0.baseAddress!, 0) } }
        return try withUnsafeBytes { try body($0.baseAddress!, $0.count) }
    }
}
