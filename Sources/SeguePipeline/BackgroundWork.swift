import Foundation

/// A throwing computation run on a thread of its own from the moment it is made; `value()` waits for it and returns
/// its result or throws its error. Used where two independent passes of one render can overlap (a smart render's audio
/// pass beside its encoded stretches, the encoded stretches two at a time).
final class BackgroundWork<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?

    /// Starts `work` on a new thread (stack 8 MiB, as the main thread's).
    init(_ work: @escaping @Sendable () throws -> T) {
        let t = Thread { [self] in
            result = Result { try work() }
            done.signal()
        }
        t.stackSize = 8 << 20
        t.start()
    }

    /// Starts `work`, which is not `Sendable`, on a new thread: for work whose captures the caller knows are safe to
    /// share (immutable, or behind `Locked`) or used by that thread alone (a renderer of its own).
    convenience init(unchecked work: @escaping () throws -> T) {
        let box = Unchecked(work)
        self.init { try box.value() }
    }

    /// A value handed to another thread without the compiler's check.
    private final class Unchecked<V>: @unchecked Sendable {
        let value: V
        init(_ value: V) { self.value = value }
    }

    /// Waits for the work to end (any number of calls, from any threads: each returns the same result).
    /// - Throws: what the work threw.
    func value() throws -> T {
        done.wait()
        done.signal()
        return try result!.get()
    }
}

/// A value several threads read and change, behind a lock.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T { lock.lock(); defer { lock.unlock() }; return stored }
    /// Changes the value under the lock; returns what `body` returns.
    @discardableResult
    func update<R>(_ body: (inout T) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&stored) }
}
