import XCTest
import Segue
import SegueTestSupport

/// Issue 15 #5: Segue as a Swift library — an edit built in code, resolved, rendered with async progress and `Task`
/// cancellation, one frame, a probe; and the same bytes from the same edit twice in one process.
final class LibraryTests: EndToEndTestCase {
    func threeClips(seconds: Int = 1, size: String = "96x64") throws -> Edit {
        for (k, source) in ["testsrc2", "smptebars", "rgbtestsrc"].enumerated() {
            try TestSupport.makeClip(path("c\(k).mp4"), video: "\(source)=s=\(size):r=30:d=\(seconds)",
                                     audio: "sine=f=\(440 + 220 * k):r=48000:d=\(seconds)")
        }
        var edit = Edit(clips: [ClipSpec(path: path("c0.mp4")),
                                ClipSpec(path: path("c1.mp4"), transition: Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 2))),
                                ClipSpec(path: path("c2.mp4"), transition: Transition(kind: .push, duration: MediaTime(value: 1, timescale: 4), direction: .up))])
        edit.frameRate = FrameRate(30)
        return edit
    }

    func cpu() -> ExportOptions {
        var o = ExportOptions()
        o.backend = .cpu
        return o
    }

    func testExportReportsMonotonicProgressEndingAtTheTotal() async throws {
        let edit = try threeClips()
        let timeline = try await resolve(edit)
        XCTAssertEqual(timeline.frameCount, 68)   // 3 s − 0.5 s − 0.25 s = 2.25 s at 30 fps, rounded to whole frames
        let out = path("out.mp4")
        let session = ExportSession(edit: edit, outputPath: out, options: cpu())
        async let exported = session.export()
        var seen: [RenderProgress] = []
        for await p in session.progress { seen.append(p) }
        let result = try await exported
        XCTAssertEqual(result.frames, timeline.frameCount)
        XCTAssertGreaterThan(seen.count, 1)
        XCTAssertEqual(seen.map(\.frame), seen.map(\.frame).sorted(), "progress never goes back")
        XCTAssertTrue(seen.allSatisfy { $0.total == timeline.frameCount })
        XCTAssertEqual(seen.last?.stage, "done")
        XCTAssertEqual(seen.last?.frame, timeline.frameCount)
        XCTAssertEqual(seen.filter { $0.stage == "done" }.count, 1)
        let probed = try TestSupport.ffprobe(out, "stream=nb_read_frames", count: true)
        XCTAssertEqual(probed["nb_read_frames"], "\(timeline.frameCount)")
        // One session exports once.
        do { try await session.export(); XCTFail("exported twice") } catch let e as UsageError {
            XCTAssertTrue(e.message.contains("exported already"), e.message)
        }
        // The same edit again, in this process: the same bytes.
        try await ExportSession(edit: edit, outputPath: path("again.mp4"), options: cpu()).export()
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: path("again.mp4"))))
    }

    /// Cancelling the export's task stops the render before its next frame, removes the temporary file, leaves an
    /// existing file alone, and throws `CancellationError`.
    func testCancellingTheTaskStopsTheRenderAndLeavesNoFile() async throws {
        let edit = try threeClips(seconds: 6, size: "640x360")
        let out = path("long.mp4")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let session = ExportSession(edit: edit, outputPath: out, options: cpu())
        let render = Task { try await session.export() }
        var last: RenderProgress?
        var frameOne: Date?
        for await p in session.progress {
            last = p
            if p.frame >= 1 && frameOne == nil { frameOne = Date() }
            if p.frame >= 3 { break }
        }
        // "At its next frame" measured, not assumed: a frame of this machine, under whatever load it has now.
        let perFrame = Date().timeIntervalSince(try XCTUnwrap(frameOne)) / Double(max(1, last!.frame - 1))
        let total = try XCTUnwrap(last).total
        let cancelledAt = Date()
        render.cancel()
        do {
            _ = try await render.value
            XCTFail("a cancelled export finished")
        } catch is CancellationError {
        } catch {
            XCTFail("expected CancellationError, got \(error)")
        }
        let took = Date().timeIntervalSince(cancelledAt)
        XCTAssertLessThan(took, 1.0 + 4 * perFrame, "the render stops at its next frame (\(perFrame) s a frame)")
        print(String(format: "cancelled after frame %lld of %lld; returned %.3f s after cancel()", last!.frame, total, took))
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "precious")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }, [], "no temporary file left")
        // A task cancelled before it starts renders nothing.
        let never = path("never.mp4"), options = cpu()
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await ExportSession(edit: edit, outputPath: never, options: options).export()
        }
        do { _ = try await early.value; XCTFail("rendered") } catch is CancellationError {}
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("never.mp4")))
    }

    func testOneFrameAndAProbe() async throws {
        let edit = try threeClips()
        // 0.75 s into the crossfade [0.5, 1.0): frame 22, both clips.
        let f = try await renderFrame(edit, .time(MediaTime(value: 3, timescale: 4)), options: cpu())
        XCTAssertEqual(f.frame, 22)
        XCTAssertEqual(f.image.width, 96)
        XCTAssertEqual(f.image.height, 64)
        let again = try await renderFrame(edit, .frame(22), options: cpu())
        XCTAssertEqual(again.image, f.image)
        do { _ = try await renderFrame(edit, .frame(68), options: cpu()); XCTFail("frame past the end") } catch let e as UsageError {
            XCTAssertTrue(e.message.contains("outside the edit (0…67)"), e.message)
        }
        let report = try await probe(path("c1.mp4"))
        XCTAssertEqual(report.video?.displayWidth, 96)
        XCTAssertEqual(report.audio.count, 1)
        do { _ = try await probe(path("none.mp4")); XCTFail("probed a missing file") } catch let e as MediaError {
            XCTAssertEqual(e.exitStatus, 1)
        }
    }
}
