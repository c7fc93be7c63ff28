import CFFmpeg
import Foundation
import SegueCore

/// What the reader threads hand the recording's thread, in arrival order.
enum LiveEvent {
    /// A packet of input `input`, read at `arrival` (`DispatchTime` uptime ns).
    case packet(input: Int, Packet, arrival: UInt64)
    /// Input `input` ended: nil at its end of stream, else why it failed; `timedOut` when it sent nothing for `timeout`.
    case ended(input: Int, MediaError?, timedOut: Bool)
    /// Input `input` was reopened after it failed (`--reconnect`): its new demuxer.
    case reopened(input: Int, LiveInputBox)
}

/// A `LiveInput` handed from its reader thread to the recording's thread. `@unchecked Sendable`: the reader thread
/// reads packets through it and the recording's thread reads only its streams' parameters, which libavformat does
/// not change after `avformat_find_stream_info`.
final class LiveInputBox: @unchecked Sendable {
    let input: LiveInput
    init(_ input: LiveInput) { self.input = input }
}

/// The reader threads' queue to the recording's thread: unbounded in time (a live source cannot wait), bounded in
/// count (`capacity` packets, past which new packets are refused and counted: the recording is hopelessly behind).
/// `@unchecked Sendable`: every field under `condition`.
final class LiveEventQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [LiveEvent] = []
    private var head = 0
    let capacity: Int
    /// Packets refused because the queue was full.
    private(set) var overflowed: Int64 = 0

    init(capacity: Int = 50_000) { self.capacity = capacity }

    func push(_ e: LiveEvent) {
        condition.lock()
        defer { condition.unlock() }
        if case .packet = e, items.count - head >= capacity { overflowed += 1; return }
        items.append(e)
        condition.signal()
    }

    /// The next event, or nil after `timeout` seconds without one.
    func pop(timeout: Double) -> LiveEvent? {
        condition.lock()
        defer { condition.unlock() }
        let until = Date(timeIntervalSinceNow: timeout)
        while head >= items.count {
            if !condition.wait(until: until) { return nil }
        }
        let e = items[head]
        head += 1
        if head > 1024 && head * 2 > items.count { items.removeFirst(head); head = 0 }
        return e
    }

    /// Seconds the oldest queued packet has waited (0 when none): how far the recording is behind the source.
    var backlogSeconds: Double {
        condition.lock()
        defer { condition.unlock() }
        for i in head..<items.count { if case .packet(_, _, let t) = items[i] { return Double(DispatchTime.now().uptimeNanoseconds - min(t, DispatchTime.now().uptimeNanoseconds)) / 1e9 } }
        return 0
    }
}

/// One input's clock: maps its timestamps onto the take's, from the moment it joined (`origin`), and smooths over
/// jumps (a sender restarted, a splice, a wrap libavformat did not correct): a decoding timestamp more than 0.5 s
/// before the last one of its stream, or more than 5 s past where the stream should be next, moves the input's
/// offset so that the packet follows the last one by its duration. Times in µs.
struct InputClock {
    /// µs to add to the input's timestamps (in µs) to get take time.
    private(set) var offset: Int64 = 0
    private(set) var joined = false
    private(set) var jumps = 0
    private var last: [Int32: (dts: Int64, duration: Int64)] = [:]

    /// Joins: the input's time `sourceUS` is take time `takeUS`.
    mutating func join(sourceUS: Int64, takeUS: Int64) {
        offset = takeUS - sourceUS
        joined = true
        last = [:]
    }

    /// Forgets the input's timing (a reconnected source starts a new clock); `join` again.
    mutating func reset() { joined = false; last = [:] }

    /// The take time of a packet of `stream` with decoding time `dtsUS` (µs, the input's clock) and `durationUS`,
    /// after moving the offset over a jump.
    mutating func map(stream: Int32, dtsUS: Int64, durationUS: Int64) -> Int64 {
        var t = dtsUS + offset
        if let l = last[stream] {
            let expected = l.dts + max(0, l.duration)
            if t < l.dts - 500_000 || t > expected + 5_000_000 {
                offset += expected - t
                t = expected
                jumps += 1
            }
        }
        last[stream] = (t, durationUS)
        return t
    }
}
