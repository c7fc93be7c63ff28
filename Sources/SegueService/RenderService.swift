import Foundation

/// How `segue serve` runs (its options).
public struct ServiceConfiguration: Sendable {
    /// HOST:PORT (port 0: any free port; the one chosen is printed).
    public var listen = "127.0.0.1:8080"
    public var data: String
    /// `--token-file`; nil: a token is made and written to DATA/token (mode 0600).
    public var tokenFile: String?
    /// "local": each render a child `segue render` on this machine; "slurm": a child `segue farm slurm --wait`, the
    /// render cut into `chunks` chunks run as a Slurm job array (docs/farms.md), resumed where it stood after a restart.
    public var engine = "local"
    /// Chunks of a render on Slurm.
    public var chunks = 4
    /// More options of `segue farm slurm` (`--partition P`).
    public var farmArguments: [String] = []
    /// Renders at once.
    public var jobs = 2
    /// The largest upload, bytes.
    public var maxUpload: Int64 = 1024 << 20
    /// Requests a second per token (bursts of twice that).
    public var rateLimit = 50.0
    /// The `segue` executable the renders run in.
    public var executable: String
    /// The OpenAPI document served at /openapi.json.
    public var openAPI: [UInt8]
    /// `--allow-private-callbacks`: webhooks may go to loopback, private, link-local and other non-public addresses
    /// (`CallbackAddresses`); off, such callbacks are refused at submit (400) and at connect time.
    public var allowsPrivateCallbacks = false

    public init(data: String, executable: String, openAPI: [UInt8]) { self.data = data; self.executable = executable; self.openAPI = openAPI }
}

/// `segue serve`: the HTTP API (`HTTPServer`) over the durable queue (`RenderStore`), renders run by `RenderRunner`,
/// webhooks by `CallbackQueue`. Routes and JSON shapes: docs/service.md.
public final class RenderService: HTTPHandler, @unchecked Sendable {
    public let configuration: ServiceConfiguration
    let layout: ServiceLayout, store: RenderStore, tokens: TokenTable
    /// The renders' child processes, the rate of each token, the webhooks owed.
    let runner: RenderRunner, limiter: RateLimiter, webhooks: CallbackQueue
    /// The largest JSON body (a render request).
    static let maxRequest: Int64 = 1 << 20

    /// Opens the data folder and the queue and reads the tokens. Throws `ServiceError` (bad options, tokens),
    /// `SQLiteError`, or a file error.
    /// `callbacks`: what delivers the webhooks; nil: `WebhookCallbacks` with the configuration's address policy.
    public init(_ configuration: ServiceConfiguration, callbacks: (any RenderCallbacks)? = nil) throws {
        guard ["local", "slurm"].contains(configuration.engine) else {
            throw ServiceError(status: 0, message: "--engine \(configuration.engine): segue serve runs renders locally or on Slurm (local, slurm)")
        }
        self.configuration = configuration
        layout = try ServiceLayout(root: configuration.data)
        store = try RenderStore(path: layout.database)
        tokens = try RenderService.tokens(configuration.tokenFile, layout: layout)
        for tenant in Set(tokens.tenants.values) {
            try FileManager.default.createDirectory(atPath: layout.assets(tenant), withIntermediateDirectories: true)
        }
        limiter = RateLimiter(requestsPerSecond: configuration.rateLimit)
        runner = RenderRunner(store: store, layout: layout, executable: configuration.executable, jobs: configuration.jobs,
                              engine: configuration.engine == "slurm" ? .slurm(chunks: configuration.chunks, arguments: configuration.farmArguments) : .local,
                              callbackBody: { String(decoding: RenderService.json($0.json), as: UTF8.self) })
        let tokens = tokens
        webhooks = CallbackQueue(store: store, callbacks: callbacks ?? WebhookCallbacks(allowsPrivateAddresses: configuration.allowsPrivateCallbacks),
                                 key: { tokens.token(of: $0) })
    }

    /// Recovers the queue, starts the renders and the webhooks, and listens. Throws what `RenderRunner.recover` and
    /// `HTTPServer.init` throw.
    public func start() throws -> HTTPServer {
        try runner.start()
        webhooks.start()
        return try HTTPServer(listen: configuration.listen, handler: self)
    }

    /// Stops the renders (SIGTERM to each child, waiting up to `timeout` seconds; their renders are queued again for
    /// the next start). The server's listening stops with its `HTTPServer`.
    public func shutDown(timeout: Double = 10) { runner.shutDown(timeout: timeout) }

    static func tokens(_ file: String?, layout: ServiceLayout) throws -> TokenTable {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ServiceError(status: 0, message: "--token-file: cannot read \(file)")
            }
            return try TokenTable(text: text, source: file)
        }
        let path = "\(layout.root)/token"
        if let text = try? String(contentsOfFile: path, encoding: .utf8) { return try TokenTable(text: text, source: path) }
        var bytes = [UInt8](repeating: 0, count: 24)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        let token = "default:" + bytes.map { String(format: "%02x", $0) }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ServiceError(status: 0, message: "cannot write a token to \(path)")
        }
        FileHandle.standardError.write(Data("segue serve: no --token-file: made a token for tenant default in \(path)\n".utf8))
        return try TokenTable(text: token, source: path)
    }

    // MARK: HTTPHandler

    public func bodyPolicy(for request: HTTPRequest) -> BodyPolicy {
        guard request.path.hasPrefix("/v1/") else { return .memory(limit: 64 << 10) }
        guard let caller = tokens.tenant(authorization: request.headers["authorization"]) else {
            return .reject(Self.error(401, "a bearer token is required (Authorization: Bearer TOKEN)", headers: [("WWW-Authenticate", "Bearer")]))
        }
        guard limiter.allow(caller.token) else {
            return .reject(Self.error(429, "too many requests: at most \(Int(configuration.rateLimit)) a second for a token", headers: [("Retry-After", "1")]))
        }
        if request.method == "POST" && request.path == "/v1/assets" {
            guard let name = request.query["name"], SafeName.isValid(name) else {
                return .reject(Self.error(400, "name: required, 1…128 letters, digits, _, - and . (POST /v1/assets?name=NAME)"))
            }
            return .file(path: layout.upload(), limit: configuration.maxUpload)
        }
        return .memory(limit: request.method == "POST" ? Self.maxRequest : 64 << 10)
    }

    public func bodyTooLarge(_ request: HTTPRequest, limit: Int64) -> HTTPResponse {
        let what = request.path == "/v1/assets" ? "an upload may be at most \(limit >> 20) MiB (--max-upload)" : "a request body may be at most \(limit >> 10) KiB"
        return Self.error(413, "too large: " + what)
    }

    public func malformedBody(_ request: HTTPRequest) -> HTTPResponse {
        Self.error(400, "the body: a multipart/form-data upload needs a part named file (or a part with a file name)")
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch let e as ServiceError {
            return Self.error(e.status, e.message)
        } catch {
            FileHandle.standardError.write(Data("segue serve: \(request.method) \(request.path): \(error)\n".utf8))
            return Self.error(500, "internal error")
        }
    }

    // MARK: responses

    static func json(_ object: Any) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
    }

    static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(json(object)))
    }

    static func error(_ status: Int, _ message: String, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, ["error": message], headers: headers)
    }
}
