import Foundation
import XCTest
import SegueTestSupport

/// A `segue serve` child process on 127.0.0.1 with an ephemeral port, and curl to talk to it.
final class ServerProcess {
    let data: String
    let tokenFile: String
    let options: [String]
    private var process: Process?
    private(set) var port = 0

    init(data: String, tokenFile: String, options: [String] = []) {
        self.data = data; self.tokenFile = tokenFile; self.options = options
    }

    /// Starts the server and waits for its "listening on" line (5 s at most).
    func start(file: StaticString = #filePath, line: UInt = #line) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestSupport.segueBinary)
        p.arguments = ["serve", "--listen", "127.0.0.1:0", "--data", data, "--token-file", tokenFile] + options
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        process = p
        var text = ""
        let deadline = Date().addingTimeInterval(5)
        while !text.contains("\n"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let r = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[r].split(separator: ":")[1]) else {
            XCTFail("segue serve did not say where it listens: \(text)", file: file, line: line)
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    /// `kill -9`, and waits until it is gone.
    func kill9() {
        guard let p = process else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }

    func stop() {
        guard let p = process else { return }
        p.terminate()
        p.waitUntilExit()
        process = nil
    }

    deinit { stop() }

    var base: String { "http://127.0.0.1:\(port)" }
}

/// What curl got: the status, the headers (lower-case names) and the body.
struct CurlReply {
    let status: Int
    let headers: [String: String]
    let body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
}

enum Curl {
    /// One request with curl: `token` as a bearer token, `extra` curl arguments (`-X`, `--data-binary`, `-H`).
    static func request(_ url: String, token: String?, _ extra: [String] = []) throws -> CurlReply {
        let dir = TestSupport.tempDir("curl")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var args = ["-s", "-o", "\(dir)/body", "-D", "\(dir)/headers", "-w", "%{http_code}"] + extra
        if let token { args += ["-H", "Authorization: Bearer \(token)"] }
        let r = try TestSupport.run("curl", args + [url])
        var headers: [String: String] = [:]
        for line in (try? String(contentsOfFile: "\(dir)/headers", encoding: .utf8))?.split(separator: "\r\n") ?? [] {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return CurlReply(status: Int(r.text) ?? 0, headers: headers, body: FileManager.default.contents(atPath: "\(dir)/body") ?? Data())
    }

    /// Polls `GET /v1/renders/{id}` until the render has ended (`timeout` seconds at most); its last record.
    static func waitEnded(_ server: ServerProcess, _ id: String, token: String, timeout: Double = 20) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let r = try request("\(server.base)/v1/renders/\(id)", token: token).json
            if ["done", "failed", "cancelled"].contains(r["status"] as? String ?? "") || Date() > deadline { return r }
            usleep(100_000)
        }
    }
}

extension ServerProcess {
    /// The token of tenant acme in `withUploadedClip`'s servers.
    static let acmeToken = "acme-token-0001"

    /// A server on `dir/data` (`--jobs 2 --rate-limit 1000`) with one tenant, acme, started, and a clip made from the
    /// lavfi graph `video` uploaded as asset `name`.
    static func withUploadedClip(in dir: String, name: String, video: String) throws -> ServerProcess {
        try "acme:\(acmeToken)\n".write(toFile: "\(dir)/tokens", atomically: true, encoding: .utf8)
        try TestSupport.makeClip("\(dir)/\(name)", video: video)
        let server = ServerProcess(data: "\(dir)/data", tokenFile: "\(dir)/tokens", options: ["--jobs", "2", "--rate-limit", "1000"])
        try server.start()
        let uploaded = try Curl.request("\(server.base)/v1/assets?name=\(name)", token: acmeToken, ["-X", "POST", "--data-binary", "@\(dir)/\(name)"])
        XCTAssertEqual(uploaded.status, 201, uploaded.text)
        return server
    }
}
