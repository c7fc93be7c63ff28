import Foundation
import SegueCore
import SegueEdit
import SegueMedia

// The routes of `segue serve` (docs/service.md gives each response's JSON).
extension RenderService {
    func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let method = request.method
        switch (method, request.path) {
        case ("GET", "/healthz"): return Self.json(200, ["status": "ok"])
        case ("GET", "/metrics"): return try metrics()
        case ("GET", "/openapi.json"):
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(configuration.openAPI))
        default: break
        }
        guard parts.first == "v1", let caller = tokens.tenant(authorization: request.headers["authorization"]) else {
            return Self.error(404, "no route \(method) \(request.path)")
        }
        let tenant = caller.tenant
        let rest = Array(parts.dropFirst())
        let id = rest.count >= 2 ? rest[1] : ""
        switch (method, rest.first ?? "", rest.count, rest.count == 3 ? rest[2] : "") {
        case ("POST", "renders", 1, _): return try submit(request, tenant: tenant)
        case ("GET", "renders", 1, _):
            var status: RenderStatus?
            if let s = request.query["status"] {
                guard let parsed = RenderStatus(rawValue: s) else { throw ServiceError(status: 400, message: "status: one of queued, rendering, done, failed, cancelled") }
                status = parsed
            }
            return Self.json(200, ["renders": try store.renders(tenant: tenant, status: status).map(\.json)])
        case ("GET", "renders", 2, _): return Self.json(200, try owned(id, tenant).json)
        case ("DELETE", "renders", 2, _):
            let r = try owned(id, tenant)
            guard try runner.cancel(id) else { throw ServiceError(status: 409, message: "render \(id) has already ended (\(r.status.rawValue))") }
            return Self.json(200, ["id": id, "status": RenderStatus.cancelled.rawValue])
        case ("GET", "renders", 3, "output"): return try output(try done(id, tenant), range: request.headers["range"])
        case ("GET", "renders", 3, "poster"): return try poster(try done(id, tenant))
        case ("GET", "renders", 3, "events"): return events(try owned(id, tenant))
        case ("POST", "assets", 1, _): return try storeAsset(request, tenant: tenant)
        case (_, "renders", 1...2, _), (_, "renders", 3, "output"), (_, "renders", 3, "poster"), (_, "renders", 3, "events"), (_, "assets", 1, _):
            return Self.error(405, "\(method) is not allowed on \(request.path)")
        default: return Self.error(404, "no route \(method) \(request.path)")
        }
    }

    /// The render `id` if it is the tenant's: 404 unknown, 403 another tenant's.
    func owned(_ id: String, _ tenant: String) throws -> RenderRecord {
        guard let r = try store.render(id) else { throw ServiceError(status: 404, message: "no render \(id)") }
        guard r.tenant == tenant else { throw ServiceError(status: 403, message: "render \(id) belongs to another tenant") }
        return r
    }

    func done(_ id: String, _ tenant: String) throws -> RenderRecord {
        let r = try owned(id, tenant)
        guard r.status == .done else { throw ServiceError(status: 409, message: "render \(id) is \(r.status.rawValue), not done") }
        return r
    }

    func submit(_ request: HTTPRequest, tenant: String) throws -> HTTPResponse {
        let parsed = try RenderRequest(body: request.body, tenant: tenant, layout: layout,
                                       allowsPrivateCallbacks: configuration.allowsPrivateCallbacks) { (try? store.hasAsset(tenant: tenant, name: $0)) ?? false }
        try check(parsed, tenant: tenant)
        let id = "r_" + (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        try parsed.write(to: layout.job(id))
        try store.insert(id: id, tenant: tenant, callback: parsed.callback)
        runner.wake()
        return Self.json(202, ["id": id, "status": RenderStatus.queued.rawValue], headers: [("Location", "/v1/renders/\(id)")])
    }

    /// The edit read as the render will read it — its fields, its values filled into its placeholders, the files
    /// the parser itself reads checked against the tenant's assets — without opening its media: an edit the render
    /// would refuse at once is a 422 now, worded as the command line words it, not a failed render later.
    /// - Throws: `ServiceError` 422.
    func check(_ parsed: RenderRequest, tenant: String) throws {
        do {
            let values = try parsed.values.map { try TemplateValues.json(JSONSerialization.data(withJSONObject: $0), source: "values") } ?? TemplateValues()
            _ = try EditFile.parse(data: JSONSerialization.data(withJSONObject: parsed.edit), baseDirectory: layout.assets(tenant),
                                   policy: InputPolicy(root: layout.assets(tenant)), values: values)
        } catch {
            throw ServiceError(status: 422, message: layout.scrub("invalid edit: \(error)", tenant: tenant, job: nil))
        }
    }

    /// The output, whole (200) or one `Range: bytes=…` (206 with Content-Range; 416 when unsatisfiable), sent from
    /// the file's descriptor by libmicrohttpd.
    func output(_ r: RenderRecord, range: String?) throws -> HTTPResponse {
        let fd = open(layout.output(r.id), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ServiceError(status: 410, message: "the output of \(r.id) is no longer stored") }
        var st = stat()
        fstat(fd, &st)
        let size = Int64(st.st_size)
        let headers = [("Content-Type", "video/mp4"), ("Accept-Ranges", "bytes")]
        guard let range else { return HTTPResponse(status: 200, headers: headers, body: .file(descriptor: fd, offset: 0, length: size)) }
        guard let (first, last) = Self.byteRange(range, size: size) else {
            close(fd)
            return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(size)"), ("Content-Type", "application/json")],
                                body: .bytes(Self.json(["error": "range \(range) is not satisfiable: the output has \(size) bytes"])))
        }
        return HTTPResponse(status: 206, headers: headers + [("Content-Range", "bytes \(first)-\(last)/\(size)")],
                            body: .file(descriptor: fd, offset: first, length: last - first + 1))
    }

    /// The first and last byte of a single `bytes=FIRST-[LAST]` or `bytes=-SUFFIX` range; nil when unsatisfiable.
    static func byteRange(_ header: String, size: Int64) -> (Int64, Int64)? {
        guard header.hasPrefix("bytes="), !header.contains(","), size > 0 else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let n = Int64(spec[1]), n > 0 else { return nil }
            return (max(0, size - n), size - 1)
        }
        guard let first = Int64(spec[0]), first < size else { return nil }
        if spec[1].isEmpty { return (first, size - 1) }
        guard let last = Int64(spec[1]), last >= first else { return nil }
        return (first, min(last, size - 1))
    }

    /// The output's first frame as PNG, made once by a child `segue frame` (the output is the render's own file).
    func poster(_ r: RenderRecord) throws -> HTTPResponse {
        let path = layout.poster(r.id)
        if !FileManager.default.fileExists(atPath: path) {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: configuration.executable)
            child.arguments = ["frame", layout.output(r.id), "--frame", "0", "-o", path, "--root", layout.job(r.id), "--output-root", layout.job(r.id)]
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            child.waitUntilExit()
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw ServiceError(status: 500, message: "the poster of \(r.id) could not be made") }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: .bytes(Array(data)))
    }

    /// Server-Sent Events: `event: progress` with `{"id","status","frames","totalFrames","progress","fps"}` whenever it
    /// changes (checked every 100 ms), then `event: end` with the final record (`GET /v1/renders/{id}`), and the
    /// stream closes. A comment line every 15 s keeps proxies from closing a quiet stream.
    func events(_ r: RenderRecord) -> HTTPResponse {
        final class Cursor: @unchecked Sendable { var last = ""; var ended = false }
        let cursor = Cursor()
        let id = r.id, store = store, runner = runner
        let next: @Sendable () -> [UInt8]? = {
            if cursor.ended { return nil }
            let started = Date()
            while true {
                guard var record = (try? store.render(id)) ?? nil else { return nil }
                if record.status.ended {
                    cursor.ended = true
                    return Array("event: end\ndata: ".utf8) + RenderService.json(record.json) + Array("\n\n".utf8)
                }
                if let live = runner.progress(id) { record.frames = live.frames; record.totalFrames = live.total; record.fps = live.fps }
                let event = String(decoding: RenderService.json(["id": id, "status": record.status.rawValue, "frames": record.frames,
                                                                  "totalFrames": record.totalFrames, "progress": record.json["progress"]!,
                                                                  "fps": record.json["fps"]!]), as: UTF8.self)
                if event != cursor.last {
                    cursor.last = event
                    return Array("event: progress\ndata: \(event)\n\n".utf8)
                }
                if Date().timeIntervalSince(started) > 15 { return Array(": waiting\n\n".utf8) }
                usleep(100_000)
            }
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")], body: .stream(next))
    }

    /// A streamed upload, renamed into the tenant's assets when complete: 201 `{"name","size","sha256","ref"}`.
    func storeAsset(_ request: HTTPRequest, tenant: String) throws -> HTTPResponse {
        guard let name = request.query["name"], let file = request.bodyFile else { throw ServiceError(status: 400, message: "name: required") }
        let target = layout.asset(tenant, name)
        guard rename(file, target) == 0 else { throw ServiceError(status: 500, message: "the upload could not be stored") }
        let sha = Digest.sha256(file: target)
        try store.assetStored(tenant: tenant, name: name, size: request.bodySize, sha256: sha)
        return Self.json(201, ["name": name, "size": request.bodySize, "sha256": sha.map { $0 as Any } ?? NSNull(), "ref": "asset:\(name)"])
    }

    /// Prometheus text: the queue's length, renders by status, frames per second of the running renders, frames written
    /// since the server started, webhooks owed.
    func metrics() throws -> HTTPResponse {
        let counts = try store.countsByStatus()
        let owed = try store.database.query("SELECT COUNT(*) AS n FROM deliveries WHERE delivered IS NULL AND abandoned IS NULL").first?["n"]?.int ?? 0
        var lines = ["# HELP segue_queue_length Renders waiting to start.", "# TYPE segue_queue_length gauge",
                     "segue_queue_length \(counts[.queued] ?? 0)",
                     "# HELP segue_renders Renders by status.", "# TYPE segue_renders gauge"]
        lines += RenderStatus.allCases.map { "segue_renders{status=\"\($0.rawValue)\"} \(counts[$0] ?? 0)" }
        lines += ["# HELP segue_frames_per_second Frames per second of the renders running now, together.", "# TYPE segue_frames_per_second gauge",
                  "segue_frames_per_second \(String(format: "%.2f", runner.fps))",
                  "# HELP segue_frames_written_total Frames written by renders since the server started.", "# TYPE segue_frames_written_total counter",
                  "segue_frames_written_total \(runner.framesWritten)",
                  "# HELP segue_webhooks_pending Webhooks not yet delivered.", "# TYPE segue_webhooks_pending gauge",
                  "segue_webhooks_pending \(owed)"]
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")], body: .bytes(Array((lines.joined(separator: "\n") + "\n").utf8)))
    }
}
