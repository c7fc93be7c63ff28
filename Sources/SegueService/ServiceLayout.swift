import Foundation

/// Where `segue serve` keeps things under `--data DIR`: `queue.sqlite3` (the durable queue, WAL), `assets/TENANT/NAME`
/// (uploads), `jobs/ID/` (a render's `edit.json`, `values.json`, `output.mp4`, `poster.png`) and `uploads/` (bodies
/// being received, renamed into `assets/` when complete; emptied when the service starts).
public struct ServiceLayout: Sendable {
    /// The data folder, absolute with symbolic links resolved.
    public let root: String

    /// Creates the folders. Throws when they cannot be made.
    public init(root: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        self.root = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        for d in ["assets", "jobs", "uploads"] { try fm.createDirectory(atPath: "\(self.root)/\(d)", withIntermediateDirectories: true) }
        // Bodies a killed server was receiving are never complete.
        for f in (try? fm.contentsOfDirectory(atPath: "\(self.root)/uploads")) ?? [] { try? fm.removeItem(atPath: "\(self.root)/uploads/\(f)") }
    }

    public var database: String { "\(root)/queue.sqlite3" }
    public func assets(_ tenant: String) -> String { "\(root)/assets/\(tenant)" }
    public func asset(_ tenant: String, _ name: String) -> String { "\(assets(tenant))/\(name)" }
    public func job(_ id: String) -> String { "\(root)/jobs/\(id)" }
    public func output(_ id: String) -> String { "\(job(id))/output.mp4" }
    public func poster(_ id: String) -> String { "\(job(id))/poster.png" }
    public func upload() -> String { "\(root)/uploads/\(UUID().uuidString).part" }

    /// `text` with every server path taken out: a tenant's asset folder becomes `asset:`, a job's folder nothing, the
    /// data folder `[data]`. Errors the API returns go through this.
    public func scrub(_ text: String, tenant: String, job id: String?) -> String {
        var t = text.replacingOccurrences(of: assets(tenant) + "/", with: "asset:")
        t = t.replacingOccurrences(of: "the root " + assets(tenant), with: "the uploaded assets").replacingOccurrences(of: assets(tenant), with: "the uploaded assets")
        if let id { t = t.replacingOccurrences(of: job(id) + "/", with: "").replacingOccurrences(of: job(id), with: "the job") }
        return t.replacingOccurrences(of: root, with: "[data]")
    }
}

/// Names of assets and tenants: 1…128 letters, digits, `_`, `-` and `.`, not starting with a dot.
public enum SafeName {
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 128 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "_-.".unicodeScalars.contains($0) }
    }
}
