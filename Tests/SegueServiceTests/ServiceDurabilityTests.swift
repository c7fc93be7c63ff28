import Foundation
import XCTest
@testable import SegueService
import SegueTestSupport

/// The queue survives `kill -9`: 30 renders submitted, the server killed while some render, started again: every
/// render done once (one child process that ended with it done, per render), every output a valid 24-frame video.
final class ServiceDurabilityTests: XCTestCase {
    func testKillNineMidwayLosesNothingAndRendersNothingTwice() throws {
        let dir = TestSupport.tempDir("serve-durable")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let token = ServerProcess.acmeToken, data = "\(dir)/data"
        let server = try ServerProcess.withUploadedClip(in: dir, name: "clip.mp4", video: "testsrc=size=64x48:rate=24:duration=1")
        // 30 submissions in one curl run.
        let body = #"{"edit": {"clips": [{"path": "asset:clip.mp4"}]}}"#
        var args = ["-s", "-H", "Authorization: Bearer \(token)", "-w", "\\n"]
        for k in 0..<30 { args += (k == 0 ? [] : ["--next", "-s", "-H", "Authorization: Bearer \(token)", "-w", "\\n"]) + ["--data-binary", body, "\(server.base)/v1/renders"] }
        let ids = try TestSupport.run("curl", args).text.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["id"] as? String
        }
        XCTAssertEqual(Set(ids).count, 30)

        // Kill it once a few are done while others render.
        let deadline = Date().addingTimeInterval(20)
        var doneAtKill = 0
        while Date() < deadline {
            let metrics = try Curl.request("\(server.base)/metrics", token: nil).text
            func count(_ status: String) -> Int {
                metrics.split(separator: "\n").first { $0.hasPrefix("segue_renders{status=\"\(status)\"}") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
            }
            if count("done") >= 4 && count("rendering") >= 1 {
                doneAtKill = count("done")
                break
            }
            usleep(10_000)
        }
        server.kill9()
        XCTAssertGreaterThanOrEqual(doneAtKill, 4)
        XCTAssertLessThan(doneAtKill, 30, "killed mid-way")

        try server.start()
        defer { server.stop() }
        for id in ids {
            XCTAssertEqual(try Curl.waitEnded(server, id, token: token, timeout: 60)["status"] as? String, "done", id)
        }
        // None rendered twice: one run ended with the render done, per render (the queue's own record of its children).
        let store = try RenderStore(path: "\(data)/queue.sqlite3")
        let completed = try store.completedRunCounts()
        XCTAssertEqual(completed.count, 30)
        XCTAssertEqual(Set(completed.values), [1], "\(completed)")
        let interrupted = try store.database.query("SELECT COUNT(*) AS n FROM runs WHERE outcome = 'interrupted'").first?["n"]?.int ?? -1
        print("ServiceDurabilityTests: \(doneAtKill) done at the kill, \(interrupted) runs interrupted and rendered again")
        // Every output a valid video of 24 frames.
        let counts = try TestSupport.concurrentMap(ids) { id in
            try TestSupport.ffprobe("\(data)/jobs/\(id)/output.mp4", "stream=nb_read_frames", count: true)["nb_read_frames"]
        }
        XCTAssertEqual(counts, Array(repeating: "24", count: 30))
    }

    /// SIGTERM (and SIGINT) stop the service cleanly: the rendering child is stopped (no process left, no temporary
    /// output), its render queued again, and rendered when the service starts again.
    func testSIGTERMStopsTheRendersAndQueuesThemAgain() throws {
        let dir = TestSupport.tempDir("serve-sigterm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let token = ServerProcess.acmeToken
        let server = try ServerProcess.withUploadedClip(in: dir, name: "long.mp4", video: "testsrc=size=320x240:rate=30:duration=20")
        let body = #"{"edit": {"clips": [{"path": "asset:long.mp4"}, {"path": "asset:long.mp4"}, {"path": "asset:long.mp4"}]}}"#
        let id = try XCTUnwrap(try Curl.request("\(server.base)/v1/renders", token: token, ["-X", "POST", "--data-binary", body]).json["id"] as? String)
        let deadline = Date().addingTimeInterval(10)
        while (try Curl.request("\(server.base)/v1/renders/\(id)", token: token).json["frames"] as? NSNumber)?.intValue ?? 0 == 0, Date() < deadline {
            usleep(20_000)
        }
        server.stop()
        let store = try RenderStore(path: "\(dir)/data/queue.sqlite3")
        XCTAssertEqual(try store.render(id)?.status, .queued)
        let run = try XCTUnwrap(try store.database.query("SELECT pid, exit_status, outcome FROM runs WHERE render_id = ?", [.text(id)]).first)
        XCTAssertEqual(run["outcome"]?.text, "interrupted")
        XCTAssertEqual(run["exit_status"]?.int, 143, "the child ended on its SIGTERM")
        XCTAssertEqual(kill(Int32(run["pid"]?.int ?? 0), 0), -1, "the child is gone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/data/jobs/\(id)"), ["edit.json"], "no temporary output left")
        try server.start()
        defer { server.stop() }
        let ended = try Curl.waitEnded(server, id, token: token, timeout: 60)
        XCTAssertEqual(ended["status"] as? String, "done")
        XCTAssertEqual((ended["frames"] as? NSNumber)?.intValue, 1800)
        XCTAssertEqual((ended["attempts"] as? NSNumber)?.intValue, 2)
    }
}
