import XCTest
@testable import SegueService

/// The pieces of `segue serve` that need no server: byte ranges, tokens, the rate limit, path scrubbing, asset references.
final class ServiceUnitTests: XCTestCase {
    func testByteRanges() {
        XCTAssertTrue(RenderService.byteRange("bytes=0-99", size: 1000)! == (0, 99))
        XCTAssertTrue(RenderService.byteRange("bytes=900-", size: 1000)! == (900, 999))
        XCTAssertTrue(RenderService.byteRange("bytes=-100", size: 1000)! == (900, 999))
        XCTAssertTrue(RenderService.byteRange("bytes=990-5000", size: 1000)! == (990, 999))
        XCTAssertNil(RenderService.byteRange("bytes=1000-", size: 1000))
        XCTAssertNil(RenderService.byteRange("bytes=5-4", size: 1000))
        XCTAssertNil(RenderService.byteRange("bytes=0-1,5-6", size: 1000))
        XCTAssertNil(RenderService.byteRange("items=0-1", size: 1000))
    }

    func testTokensAndTenants() throws {
        let t = try TokenTable(text: "# tokens\nacme:acme-secret-1\n\nbare-token-1234\n", source: "tokens")
        XCTAssertEqual(t.tenant(authorization: "Bearer acme-secret-1")?.tenant, "acme")
        XCTAssertEqual(t.tenant(authorization: "bearer  bare-token-1234")?.tenant.hasPrefix("key-"), true)
        XCTAssertEqual(t.tenant(authorization: "bearer  bare-token-1234")?.tenant.count, 16)
        XCTAssertNil(t.tenant(authorization: "Bearer nope-nope-nope"))
        XCTAssertNil(t.tenant(authorization: nil))
        XCTAssertEqual(t.token(of: "acme"), "acme-secret-1")
        XCTAssertThrowsError(try TokenTable(text: "a b:short\n", source: "tokens")) { e in
            XCTAssertEqual("\(e)", "tokens:1: the tenant must be letters, digits, _, - and . (TENANT:TOKEN)")
        }
        XCTAssertThrowsError(try TokenTable(text: "acme:short\n", source: "tokens"))
    }

    func testRateLimitAllowsABurstOfTwiceTheRate() {
        let limiter = RateLimiter(requestsPerSecond: 5)
        let allowed = (0..<20).filter { _ in limiter.allow("t") }.count
        XCTAssertEqual(allowed, 10)
        XCTAssertTrue(limiter.allow("other"))
    }

    func testScrubTakesServerPathsOut() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scrub-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let layout = try ServiceLayout(root: dir)
        let text = "segue: refused: clips[0].path: \(layout.asset("acme", "a.mp4")) is an HLS playlist; \(layout.job("r_1"))/edit.json; \(layout.root)/queue"
        XCTAssertEqual(layout.scrub(text, tenant: "acme", job: "r_1"), "segue: refused: clips[0].path: asset:a.mp4 is an HLS playlist; edit.json; [data]/queue")
    }

    func testAssetReferencesResolveToTheTenantsUploadsOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let layout = try ServiceLayout(root: dir)
        let body = Array(#"{"edit": {"clips": [{"path": "asset:a.mp4"}, {"path": "{{b}}"}]}, "values": {"b": "asset:b.mp4"}}"#.utf8)
        let r = try RenderRequest(body: body, tenant: "acme", layout: layout) { ["a.mp4", "b.mp4"].contains($0) }
        XCTAssertEqual(((r.edit["clips"] as? [[String: Any]])?[0]["path"] as? String), layout.asset("acme", "a.mp4"))
        XCTAssertEqual(r.values?["b"] as? String, layout.asset("acme", "b.mp4"))
        XCTAssertThrowsError(try RenderRequest(body: body, tenant: "acme", layout: layout) { $0 == "a.mp4" }) { e in
            XCTAssertEqual((e as? ServiceError)?.status, 422)
            XCTAssertEqual("\(e)", "values.b: asset:b.mp4 is not an uploaded asset (POST /v1/assets?name=b.mp4)")
        }
        let traversal = Array(#"{"edit": {"clips": [{"path": "asset:../x.mp4"}]}}"#.utf8)
        XCTAssertThrowsError(try RenderRequest(body: traversal, tenant: "acme", layout: layout) { _ in true }) { e in
            XCTAssertEqual("\(e)", "edit.clips[0].path: asset:../x.mp4 is not an asset name (letters, digits, _, - and .)")
        }
    }

    /// The child a render runs in: `segue render` under the tenant's root; on Slurm `segue farm slurm --wait` in the
    /// job's `farm` folder, and `segue farm resume --wait` once that farm was submitted (a restart follows its jobs).
    func testRenderChildCommandLines() throws {
        let data = NSTemporaryDirectory() + "serve-args-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let layout = try ServiceLayout(root: data)
        let store = try RenderStore(path: layout.database)
        let job = layout.job("r_1"), assets = layout.assets("acme")
        let local = RenderRunner(store: store, layout: layout, executable: "/bin/segue", jobs: 1, callbackBody: { _ in "" })
        XCTAssertEqual(local.arguments("r_1", tenant: "acme"),
                       ["render", "\(job)/edit.json", "-o", "\(job)/output.mp4", "--root", assets, "--output-root", job, "--progress", "json"])
        let slurm = RenderRunner(store: store, layout: layout, executable: "/bin/segue", jobs: 1,
                                 engine: .slurm(chunks: 6, arguments: ["--partition", "gpu"]), callbackBody: { _ in "" })
        XCTAssertEqual(slurm.arguments("r_1", tenant: "acme"),
                       ["farm", "slurm", "\(job)/edit.json", "--chunks", "6", "-o", "\(job)/output.mp4", "--work-dir", "\(job)/farm", "--wait",
                        "--root", assets, "--output-root", job, "--progress", "json", "--partition", "gpu"])
        try FileManager.default.createDirectory(atPath: "\(job)/farm", withIntermediateDirectories: true)
        try "{}".write(toFile: "\(job)/farm/farm.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(slurm.arguments("r_1", tenant: "acme"), ["farm", "resume", "\(job)/farm", "--wait", "--progress", "json"])
    }
}
