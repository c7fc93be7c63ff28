import Foundation
import Segue
import SeguePipeline
import SegueFarm

/// The edit files this process opened, kept open until it ends (an `.otioz` bundle's media stay extracted while the
/// edit renders, and every reading of one file in a process, such as a chunk worker's checks against its plan, sees
/// the same extracted paths). `closeAll()` removes the extracted folders; the signal handlers remove them on SIGINT
/// and SIGTERM.
final class OpenDocuments: @unchecked Sendable {
    static let shared = OpenDocuments()
    private let lock = NSLock()
    private var documents: [String: EditDocument] = [:]

    /// The document for `path` read with these settings, opened once.
    func open(_ path: String, missingMedia: MissingMediaPolicy, policy: InputPolicy, values: TemplateValues = TemplateValues()) throws -> EditDocument {
        let key = "\(URL(fileURLWithPath: path).standardized.path)|\(missingMedia.rawValue)|\(policy)|\(values.values.sorted { $0.key < $1.key })"
        lock.lock()
        defer { lock.unlock() }
        if let known = documents[key] { return known }
        let document = try EditDocument.open(path, missingMedia: missingMedia, policy: policy, values: values)
        documents[key] = document
        return document
    }

    /// The resolved edit a chunk plan holds (`ChunkPlanner.document(of:)`), read once.
    func open(plan: ChunkPlan) throws -> EditDocument {
        let key = "plan|\(plan.edit)|\(plan.editHash)"
        lock.lock()
        defer { lock.unlock() }
        if let known = documents[key] { return known }
        let document = try ChunkPlanner.document(of: plan)
        documents[key] = document
        return document
    }

    /// Releases every document (removing extracted bundles).
    func closeAll() {
        lock.lock()
        documents.removeAll()
        lock.unlock()
    }
}
