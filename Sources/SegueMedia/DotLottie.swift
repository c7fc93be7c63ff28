import Foundation
import SegueCore

/// dotLottie archives (`.lottie`): a zip holding `manifest.json` and the animations, `animations/<id>.json` (version 1)
/// or `a/<id>.json` (version 2). Only the animation's JSON is read, in memory (nothing is extracted to disk).
enum DotLottie {
    /// The most members an archive may have, and the largest manifest read.
    static let maxMembers = 10_000, maxManifestBytes: UInt64 = 1 << 20

    /// The animation the archive plays first: the manifest's `activeAnimationId` (version 1) or `initial.animation`
    /// (version 2), else its first animation; its JSON (at most `limit` bytes) and a name for it ("animation <id>").
    /// - Throws: `EditError` naming the archive: not a zip, damaged, too many members, no manifest, no animation, an id
    ///   that is not a plain name, a member over `limit` bytes.
    static func animation(in path: String, limit: UInt64) throws -> (data: Data, name: String) {
        let zip = try ZipArchive(path: path)
        let entries = try zip.entries()
        guard entries.count <= maxMembers else { throw EditError(path, "dotLottie archive of \(entries.count) members, more than the \(maxMembers) read") }
        func member(_ name: String) -> ZipArchive.Entry? { entries.first { $0.name == name && !$0.isDirectory && $0.specialKind == nil } }
        guard let manifestEntry = member("manifest.json") else { throw EditError(path, "is not a dotLottie archive: it has no manifest.json") }
        guard let manifest = (try? JSONSerialization.jsonObject(with: try zip.data(of: manifestEntry, limit: maxManifestBytes))) as? [String: Any] else {
            throw EditError(path, "manifest.json is not a JSON object")
        }
        let ids = (manifest["animations"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["id"] as? String }
        let chosen = manifest["activeAnimationId"] as? String ?? (manifest["initial"] as? [String: Any])?["animation"] as? String ?? ids.first
        guard let id = chosen else { throw EditError(path, "manifest.json lists no animation") }
        // An id names a member; it is never a path (no folder, no "..").
        guard !id.isEmpty, !id.contains("/"), !id.contains("\\"), id != ".", id != ".." else {
            throw EditError(path, "manifest.json names the animation \"\(id)\", which is not a plain name")
        }
        guard let entry = member("animations/\(id).json") ?? member("a/\(id).json") else {
            throw EditError(path, "has no animations/\(id).json (the animation manifest.json names)")
        }
        return (try zip.data(of: entry, limit: limit), "animation \(id)")
    }
}
