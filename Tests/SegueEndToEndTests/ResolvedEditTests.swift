import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
@testable import SegueFarm
import SegueTestSupport

/// `segue resolve EDIT [options] -o resolved.json` then `segue render resolved.json` gives what `segue render EDIT
/// [options]` gives, byte for byte: for the fixtures (FFV1 frames, and an MP4's file bytes), a layered edit with
/// command-line options, an OpenTimelineIO timeline and a farm chunk. A resolved edit of a newer or no format version
/// is refused naming it, a media file changed since is refused naming it, and `segue schema` validates the file.
final class ResolvedEditTests: EndToEndTestCase {
    static let fixtures = TestSupport.packageRoot + "/Fixtures"

    /// The generated fixtures (`Fixtures/make-fixtures.sh`, what `make demo` runs), made once if they are missing.
    func generatedFixtures() throws {
        if FileManager.default.fileExists(atPath: Self.fixtures + "/generated/i_voice.m4a") { return }
        let r = try TestSupport.run(Self.fixtures + "/make-fixtures.sh", [])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// Renders `edit` with `options` directly and through a resolved edit (backend cpu) into `ext` files; returns the
    /// two outputs and the resolved edit's path, asserting each command succeeds.
    @discardableResult
    func renderBothWays(_ edit: String, _ options: [String], ext: String, name: String) throws -> (direct: String, resolved: String, json: String) {
        let direct = path("\(name)-direct.\(ext)"), viaResolved = path("\(name)-resolved.\(ext)"), json = path("\(name).resolved.json")
        let quiet = ["--backend", "cpu", "--progress", "none"]
        // The direct render in the background while the edit is resolved and rendered from that.
        nonisolated(unsafe) let test = self
        let first = Background { try test.segue(["render", edit] + options + ["-o", direct] + quiet) }
        let r2 = try segue(["resolve", edit] + options + ["-o", json])
        XCTAssertEqual(r2.status, 0, "\(name): \(r2.stderr)")
        XCTAssertTrue(r2.stderr.contains("segue: wrote \(json)"), r2.stderr)
        let r3 = try segue(["render", json, "-o", viaResolved] + quiet)
        XCTAssertEqual(r3.status, 0, "\(name): \(r3.stderr)")
        let r1 = try first.value()
        XCTAssertEqual(r1.status, 0, "\(name): \(r1.stderr)")
        return (direct, viaResolved, json)
    }

    /// The two files' frames (and audio packets) are the same: `ffmpeg -f framemd5` of each stream. (Matroska files
    /// differ in their random segment UID, so FFV1 renders are compared by their frames; MP4 files byte for byte.)
    func assertSameFrames(_ a: String, _ b: String, audio: Bool, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for stream in audio ? ["v", "a"] : ["v"] {
            let x = try framemd5(a, stream), y = try framemd5(b, stream)
            XCTAssertGreaterThan(x.count, 0, "\(name): no \(stream) frames", file: file, line: line)
            if x != y {
                let first = zip(x, y).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(x.count, y.count)
                XCTFail("\(name): stream \(stream) differs: \(x.count) and \(y.count) frames, first difference at \(first)", file: file, line: line)
            }
        }
    }

    /// The five fixtures, small and at 10 fps, as FFV1; the demo also as MP4, whose file bytes must agree. The
    /// fixtures at once, as many as there are cores (each its own processes and files), the MP4 meanwhile.
    func testTheFixturesRenderTheSameFromTheirResolvedEdits() throws {
        try generatedFixtures()
        nonisolated(unsafe) let test = self
        let mp4 = Background { try test.renderBothWays("\(Self.fixtures)/demo.json", ["--size", "160x90", "--fps", "10"], ext: "mp4", name: "demo-mp4") }
        _ = try TestSupport.concurrentMap([("demo", "160x90"), ("layers", "160x90"), ("memory", "96x96"), ("titles", "160x90"), ("captions", "160x90")]) { name, size in
            try test.checkFixture(name, size: size)
        }
        let (direct, resolved, _) = try mp4.value()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: direct)), try Data(contentsOf: URL(fileURLWithPath: resolved)), "MP4 bytes differ")
    }

    /// Fixture `name` rendered at `size` directly and through its resolved edit: the same frames; the resolved edit
    /// holds the options folded in, absolute paths, the decisions recorded.
    func checkFixture(_ name: String, size: String) throws {
        let (direct, resolved, json) = try renderBothWays("\(Self.fixtures)/\(name).json", ["--size", size, "--fps", "10", "--codec", "ffv1"], ext: "mkv", name: name)
        try assertSameFrames(direct, resolved, audio: name != "titles", name)
        let saved = try EditFile.load(path: json)
        let r = try XCTUnwrap(saved.resolution, name)
        XCTAssertEqual(r.renderSize.description, size, name)
        XCTAssertEqual(r.frameRate, FrameRate(10), name)
        XCTAssertEqual(saved.output.codec, .ffv1, name)
        XCTAssertEqual(r.segueVersion, SegueVersion.current)
        XCTAssertTrue(saved.inputPaths.allSatisfy { $0.path.hasPrefix("/") }, "\(name): \(saved.inputPaths)")
        XCTAssertEqual(Set(r.media.map(\.path)), Set(Timeline.mediaItems(of: saved).map(\.spec.path)), name)
    }

    /// A layered edit with options that change it (size, rate, codec, an overlay, a title, music): folded into the
    /// resolved edit, which renders the same; `segue schema` validates it; options it fixes are refused.
    func testALayeredEditWithCommandLineOptions() throws {
        try generatedFixtures()
        let g = Self.fixtures + "/generated"
        let options = ["--size", "160x90", "--fps", "12", "--codec", "ffv1", "--overlay", "\(g)/f_sticker_alpha.png:0.85,0.2,0.2",
                       "--title", "Resolved:1.5", "--music", "\(g)/h_music.m4a:0.5", "--duck"]
        let (direct, resolved, json) = try renderBothWays("\(Self.fixtures)/layers.json", options, ext: "mkv", name: "layered")
        try assertSameFrames(direct, resolved, audio: true, "layered")
        let saved = try EditFile.load(path: json)
        XCTAssertEqual(saved.tracks.count, 5, "three tracks, the title's and the overlay's")
        XCTAssertTrue(saved.tracks[4].clips[0].lastsUntilEditEnd)
        XCTAssertEqual(saved.tracks[3].clips[0].text?.text, "Resolved")
        XCTAssertEqual(saved.music?.path, "\(g)/h_music.m4a")
        XCTAssertEqual(saved.resolution?.files.map(\.path), ["\(g)/h_music.m4a"])
        // The library renders the same resolved edit to the same bytes.
        var o = RenderOptions()
        o.backend = .cpu
        o.log = { _ in }
        try RenderJob.render(saved, to: path("library.mkv"), options: o)
        try assertSameFrames(path("library.mkv"), resolved, audio: true, "library")
        // Options the resolved edit fixes: repeating one is fine, changing one is refused.
        XCTAssertEqual(try segue(["render", json, "--codec", "ffv1", "--size", "160x90", "-o", path("again.mkv"), "--backend", "cpu"]).status, 0)
        let changed = try segue(["render", json, "--crf", "30", "-o", path("x.mkv")])
        XCTAssertEqual(changed.status, 2, changed.stderr)
        XCTAssertTrue(changed.stderr.contains("the resolved edit fixes the edit's settings: --crf 30 would change them"), changed.stderr)
        let rooted = try segue(["render", json, "--root", dir, "-o", path("y.mkv")])
        XCTAssertEqual(rooted.status, 2, rooted.stderr)
        XCTAssertTrue(rooted.stderr.contains("fixes what the edit may read"), rooted.stderr)

        // `segue schema` validates the whole resolved edit (Python's jsonschema, draft 2020-12).
        let python = try TestSupport.venvPython("schema-venv", variable: "SEGUE_SCHEMA_VENV")
        try segue(["schema"]).stdout.write(to: URL(fileURLWithPath: path("edit.schema.json")))
        let check = try TestSupport.run(python, ["-c", "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
                                                 json, path("edit.schema.json")])
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    /// An OpenTimelineIO timeline (exported from an edit, its crossfade a transition with in and out offsets): the
    /// resolved edit keeps what the timeline says and renders the same frames.
    func testAnOTIOTimelineRendersTheSameFromItsResolvedEdit() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=96x64:r=24:d=2", audio: "sine=f=440:r=48000:d=2", extra: ["-g", "8"])
        try TestSupport.makeClip(path("b.mp4"), video: "smptebars=s=96x64:r=24:d=2", audio: "sine=f=660:r=48000:d=2", extra: ["-g", "8"])
        try Data(#"{"frameRate": 24, "clips": [{"path": "a.mp4", "start": 0.25, "duration": 1.25}, {"path": "b.mp4", "duration": 1.5, "transition": {"type": "crossfade", "duration": 0.5}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path("edit.json")))
        let exported = try segue(["export-otio", path("edit.json"), "-o", path("cut.otio")])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let (direct, resolved, json) = try renderBothWays(path("cut.otio"), ["--codec", "ffv1"], ext: "mkv", name: "otio")
        try assertSameFrames(direct, resolved, audio: true, "otio")
        let saved = try EditFile.load(path: json)
        XCTAssertNotNil(saved.clips[1].transitionCut, "the transition's in_offset is kept")
        XCTAssertTrue(saved.clips.allSatisfy(\.interchange))
    }

    /// A farm chunk from the resolved edit: `plan` of a resolved edit and of the edit with the same options hold the
    /// same resolved edit; their chunks are the same bytes and stitch to the direct render's frames.
    func testAFarmChunkRendersFromTheResolvedEdit() throws {
        try generatedFixtures()
        let options = ["--size", "160x90", "--fps", "10", "--codec", "ffv1"]
        let direct = path("direct.mkv")
        // The direct render meanwhile, in the background.
        nonisolated(unsafe) let test = self
        let directRender = Background { try test.segue(["render", "\(Self.fixtures)/demo.json"] + options + ["-o", direct, "--backend", "cpu", "--progress", "none"]) }
        XCTAssertEqual(try segue(["resolve", "\(Self.fixtures)/demo.json"] + options + ["-o", path("demo.resolved.json")]).status, 0)
        XCTAssertEqual(try segue(["plan", path("demo.resolved.json"), "--chunks", "3", "-o", path("p1.json")]).status, 0)
        XCTAssertEqual(try segue(["plan", "\(Self.fixtures)/demo.json", "--chunks", "3", "-o", path("p2.json")] + options).status, 0)
        let p1 = try ChunkPlanner.load(path("p1.json")), p2 = try ChunkPlanner.load(path("p2.json"))
        XCTAssertEqual(p1.resolvedEdit["clips"], p2.resolvedEdit["clips"])
        XCTAssertEqual(p1.resolvedEdit["resolved"]?["media"], p2.resolvedEdit["resolved"]?["media"])
        XCTAssertEqual(p1.editHash, p2.editHash)
        let chunks = try TestSupport.concurrentMap([("p1.json", "c1"), ("p2.json", "c2")]) { plan, out in
            try test.segue(["render", "--plan", test.path(plan), "--chunk", "1", "-o", test.path(out), "--backend", "cpu"])
        }
        for r in chunks { XCTAssertEqual(r.status, 0, r.stderr) }
        try assertSameFrames(path("c1/chunk_0001.mkv"), path("c2/chunk_0001.mkv"), audio: false, "chunk 1")
        try renderChunked(path("p1.json"), chunks: path("c1"), out: path("chunked.mkv"))
        let r = try directRender.value()
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertSameFrames(path("chunked.mkv"), direct, audio: true, "chunked")
    }

    /// Refusals, exit status 2: a newer format version (named), none, a media file changed since it was resolved
    /// (named), a media file gone.
    func testRefusals() throws {
        try TestSupport.makeClip(path("a.mp4"), video: "testsrc2=s=64x48:r=30:d=1", audio: nil)
        try TestSupport.makeClip(path("b.mp4"), video: "smptebars=s=64x48:r=30:d=1", audio: nil)
        try Data(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4"}], "output": {"codec": "ffv1"}}"#.utf8).write(to: URL(fileURLWithPath: path("edit.json")))
        let json = path("r.json")
        XCTAssertEqual(try segue(["resolve", path("edit.json"), "-o", json]).status, 0)
        let text = try String(contentsOfFile: json, encoding: .utf8)
        XCTAssertTrue(text.contains("\"schemaVersion\": 1"), text)
        for (replacement, says) in [("\"schemaVersion\": 2", "resolved.schemaVersion: is 2: this edit was resolved in a newer format"),
                                    ("\"schemaVersionX\": 1", "resolved.schemaVersion: is missing")] {
            try text.replacingOccurrences(of: "\"schemaVersion\": 1", with: replacement).write(toFile: path("v.json"), atomically: true, encoding: .utf8)
            let r = try segue(["render", path("v.json"), "-o", path("v.mkv")])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
        }
        XCTAssertEqual(try segue(["render", json, "-o", path("ok.mkv"), "--backend", "cpu"]).status, 0)
        // b.mp4 changed (re-encoded): refused, naming it; then gone.
        try TestSupport.makeClip(path("b.mp4"), video: "smptebars=s=64x48:r=30:d=1.2", audio: nil)
        var r = try segue(["render", json, "-o", path("x.mkv")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(path("b.mp4")) changed (its size"), r.stderr)
        XCTAssertTrue(r.stderr.contains("since the edit was resolved"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.mkv")))
        try FileManager.default.removeItem(atPath: path("b.mp4"))
        r = try segue(["plan", json])
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains(path("b.mp4")), r.stderr)
        // A plan of format 2 (whose workers replayed the command line) is refused, saying so.
        try Data(#"{"version": 2, "edit": "/m/edit.json", "editArguments": ["--square"]}"#.utf8).write(to: URL(fileURLWithPath: path("old.json")))
        r = try segue(["render", "--plan", path("old.json"), "--chunk", "0", "-o", path("chunks")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("is plan format 2 (its workers replay the command line"), r.stderr)
        XCTAssertTrue(r.stderr.contains("make the plan again"), r.stderr)
        // -o must be a .json that is not the edit file.
        r = try segue(["resolve", path("edit.json"), "-o", path("edit.json")])
        XCTAssertEqual(r.status, 2, r.stderr)
        r = try segue(["resolve", path("edit.json"), "-o", path("r.txt")])
        XCTAssertEqual(r.status, 2, r.stderr)
    }
}
