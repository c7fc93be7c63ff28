import CCurl

/// libcurl's process-wide initialisation, done once (a global is initialised lazily and atomically) before the first
/// handle is made; its result is libcurl's code (0 when it worked).
private let curlGlobalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

/// The one owner of a libcurl easy handle (and the header list set on it): made by `init`, freed by `deinit`. Used by
/// one thread at a time (one attempt), never shared.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    /// curl's error buffer (CURL_ERROR_SIZE bytes), filled by a failed transfer with its message.
    private var errorBuffer: UnsafeMutablePointer<CChar>

    /// Nil when libcurl could not initialise or allocate the handle (out of memory).
    init?() {
        guard curlGlobalInit == CURLE_OK, let h = curl_easy_init() else { return nil }
        handle = h
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        _ = segue_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headers)
        errorBuffer.deallocate()
    }

    /// Adds the request headers ("Name: value" lines) and sets them on the handle.
    func setHeaders(_ lines: [String]) -> CURLcode {
        for line in lines {
            // On failure (out of memory) curl_slist_append returns NULL and leaves the list as it was.
            guard let longer = curl_slist_append(headers, line) else { return CURLE_OUT_OF_MEMORY }
            headers = longer
        }
        return segue_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers)
    }

    /// A failed call's error: curl's error buffer, or the generic text of `code` when the buffer is empty.
    func error(_ code: CURLcode) -> WebhookError {
        var message = String(cString: errorBuffer)
        if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
        return .transfer(code: Int(code.rawValue), message: message)
    }
}
