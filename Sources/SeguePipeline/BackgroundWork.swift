import Foundation

/// A throwing computation run on a thread of its own from the moment it is made; `value()` waits for it and returns
/// its result or throws its error. Used where two independent passes of one render can overlap (a smart render's audio
/// pass beside its encoded stretches).
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

    /// Waits for the work to end (once; later calls return the same result at once).
    /// - Throws: what the work threw.
    func value() throws -> T {
        if result == nil { done.wait() }
        return try result!.get()
    }
}
