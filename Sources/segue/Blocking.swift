import Foundation

/// Runs async library work (`ExportSession.export`, `resolve`, `renderFrame`, `probe`) from the command's synchronous
/// main thread and waits for it, returning its value or throwing its error.
///
/// Why not top-level `await` in `main.swift`: that parks the main thread in `dispatch_main`, which exits it with
/// `pthread_exit`, and valgrind 3.19 (`make leakcheck`) aborts on the next thread the process creates.
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>(), done = DispatchSemaphore(value: 0)
    Task.detached {
        do { outcome.result = .success(try await work()) } catch { outcome.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

/// `waitFor`'s result: written once by the task before `signal()`, read after `wait()`, never at once.
private final class Outcome<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
