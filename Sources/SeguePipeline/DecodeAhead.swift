import Foundation
import Synchronization

/// Produces the items for frames `frames` (in ascending order) on its own thread ("segue-decode"), at most
/// `depth` frames ahead of the consumer, so that decoding frame n + 1 … n + depth overlaps compositing frame n.
/// `RenderJob.encode` uses it with `FrameSource.frame(_:)`: the same calls in the same order as a loop on
/// one thread, so every frame gets the same pictures.
///
/// Bounded: items produced but not yet taken by `next()` (queued or being produced) never exceed `depth`. With
/// `weight` (an item's size in units, e.g. the full-size pictures it holds: two during a transition, one for a direct
/// frame), the thread also starts the next item only while the queued items' weight plus the last item's (what the
/// next one is expected to weigh) stays within `depth`, one item in flight always allowed: three single pictures ahead
/// as before, but one transition frame of two pictures (measured: 12 MB less peak RSS at 1080×1080 from two 1920×1080
/// clips, docs/performance.md).
/// The first error `produce` throws is thrown by the `next()` that asks for that frame (frames before it are
/// delivered first); the thread stops there. The consumer must call `cancel()` when done, after the last frame
/// or on an error (a `defer` does): it stops the thread and waits for it to return, so no thread outlives the
/// render. Use from one consumer thread.
///
/// `@unchecked Sendable`: the state is shared with the thread under `condition`, and `produce` (which need not be
/// `Sendable`: it captures the render's `FrameSource`) is called only on the thread, as its contract says.
final class DecodeAhead<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Result<Item, Error>] = []
    /// The weight of each item in `ready` (in order), their sum, and the last item's.
    private var readyWeights: [Int] = []
    private var readyWeight = 0
    private var lastWeight = 1
    private let weight: ((Item) -> Int)?
    /// Items started by the thread and not yet taken by `next()`.
    private var inFlight = 0
    private var cancelled = false
    private var finished = false
    private let depth: Int
    private var remaining: Int64
    /// Dropped by the thread before it says it has finished, so that what it captures (the render's `FrameSource`, its
    /// decoders and filter graphs) is released by the consumer, not by this thread after the render has returned: a
    /// `Thread` lets go of its closure (and so of this queue) only some time after its last line, possibly while the
    /// process is exiting.
    private var produce: ((Int64) throws -> Item)?

    /// The most items ever in flight (queued or being produced), for tests: never more than `depth`.
    private(set) var peakInFlight = 0
    /// Seconds the thread spent in `produce` (for `--verbose`).
    private(set) var busySeconds = 0.0

    /// Starts the thread. `produce` is called on it with each frame of `frames` in order; it and what it
    /// captures are used only there until `finish()`/`cancel()` returns.
    /// `weight`, when given, is called on the thread with each item it produced (at least 1 is counted).
    init(frames: Range<Int64>, depth: Int = 3, weight: ((Item) -> Int)? = nil, produce: @escaping (Int64) throws -> Item) {
        precondition(depth >= 1)
        self.depth = depth
        self.weight = weight
        self.produce = produce
        remaining = Int64(frames.count)
        DecodeThreads.started()
        // The thread holds the queue until it returns; `cancel` waits for that.
        let t = Thread { self.run(frames) }
        t.name = "segue-decode"
        t.stackSize = 8 << 20
        t.start()
    }

    /// The next frame's item, waiting for it if need be. Throws the error `produce` threw for that frame.
    func next() throws -> Item {
        condition.lock()
        defer { condition.unlock() }
        precondition(remaining > 0 && !cancelled, "DecodeAhead.next() past the last frame")
        while ready.isEmpty { condition.wait() }
        let r = ready.removeFirst()
        readyWeight -= readyWeights.removeFirst()
        inFlight -= 1
        remaining -= 1
        condition.broadcast()
        return try r.get()
    }

    /// Stops the thread (after the item it is producing) and waits until it has returned. Idempotent.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !finished { condition.wait() }
        ready.removeAll()
        readyWeights.removeAll()
        readyWeight = 0
        condition.unlock()
    }

    private static func weight(of r: Result<Item, Error>, _ weight: ((Item) -> Int)?) -> Int {
        guard let weight, case .success(let item) = r else { return 1 }
        return max(1, weight(item))
    }

    private func run(_ frames: Range<Int64>) {
        for n in frames {
            condition.lock()
            while (inFlight >= depth || (inFlight > 0 && readyWeight + lastWeight > depth)) && !cancelled { condition.wait() }
            if cancelled { condition.unlock(); break }
            inFlight += 1
            peakInFlight = max(peakInFlight, inFlight)
            condition.unlock()
            let t0 = DispatchTime.now().uptimeNanoseconds
            let result = Result { try produce!(n) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            let w = Self.weight(of: result, weight)
            condition.lock()
            busySeconds += seconds
            lastWeight = w
            readyWeight += w
            readyWeights.append(w)
            ready.append(result)
            condition.broadcast()
            condition.unlock()
            if case .failure = result { break }
        }
        DecodeThreads.ended()
        condition.lock()
        produce = nil
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Decode threads running now, all `DecodeAhead` queues together (tests check that none is left behind).
enum DecodeThreads {
    private static let live = Mutex(0)
    static var running: Int { live.withLock { $0 } }
    static func started() { live.withLock { $0 += 1 } }
    static func ended() { live.withLock { $0 -= 1 } }
}
