import Foundation
import SegueCore
import SeguePipeline
import SegueMedia

/// A folder of rendered chunks by content hash (`ChunkKeys`), shared by renders and farm nodes (`--cache DIR`).
///
/// Layout: `DIR/ab/abcdef….mp4` (or `.mkv`) and its record `DIR/ab/abcdef….json` (`ChunkCache.Entry`: the file's
/// size and SHA-256, frames and codec header). Each file is written to a temporary name in the same folder and
/// renamed into place (the video first, the record last: a record names a complete file), so that nodes writing the
/// same key at once each leave a complete entry. Every read checks the file against its record's SHA-256; a damaged
/// or swapped entry is removed and reported, and the chunk rendered again. Using an entry touches its record
/// (least recently used first when pruning: `prune(maxBytes:)`).
public struct ChunkCache: Sendable {
    /// What the cache records of a chunk (`KEY.json`).
    public struct Entry: Codable, Equatable, Sendable, FinishedFileRecord {
        public let key: String
        /// The video file's name beside the record (`KEY.mp4`).
        public let file: String
        public let frames: Int64
        public let bytes: Int64
        public let sha256: String
        public let codecHeaderHash: String
        public let renderer: String
        public let segueVersion: String
    }

    /// Absolute path of the cache folder.
    public let directory: String

    /// Opens (creating if needed) the cache folder.
    /// - Throws: `UsageError` if it is a file or cannot be created.
    public init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: self.directory, isDirectory: &isDir) {
            guard isDir.boolValue else { throw UsageError("--cache: \(self.directory) is a file; give a folder") }
        } else {
            do { try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true) } catch {
                throw UsageError("--cache: cannot create \(self.directory): \(error.localizedDescription)")
            }
        }
    }

    func folder(_ key: String) -> String { "\(directory)/\(key.prefix(2))" }
    func recordPath(_ key: String) -> String { "\(folder(key))/\(key).json" }

    /// The verified entry for `key`, or nil. An entry whose file is missing, of another size or SHA-256, or whose record
    /// is unreadable is removed, and `warn` says so.
    public func lookup(_ key: String, warn: (String) -> Void) -> (entry: Entry, path: String)? {
        let record = recordPath(key)
        guard let data = FileManager.default.contents(atPath: record) else { return nil }
        guard let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.key == key else {
            warn("warning: cache entry \(record) is unreadable: removed, rendering the chunk again")
            remove(key, file: nil)
            return nil
        }
        let video = "\(folder(key))/\(entry.file)"
        guard entry.describes(video) else {
            warn("warning: cache entry \(video) is damaged or missing (not the SHA-256 its record holds): removed, rendering the chunk again")
            remove(key, file: entry.file)
            return nil
        }
        // Used now: the last to go when pruning.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: record)
        return (entry, video)
    }

    private func remove(_ key: String, file: String?) {
        try? FileManager.default.removeItem(atPath: recordPath(key))
        if let file { try? FileManager.default.removeItem(atPath: "\(folder(key))/\(file)") }
    }

    /// Stores the finished chunk `video` (described by `record`) under `key`: copied to a temporary file in the cache,
    /// renamed into place, then its record written the same way.
    /// - Throws: `MediaError` (the cache cannot be written).
    public func store(_ key: String, video: String, record: ChunkRecord) throws {
        try RenderJob.ensureDirectory(folder(key))
        let name = key + "." + URL(fileURLWithPath: video).pathExtension
        try ChunkCache.copy(video, to: "\(folder(key))/\(name)", failure: "cannot write the cache entry")
        try ChunkRender.writeJSON(Entry(key: key, file: name, frames: record.frames, bytes: record.bytes, sha256: record.sha256,
                                        codecHeaderHash: record.codecHeaderHash, renderer: record.renderer, segueVersion: SegueVersion.current),
                                  to: recordPath(key))
    }

    /// Puts the cached chunk of `entry` in place as chunk `chunk` of `plan` in `directory` (copied through a temporary
    /// file, then its sidecar), so that `stitch` checks it like any rendered chunk.
    /// - Returns: the sidecar written.
    public func restore(_ entry: Entry, from path: String, as chunk: ChunkPlan.Chunk, plan: ChunkPlan, in directory: String) throws -> ChunkRecord {
        try RenderJob.ensureDirectory(directory)
        let video = "\(directory)/\(chunk.file)"
        try ChunkCache.copy(path, to: video, failure: "cannot copy the cached chunk")
        // Checked again as copied: the cache may be on a network filesystem.
        guard entry.describes(video) else {
            throw MediaError(path: video, function: "copy", message: "the chunk copied from the cache differs from its record", outputIO: true)
        }
        let record = ChunkRecord(index: chunk.index, start: chunk.start, end: chunk.end, frames: entry.frames,
                                 settingsHash: plan.settingsHash, editHash: plan.editHash, codecHeaderHash: entry.codecHeaderHash,
                                 file: chunk.file, bytes: entry.bytes, sha256: entry.sha256, renderer: entry.renderer, seconds: 0,
                                 host: ProcessInfo.processInfo.hostName)
        try ChunkRender.writeJSON(record, to: ChunkRender.sidecarPath(video))
        return record
    }

    /// Copies `source` to `destination` through a temporary file renamed into place (`RenderJob.writeAtomically`).
    /// - Throws: `MediaError` saying `failure` and the system's reason.
    static func copy(_ source: String, to destination: String, failure: String) throws {
        try RenderJob.writeAtomically(to: destination) { temp in
            do { try FileManager.default.copyItem(atPath: source, toPath: temp) } catch {
                throw MediaError(path: temp, function: "copy", message: "\(failure): \(error.localizedDescription)", outputIO: true)
            }
        }
    }

    /// What `prune` did.
    public struct PruneResult: Sendable {
        public let removed: Int
        public let freedBytes: Int64
        public let keptBytes: Int64
        public let kept: Int
    }

    /// Removes the least recently used entries (by their record's modification time: written or last used) until the
    /// cache holds at most `maxBytes`; temporary files left by killed writers go first.
    public func prune(maxBytes: Int64) -> PruneResult {
        let fm = FileManager.default
        var entries: [(key: String, used: Date, bytes: Int64, files: [String])] = []
        var removed = 0, freed: Int64 = 0
        func size(_ p: String) -> Int64 { ((try? fm.attributesOfItem(atPath: p))?[.size] as? Int64) ?? 0 }
        for sub in (try? fm.contentsOfDirectory(atPath: directory)) ?? [] {
            let dir = "\(directory)/\(sub)"
            let names = (try? fm.contentsOfDirectory(atPath: dir)) ?? []
            var byKey: [String: [String]] = [:]
            for n in names {
                let p = "\(dir)/\(n)"
                if n.hasPrefix(".") && n.hasSuffix(".tmp") {
                    freed += size(p)
                    try? fm.removeItem(atPath: p)
                    continue
                }
                byKey[(n as NSString).deletingPathExtension, default: []].append(p)
            }
            for (key, files) in byKey {
                let record = "\(dir)/\(key).json"
                let used = ((try? fm.attributesOfItem(atPath: record))?[.modificationDate] as? Date) ?? .distantPast
                entries.append((key, used, files.reduce(0) { $0 + size($1) }, files))
            }
        }
        var total = entries.reduce(0) { $0 + $1.bytes }
        for e in entries.sorted(by: { $0.used < $1.used }) where total > maxBytes {
            // The record first: a reader never finds a record without its file.
            for f in e.files.filter({ $0.hasSuffix(".json") }) + e.files.filter({ !$0.hasSuffix(".json") }) { try? fm.removeItem(atPath: f) }
            if let first = e.files.first {
                let folder = (first as NSString).deletingLastPathComponent
                if (try? fm.contentsOfDirectory(atPath: folder))?.isEmpty == true { try? fm.removeItem(atPath: folder) }
            }
            total -= e.bytes
            freed += e.bytes
            removed += 1
        }
        return PruneResult(removed: removed, freedBytes: freed, keptBytes: total, kept: entries.count - removed)
    }

    /// "500M", "2G", "1.5G", "800K" or plain bytes → bytes (powers of 1024).
    /// - Throws: `UsageError` naming the value.
    public static func parseSize(_ text: String) throws -> Int64 {
        let units: [Character: Double] = ["K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024, "T": 1024 * 1024 * 1024 * 1024]
        var s = text.uppercased()
        if s.hasSuffix("B") && s.count > 1 { s.removeLast() }
        var factor = 1.0
        if let u = s.last, let f = units[u] { factor = f; s.removeLast() }
        guard let n = Double(s), n >= 0, n.isFinite else {
            throw UsageError("--max-size: give a size such as 500M or 2G (got \(text))")
        }
        return Int64(n * factor)
    }
}
