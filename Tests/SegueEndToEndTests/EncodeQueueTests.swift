import XCTest
@testable import SeguePipeline

/// The encode thread: work runs in order, the queue stays bounded, and the first error surfaces.
final class EncodeQueueTests: XCTestCase {
    struct Boom: Error, Equatable { let n: Int }

    func testWorkRunsInOrderAndFinishWaitsForIt() throws {
        let q = EncodeQueue(capacity: 2)
        let lock = NSLock()
        var done: [Int] = []
        for i in 0..<200 {
            try q.submit {
                if i % 50 == 0 { usleep(2000) }
                lock.lock(); done.append(i); lock.unlock()
            }
        }
        try q.finish()
        XCTAssertEqual(done, Array(0..<200))
    }

    func testTheFirstErrorIsThrownAndLaterWorkSkipped() throws {
        let q = EncodeQueue(capacity: 1)
        let lock = NSLock()
        var ran: [Int] = []
        var thrown: Error?
        for i in 0..<50 {
            do {
                try q.submit {
                    lock.lock(); ran.append(i); lock.unlock()
                    if i == 3 || i == 4 { throw Boom(n: i) }
                }
            } catch { thrown = error; break }
        }
        XCTAssertThrowsError(try q.finish()) { XCTAssertEqual($0 as? Boom, Boom(n: 3)) }
        if let t = thrown { XCTAssertEqual(t as? Boom, Boom(n: 3)) }
        // Nothing after the failing item ran.
        XCTAssertEqual(ran, [0, 1, 2, 3])
    }

    /// Found by `make leakcheck`: the queue held its thread and the thread's closure held the queue, so every render
    /// leaked one. Once finished (or cancelled) and dropped, the queue must go away when its thread returns.
    func testAFinishedOrCancelledQueueIsFreed() throws {
        weak var finished: EncodeQueue?, cancelled: EncodeQueue?
        do {
            let a = EncodeQueue(), b = EncodeQueue()
            finished = a; cancelled = b
            try a.submit {}
            try a.finish()
            try b.submit { usleep(1000) }
            b.cancel()
        }
        // The threads return right after seeing `closed`; give them up to 2 s.
        for _ in 0..<200 where finished != nil || cancelled != nil { usleep(10_000) }
        XCTAssertNil(finished, "a finished EncodeQueue was never freed")
        XCTAssertNil(cancelled, "a cancelled EncodeQueue was never freed")
    }
}
