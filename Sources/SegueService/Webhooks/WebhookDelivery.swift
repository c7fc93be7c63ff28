import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// One webhook: a JSON body POSTed to a callback URL, signed with `WebhookSignature`. Sent through libcurl, one attempt
/// at a time (`WebhookRetry.deliver` retries with backoff).
public struct WebhookDelivery: Sendable {
    public let url: String
    public let body: [UInt8]
    /// The HMAC key: the submitter's bearer token.
    public let key: String
    /// Whether loopback, private, link-local and other non-public addresses may be connected to (`CallbackAddresses`).
    public let allowsPrivateAddresses: Bool

    /// `url`: the callback URL, `http://` or `https://` only (others are refused by `attempt`); `body`: the JSON
    /// payload's bytes, sent as they are; `key`: the submitter's token, whose UTF-8 bytes key the signature;
    /// `allowsPrivateAddresses`: false (the default) refuses to connect to any address `CallbackAddresses` says is not
    /// public.
    public init(url: String, body: [UInt8], key: String, allowsPrivateAddresses: Bool = false) {
        self.url = url
        self.body = body
        self.key = key
        self.allowsPrivateAddresses = allowsPrivateAddresses
    }

    /// The value of its `X-Segue-Signature` header: `sha256=` and 64 lowercase hex digits.
    public var signature: String { WebhookSignature.header(body: body, key: key) }

    /// One POST of the body, with `Content-Type: application/json`, `X-Segue-Signature: sha256=HEX` and
    /// `User-Agent: segue`. Redirects are not followed (a 3xx is returned as the status); only HTTP and HTTPS are
    /// spoken (by URL check and by libcurl's protocol list); HTTPS certificates are verified. `timeoutSeconds` bounds
    /// the whole attempt (connecting, sending, the response), in seconds (at least 1 ms).
    /// Unless `allowsPrivateAddresses`, each address libcurl is about to connect to is checked first (its
    /// `CURLOPT_OPENSOCKETFUNCTION`), and proxies named by the environment are not used (the address checked is the
    /// receiver's).
    /// - Returns: the HTTP status of the response (any status: 2xx is success, see `WebhookRetry.isDelivered`), or
    ///   `WebhookError.unsupportedURL` for another scheme, `WebhookError.refusedAddress` for a host that is or resolves
    ///   to a non-public address, `WebhookError.transfer` (curl's code and message) when no response came: connection
    ///   refused, DNS failure, timeout, TLS failure.
    public func attempt(timeoutSeconds: Double) -> Result<Int, WebhookError> {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return .failure(.unsupportedURL(url)) }
        guard let curl = CurlEasy() else {
            return .failure(.transfer(code: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl could not make a handle"))
        }
        let h = curl.handle
        let timeout = max(1, Int((timeoutSeconds * 1000).rounded()))
        let check = AddressCheck()
        var setup: [CURLcode] = [
            segue_curl_setopt_string(h, CURLOPT_URL, url),
            segue_curl_setopt_string(h, CURLOPT_PROTOCOLS_STR, "http,https"),
            segue_curl_setopt_long(h, CURLOPT_FOLLOWLOCATION, 0),
            segue_curl_setopt_long(h, CURLOPT_NOSIGNAL, 1),
            segue_curl_setopt_long(h, CURLOPT_TIMEOUT_MS, timeout),
            segue_curl_setopt_string(h, CURLOPT_USERAGENT, "segue"),
            segue_curl_setopt_long(h, CURLOPT_POST, 1),
            segue_curl_discard_body(h),
            // No "Expect: 100-continue" wait before the body.
            curl.setHeaders(["Content-Type: application/json", "X-Segue-Signature: \(signature)", "Expect:"]),
        ]
        if !allowsPrivateAddresses {
            setup.append(segue_curl_setopt_string(h, CURLOPT_PROXY, ""))
            setup.append(segue_curl_set_opensocket(h, AddressCheck.openSocket, Unmanaged.passUnretained(check).toOpaque()))
        }
        let code: CURLcode = body.withNonNullBytes { bytes, count in
            // The body is read during curl_easy_perform only, while this closure holds it. Never NULL: with POST and no
            // POSTFIELDS, libcurl would read the body from its read callback (standard input by default).
            setup.append(segue_curl_setopt_offset(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(count)))
            setup.append(segue_curl_setopt_pointer(h, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes)))
            if let failed = setup.first(where: { $0 != CURLE_OK }) { return failed }
            return curl_easy_perform(h)
        }
        if let refused = check.refused { return .failure(.refusedAddress(refused)) }
        guard code == CURLE_OK else { return .failure(curl.error(code)) }
        var status = 0
        let info = segue_curl_response_code(h, &status)
        guard info == CURLE_OK else { return .failure(curl.error(info)) }
        return .success(status)
    }
}

/// The addresses one attempt was about to connect to and refused: libcurl's open-socket callback checks each
/// (`CallbackAddresses`) and opens the socket only for a public one.
final class AddressCheck {
    /// The words for the last address refused (nil: none was).
    var refused: String?

    /// `CURLOPT_OPENSOCKETFUNCTION`: `context` is the attempt's `AddressCheck` (unretained: it outlives the transfer).
    static let openSocket: curl_opensocket_callback = { context, _, address in
        guard let context, let address else { return CURL_SOCKET_BAD }
        let check = Unmanaged<AddressCheck>.fromOpaque(context).takeUnretainedValue()
        let a = address.pointee
        let at = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
        let (text, kind) = CallbackAddresses.describe(at)
        if let kind {
            check.refused = CallbackAddresses.refusal(text, kind: kind)
            return CURL_SOCKET_BAD
        }
        return socket(a.family, a.socktype, a.protocol)
    }
}
