import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SegueTestSupport
@testable import SeguePipeline

/// The decode thread: items come in order, the queue stays bounded, errors surface at their frame, and no
/// thread is left behind (after the end, an error, or a cancel).
final class DecodeAheadTests: EndToEndTestCase {
    struct Boom: Error, Equatable { let n: Int64 }

    /// Waits (up to 10 s) until `condition` holds.
    private func eventually(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(1000) }
    }

    func testItemsComeInOrderAndTheQueueStaysBounded() throws {
        let lock = NSLock()
        var produced: [Int64] = []
        let q = DecodeAhead(frames: 10..<60, depth: 3) { n -> Int64 in
            lock.lock(); produced.append(n); lock.unlock()
            return n * 2
        }
        // The consumer takes nothing yet: the thread stops after `depth` items.
        eventually { lock.lock(); defer { lock.unlock() }; return produced.count >= 3 }
        usleep(50_000)
        lock.lock(); XCTAssertEqual(produced, [10, 11, 12]); lock.unlock()
        var got: [Int64] = []
        for i in 0..<50 {
            if i % 7 == 0 { usleep(2000) }
            got.append(try q.next())
        }
        q.cancel()
        XCTAssertEqual(got, (10..<60).map { $0 * 2 })
        XCTAssertEqual(produced, Array(10..<60))
        XCTAssertEqual(q.peakInFlight, 3)
        XCTAssertEqual(DecodeThreads.running, 0)
    }

    /// Weighed items: three of weight 1 ahead, but a heavy item (a transition's two pictures) only while the queue is
    /// light: the thread waits until the queued weight plus the last item's fits the depth.
    func testHeavyItemsAreDecodedLessFarAhead() throws {
        let lock = NSLock()
        var produced: [Int64] = []
        let q = DecodeAhead(frames: 0..<10, depth: 3, weight: { n in n < 3 ? 1 : 2 }) { n -> Int64 in
            lock.lock(); produced.append(n); lock.unlock()
            return n
        }
        func settled(_ count: Int) -> [Int64] {
            eventually { lock.lock(); defer { lock.unlock() }; return produced.count >= count }
            usleep(50_000)
            lock.lock(); defer { lock.unlock() }; return produced
        }
        XCTAssertEqual(settled(3), [0, 1, 2], "three light items ahead")
        XCTAssertEqual(try q.next(), 0)
        XCTAssertEqual(settled(4), [0, 1, 2, 3], "queued 1 + 1 and the last item's 1: within 3")
        XCTAssertEqual(try q.next(), 1)
        XCTAssertEqual(try q.next(), 2)
        XCTAssertEqual(settled(4), [0, 1, 2, 3], "queued 2 (item 3) + the last item's 2: over 3, waits")
        XCTAssertEqual(try q.next(), 3)
        XCTAssertEqual(settled(5), [0, 1, 2, 3, 4], "one heavy item ahead at a time")
        for n in 4..<10 { XCTAssertEqual(try q.next(), Int64(n)) }
        q.cancel()
        XCTAssertEqual(produced, Array(0..<10))
        XCTAssertEqual(DecodeThreads.running, 0)
    }

    func testAnErrorSurfacesAtItsFrameAndStopsTheThread() throws {
        let lock = NSLock()
        var calls: [Int64] = []
        let q = DecodeAhead(frames: 0..<100, depth: 2) { n -> Int64 in
            lock.lock(); calls.append(n); lock.unlock()
            if n == 5 { throw Boom(n: n) }
            return n
        }
        for n in 0..<5 { XCTAssertEqual(try q.next(), Int64(n)) }
        XCTAssertThrowsError(try q.next()) { XCTAssertEqual($0 as? Boom, Boom(n: 5)) }
        q.cancel()
        XCTAssertEqual(calls, Array(0...5), "nothing is decoded after the failing frame")
        XCTAssertEqual(DecodeThreads.running, 0)
    }

    func testCancelWithAFullQueueReturnsAndEndsTheThread() throws {
        var produced = 0
        let lock = NSLock()
        let q = DecodeAhead(frames: 0..<1000, depth: 4) { n -> [UInt8] in
            lock.lock(); produced += 1; lock.unlock()
            return [UInt8](repeating: UInt8(n & 255), count: 1 << 16)
        }
        XCTAssertEqual(try q.next().first, 0)
        eventually { lock.lock(); defer { lock.unlock() }; return produced >= 5 }
        q.cancel()
        q.cancel()
        XCTAssertEqual(produced, 5, "one taken + four in flight")
        XCTAssertEqual(q.peakInFlight, 4)
        XCTAssertEqual(DecodeThreads.running, 0)
    }

    /// Decoding one frame ahead or four gives the same file, byte for byte (same pictures for every frame; the
    /// MP4 writer is deterministic, Matroska's is not).
    func testTheDepthDoesNotChangeTheOutput() throws {
        let a = try cornerClip("a.mp4", size: "96x64", seconds: 2), b = try cornerClip("b.mp4", size: "64x96", seconds: 2)
        var e = Edit(clips: [clip(a, start: 0.3, duration: 1.2), clip(b, tr(.push, 0.5, .left)), clip(a, tr(.crossfade, 0.4))])
        e.frameRate = FrameRate(30000, 1001)
        e.renderSize = PixelSize(width: 64, height: 48)
        let timeline = try RenderJob.resolve(e)
        var o = RenderOptions()
        o.backend = .cpu
        var files: [Data] = []
        for depth in [1, 4] {
            let out = path("depth\(depth).mp4")
            let r = try RenderJob.encode(timeline, renderer: RenderJob.makeRenderer(o), to: out, options: o, decodeAheadDepth: depth)
            XCTAssertEqual(r.frames, timeline.frameCount)
            files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        XCTAssertEqual(files[0], files[1])
        XCTAssertEqual(DecodeThreads.running, 0)
    }

    /// A file used by several clips is probed once per colour override (each probe runs FFmpeg's stream analysis,
    /// which decodes up to seven pictures of an H.264 stream), and every clip gets the same source facts.
    func testEachFileIsProbedOncePerColourOverride() throws {
        let a = try cornerClip("a.mp4", size: "96x64", seconds: 2), b = try cornerClip("b.mp4", size: "64x96", seconds: 2)
        var full = ColourOverride()
        full.range = .full
        var tinted = clip(a, start: 1, duration: 0.5)
        tinted.colour = full
        let e = Edit(clips: [clip(a, duration: 0.6), clip(b, duration: 0.6), clip(a, start: 0.5, duration: 0.6), tinted,
                             clip(a, tr(.crossfade, 0.2))])
        var opened: [String] = []
        let timeline = try RenderJob.resolve(e, probe: { spec in
            opened.append((spec.path as NSString).lastPathComponent + (spec.colour == nil ? "" : " full range"))
            return try probeSource(path: spec.path, colourOverride: spec.colour)
        })
        XCTAssertEqual(opened, ["a.mp4", "b.mp4", "a.mp4 full range"])
        XCTAssertEqual(timeline.placements.map { $0.source.codedSize.width }, [96, 64, 96, 96, 96])
        XCTAssertEqual(timeline.placements[3].source.colour?.range, .full)
        XCTAssertEqual(timeline.placements[2].source.colour?.range, .limited)
        XCTAssertEqual(timeline.placements[2].source.colour, timeline.placements[0].source.colour)
    }

    /// A clip that disappears mid-render: the decode thread's error reaches the caller as it would without the
    /// thread (a `MediaError` naming the file, at the first frame that needs the clip), the temporary file is
    /// removed and no thread is left behind.
    func testAnErrorMidRenderPropagatesAndCleansUp() throws {
        let a = try cornerClip("a.mp4", seconds: 2), b = try cornerClip("b.mp4", seconds: 2)
        var e = Edit(clips: [clip(a, duration: 1), clip(b, tr(.crossfade, 0.5))])
        e.frameRate = FrameRate(30)
        var o = RenderOptions()
        o.backend = .cpu
        o.log = { _ in }
        let rendered = Collected<[Int64]>([])
        o.onFrame = { n, _ in
            rendered.update { $0.append(n) }
            if n == 0 { unlink(b) }
        }
        let out = path("out.mp4")
        XCTAssertThrowsError(try RenderJob.render(e, to: out, options: o)) { error in
            guard let m = error as? MediaError else { return XCTFail("expected a MediaError, got \(error)") }
            XCTAssertEqual(m.path, b)
            XCTAssertTrue("\(m)".contains("No such file or directory"), "\(m)")
        }
        // Clip b first shows at 0.5 s: frames 0…14 were drawn, frame 15 failed.
        XCTAssertEqual(rendered.value, Array(0..<15))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".segue-") }, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(DecodeThreads.running, 0)
    }
}
