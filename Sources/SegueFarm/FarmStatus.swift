import Foundation
import SegueCore
import SeguePipeline

/// Where a farm render stands: each chunk, the audio pass and the stitch, from the files in the work folder
/// (verified, never trusting exit codes) and from `squeue` for what is still queued or running.
public struct FarmStatus: Codable, Sendable {
    public struct Item: Codable, Sendable {
        /// "chunk", "audio" or "stitch".
        public let kind: String
        public let index: Int?
        /// "done", "pending", "running", "failed" or "not submitted".
        public let state: String
        /// Why, in words (the chunk check's finding, Slurm's reason, the last log line).
        public let detail: String
    }
    public let work: String
    public let output: String
    public let items: [Item]
    public var failedChunks: [Int] { items.filter { $0.kind == "chunk" && ["failed", "not submitted"].contains($0.state) }.compactMap(\.index) }
    public var done: Bool { items.first { $0.kind == "stitch" }?.state == "done" }
    /// For scripts: 0 the output is written, 3 work is still queued or running and nothing has failed, 1 something
    /// failed or was never submitted (`farm resume` submits it).
    public var exitStatus: Int32 {
        if done { return 0 }
        if items.contains(where: { ["failed", "not submitted"].contains($0.state) }) { return ExitStatus.failed }
        return ExitStatus.pending
    }

    public var text: String {
        var s = "segue farm \(work) → \(output)\n"
        for i in items {
            let name = i.kind == "chunk" ? "chunk \(i.index!)" : i.kind
            s += "  \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(i.state.padding(toLength: 13, withPad: " ", startingAt: 0)) \(i.detail)\n"
        }
        let failed = failedChunks
        if !failed.isEmpty { s += "failed chunks: \(Farm.compactRanges(failed)); `segue farm resume \(shellQuoted(work))` submits them again\n" }
        return s
    }
}

extension Farm {
    /// The status of the farm render in `work`.
    /// - Parameter engine: the scheduler to ask (default: the one `farm.json` names; tests pass a fake).
    /// - Throws: `UsageError` if `work` is not a farm work folder.
    public static func status(_ work: String, engine: FarmEngine? = nil) throws -> FarmStatus {
        let (state, plan, layout, named) = try load(work, engine: engine)
        return status(state, plan, layout, queue: named.queue(layout))
    }

    static func status(_ state: FarmState, _ plan: ChunkPlan, _ layout: FarmLayout, queue: [QueueEntry]) -> FarmStatus {
        let active = queue.filter(\.active)
        func entry(_ kind: FarmJobKind, task: Int? = nil) -> QueueEntry? {
            // The newest submission that covers it and is still in the queue.
            for s in state.submissions.reversed() where s.kind == kind && (task == nil || s.indices?.contains(task!) == true) {
                if let e = active.first(where: { $0.job == s.jobID && (task == nil || $0.task == task || $0.task == nil) }) { return e }
            }
            return nil
        }
        // The output counts only if it was written after this plan (not left over from an earlier run).
        let output = state.options.output
        func modified(_ p: String) -> Date? { (try? FileManager.default.attributesOfItem(atPath: p))?[.modificationDate] as? Date }
        let stitched = modified(output).map { written in modified(layout.plan).map { written >= $0 } ?? false } ?? false
        var items: [FarmStatus.Item] = []
        for chunk in plan.chunks {
            switch ChunkRender.verify(chunk, in: layout.chunks, plan: plan) {
            case .success(let r):
                items.append(.init(kind: "chunk", index: chunk.index, state: "done",
                                   detail: String(format: "frames [%lld, %lld), %.1f s on %@", r.start, r.end, r.seconds, r.host)))
            case .failure(let p) where stitched:
                // Removed (or changed) after the stitch: what it held is in the output, nothing to submit again.
                items.append(.init(kind: "chunk", index: chunk.index, state: "done", detail: "stitched into the output; its file now: \(p.reason)"))
            case .failure(let p):
                if let e = entry(.chunks, task: chunk.index) {
                    items.append(.init(kind: "chunk", index: chunk.index, state: e.state.lowercased(), detail: "job \(e.job)_\(chunk.index) (\(e.reason))"))
                } else {
                    let submitted = state.submissions.contains { $0.kind == .chunks && $0.indices?.contains(chunk.index) == true }
                    let last = lastLogLine(layout.logs, index: chunk.index).map { "; last log line: \($0)" } ?? ""
                    items.append(.init(kind: "chunk", index: chunk.index, state: submitted ? "failed" : "not submitted", detail: p.reason + last))
                }
            }
        }
        func submitted(_ kind: FarmJobKind) -> Bool { state.submissions.contains { $0.kind == kind } }
        if plan.audio != nil {
            let path = "\(layout.chunks)/\(plan.audio!.file)"
            let problem = ChunkRender.verifyAudio(plan, at: path)
            if let why = problem, stitched {
                items.append(.init(kind: "audio", index: nil, state: "done", detail: "stitched into the output; its file now: \(why)"))
            } else if let why = problem {
                if let e = entry(.audio) {
                    items.append(.init(kind: "audio", index: nil, state: e.state.lowercased(), detail: "job \(e.job) (\(e.reason))"))
                } else {
                    items.append(.init(kind: "audio", index: nil, state: submitted(.audio) ? "failed" : "not submitted",
                                       detail: "\(why); see the audio job's log in \(layout.logs)"))
                }
            } else {
                items.append(.init(kind: "audio", index: nil, state: "done", detail: path))
            }
        }
        if stitched {
            items.append(.init(kind: "stitch", index: nil, state: "done", detail: output))
        } else if let e = entry(.stitch) {
            items.append(.init(kind: "stitch", index: nil, state: e.state.lowercased(), detail: "job \(e.job) (\(e.reason))"))
        } else if !submitted(.stitch) {
            items.append(.init(kind: "stitch", index: nil, state: "not submitted", detail: "`segue farm resume \(shellQuoted(layout.work))` submits it"))
        } else {
            let stale = modified(output) != nil ? "; \(output) is from an earlier run" : ""
            items.append(.init(kind: "stitch", index: nil, state: "failed",
                               detail: "not written (cancelled when a chunk failed for good, or see the stitch job's log in \(layout.logs))\(stale)"))
        }
        return FarmStatus(work: layout.work, output: output, items: items)
    }

    static func lastLogLine(_ logs: String, index: Int) -> String? {
        let prefix = ChunkPlan.stem(index: index) + ".attempt"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: logs)) ?? []).filter { $0.hasPrefix(prefix) }
        guard let newest = files.max(by: { (Int($0.dropFirst(prefix.count).dropLast(4)) ?? 0) < (Int($1.dropFirst(prefix.count).dropLast(4)) ?? 0) }),
              let text = try? String(contentsOfFile: "\(logs)/\(newest)", encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("segue: exit status") }
        return lines.last.map { "\(newest): \($0)" }
    }

    /// Submits again only what failed: the failed chunks, the audio pass if it is missing, and a new stitch job
    /// (after the new jobs succeed and the ones still queued finish). Does nothing if the output is there.
    /// - Parameter engine: the scheduler (default: the one `farm.json` names; tests pass a fake).
    /// - Returns: the status before resuming.
    @discardableResult
    public static func resume(_ work: String, engine: FarmEngine? = nil, log: (String) -> Void) throws -> FarmStatus {
        var (state, plan, layout, engine) = try load(work, engine: engine)
        let q = engine.queue(layout)
        let st = status(state, plan, layout, queue: q)
        if st.done { log("segue: \(state.options.output) is already written; nothing to resume"); return st }
        let redo = st.items.filter { $0.kind == "chunk" && ["failed", "not submitted"].contains($0.state) }.compactMap(\.index)
        let audio = st.items.contains { $0.kind == "audio" && ["failed", "not submitted"].contains($0.state) }
        let activeJobs = Set(q.filter(\.active).map(\.job))
        let stitchJobs = state.submissions.filter { $0.kind == .stitch && activeJobs.contains($0.jobID) }.map(\.jobID)
        if redo.isEmpty && !audio && !stitchJobs.isEmpty {
            log("segue: nothing failed; the stitch (job \(stitchJobs.joined(separator: ", "))) is still queued")
            return st
        }
        // A new stitch replaces the old one.
        try engine.cancel(stitchJobs, layout)
        let waitFor = state.submissions.filter { $0.kind != .stitch && activeJobs.contains($0.jobID) }.map(\.jobID)
        try submitJobs(&state, engine: engine, layout: layout, plan: plan, chunkIndices: redo, audio: audio, waitFor: waitFor, log: log)
        return st
    }
}
