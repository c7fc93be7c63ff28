import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueFarm
import SegueTestSupport

/// The engine-neutral farm (plan, `farm.json`, status from the chunk checks, resume) against a fake scheduler:
/// no cluster needed. The real Slurm run is `Tests/Farm/farm-test.sh`.
final class FarmEngineTests: EndToEndTestCase {
    /// A scheduler that runs nothing: it records what it is asked and lists the queue the test gives it.
    /// `@unchecked Sendable`: used by one test at a time, on the test's thread only.
    final class FakeEngine: FarmEngine, @unchecked Sendable {
        struct Submission: Equatable { let kind: FarmJobKind; let chunks: [Int]?; let after: [String]; let afterAny: [String]; let id: String }
        var name: String { "fake" }
        var chunkIndexVariable: String { "FAKE_INDEX" }
        var submissions: [Submission] = []
        var cancelled: [String] = []
        var scripts = 0
        var listed: [QueueEntry] = []
        func nodeCount() -> Int { 1 }
        func writeScripts(_ job: FarmJob) throws { scripts += 1 }
        func submit(_ kind: FarmJobKind, chunks: [Int]?, after: [String], afterAny: [String], job: FarmJob) throws -> String {
            let id = String(100 + submissions.count)
            submissions.append(Submission(kind: kind, chunks: chunks, after: after, afterAny: afterAny, id: id))
            return id
        }
        func manualSubmitCommands(_ job: FarmJob) -> [String] { ["fake-submit"] }
        func queue() -> [QueueEntry] { listed }
        func cancel(_ jobIDs: [String]) throws { cancelled += jobIDs }
    }

    func testStatusAndResumeWithAFakeEngine() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=64x48:r=30:d=1", audio: "sine=f=440:r=48000:d=1")
        try TestSupport.makeClip(path("b.mp4"), video: "smptebars=s=64x48:r=30:d=1", audio: "sine=f=660:r=48000:d=1")
        let editPath = path("edit.json")
        try Data(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "crossfade", "duration": 0.5}}], "output": {"codec": "ffv1"}}"#.utf8)
            .write(to: URL(fileURLWithPath: editPath))
        let edit = try EditFile.load(path: editPath)
        var options = FarmOptions()
        options.chunks = 3
        options.output = path("final.mkv")
        options.workDir = path("work")
        let fake = FakeEngine()
        var log: [String] = []
        let state = try Farm.submit(edit, editPath: editPath, options: options, engine: fake, segue: TestSupport.segueBinary,
                                    dryRun: false, log: { log.append($0) })
        XCTAssertEqual(state.engine, "fake")
        XCTAssertEqual(fake.scripts, 1)
        XCTAssertEqual(fake.submissions, [
            .init(kind: .chunks, chunks: [0, 1, 2], after: [], afterAny: [], id: "100"),
            .init(kind: .audio, chunks: nil, after: [], afterAny: [], id: "101"),
            .init(kind: .stitch, chunks: nil, after: ["100", "101"], afterAny: [], id: "102"),
        ])
        // Chunk 0 and the audio pass finish; chunk 1 is still running; chunk 2 died without a valid file.
        let work = path("work"), plan = try ChunkPlanner.load("\(work)/plan.json")
        var ro = RenderOptions()
        ro.backend = .cpu
        ro.log = { _ in }
        _ = try RenderJob.renderChunk(edit, plan: plan, index: 0, directory: "\(work)/chunks", options: ro)
        _ = try RenderJob.renderAudio(edit, to: "\(work)/chunks/\(plan.audio!.file)", plan: plan, options: ro)
        fake.listed = [QueueEntry(job: "100", task: 1, state: "RUNNING", reason: "None"),
                       QueueEntry(job: "102", task: nil, state: "PENDING", reason: "Dependency")]
        let st = try Farm.status(work, engine: fake)
        XCTAssertEqual(st.items.map { "\($0.kind)\($0.index.map(String.init) ?? "") \($0.state)" },
                       ["chunk0 done", "chunk1 running", "chunk2 failed", "audio done", "stitch pending"])
        XCTAssertEqual(st.failedChunks, [2])
        XCTAssertEqual(st.exitStatus, 1)
        // Resume: only chunk 2 again; the queued stitch is replaced by one that waits for the new chunk job (ok) and
        // for the array still running chunk 1 (any end: the stitch checks the chunks itself).
        try Farm.resume(work, engine: fake, log: { log.append($0) })
        XCTAssertEqual(fake.cancelled, ["102"])
        XCTAssertEqual(Array(fake.submissions.dropFirst(3)), [
            .init(kind: .chunks, chunks: [2], after: [], afterAny: [], id: "103"),
            .init(kind: .stitch, chunks: nil, after: ["103"], afterAny: ["100"], id: "104"),
        ])
        // farm.json kept every submission.
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/farm.json"))) as? [String: Any]
        XCTAssertEqual((saved?["submissions"] as? [Any])?.count, 5)
        // Chunks 1 and 2 running again, the stitch waiting, nothing failed: exit 3 (still going).
        fake.listed = [QueueEntry(job: "100", task: 1, state: "RUNNING", reason: "None"),
                       QueueEntry(job: "103", task: 2, state: "RUNNING", reason: "None"),
                       QueueEntry(job: "104", task: nil, state: "PENDING", reason: "Dependency")]
        let going = try Farm.status(work, engine: fake)
        XCTAssertEqual(going.items.map(\.state), ["done", "running", "running", "done", "pending"])
        XCTAssertEqual(going.exitStatus, ExitStatus.pending)
        XCTAssertEqual(going.exitStatus, 3)
        // All chunks rendered and the stitch written: done, exit 0; resume does nothing.
        for i in [1, 2] { _ = try RenderJob.renderChunk(edit, plan: plan, index: i, directory: "\(work)/chunks", options: ro) }
        fake.listed = []
        XCTAssertEqual(try Farm.status(work, engine: fake).items.filter { $0.kind == "chunk" }.map(\.state), ["done", "done", "done"])
        _ = try Stitcher.stitch(plan, planPath: "\(work)/plan.json", directory: "\(work)/chunks", audioPath: nil, to: path("final.mkv"))
        let done = try Farm.status(work, engine: fake)
        XCTAssertEqual(done.exitStatus, 0)
        try Farm.resume(work, engine: fake, log: { log.append($0) })
        XCTAssertEqual(fake.submissions.count, 5)
        XCTAssertTrue(log.contains { $0.contains("nothing to resume") }, "\(log)")
    }

    func testChunkIndexVariables() {
        XCTAssertEqual(FarmEngines.chunkIndexVariables, ["SEGUE_CHUNK_INDEX", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"])
        XCTAssertEqual(FarmEngines.named("slurm")?.name, "slurm")
        XCTAssertEqual(FarmEngines.named("local")?.runsHere, true)
        XCTAssertEqual(FarmEngines.named("slurm")?.runsHere, false)
        XCTAssertNil(FarmEngines.named("condor"))
    }
}
