import XCTest
import SegueFarm
import SegueTestSupport

/// `--cache DIR` (issue 34 #3): chunks keyed by the content that decides their bytes, reused when their key is in the
/// cache, rendered and stored when not; the output's video packets equal a cold render's. And the same bytes
/// (#4): lossless output whatever the chunk count and `--jobs`; lossy output the same for one chunk plan on any engine.
final class ChunkCacheTests: EndToEndTestCase {
    /// 4 s at 12 fps (48 frames) of two 2 s clips, a title over frames 12–17, x264 ultrafast (no lookahead): with
    /// `--chunks 12`, 4 frames a chunk, the title in chunks 3 and 4.
    func writeEdit(title: String) throws -> String {
        for k in 0..<2 where !FileManager.default.fileExists(atPath: path("c\(k).mp4")) {
            try TestSupport.makeClip(path("c\(k).mp4"), video: "testsrc2=s=160x90:r=12:d=2,hue=h=\(k * 120)", extra: ["-g", "6"])
        }
        let edit = path("edit.json")
        try Data("""
        {"renderSize": {"width": 160, "height": 90}, "frameRate": 12,
         "tracks": [{"clips": [{"path": "c0.mp4"}, {"path": "c1.mp4"}]},
                    {"clips": [{"gap": 1}, {"text": "\(title)", "duration": 0.5, "style": {"size": 24}}]}],
         "output": {"codec": "h264", "preset": "ultrafast", "crf": 23}}
        """.utf8).write(to: URL(fileURLWithPath: edit))
        return edit
    }

    /// Renders with `--cache`; returns (reused, rendered) as `--verbose` says them, and standard error.
    func cachedRender(_ edit: String, cache: String, out: String, chunks: String = "12") throws -> (reused: Int, rendered: Int, stderr: String) {
        let r = try segue(["render", edit, "-o", out, "--cache", cache, "--chunks", chunks, "--backend", "cpu", "--verbose", "--progress", "none"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let line = r.stderr.split(separator: "\n").first { $0.contains("chunks reused,") }.map(String.init) ?? ""
        let numbers = line.split(separator: ":").last.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
        XCTAssertEqual(numbers.count, 3, r.stderr)
        // The chunks and the audio pass are read back with no picture limit (InputFile.ownFiles): libavcodec takes
        // `max_pixels` up to INT_MAX only, and a larger one failed the probe's decoder ("out of range").
        XCTAssertFalse(r.stderr.contains("max_pixels") || r.stderr.contains("Failed to open codec"), r.stderr)
        return (numbers.first ?? -1, numbers.last ?? -1, r.stderr)
    }

    func testOnlyWhatChangedIsRendered() throws {
        let cache = path("cache")
        var edit = try writeEdit(title: "Alice")
        let cold = try cachedRender(edit, cache: cache, out: path("cold.mp4"))
        XCTAssertEqual([cold.reused, cold.rendered], [0, 12])
        let coldPackets = try packetMD5s(path("cold.mp4"))
        XCTAssertEqual(coldPackets.count, 48)
        let warm = try cachedRender(edit, cache: cache, out: path("warm.mp4"))
        XCTAssertEqual([warm.reused, warm.rendered], [12, 0])
        XCTAssertEqual(try packetMD5s(path("warm.mp4")), coldPackets)

        // One title changed: the chunks that show it (3 and 4) are rendered; the file equals a cold render of it.
        edit = try writeEdit(title: "Bob")
        let changed = try cachedRender(edit, cache: cache, out: path("changed.mp4"))
        XCTAssertEqual([changed.reused, changed.rendered], [10, 2])
        _ = try cachedRender(edit, cache: path("empty-cache"), out: path("changed-cold.mp4"))
        let changedPackets = try packetMD5s(path("changed.mp4"))
        XCTAssertEqual(changedPackets, try packetMD5s(path("changed-cold.mp4")))
        XCTAssertNotEqual(changedPackets, coldPackets)
        // Outside the title's frames (12–17, and the chunk boundaries at 12 and 20) the packets are the cold render's.
        XCTAssertEqual(Array(changedPackets[0..<12]), Array(coldPackets[0..<12]))
        XCTAssertEqual(Array(changedPackets[20...]), Array(coldPackets[20...]))

        // The second clip replaced by another of the same name, size class and modification time: its chunks (6–11) again.
        let c1 = path("c1.mp4")
        let mtime = try FileManager.default.attributesOfItem(atPath: c1)[.modificationDate] as! Date
        try FileManager.default.removeItem(atPath: c1)
        try TestSupport.makeClip(c1, video: "testsrc2=s=160x90:r=12:d=2,hue=h=300", extra: ["-g", "6"])
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: c1)
        let replaced = try cachedRender(edit, cache: cache, out: path("replaced.mp4"))
        XCTAssertEqual([replaced.reused, replaced.rendered], [6, 6])

        // A damaged entry: found by its SHA-256, warned about, rendered again; the output is still the same.
        let entries = try FileManager.default.subpathsOfDirectory(atPath: cache).filter { $0.hasSuffix(".mp4") }.sorted()
        XCTAssertEqual(entries.count, 12 + 2 + 6)
        // The newest entry: one the last render wrote, so this edit looks it up (the first by name may be an earlier
        // version's, which no lookup reads).
        func modified(_ p: String) -> Date { ((try? FileManager.default.attributesOfItem(atPath: p))?[.modificationDate] as? Date) ?? .distantPast }
        let victim = entries.map { "\(cache)/\($0)" }.max { modified($0) < modified($1) }!
        var bytes = try Data(contentsOf: URL(fileURLWithPath: victim))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: victim))
        let again = try cachedRender(edit, cache: cache, out: path("again.mp4"))
        XCTAssertTrue(again.stderr.contains("warning: cache entry \(victim) is damaged"), again.stderr)
        XCTAssertEqual([again.reused, again.rendered], [11, 1], "the damaged entry rendered again")
        XCTAssertEqual(try packetMD5s(path("again.mp4")), try packetMD5s(path("replaced.mp4")))

        // Prune to half: the least recently used go (the earlier versions' chunks), the size ends under the limit.
        func cacheBytes() throws -> Int64 {
            // The files' sizes (the folders' own are not the cache's).
            try FileManager.default.subpathsOfDirectory(atPath: cache).filter { $0.hasSuffix(".mp4") || $0.hasSuffix(".json") }.reduce(0) {
                $0 + ((try FileManager.default.attributesOfItem(atPath: "\(cache)/\($1)")[.size] as? Int64) ?? 0)
            }
        }
        let before = try cacheBytes(), limit = before / 2
        let prune = try segue(["cache", "prune", cache, "--max-size", String(limit)])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertLessThanOrEqual(try cacheBytes(), limit)
        XCTAssertTrue(prune.stderr.contains("removed "), prune.stderr)
        // The latest render's chunks were used last: a render now reuses more of them than an empty cache would.
        let after = try cachedRender(edit, cache: cache, out: path("after-prune.mp4"))
        XCTAssertGreaterThan(after.reused, 0)
        XCTAssertEqual(try segue(["cache", "prune", cache, "--max-size", "lots"]).status, 2)
        XCTAssertEqual(try ChunkCache.parseSize("2G"), 2 << 30)
        XCTAssertEqual(try ChunkCache.parseSize("500M"), 500 << 20)
    }

    /// FFV1 (lossless, every frame its own): the same packets for 1, 3 and 7 chunks, 1 and 2 jobs, and one pass;
    /// `farm local --cache` reuses every chunk the second time.
    func testLosslessOutputIsTheSameWhateverTheChunks() throws {
        for k in 0..<2 {
            try TestSupport.makeClip(path("d\(k).mp4"), video: "testsrc2=s=96x64:r=30:d=0.7,hue=h=\(k * 120)", extra: ["-g", "8"])
        }
        let edit = path("lossless.json")
        try Data("""
        {"renderSize": {"width": 64, "height": 48}, "frameRate": 30,
         "clips": [{"path": "d0.mp4"}, {"path": "d1.mp4", "transition": {"type": "crossfade", "duration": 0.4}}],
         "output": {"codec": "ffv1"}}
        """.utf8).write(to: URL(fileURLWithPath: edit))
        let single = try segue(["render", edit, "-o", path("single.mkv"), "--backend", "cpu", "--no-audio", "--progress", "none"])
        XCTAssertEqual(single.status, 0, single.stderr)
        let reference = try packetMD5s(path("single.mkv"))
        XCTAssertEqual(reference.count, 30)
        for (chunks, jobs) in [(1, 1), (3, 2), (7, 1), (7, 2)] {
            let out = path("farm-\(chunks)-\(jobs).mkv")
            let r = try segue(["farm", "local", edit, "--chunks", String(chunks), "--jobs", String(jobs), "-o", out, "--backend", "cpu", "--no-audio"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try packetMD5s(out), reference, "\(chunks) chunks, \(jobs) jobs")
        }
        let cache = path("farm-cache")
        for run in 0..<2 {
            let out = path("cached-\(run).mkv"), work = path("cached-work-\(run)")
            let r = try segue(["farm", "local", edit, "--chunks", "3", "-o", out, "--work-dir", work, "--backend", "cpu", "--no-audio", "--cache", cache])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try packetMD5s(out), reference)
            let logs = try FileManager.default.contentsOfDirectory(atPath: "\(work)/logs").filter { $0.hasPrefix("chunk_") }
            let reused = try logs.filter { try String(contentsOfFile: "\(work)/logs/\($0)", encoding: .utf8).contains("reused from the cache") }
            XCTAssertEqual(reused.count, run == 0 ? 0 : 3, logs.joined(separator: " "))
        }
    }

    /// Lossy output: the same chunk plan gives the same packets from `render --cache` and from `farm local`.
    func testLossyOutputIsTheSameForOnePlanOnEveryEngine() throws {
        let edit = try writeEdit(title: "Carol")
        _ = try cachedRender(edit, cache: path("cache"), out: path("cached.mp4"), chunks: "3")
        let r = try segue(["farm", "local", edit, "--chunks", "3", "--jobs", "2", "-o", path("farm.mp4"), "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try packetMD5s(path("farm.mp4")), try packetMD5s(path("cached.mp4")))
    }
}
