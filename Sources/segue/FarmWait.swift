import Foundation
import SegueCore
import SegueFarm
import SeguePipeline

/// `farm slurm|resume --wait`: follows the farm render in `work` (`Farm.status`, every `interval` seconds) until its
/// output is written or something failed, then exits as `farm status` does (0 written, 1 failed: the status printed).
/// With `--progress`, a report each time more chunks are done: the frames of the chunks done, of the plan's total.
/// - Throws: `UsageError` when `work` is not a farm's work folder.
func waitForFarm(_ work: String, progress style: ProgressStyle?, interval: Double = 2) throws -> Never {
    let plan = try ChunkPlanner.load(URL(fileURLWithPath: work).appendingPathComponent("plan.json").path)
    let total = plan.totalFrames, rate = FrameRate.parse(plan.frameRate)?.framesPerSecond ?? 0
    let report = progressPrinter(style ?? defaultProgressStyle())
    let started = Date()
    var reported: Int64 = -1
    while true {
        let st = try Farm.status(work)
        let doneChunks = Set(st.items.filter { $0.kind == "chunk" && $0.state == "done" }.compactMap(\.index))
        let done = plan.chunks.filter { doneChunks.contains($0.index) }.reduce(0) { $0 + $1.frames }
        let frames = st.done ? total : done
        if frames != reported, let report {
            reported = frames
            let elapsed = Date().timeIntervalSince(started), fps = elapsed > 0 ? Double(frames) / elapsed : 0
            report(RenderProgress(frame: frames, total: total, fps: fps, speed: rate > 0 ? fps / rate : 0, elapsed: elapsed,
                                  eta: fps > 0 ? Double(total - frames) / fps : .infinity, stage: st.done ? "done" : "render"))
        }
        if st.exitStatus != ExitStatus.pending {
            if !st.done { FileHandle.standardError.write(Data(st.text.utf8)) }
            exit(st.exitStatus)
        }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// `farm cancel WORK_DIR`: cancels every job the farm render in `work` submitted that the scheduler still lists
/// (`FarmEngine.cancel`); what was written stays.
/// - Throws: `UsageError` (not a work folder), `FarmError` (the scheduler refused).
func cancelFarm(_ work: String) throws {
    let state = try Farm.savedState(work)
    let name = state.engine ?? "slurm"
    guard let engine = FarmEngines.named(name) else { throw UsageError("\(work): its engine \(name) is not one this segue knows") }
    let jobs = Array(Set(state.submissions.map(\.jobID))).sorted()
    if !jobs.isEmpty { try engine.cancel(jobs, FarmLayout(work: URL(fileURLWithPath: work).standardizedFileURL.path)) }
    say("segue: cancelled \(jobs.count) job(s) of \(work)")
}
