import Foundation
import SegueGL

/// Runs blocking work (FFmpeg, EGL, encoding) on a thread of its own, not on the concurrency pool, and waits for it
/// without blocking the caller's. A GL context is current on one thread: the whole job stays on this one.
///
/// The caller resumes only after that thread has ended (it is joined): its EGL state released (`EGLSession
/// .releaseThread`) and its thread-local destructors run. Resuming from inside the thread, as this did before, let a
/// program that exits at once (a library user's, after a render error) run the process's exit handlers while the
/// thread was still tearing down: libEGL (libglvnd) freed its per-thread list in both at once and the process died
/// of SIGSEGV about once in 40 runs under load (5 of 200; 0 of 500 after; see `ExitTests`).
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
        let outcome = OwnThreadOutcome<T>()
        let worker: pthread_t
        do {
            worker = try OwnThread.start(name: "segue", stackSize: 16 << 20) {
                let result = Result { try work() }
                EGLSession.releaseThread()
                outcome.result = result
            }
        } catch {
            continuation.resume(throwing: error)
            return
        }
        // A second thread waits for the worker to end (pthread_join: its destructors have run) and resumes the caller.
        let joiner = Thread {
            pthread_join(worker, nil)
            continuation.resume(with: outcome.result!)
        }
        joiner.name = "segue-join"
        joiner.start()
    }
}

/// The worker's result: written once by it before it ends, read by the joiner after `pthread_join`.
private final class OwnThreadOutcome<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}

/// Joinable POSIX threads (Foundation's `Thread` cannot be joined).
enum OwnThread {
    private final class Body {
        let run: () -> Void
        let name: String
        init(_ run: @escaping () -> Void, name: String) { self.run = run; self.name = name }
    }

    /// Starts `body` on a new joinable thread named `name` with a stack of `stackSize` bytes; the caller must
    /// `pthread_join` it. Wraps `pthread_create`. - Throws: `MediaError` when the thread cannot be made.
    static func start(name: String, stackSize: Int, _ body: @escaping () -> Void) throws -> pthread_t {
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setstacksize(&attr, stackSize)
        let context = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attr, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            Thread.current.name = body.name
            body.run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw MediaError(path: nil, function: "pthread_create", message: "cannot start a thread: \(String(cString: strerror(rc)))")
        }
        return thread
    }
}
