/// Why one webhook attempt did not get an HTTP status back.
public enum WebhookError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The callback URL is not an `http://` or `https://` URL (the payload names the URL as given). Refused before any
    /// connection; retrying cannot help.
    case unsupportedURL(String)
    /// libcurl could not make the request or read its response: connection refused, DNS failure, timeout, TLS error.
    /// `code` is curl's `CURLcode` (7 = could not connect, 28 = timed out), `message` curl's own words for it (its
    /// error buffer, e.g. "Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server").
    case transfer(code: Int, message: String)
    /// The callback's host is, or resolves to, an address that is not public (`CallbackAddresses`) and the server does
    /// not allow such receivers: the payload says which address and why.
    case refusedAddress(String)

    public var description: String {
        switch self {
        case .unsupportedURL(let url): return "webhook URL is not http:// or https://: \(url)"
        case .transfer(let code, let message): return "webhook POST failed (curl \(code)): \(message)"
        case .refusedAddress(let why): return "webhook not sent: \(why)"
        }
    }
}
