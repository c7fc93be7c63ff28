/// The retry schedule of webhooks: a callback that fails (no response, or a status other than 2xx) is POSTed again
/// after 1, 2, 4, 8, 16, 32 and 60 seconds — eight attempts over about two minutes — then given up.
public enum WebhookRetry {
    /// The waits between attempts, in seconds: exponential backoff from 1 s, doubling, capped at 60 s. There are
    /// `delays.count + 1` attempts in all (8); the wait before attempt n + 1 is `delays[n - 1]`.
    public static let delays: [Double] = [1, 2, 4, 8, 16, 32, 60]

    /// Whether a response's HTTP status means the receiver took the webhook: any 2xx. Anything else (3xx redirects,
    /// which are not followed, 4xx, 5xx) is retried.
    public static func isDelivered(status: Int) -> Bool { (200...299).contains(status) }

    /// POSTs `delivery` until it is delivered or every attempt failed: an attempt, then for each of `delays` a call of
    /// `sleep(seconds)` and another attempt. Blocks the calling thread for as long as `sleep` and the attempts take;
    /// tests pass a `sleep` that returns at once. `timeoutSeconds` bounds each attempt. `onAttempt` is told each
    /// attempt's number (from 1) and result (the status, or the `WebhookError`), for logs.
    /// - Returns: the 2xx status of the attempt that delivered it, or nil when all attempts failed (or the URL is not
    ///   http/https, which is not retried).
    public static func deliver(_ delivery: WebhookDelivery, timeoutSeconds: Double = 10, sleep: (Double) -> Void,
                               onAttempt: (Int, Result<Int, WebhookError>) -> Void = { _, _ in }) -> Int? {
        for attempt in 1...(delays.count + 1) {
            if attempt > 1 { sleep(delays[attempt - 2]) }
            let result = delivery.attempt(timeoutSeconds: timeoutSeconds)
            onAttempt(attempt, result)
            switch result {
            case .success(let status) where isDelivered(status: status): return status
            case .failure(.unsupportedURL): return nil
            default: continue
            }
        }
        return nil
    }
}
