import Foundation
import XCTest
@testable import SegueService
import SegueTestSupport

/// The queue in-process: webhooks owed are kept and retried until delivered (or abandoned after the last delay), and a
/// render child that crashes fails its render with the signal, the server going on.
final class ServiceQueueTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = TestSupport.tempDir("serve-queue") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Fails the first `failures` attempts (a receiver answering 503), then delivers; records what it was given.
    final class FlakyReceiver: RenderCallbacks, @unchecked Sendable {
        var failures: Int
        var attempts: [PendingCallback] = []
        init(failures: Int) { self.failures = failures }
        var retryDelays: [Double] { [0, 0, 0] }
        func deliver(_ callback: PendingCallback) -> CallbackOutcome {
            attempts.append(callback)
            if attempts.count <= failures { return .failed(status: 503, message: "HTTP 503") }
            return .delivered(status: 204)
        }
    }

    func finishedRender(_ store: RenderStore, id: String, callback: String?) throws {
        try store.insert(id: id, tenant: "acme", callback: callback)
        XCTAssertEqual(try store.claimNext()?.id, id)
        XCTAssertTrue(try store.finish(id, status: .done, frames: 24) { #"{"id":"\#($0.id)","status":"\#($0.status.rawValue)"}"# })
        XCTAssertFalse(try store.finish(id, status: .cancelled) { _ in "" }, "a render ends once")
    }

    func testAWebhookIsRetriedUntilDeliveredAndSurvivesARestart() throws {
        let path = "\(dir)/queue.sqlite3"
        try finishedRender(try RenderStore(path: path), id: "r_1", callback: "http://127.0.0.1:9/hook")
        // A new store on the same file (a restarted server) finds the delivery owed.
        let store = try RenderStore(path: path)
        let receiver = FlakyReceiver(failures: 2)
        let queue = CallbackQueue(store: store, callbacks: receiver) { $0 == "acme" ? "acme-token-0001" : nil }
        for _ in 0..<4 { try queue.deliverDue() }
        XCTAssertEqual(receiver.attempts.count, 3, "two failures, then delivered, then nothing more")
        XCTAssertEqual(receiver.attempts.map(\.attempts), [0, 1, 2])
        let last = try XCTUnwrap(receiver.attempts.last)
        XCTAssertEqual(String(decoding: last.body, as: UTF8.self), #"{"id":"r_1","status":"done"}"#)
        XCTAssertEqual(last.key, "acme-token-0001")
        XCTAssertEqual(last.url, "http://127.0.0.1:9/hook")
        let row = try XCTUnwrap(try store.database.query("SELECT * FROM deliveries").first)
        XCTAssertEqual(row["attempts"]?.int, 3)
        XCTAssertEqual(row["last_status"]?.int, 204)
        XCTAssertNotNil(row["delivered"]?.real)
    }

    func testAWebhookIsAbandonedAfterTheLastDelay() throws {
        let store = try RenderStore(path: "\(dir)/queue.sqlite3")
        try finishedRender(store, id: "r_2", callback: "http://127.0.0.1:9/hook")
        try finishedRender(store, id: "r_3", callback: nil)
        let receiver = FlakyReceiver(failures: 100)
        let queue = CallbackQueue(store: store, callbacks: receiver) { _ in "k" }
        for _ in 0..<6 { try queue.deliverDue() }
        XCTAssertEqual(receiver.attempts.count, 4, "the first attempt and one after each of the 3 delays")
        XCTAssertEqual(receiver.attempts.map(\.renderID), Array(repeating: "r_2", count: 4), "no webhook for a render without a callback")
        let row = try XCTUnwrap(try store.database.query("SELECT * FROM deliveries").first)
        XCTAssertNotNil(row["abandoned"]?.real)
        XCTAssertEqual(row["last_error"]?.text, "HTTP 503")
    }

    func testACrashingRenderFailsAloneWithItsSignal() throws {
        let layout = try ServiceLayout(root: "\(dir)/data")
        let store = try RenderStore(path: layout.database)
        // A stand-in for segue: says one progress line, then dies of SIGSEGV.
        let fake = "\(dir)/crashing-segue"
        try "#!/bin/sh\necho '{\"frame\":3,\"total\":24,\"fps\":10,\"speed\":1,\"elapsed\":0.1,\"eta\":1,\"stage\":\"render\"}' >&2\nkill -SEGV $$\n"
            .write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        for id in ["r_a", "r_b"] {
            try FileManager.default.createDirectory(atPath: layout.job(id), withIntermediateDirectories: true)
            try store.insert(id: id, tenant: "acme", callback: nil)
        }
        try FileManager.default.createDirectory(atPath: layout.assets("acme"), withIntermediateDirectories: true)
        let runner = RenderRunner(store: store, layout: layout, executable: fake, jobs: 1) { _ in "" }
        try runner.start()
        defer { runner.stop() }
        let deadline = Date().addingTimeInterval(10)
        while try store.countsByStatus()[.failed] != 2, Date() < deadline { usleep(50_000) }
        for id in ["r_a", "r_b"] {
            let r = try XCTUnwrap(try store.render(id))
            XCTAssertEqual(r.status, .failed)
            XCTAssertEqual(r.error, "the render process ended with signal 11")
            XCTAssertEqual(r.frames, 3, "its last progress report")
            XCTAssertEqual(r.attempts, 1)
        }
        XCTAssertEqual(try store.database.query("SELECT exit_status FROM runs ORDER BY rowid").map { $0["exit_status"]?.int }, [-11, -11])
    }
}
