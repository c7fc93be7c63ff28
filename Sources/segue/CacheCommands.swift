import Foundation
import Segue
import SeguePipeline
import SegueFarm

// The chunk cache: `render --cache DIR` and `cache prune DIR --max-size SIZE` (farm --cache passes it to each chunk).

/// `segue render EDIT.json -o OUT --cache DIR [--chunks N]`: unchanged chunks from the cache, the others rendered and
/// stored, then stitched (`CachedRender`).
func cachedRenderCommand(_ given: Arguments) throws {
    let editPath = try given.editFile()
    let (edit, a) = try given.resolvedInput()
    let out = try a.requireOutput()
    guard !a.options.keepPartial else { throw UsageError("--keep-partial applies to a render in one pass, not to one with --cache") }
    let started = Date()
    let r = try CachedRender.render(edit, editPath: editPath, bundle: a.bundlePath, to: out, chunks: a.chunks,
                                    options: a.options, cache: try ChunkCache(directory: a.cache!))
    say(String(format: "segue: wrote %@: %lld frames (%.3f s) from %d chunks (%d reused from the cache, %d rendered) in %.1f s",
               r.path, r.frames, r.seconds, r.chunks, r.reused, r.rendered, Date().timeIntervalSince(started)))
}

/// `segue cache prune DIR --max-size SIZE`.
func cacheCommand(_ a: Arguments) throws {
    guard let sub = a.positional.first, sub == "prune" else {
        throw UsageError("cache needs a subcommand: prune (got \(a.positional.first ?? "nothing"))")
    }
    try OptionTable.check(a.given, scope: "cache prune")
    guard a.positional.count == 2 else { throw UsageError("cache prune takes the cache folder") }
    guard let max = a.maxSize else { throw UsageError("cache prune needs --max-size SIZE (e.g. 500M, 2G)") }
    let dir = a.positional[1]
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
        throw UsageError("cache prune: \(dir) is not a folder")
    }
    let r = try ChunkCache(directory: dir).prune(maxBytes: max)
    say("segue: cache \(dir): removed \(r.removed) chunk(s) (\(r.freedBytes) bytes); \(r.kept) left, \(r.keptBytes) bytes")
}
