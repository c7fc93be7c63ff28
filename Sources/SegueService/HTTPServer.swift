import CMicroHTTPD
import Foundation

/// A failure of libmicrohttpd, or an address it cannot listen on.
public struct HTTPServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// A request as the routes see it: method, path, query, headers (lower-case names), and the body, in memory or
/// streamed to a file.
public struct HTTPRequest: Sendable {
    public let method: String
    /// The path without the query ("/v1/renders/r_1").
    public let path: String
    public let query: [String: String]
    /// Header values by lower-case name.
    public let headers: [String: String]
    /// The body read into memory (`BodyPolicy.memory`).
    public var body: [UInt8] = []
    /// The file the body was streamed to (`BodyPolicy.file`), and its size in bytes.
    public var bodyFile: String?
    public var bodySize: Int64 = 0
}

/// What a response sends: bytes, a part of a file (sent by libmicrohttpd from the descriptor, which it closes), or a
/// stream produced on the connection's thread (`next` returns nil at the end; it may block).
public enum HTTPBody: Sendable {
    case bytes([UInt8])
    case file(descriptor: Int32, offset: Int64, length: Int64)
    case stream(@Sendable () -> [UInt8]?)
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: HTTPBody
    public init(status: Int, headers: [(String, String)] = [], body: HTTPBody = .bytes([])) {
        self.status = status; self.headers = headers; self.body = body
    }
}

/// Where a request's body goes, decided from its method, path and headers before any of it is read.
public enum BodyPolicy: Sendable {
    /// Into memory, at most `limit` bytes (413 beyond).
    case memory(limit: Int64)
    /// Streamed into the file at `path` (created, mode 0600), at most `limit` bytes (413 beyond; the file is removed).
    /// A `multipart/form-data` body is parsed by libmicrohttpd and only its file part stored (`bodySize` its size).
    case file(path: String, limit: Int64)
    /// Answer at once with this response; the body is not read.
    case reject(HTTPResponse)
}

/// What the server calls: the body's policy when the headers are in, the response when the body is.
public protocol HTTPHandler: AnyObject, Sendable {
    func bodyPolicy(for request: HTTPRequest) -> BodyPolicy
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The response when the body passed its limit.
    func bodyTooLarge(_ request: HTTPRequest, limit: Int64) -> HTTPResponse
    /// The response to a multipart body libmicrohttpd cannot parse, or without a file part.
    func malformedBody(_ request: HTTPRequest) -> HTTPResponse
}

/// The one owner of a libmicrohttpd daemon (a thread per connection): started by init, stopped by `stop` or deinit.
public final class HTTPServer: @unchecked Sendable {
    private var daemon: OpaquePointer?
    private let handler: any HTTPHandler
    /// The port it listens on (the one the system chose when 0 was asked for).
    public private(set) var port: UInt16 = 0

    /// Listens on `host:port` (an IPv4 or IPv6 address; "[::1]:8080" for IPv6; port 0 for any free port).
    /// Throws `HTTPServerError` for an address it cannot parse or bind.
    public init(listen: String, handler: any HTTPHandler, connectionLimit: Int = 256) throws {
        self.handler = handler
        let (host, portNumber) = try HTTPServer.split(listen)
        let cls = Unmanaged.passUnretained(self).toOpaque()
        func start<Address>(_ address: Address, ipv6: Bool) -> OpaquePointer? {
            withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                segue_mhd_start($0, accessHandler, cls, completedHandler, UInt32(connectionLimit), 60, ipv6 ? 1 : 0)
            } }
        }
        let started: OpaquePointer?
        if host.contains(":") {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = portNumber.bigEndian
            guard inet_pton(AF_INET6, host, &a.sin6_addr) == 1 else { throw HTTPServerError(message: "--listen: \(host) is not an IP address") }
            started = start(a, ipv6: true)
        } else {
            var a = sockaddr_in()
            (a.sin_family, a.sin_port) = (sa_family_t(AF_INET), portNumber.bigEndian)
            guard inet_pton(AF_INET, host, &a.sin_addr) == 1 else { throw HTTPServerError(message: "--listen: \(host) is not an IPv4 address (HOST:PORT)") }
            started = start(a, ipv6: false)
        }
        guard let started else { throw HTTPServerError(message: "libmicrohttpd could not listen on \(listen) (\(String(cString: strerror(errno))))") }
        daemon = started
        port = segue_mhd_port(started)
    }

    deinit { stop() }

    /// Stops listening and ends the connections' threads.
    public func stop() {
        if let d = daemon { MHD_stop_daemon(d) }
        daemon = nil
    }

    static func split(_ listen: String) throws -> (String, UInt16) {
        guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
            throw HTTPServerError(message: "--listen takes HOST:PORT, e.g. 127.0.0.1:8080 (got \(listen))")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    // MARK: libmicrohttpd's callbacks

    fileprivate static func server(_ cls: UnsafeMutableRawPointer?) -> HTTPServer { Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue() }

    fileprivate func handle(connection: OpaquePointer?, url: String, method: String, data: UnsafePointer<CChar>?,
                            size: UnsafeMutablePointer<Int>, state slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let raw = slot.pointee else {
            // The headers are in: decide where the body goes.
            let state = ConnectionState(request: HTTPRequest(method: method, path: url, query: values(connection, .GET_ARGUMENT_KIND),
                                                             headers: values(connection, .HEADER_KIND, lowercased: true)))
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
            let policy = handler.bodyPolicy(for: state.request)
            let declared = state.request.headers["content-length"].flatMap { Int64($0) } ?? 0
            switch policy {
            case .reject(let response): return queue(response, on: connection)
            case .memory(let limit):
                state.limit = limit
                if declared > limit { return queue(handler.bodyTooLarge(state.request, limit: limit), on: connection) }
            case .file(let path, let limit):
                state.limit = limit
                if declared > limit { return queue(handler.bodyTooLarge(state.request, limit: limit), on: connection) }
                state.descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard state.descriptor >= 0 else { return queue(HTTPResponse(status: 500), on: connection) }
                state.request.bodyFile = path
                if state.request.headers["content-type"]?.lowercased().hasPrefix("multipart/form-data") == true {
                    // libmicrohttpd's own multipart parser: the part named "file" (or the first with a file name) is
                    // what is stored.
                    state.parts = MHD_create_post_processor(connection, 64 << 10, multipartIterator, Unmanaged.passUnretained(state).toOpaque())
                    if state.parts == nil { return queue(handler.malformedBody(state.request), on: connection) }
                }
            }
            return .YES
        }
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()
        if size.pointee > 0 {
            let n = size.pointee
            size.pointee = 0
            guard !state.tooLarge, let data else { return .YES }
            state.request.bodySize += Int64(n)
            if state.request.bodySize > state.limit { state.tooLarge = true; state.discardFile(); return .YES }
            if let parts = state.parts {
                if MHD_post_process(parts, data, n) != .YES && !state.failed { state.malformed = true; state.discardFile() }
            } else if state.descriptor >= 0 {
                if !state.write(data, n) { state.failed = true; state.discardFile() }
            } else {
                data.withMemoryRebound(to: UInt8.self, capacity: n) { state.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            }
            return .YES
        }
        if let parts = state.parts {
            MHD_destroy_post_processor(parts)
            state.parts = nil
            state.request.bodySize = state.partBytes
            if state.part == nil && !state.tooLarge && !state.failed { state.malformed = true; state.discardFile() }
        }
        if state.descriptor >= 0 { close(state.descriptor); state.descriptor = -1 }
        if state.malformed { return queue(handler.malformedBody(state.request), on: connection) }
        if state.tooLarge { return queue(handler.bodyTooLarge(state.request, limit: state.limit), on: connection) }
        if state.failed { return queue(HTTPResponse(status: 500, body: .bytes(Array("{\"error\":\"the upload could not be stored\"}".utf8))), on: connection) }
        return queue(handler.respond(to: state.request), on: connection)
    }

    private func values(_ connection: OpaquePointer?, _ kind: MHD_ValueKind, lowercased: Bool = false) -> [String: String] {
        final class Box { var values: [String: String] = [:]; let lower: Bool; init(_ l: Bool) { lower = l } }
        let box = Box(lowercased)
        _ = withExtendedLifetime(box) {
            MHD_get_connection_values(connection, kind, { cls, _, key, value in
                let box = Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue()
                if let key { box.values[box.lower ? String(cString: key).lowercased() : String(cString: key)] = value.map { String(cString: $0) } ?? "" }
                return .YES
            }, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.values
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer?) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY) }
        case .file(let fd, let offset, let length):
            made = MHD_create_response_from_fd_at_offset64(UInt64(length), fd, UInt64(offset))
            if made == nil { close(fd) }   // otherwise the response owns it
        case .stream(let next):
            let stream = Unmanaged.passRetained(StreamState(next)).toOpaque()
            made = MHD_create_response_from_callback(UInt64.max, 4096, { cls, _, buffer, max in
                let s = Unmanaged<StreamState>.fromOpaque(cls!).takeUnretainedValue()
                while s.pending.isEmpty {
                    guard let more = s.next() else { return -1 }   // MHD_CONTENT_READER_END_OF_STREAM
                    s.pending = more
                }
                let n = min(max, s.pending.count)
                s.pending.withUnsafeBytes { buffer!.update(from: $0.baseAddress!.assumingMemoryBound(to: CChar.self), count: n) }
                s.pending.removeFirst(n)
                return n
            }, stream, { cls in Unmanaged<StreamState>.fromOpaque(cls!).release() })
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}

/// What one connection's request has so far (held by libmicrohttpd's per-request pointer, released when it ends).
private final class ConnectionState {
    var request: HTTPRequest
    var limit: Int64 = 0
    var descriptor: Int32 = -1
    var tooLarge = false, failed = false, malformed = false
    /// A multipart body's parser, the name of the part being stored, and its bytes so far.
    var parts: OpaquePointer?
    var part: String?
    var partBytes: Int64 = 0
    init(request: HTTPRequest) { self.request = request }

    /// Writes all `n` bytes to the body's file; false when it cannot.
    func write(_ data: UnsafePointer<CChar>, _ n: Int) -> Bool {
        var done = 0
        while done < n {
            let w = Glibc.write(descriptor, data + done, n - done)
            if w <= 0 { return false }
            done += w
        }
        return true
    }

    func discardFile() {
        if descriptor >= 0 { close(descriptor); descriptor = -1 }
        if let f = request.bodyFile { unlink(f) }
    }
    /// A body file still at its temporary name when the request ends (aborted, refused, or not taken by the route) is removed.
    deinit {
        if descriptor >= 0 { close(descriptor) }
        if let f = request.bodyFile { unlink(f) }
    }
}

private final class StreamState {
    let next: @Sendable () -> [UInt8]?
    var pending: [UInt8] = []
    init(_ next: @escaping @Sendable () -> [UInt8]?) { self.next = next }
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, data, size, slot in
    HTTPServer.server(cls).handle(connection: connection, url: String(cString: url!), method: String(cString: method!), data: data, size: size!, state: slot!)
}

/// Stores the part named "file", or else the first part with a file name, of a multipart body; skips the others.
private let multipartIterator: MHD_PostDataIterator = { cls, _, key, filename, _, _, data, _, size in
    let state = Unmanaged<ConnectionState>.fromOpaque(cls!).takeUnretainedValue()
    let name = key.map { String(cString: $0) } ?? ""
    if state.part == nil && (name == "file" || filename != nil) { state.part = name }
    guard state.part == name, size > 0, let data else { return .YES }
    state.partBytes += Int64(size)
    guard state.write(data, size) else { state.failed = true; state.discardFile(); return .NO }
    return .YES
}

private let completedHandler: MHD_RequestCompletedCallback = { _, _, slot, _ in
    guard let slot, let raw = slot.pointee else { return }
    Unmanaged<ConnectionState>.fromOpaque(raw).release()
    slot.pointee = nil
}
