import Foundation

/// A webhook owed: the render's final record (`body`, the JSON of `GET /v1/renders/{id}`) to POST to `url`, signed
/// with `key` (the submitter's token).
public struct PendingCallback: Sendable {
    public let delivery: Int64
    public let renderID: String
    public let tenant: String
    public let url: String
    public let body: [UInt8]
    public let key: String
    /// Attempts made before this one.
    public let attempts: Int
}

/// How one attempt ended.
public enum CallbackOutcome: Sendable, Equatable {
    /// The receiver answered 2xx.
    case delivered(status: Int)
    /// Anything else: a status, or why no answer came (retried after the next delay).
    case failed(status: Int?, message: String)
}

/// What sends a webhook: one attempt per call; the queue (`CallbackQueue`) keeps what is owed in the database and
/// retries after `retryDelays` (seconds; after the last, the delivery is abandoned).
public protocol RenderCallbacks: Sendable {
    var retryDelays: [Double] { get }
    func deliver(_ callback: PendingCallback) -> CallbackOutcome
}

/// The webhooks of `segue serve`: one POST of the render's final record through libcurl (`WebhookDelivery`), signed
/// `X-Segue-Signature: sha256=HEX` with the submitter's token (`WebhookSignature`), 10 s at most an attempt; 2xx is
/// delivered, anything else retried after `WebhookRetry.delays` (1, 2, 4, … 60 s), then abandoned.
public struct WebhookCallbacks: RenderCallbacks {
    /// Whether receivers at non-public addresses are sent to (`WebhookDelivery.allowsPrivateAddresses`).
    public let allowsPrivateAddresses: Bool
    public init(allowsPrivateAddresses: Bool = false) { self.allowsPrivateAddresses = allowsPrivateAddresses }
    public var retryDelays: [Double] { WebhookRetry.delays }
    public func deliver(_ c: PendingCallback) -> CallbackOutcome {
        switch WebhookDelivery(url: c.url, body: c.body, key: c.key, allowsPrivateAddresses: allowsPrivateAddresses).attempt(timeoutSeconds: 10) {
        case .success(let status) where WebhookRetry.isDelivered(status: status): return .delivered(status: status)
        case .success(let status): return .failed(status: status, message: "HTTP \(status)")
        case .failure(let error): return .failed(status: nil, message: "\(error)")
        }
    }
}

/// Delivers the webhooks owed, from the `deliveries` table: each due one is attempted, then marked delivered or given its
/// next attempt time; a server killed meanwhile delivers them when it starts again.
public final class CallbackQueue: @unchecked Sendable {
    let store: RenderStore
    let callbacks: any RenderCallbacks
    /// The token of a tenant (the key of its signatures).
    let key: @Sendable (String) -> String?

    public init(store: RenderStore, callbacks: any RenderCallbacks, key: @escaping @Sendable (String) -> String?) {
        self.store = store; self.callbacks = callbacks; self.key = key
    }

    public func start() {
        let t = Thread { [self] in
            while true {
                if (try? deliverDue()) ?? 0 == 0 { usleep(250_000) }
            }
        }
        t.name = "segue serve: webhooks"
        t.start()
    }

    /// Attempts every delivery that is due; returns how many were attempted. Throws `SQLiteError`.
    @discardableResult
    public func deliverDue() throws -> Int {
        let due = try store.database.query("SELECT * FROM deliveries WHERE delivered IS NULL AND abandoned IS NULL AND next_attempt <= ? ORDER BY id LIMIT 20",
                                           [.real(RenderStore.now)])
        for row in due {
            guard let id = row["id"]?.int, let tenant = row["tenant"]?.text, let url = row["url"]?.text, let body = row["body"]?.text else { continue }
            let attempts = Int(row["attempts"]?.int ?? 0)
            let pending = PendingCallback(delivery: id, renderID: row["render_id"]?.text ?? "", tenant: tenant, url: url,
                                          body: Array(body.utf8), key: key(tenant) ?? "", attempts: attempts)
            switch callbacks.deliver(pending) {
            case .delivered(let status):
                try store.database.query("UPDATE deliveries SET attempts = attempts + 1, delivered = ?, last_status = ? WHERE id = ?",
                                         [.real(RenderStore.now), .int(Int64(status)), .int(id)])
            case .failed(let status, let message):
                let delays = callbacks.retryDelays
                let next: SQLValue = attempts < delays.count ? .real(RenderStore.now + delays[attempts]) : .real(RenderStore.now)
                let abandoned: SQLValue = attempts < delays.count ? .null : .real(RenderStore.now)
                try store.database.query("UPDATE deliveries SET attempts = attempts + 1, next_attempt = ?, abandoned = ?, last_status = ?, last_error = ? WHERE id = ?",
                                         [next, abandoned, status.map { .int(Int64($0)) } ?? .null, .text(message), .int(id)])
            }
        }
        return due.count
    }
}
