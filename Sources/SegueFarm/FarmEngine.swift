import Foundation
import SegueCore
import SeguePipeline

/// A job scheduler that runs Segue's chunk renders, audio pass and stitch: what differs between Slurm, Kubernetes
/// Indexed Jobs, OpenJD/Deadline, HTCondor and the like. Everything else — the plan, the work folder, `farm.json`,
/// status from the chunk checks, resume — is engine-neutral (`Farm`). Adding an engine is one type implementing this
/// protocol plus a line in `FarmEngines.all`.
public protocol FarmEngine: Sendable {
    /// The name on the command line (`segue farm NAME`) and in `farm.json`: "slurm".
    var name: String { get }
    /// The environment variable a worker reads its chunk index from (`segue render --chunk auto`).
    var chunkIndexVariable: String { get }
    /// How many nodes the cluster has (0 when unknown), for the shared-filesystem check.
    func nodeCount() -> Int
    /// Whether every job runs on this machine, and `submit` of the stitch returns once the work is over (no shared
    /// filesystem to check, nothing to follow with `farm status`).
    var runsHere: Bool { get }
    /// Writes the engine's job scripts (chunks, audio pass when the plan has one, stitch) into the work folder.
    /// - Throws: `FarmError` (the folder cannot be written).
    func writeScripts(_ job: FarmJob) throws
    /// Submits one job and returns its id. For `.chunks`, `chunks` lists the indices (all of the plan's, or the ones
    /// to run again); `after` lists jobs that must succeed first, `afterAny` jobs that must only have finished (the
    /// stitch checks the chunks itself), and a job whose dependencies can no longer be met must be cancelled.
    /// - Throws: `FarmError` (the scheduler refused or is missing).
    func submit(_ kind: FarmJobKind, chunks: [Int]?, after: [String], afterAny: [String], job: FarmJob) throws -> String
    /// The commands a dry run prints for submitting by hand (placeholders for the job ids of earlier steps).
    func manualSubmitCommands(_ job: FarmJob) -> [String]
    /// Jobs and array tasks the scheduler still lists (finished ones may stay listed a while with their final state).
    func queue() -> [QueueEntry]
    /// `queue()` for the farm render whose work folder is `layout` (an engine that keeps its queue there reads it;
    /// by default the scheduler's whole queue).
    func queue(_ layout: FarmLayout) -> [QueueEntry]
    /// Cancels jobs. Throws `FarmError`.
    func cancel(_ jobIDs: [String]) throws
    /// `cancel` for the farm render whose work folder is `layout` (by default `cancel(jobIDs)`).
    func cancel(_ jobIDs: [String], _ layout: FarmLayout) throws
}

extension FarmEngine {
    public var runsHere: Bool { false }
    public func queue(_ layout: FarmLayout) -> [QueueEntry] { queue() }
    public func cancel(_ jobIDs: [String], _ layout: FarmLayout) throws { try cancel(jobIDs) }
}

/// The three kinds of job a farm render submits.
public enum FarmJobKind: String, Codable, Sendable, CaseIterable {
    case chunks, audio, stitch
}

/// One job or array task as the scheduler lists it.
public struct QueueEntry: Sendable {
    public let job: String
    /// The array task (chunk index), or nil for a job that is not an array.
    public let task: Int?
    /// The scheduler's state in its own words, upper case: "PENDING", "RUNNING", "COMPLETED", "FAILED", …
    public let state: String
    /// The scheduler's reason for it ("Resources", "Dependency", "None").
    public let reason: String
    public init(job: String, task: Int?, state: String, reason: String) {
        self.job = job; self.task = task; self.state = state; self.reason = reason
    }
    /// Still to run or running.
    public var active: Bool { ["PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "REQUEUE_HOLD", "RESIZING", "SUSPENDED", "STAGE_OUT"].contains(state) }
}

/// Where a farm render keeps its files: plan, `farm.json`, job scripts, chunks and logs.
public struct FarmLayout: Sendable {
    public let work: String
    public init(work: String) { self.work = work }
    public var plan: String { "\(work)/plan.json" }
    public var state: String { "\(work)/farm.json" }
    public var chunks: String { "\(work)/chunks" }
    public var logs: String { "\(work)/logs" }
    /// A job script, named by the engine's convention (`chunks.sbatch`).
    public func script(_ kind: FarmJobKind, extension ext: String) -> String { "\(work)/\(kind.rawValue).\(ext)" }
}

/// What an engine needs to write scripts and submit: the saved state, the plan, where things go.
public struct FarmJob: Sendable {
    public let state: FarmState
    public let plan: ChunkPlan
    public let layout: FarmLayout
    /// The stitched output (absolute).
    public var output: String { state.options.output }
}

/// The engines Segue knows.
public enum FarmEngines {
    public static let all: [FarmEngine] = [LocalEngine(), SlurmEngine()]
    /// The engine called `name`, or nil.
    public static func named(_ name: String) -> FarmEngine? { all.first { $0.name == name } }
    /// The variables `--chunk auto` reads, in order: every engine's, and Kubernetes Indexed Jobs'
    /// (`JOB_COMPLETION_INDEX`), which need no engine of their own to run `segue render --chunk auto`.
    public static var chunkIndexVariables: [String] { all.map(\.chunkIndexVariable) + ["JOB_COMPLETION_INDEX"] }
}
