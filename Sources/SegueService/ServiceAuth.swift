import Foundation
import SegueMedia

/// The tokens of `--token-file`: one a line, `TENANT:TOKEN` or a bare token (its tenant then `key-` and the first 12
/// hex digits of the token's SHA-256); blank lines and lines starting with `#` are skipped.
public struct TokenTable: Sendable {
    /// Tenant by token.
    public let tenants: [String: String]

    /// Parses the file's text. Throws `ServiceError` naming the line of a malformed entry (never the token).
    public init(text: String, source: String) throws {
        var tenants: [String: String] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let tenant: String, token: String
            if let colon = line.firstIndex(of: ":") {
                tenant = String(line[..<colon]); token = String(line[line.index(after: colon)...])
                guard SafeName.isValid(tenant) else {
                    throw ServiceError(status: 0, message: "\(source):\(n + 1): the tenant must be letters, digits, _, - and . (TENANT:TOKEN)")
                }
            } else {
                token = line; tenant = "key-" + Digest.sha256(line).prefix(12)
            }
            guard token.count >= 8, !token.contains(where: \.isWhitespace) else {
                throw ServiceError(status: 0, message: "\(source):\(n + 1): a token must be at least 8 characters, without spaces")
            }
            tenants[token] = tenant
        }
        guard !tenants.isEmpty else { throw ServiceError(status: 0, message: "\(source): no token (one a line: TENANT:TOKEN or a bare token)") }
        self.tenants = tenants
    }

    /// The tenant of an `Authorization: Bearer TOKEN` header, nil for none or an unknown token.
    public func tenant(authorization: String?) -> (tenant: String, token: String)? {
        guard let a = authorization, a.lowercased().hasPrefix("bearer ") else { return nil }
        let token = a.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return tenants[token].map { ($0, token) }
    }

    /// A tenant's token (the key of its webhooks' signatures); the first in the file when it has several.
    public func token(of tenant: String) -> String? { tenants.first { $0.value == tenant }?.key }
}

/// A token bucket per token: `rate` requests a second, bursts of `2 × rate`.
public final class RateLimiter: @unchecked Sendable {
    let rate: Double
    private var buckets: [String: (tokens: Double, at: Double)] = [:]
    private let lock = NSLock()

    public init(requestsPerSecond: Double) { rate = requestsPerSecond }

    /// Takes one request from `key`'s bucket; false (429) when it is empty.
    public func allow(_ key: String) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        lock.lock(); defer { lock.unlock() }
        var b = buckets[key] ?? (2 * rate, now)
        b.tokens = min(2 * rate, b.tokens + (now - b.at) * rate)
        b.at = now
        let ok = b.tokens >= 1
        if ok { b.tokens -= 1 }
        buckets[key] = b
        return ok
    }
}

/// An error the API answers with: its HTTP status and a message without server paths.
public struct ServiceError: Error, CustomStringConvertible {
    public let status: Int
    public let message: String
    public init(status: Int, message: String) { self.status = status; self.message = message }
    public var description: String { message }
}
