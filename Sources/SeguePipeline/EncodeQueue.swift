import Foundation

/// Runs encoder work (video frames, audio blocks: everything that touches one `MediaWriter`) in order on its
/// own thread, so that compositing the next frame overlaps encoding this one. Bounded: `submit` waits while
/// `capacity` items are queued, so memory stays at a few frames.
///
/// The first error the work throws is kept; later work is skipped, and the error is thrown by the next
/// `submit` or by `finish`. Use from one thread.
///
/// `@unchecked Sendable`: shared with its thread, every field under `condition`; the work items (which touch the
/// non-Sendable `MediaWriter`) run only on that thread, in order.
final class EncodeQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [() throws -> Void] = []
    private var error: Error?
    private var closed = false
    private var busy = false
    private let capacity: Int

    init(capacity: Int = 3) {
        self.capacity = capacity
        // The thread holds the queue until it has seen `closed` and returned (finish or cancel). The queue keeps
        // no reference to the thread: that would be a cycle (queue → thread → its closure → queue) and leak both.
        let t = Thread { self.run() }
        t.name = "segue-encode"
        t.start()
    }

    /// Queues `work`; waits while the queue is full. Throws the error of earlier work, if any.
    func submit(_ work: @escaping () throws -> Void) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && error == nil { condition.wait() }
        if let e = error { throw e }
        items.append(work)
        condition.broadcast()
    }

    /// Waits until all queued work has run and stops the thread. Throws the first error the work threw.
    func finish() throws {
        condition.lock()
        closed = true
        condition.broadcast()
        while !items.isEmpty || busy { condition.wait() }
        let e = error
        condition.unlock()
        if let e = e { throw e }
    }

    /// Stops without running what is still queued (after an error elsewhere); waits for the running item.
    func cancel() {
        condition.lock()
        items.removeAll()
        closed = true
        condition.broadcast()
        while busy { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while items.isEmpty && !closed { condition.wait() }
            if items.isEmpty && closed { condition.unlock(); return }
            let work = items.removeFirst()
            busy = true
            let skip = error != nil
            condition.broadcast()
            condition.unlock()
            var failure: Error?
            if !skip { do { try work() } catch { failure = error } }
            condition.lock()
            if let f = failure, error == nil { error = f }
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
