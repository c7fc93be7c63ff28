import Foundation
import XCTest
@testable import SegueService
import SegueTestSupport

/// `segue serve` as a child process on loopback, driven with curl: uploads, renders, events, Range downloads, posters,
/// cancel, 401/403/404/409/413/416/429, hostile edits, and a `kill -9` in the middle of 30 renders.
final class ServiceEndToEndTests: XCTestCase {
    static let acme = "acme-token-0001", other = "other-token-0002"
    var dir = "", clip = "", tokens = ""

    override func setUpWithError() throws {
        dir = TestSupport.tempDir("serve")
        clip = "\(dir)/clip.mp4"
        try TestSupport.makeClip(clip, video: "testsrc=size=64x48:rate=24:duration=1")
        tokens = "\(dir)/tokens"
        try "acme:\(Self.acme)\nother:\(Self.other)\n".write(toFile: tokens, atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func upload(_ server: ServerProcess, _ file: String, as name: String, token: String = acme) throws -> CurlReply {
        try Curl.request("\(server.base)/v1/assets?name=\(name)", token: token, ["-X", "POST", "--data-binary", "@\(file)", "-H", "Content-Type: application/octet-stream"])
    }

    func submit(_ server: ServerProcess, _ body: String, token: String = acme) throws -> CurlReply {
        try Curl.request("\(server.base)/v1/renders", token: token, ["-X", "POST", "--data-binary", body, "-H", "Content-Type: application/json"])
    }

    let clipEdit = #"{"edit": {"clips": [{"path": "asset:clip.mp4"}]}}"#

    func testSubmitFollowDownloadCancelAndRefuse() throws {
        let server = ServerProcess(data: "\(dir)/data", tokenFile: tokens, options: ["--jobs", "1", "--rate-limit", "1000", "--max-upload", "1"])
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(try Curl.request("\(server.base)/healthz", token: nil).json["status"] as? String, "ok")
        let api = try Curl.request("\(server.base)/openapi.json", token: nil)
        XCTAssertEqual(api.status, 200)
        XCTAssertNotNil(api.json["openapi"] as? String, api.text)
        XCTAssertEqual(api.body, FileManager.default.contents(atPath: "\(TestSupport.packageRoot)/docs/openapi.json"), "the document served is docs/openapi.json")

        // Upload, submit, follow the events to the end.
        let uploaded = try upload(server, clip, as: "clip.mp4")
        XCTAssertEqual(uploaded.status, 201, uploaded.text)
        let clipSize = try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int
        XCTAssertEqual((uploaded.json["size"] as? NSNumber)?.intValue, clipSize)
        XCTAssertEqual(uploaded.json["ref"] as? String, "asset:clip.mp4")
        let shaLine = try TestSupport.run("sha256sum", [clip]).text
        XCTAssertEqual(uploaded.json["sha256"] as? String, String(shaLine.prefix(64)))

        // The same as multipart/form-data (curl -F): only the file part is stored; a body without one is 400.
        let multipart = try Curl.request("\(server.base)/v1/assets?name=form.mp4", token: Self.acme, ["-F", "note=hello", "-F", "file=@\(clip)"])
        XCTAssertEqual(multipart.status, 201, multipart.text)
        XCTAssertEqual(multipart.json["sha256"] as? String, uploaded.json["sha256"] as? String)
        XCTAssertEqual((multipart.json["size"] as? NSNumber)?.intValue, clipSize)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/assets?name=none.mp4", token: Self.acme, ["-F", "note=hello"]).status, 400)

        let submitted = try submit(server, clipEdit)
        XCTAssertEqual(submitted.status, 202, submitted.text)
        XCTAssertEqual(submitted.json["status"] as? String, "queued")
        let id = try XCTUnwrap(submitted.json["id"] as? String)
        let events = try Curl.request("\(server.base)/v1/renders/\(id)/events", token: Self.acme, ["-N", "--max-time", "20"])
        XCTAssertEqual(events.headers["content-type"], "text/event-stream")
        let blocks = events.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        let last = try XCTUnwrap(blocks.last)
        XCTAssertTrue(last.hasPrefix("event: end\ndata: "), events.text)
        let end = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.dropFirst("event: end\ndata: ".count).utf8)) as? [String: Any])
        XCTAssertEqual(end["status"] as? String, "done", events.text)
        XCTAssertEqual((end["frames"] as? NSNumber)?.intValue, 24)
        for block in blocks.dropLast() {
            XCTAssertTrue(block.hasPrefix("event: progress\ndata: {") || block.hasPrefix(": "), block)
        }

        let status = try Curl.request("\(server.base)/v1/renders/\(id)", token: Self.acme).json
        XCTAssertEqual(status["status"] as? String, "done")
        XCTAssertEqual((status["progress"] as? NSNumber)?.doubleValue, 1)
        XCTAssertEqual((status["attempts"] as? NSNumber)?.intValue, 1)
        XCTAssertTrue(status["error"] is NSNull)

        // The output, whole and in ranges.
        let whole = try Curl.request("\(server.base)/v1/renders/\(id)/output", token: Self.acme)
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.headers["accept-ranges"], "bytes")
        try whole.body.write(to: URL(fileURLWithPath: "\(dir)/out.mp4"))
        XCTAssertEqual(try TestSupport.ffprobe("\(dir)/out.mp4", "stream=nb_read_frames,width,height", count: true),
                       ["nb_read_frames": "24", "width": "64", "height": "48"])
        let part = try Curl.request("\(server.base)/v1/renders/\(id)/output", token: Self.acme, ["-H", "Range: bytes=100-199"])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.headers["content-range"], "bytes 100-199/\(whole.body.count)")
        XCTAssertEqual(part.body, whole.body.subdata(in: 100..<200))
        let tail = try Curl.request("\(server.base)/v1/renders/\(id)/output", token: Self.acme, ["-H", "Range: bytes=-50"])
        XCTAssertEqual(tail.status, 206)
        XCTAssertEqual(tail.body, whole.body.suffix(50))
        let beyond = try Curl.request("\(server.base)/v1/renders/\(id)/output", token: Self.acme, ["-H", "Range: bytes=\(whole.body.count)-"])
        XCTAssertEqual(beyond.status, 416)
        XCTAssertEqual(beyond.headers["content-range"], "bytes */\(whole.body.count)")

        // The poster: a 64x48 PNG (IHDR's width and height, big-endian, at bytes 16 and 20).
        let poster = try Curl.request("\(server.base)/v1/renders/\(id)/poster", token: Self.acme)
        XCTAssertEqual(poster.status, 200)
        XCTAssertEqual(Array(poster.body.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(Array(poster.body[16..<24]), [0, 0, 0, 64, 0, 0, 0, 48])

        // A template with its values; the asset named by a value.
        let template = try submit(server, #"{"edit": {"clips": [{"path": "{{clip}}"}]}, "values": {"clip": "asset:clip.mp4"}}"#)
        XCTAssertEqual(template.status, 202, template.text)
        XCTAssertEqual(try Curl.waitEnded(server, template.json["id"] as! String, token: Self.acme)["status"] as? String, "done")

        // Cancel: the last of four renders waits behind the others (one at a time).
        let queued = try (0..<4).map { _ in try submit(server, clipEdit).json["id"] as! String }
        let cancel = try Curl.request("\(server.base)/v1/renders/\(queued[3])", token: Self.acme, ["-X", "DELETE"])
        XCTAssertEqual(cancel.status, 200, cancel.text)
        XCTAssertEqual(cancel.json["status"] as? String, "cancelled")
        let cancelled = try Curl.waitEnded(server, queued[3], token: Self.acme)
        XCTAssertEqual(cancelled["status"] as? String, "cancelled")
        XCTAssertEqual((cancelled["attempts"] as? NSNumber)?.intValue, 0)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/\(queued[3])", token: Self.acme, ["-X", "DELETE"]).status, 409)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/\(queued[3])/output", token: Self.acme).status, 409)
        for other in queued.prefix(3) { XCTAssertEqual(try Curl.waitEnded(server, other, token: Self.acme)["status"] as? String, "done") }

        // Who may ask what.
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/\(id)", token: nil).status, 401)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/\(id)", token: "not-a-token-at-all").status, 401)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/\(id)", token: Self.other).status, 403)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/\(id)/output", token: Self.other).status, 403)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/\(id)", token: Self.other, ["-X", "DELETE"]).status, 403)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders/r_0000000000000000", token: Self.acme).status, 404)
        XCTAssertEqual(try Curl.request("\(server.base)/v1/nothing", token: Self.acme).status, 404)
        let list = try Curl.request("\(server.base)/v1/renders", token: Self.other)
        XCTAssertEqual((list.json["renders"] as? [Any])?.count, 0, "another tenant's renders are not listed")
        XCTAssertEqual((try Curl.request("\(server.base)/v1/renders", token: Self.acme).json["renders"] as? [Any])?.count, 6)
        // Another tenant cannot name acme's assets.
        let foreign = try submit(server, clipEdit, token: Self.other)
        XCTAssertEqual(foreign.status, 422, foreign.text)

        // Sizes: an upload over --max-upload 1 (MiB), a request body over 1 MiB.
        let big = "\(dir)/big.bin"
        FileManager.default.createFile(atPath: big, contents: Data(count: 2 << 20))
        let tooBig = try upload(server, big, as: "big.mp4")
        XCTAssertEqual(tooBig.status, 413, tooBig.text)
        XCTAssertTrue(tooBig.text.contains("--max-upload"), tooBig.text)
        XCTAssertEqual(try submit(server, #"{"edit": {"clips": [{"path": "asset:big.mp4"}]}}"#).status, 422, "a refused upload is not stored")
        XCTAssertEqual(try Curl.request("\(server.base)/v1/renders", token: Self.acme, ["-X", "POST", "--data-binary", "@\(big)"]).status, 413)

        // Every route the OpenAPI document names is one the server answers (not 404 or 405), {id} a render of acme's.
        for (path, item) in (api.json["paths"] as? [String: [String: Any]]) ?? [:] {
            for method in item.keys where ["get", "post", "delete", "put", "patch"].contains(method) {
                let url = server.base + path.replacingOccurrences(of: "{id}", with: id)
                let r = try Curl.request(url, token: Self.acme, ["-X", method.uppercased(), "--max-time", "10"])
                XCTAssertFalse([404, 405].contains(r.status), "\(method.uppercased()) \(path): \(r.status) \(r.text)")
            }
        }

        let metrics = try Curl.request("\(server.base)/metrics", token: nil).text
        XCTAssertTrue(metrics.contains("segue_renders{status=\"done\"} 5\n"), metrics)
        XCTAssertTrue(metrics.contains("segue_renders{status=\"cancelled\"} 1\n"), metrics)
        XCTAssertTrue(metrics.contains("segue_queue_length 0\n"), metrics)
        XCTAssertTrue(metrics.contains("segue_frames_written_total 120\n"), metrics)
    }

    /// Edits that try to read what is not theirs are refused, and no error names a server path.
    func testHostileEditsAreRefused() throws {
        let server = ServerProcess(data: "\(dir)/data", tokenFile: tokens, options: ["--jobs", "2", "--rate-limit", "1000"])
        try server.start()
        defer { server.stop() }
        let playlist = "\(dir)/holiday.mp4"
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile://\(clip)\n#EXT-X-ENDLIST\n".write(toFile: playlist, atomically: true, encoding: .utf8)
        XCTAssertEqual(try upload(server, playlist, as: "holiday.mp4").status, 201)
        XCTAssertEqual(try upload(server, clip, as: "clip.mp4", token: Self.other).status, 201)
        let failing: [(String, String)] = [
            (#"{"edit": {"clips": [{"path": "\#(clip)"}]}}"#, "is outside the uploaded assets"),
            (#"{"edit": {"clips": [{"path": "../../assets/other/clip.mp4"}]}}"#, "is outside the uploaded assets"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}]}}"#, "holiday.mp4 is an HLS playlist, not a media file"),
        ]
        for (body, expected) in failing {
            let r = try submit(server, body)
            XCTAssertEqual(r.status, 202, r.text)
            let ended = try Curl.waitEnded(server, r.json["id"] as! String, token: Self.acme)
            XCTAssertEqual(ended["status"] as? String, "failed", body)
            let error = ended["error"] as? String ?? ""
            XCTAssertTrue(error.contains(expected), error)
            XCTAssertFalse(error.contains("\(dir)/data"), "a server path in: \(error)")
        }
        let refused: [(String, Int, String)] = [
            (#"{"edit": {"clips": [{"path": "asset:../tokens"}]}}"#, 422, "is not an asset name"),
            (#"{"edit": {"clips": [{"path": "asset:clip.mp4"}]}}"#, 422, "is not an uploaded asset"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}], "allowIndirectInputs": true}}"#, 422, "edit.allowIndirectInputs"),
            (#"{"edit": {"clips": []}, "callback": "file:///etc/passwd"}"#, 400, "callback"),
            // Not public (server-side request forgery): the cloud's metadata service, this machine, a private network.
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}]}, "callback": "http://169.254.169.254/latest/meta-data/"}"#, 400,
             "callback: 169.254.169.254 is a link-local"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}]}, "callback": "http://localhost:9/hook"}"#, 400, "--allow-private-callbacks"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}]}, "callback": "http://2130706433:9/hook"}"#, 400, "2130706433 is a loopback"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}]}, "callback": "https://[fd12::1]/hook"}"#, 400, "unique local"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}]}, "callback": "http://user@10.1.2.3:8080/hook"}"#, 400, "private (RFC 1918)"),
            // Refused when submitted, as `segue render` words it, not left to fail later.
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4"}], "titles": []}}"#, 422, "invalid edit: titles: unknown field"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4", "duration": "{{seconds}}"}]}}"#, 422, "seconds"),
            (#"{"edit": {"clips": [{"path": "asset:holiday.mp4", "duration": "{{seconds}}"}]}, "values": {"seconds": "long"}}"#, 422, "duration"),
            (#"{"clips": []}"#, 400, "clips: unknown field"),
            ("not json", 400, "JSON object"),
        ]
        for (body, status, expected) in refused {
            let r = try submit(server, body)
            XCTAssertEqual(r.status, status, body)
            XCTAssertTrue((r.json["error"] as? String ?? "").contains(expected), r.text)
        }
    }

    /// What `segue serve` refuses to start with: an engine it does not know, a missing --data, a malformed token file.
    func testRefusedStarts() throws {
        let engine = try TestSupport.run(TestSupport.segueBinary, ["serve", "--data", "\(dir)/data", "--token-file", tokens, "--engine", "kubernetes"])
        XCTAssertEqual(engine.status, 2)
        XCTAssertTrue(engine.stderr.contains("--engine must be local or slurm (got kubernetes)"), engine.stderr)
        let noData = try TestSupport.run(TestSupport.segueBinary, ["serve", "--token-file", tokens])
        XCTAssertEqual(noData.status, 2)
        XCTAssertTrue(noData.stderr.contains("serve needs --data DIR"), noData.stderr)
        try "acme:short\n".write(toFile: "\(dir)/bad-tokens", atomically: true, encoding: .utf8)
        let badTokens = try TestSupport.run(TestSupport.segueBinary, ["serve", "--data", "\(dir)/data", "--token-file", "\(dir)/bad-tokens"])
        XCTAssertEqual(badTokens.status, 2)
        XCTAssertTrue(badTokens.stderr.contains("bad-tokens:1: a token must be at least 8 characters"), badTokens.stderr)
        XCTAssertFalse(badTokens.stderr.contains("short"), "the token is not echoed")
    }

    /// A token's requests over its rate get 429 with Retry-After; another token is not affected.
    func testRateLimit() throws {
        let server = ServerProcess(data: "\(dir)/data", tokenFile: tokens, options: ["--rate-limit", "2"])
        try server.start()
        defer { server.stop() }
        let url = "\(server.base)/v1/renders"
        let r = try TestSupport.run("curl", ["-s", "-w", "%{http_code}\\n", "-H", "Authorization: Bearer \(Self.acme)"] + (0..<7).flatMap { _ in ["-o", "/dev/null", url] })
        XCTAssertEqual(r.text.split(separator: "\n").map(String.init), ["200", "200", "200", "200", "429", "429", "429"])
        let limited = try Curl.request(url, token: Self.acme)
        XCTAssertEqual(limited.status, 429)
        XCTAssertEqual(limited.headers["retry-after"], "1")
        XCTAssertEqual(try Curl.request(url, token: Self.other).status, 200)
    }
}
