import Foundation
import Synchronization
import SegueCore
import SegueEdit

/// Ends the process when a stage of a render runs past its deadline (`RenderOptions.frameTimeout`): a frame whose
/// shader never finishes, a decoder that stalls, a network mount that hangs. A GL draw cannot be interrupted (on
/// Mesa's llvmpipe a fragment shader that never ends blocks `glReadPixels` for good, and so the thread that called
/// it), so the watchdog does not wait for the stuck thread: it says what was running on standard error, removes the
/// render's temporary files (`SignalCleanup`'s table, as SIGINT does) and exits with status 1 (`_exit`, so that no
/// exit handler waits on the stuck thread).
///
/// One monitor thread per process, started on first use, looks at the armed timers every 20 ms.
public final class Watchdog: Sendable {
    /// What a timer is watching: the deadline (`DispatchTime` nanoseconds) and the message when it passes.
    private struct Entry {
        var deadline: UInt64
        var message: String
    }
    private static let entries = Mutex<(next: Int, armed: [Int: Entry])>((1, [:]))
    private static let monitor: Void = {
        let t = Thread {
            while true {
                usleep(20_000)
                let now = DispatchTime.now().uptimeNanoseconds
                if let late = entries.withLock({ $0.armed.values.first { $0.deadline <= now } }) { Watchdog.expire(late.message) }
            }
        }
        t.name = "segue-watchdog"
        t.start()
    }()

    /// The limit, seconds.
    public let seconds: Double
    /// What the limit is called in messages ("--frame-timeout 120 s").
    let limitName: String
    private let id: Int

    /// A timer of `seconds`, disarmed. `limitName` names the limit in the message.
    public init(seconds: Double, limitName: String? = nil) {
        self.seconds = seconds
        self.limitName = limitName ?? "the frame timeout (\(Watchdog.format(seconds)) s, --frame-timeout)"
        id = Watchdog.entries.withLock { e -> Int in e.next += 1; return e.next }
        _ = Watchdog.monitor
    }
    deinit { disarm() }

    /// Starts (or restarts) the countdown: if `disarm` or the next `arm` does not come within `seconds`, the process
    /// ends with "segue: `what` took longer than …" (`what`: "frame 45 (clip 1 b.mp4, …)").
    public func arm(_ what: String) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        Watchdog.entries.withLock { $0.armed[id] = Entry(deadline: deadline, message: message(what)) }
    }

    /// Changes what the message names, keeping the deadline (arms the countdown if it was not).
    public func describe(_ what: String) {
        let armed = Watchdog.entries.withLock { e -> Bool in
            guard e.armed[id] != nil else { return false }
            e.armed[id]!.message = message(what)
            return true
        }
        if !armed { arm(what) }
    }

    private func message(_ what: String) -> String {
        "segue: render failed: \(what) took longer than \(limitName): stopped (a GL draw cannot be interrupted); the temporary output was removed"
    }

    /// Stops the countdown.
    public func disarm() {
        _ = Watchdog.entries.withLock { $0.armed.removeValue(forKey: id) }
    }

    /// Runs `body` with the countdown armed for `what`.
    public func guarding<T>(_ what: String, _ body: () throws -> T) rethrows -> T {
        arm(what)
        defer { disarm() }
        return try body()
    }

    private static func expire(_ message: String) -> Never {
        let text = message + "\n"
        text.utf8CString.withUnsafeBufferPointer { p in _ = write(2, p.baseAddress, p.count - 1) }
        SignalCleanup.removeAll(keeping: false)   // a failed render keeps nothing, --keep-partial or not
        _exit(ExitStatus.failed)
    }

    static func format(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(format: "%.3g", s) }
}

/// What the render loop tells the watchdog about each frame (`RenderJob.encode`): the frame, the clips it shows and
/// the gl-transitions shaders being drawn (its own and the frame before's, whose readback overlaps it).
struct FrameWatch {
    let timeline: Timeline
    let watchdog: Watchdog?
    private var previousShaders: [String] = []

    init(timeline: Timeline, watchdog: Watchdog?) { self.timeline = timeline; self.watchdog = watchdog }

    /// Arms the watchdog for output frame `n`.
    mutating func start(frame n: Int64) {
        guard let watchdog else { return }
        let plan = timeline.plan(frame: n)
        let clips = plan.layers.filter { $0.content == .media && $0.clipIndex >= 0 }.map { layer -> String in
            let p = timeline.placements[layer.clipIndex]
            let name = URL(fileURLWithPath: p.spec.path).lastPathComponent
            return timeline.tracks.count == 1 ? "clip \(p.item) (\(name))" : "tracks[\(p.track)].clips[\(p.item)] (\(name))"
        }
        let shaders = plan.passes.compactMap { $0.transition?.shader.map { "the shader \($0.name) (\($0.field))" } }
        watchdog.arm("frame \(n), showing \(clips.joined(separator: " and "))" + FrameWatch.drawing(shaders + previousShaders.filter { !shaders.contains($0) }))
        previousShaders = shaders
    }

    /// Arms the watchdog for the end of the render: the last frame's readback and the encoder's flush.
    func finishing() {
        watchdog?.arm("finishing the output (the last frame's readback, the encoder's flush)" + FrameWatch.drawing(previousShaders))
    }

    static func drawing(_ shaders: [String]) -> String {
        shaders.isEmpty ? "" : ", drawing with " + shaders.joined(separator: " and ")
    }
}
