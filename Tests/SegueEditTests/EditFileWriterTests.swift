import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// The edit file's one writer (`EditFileWriter`, Edit → JSON): what it writes reads back as the same edit
/// (`parse(write(edit)) == edit`) for every fixture, every edit of the docs, the schema's test edits and the OpenTimelineIO
/// samples in ../shared/otio; times no decimal holds are exact fractions; a model value the file cannot say is refused;
/// the resolved section (`EditResolution`) round-trips and its version is checked before anything else.
final class EditFileWriterTests: XCTestCase {
    /// Writes `edit`, reads it back (relative paths against `base`), and checks the edit and a second writing.
    func assertRoundTrip(_ edit: Edit, _ name: String, base: String = "/", file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try EditFileWriter.data(edit)
        let back = try EditFile.parse(data: data, baseDirectory: base)
        if back != edit {
            // Say where: the first top-level difference, and the text written.
            let again = (try? EditFileWriter.data(back)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            XCTFail("\(name): read back differs\n\(String(decoding: data, as: UTF8.self))\nwritten again:\n\(again)", file: file, line: line)
            return
        }
        XCTAssertEqual(try EditFileWriter.data(back), data, "\(name): written twice the same", file: file, line: line)
    }

    func testEveryFixtureRoundTrips() throws {
        let dir = TestSupport.packageRoot + "/Fixtures"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(names, ["captions.json", "demo.json", "layers.json", "memory.json", "titles.json"])
        for name in names { try assertRoundTrip(try EditFile.load(path: "\(dir)/\(name)"), name) }
    }

    /// Every edit of README.md and docs/*.md that parses (the ones naming a shader file that is not there do not).
    func testTheDocsEditsRoundTrip() throws {
        var parsed = 0, skipped: [String] = []
        let root = TestSupport.packageRoot
        let pages = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: root + "/docs")).filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        let block = try NSRegularExpression(pattern: "```json\\n(.*?)```", options: [.dotMatchesLineSeparators])
        for page in pages {
            let text = try String(contentsOfFile: "\(root)/\(page)", encoding: .utf8)
            for m in block.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let json = String(text[Range(m.range(at: 1), in: text)!])
                guard let o = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], o["clips"] != nil || o["tracks"] != nil else { continue }
                do {
                    let edit = try EditFile.parse(data: Data(json.utf8), baseDirectory: "/m")
                    try assertRoundTrip(edit, "\(page): \(json.prefix(60))")
                    parsed += 1
                } catch let e as EditError where e.message.contains("shader") {
                    skipped.append("\(page): \(e)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(parsed, 9, "skipped: \(skipped)")
    }

    /// The schema's test edits, which together give every field (a glsl transition's shader written beside them).
    func testTheSchemaTestEditsRoundTrip() throws {
        let dir = TestSupport.tempDir("segue-writer")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("uniform float size; // = 0.2\nvec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), step(size, progress)); }\n".utf8)
            .write(to: URL(fileURLWithPath: "\(dir)/wipe.glsl"))
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.packageRoot + "/Tests/Schema/valid-edits.json"))
        let cases = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(cases.count, 4)
        for c in cases {
            let edit = try EditFile.parse(data: JSONSerialization.data(withJSONObject: try XCTUnwrap(c["edit"])), baseDirectory: dir)
            try assertRoundTrip(edit, "\(c["name"] ?? "")", base: dir)
        }
    }

    /// The tools' own timelines (../shared/otio), their missing media as black and as slates: markers, the timecode,
    /// the fallback rate, the reader's warnings, transitions' cuts (in_offset) and interchange items survive.
    func testTheSharedOTIOTimelinesRoundTrip() throws {
        let shared = URL(fileURLWithPath: TestSupport.packageRoot).deletingLastPathComponent().appendingPathComponent("shared/otio").path
        guard FileManager.default.fileExists(atPath: shared) else { throw XCTSkip("no ../shared/otio") }
        let files = try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasSuffix(".otio") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 7)
        var sawMarkers = false, sawCut = false, sawWarnings = false
        for name in files {
            for missing in [MissingMediaPolicy.black, .slate] {
                let edit = try OTIOFile.load(path: "\(shared)/\(name)", options: OTIOReadOptions(missingMedia: missing)).edit
                try assertRoundTrip(edit, "\(name) (missing media: \(missing.rawValue))")
                sawMarkers = sawMarkers || !edit.markers.isEmpty
                sawWarnings = sawWarnings || !edit.warnings.isEmpty
                sawCut = sawCut || edit.tracks.contains { $0.clips.contains { $0.transitionCut != nil } }
            }
        }
        XCTAssertTrue(sawMarkers && sawCut && sawWarnings, "markers \(sawMarkers), cuts \(sawCut), warnings \(sawWarnings)")
    }

    /// A time that is not a whole number of microseconds is written as an exact fraction, and read back exactly.
    func testTimesAndRatesAreWrittenExactly() throws {
        let third = MediaTime(value: 1, timescale: 3), ntsc = MediaTime(value: 1001, timescale: 30000)
        var a = ClipSpec(path: "/m/a.mp4", start: ntsc, duration: MediaTime(seconds: 2.5))
        a.layer.x = .keyframes([Keyframe(time: .zero, value: 0.25), Keyframe(time: third, value: 0.75, easing: .easeInOut)])
        var b = ClipSpec(path: "/m/b.mp4", transition: Transition(kind: .push, duration: third, direction: .up))
        b.transitionCut = MediaTime(value: 1, timescale: 6)
        b.at = MediaTime(value: 7, timescale: 3)
        var edit = Edit(clips: [a, b])
        edit.frameRate = FrameRate(30000, 1001)
        edit.fallbackFrameRate = FrameRate(24)
        edit.globalStartTime = MediaTime(value: 3600 * 24 + 1, timescale: 24)
        edit.markers = [EditMarker(name: "m", start: ntsc, duration: third, colour: "RED", comment: "c", on: "clip a")]
        let text = String(decoding: try EditFileWriter.data(edit), as: UTF8.self)
        for s in ["\"start\": \"1001/30000\"", "\"duration\": 2.5", "\"frameRate\": \"30000/1001\"", "\"fallbackFrameRate\": 24",
                  "\"inOffset\": \"1/6\"", "\"at\": \"7/3\"", "\"globalStartTime\": \"86401/24\"", "\"easing\": \"ease-in-out\""] {
            XCTAssertTrue(text.contains(s), "\(s) in\n\(text)")
        }
        try assertRoundTrip(edit, "exact times")
        // A fraction is read as the time it says, in range.
        let parsed = try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4", "start": "1/3", "duration": "5/2"}]}"#.utf8), baseDirectory: "/m")
        XCTAssertEqual(parsed.clips[0].start, third)
        for (json, field, says) in [(#"{"clips": [{"path": "a.mp4", "start": "-1/3"}]}"#, "clips[0].start", "must be ≥ 0"),
                                    (#"{"clips": [{"path": "a.mp4", "start": "1/0"}]}"#, "clips[0].start", "must be a number, got a string"),
                                    (#"{"clips": [{"path": "a.mp4", "start": "4"}]}"#, "clips[0].start", "exact time is a fraction")] {
            XCTAssertThrowsError(try EditFile.parse(data: Data(json.utf8), baseDirectory: "/m"), json) { e in
                XCTAssertEqual((e as? EditError)?.field, field, "\(e)")
                XCTAssertTrue("\(e)".contains(says), "\(e)")
            }
        }
    }

    /// What the edit file cannot say is refused naming the field, not written wrong.
    func testTheWriterRefusesWhatTheFileCannotSay() {
        var fill = ClipSpec.fill(.white, duration: MediaTime(seconds: 1))
        fill.start = MediaTime(seconds: 0.5)
        for (edit, field) in [(Edit(clips: [fill]), "clips[0].start"),
                              (Edit(clips: [ClipSpec(content: .subtitles("/m/a.ass"))]), "clips[0]"),
                              (Edit(tracks: []), "tracks")] {
            XCTAssertThrowsError(try EditFileWriter.data(edit)) { e in XCTAssertEqual((e as? EditError)?.field, field, "\(e)") }
        }
    }

    /// An edit with its resolved section: every fact of a probe, fingerprints, the policy and its limits.
    func testTheResolvedSectionRoundTrips() throws {
        var info = SourceInfo(codedSize: PixelSize(width: 1280, height: 720), sampleAspectRatio: 1280.0 / 1281, orientation: Orientation(a: 0, b: 1, c: -1, d: 0),
                              nominalFrameRate: 29.97002997, duration: MediaTime(value: 1001 * 90, timescale: 30000), hasAudio: true)
        info.baseFrameRate = 30000.0 / 1001
        info.measuredFrameRate = 29.5
        info.streamRate = FrameRate(30000, 1001)
        info.captureRate = 240
        info.firstFrameTime = MediaTime(value: -1024, timescale: 48000)
        info.timestampTolerance = MediaTime(value: 1, timescale: 1000)
        info.audioTrackCount = 2
        info.defaultAudioTrack = 1
        info.colour = YCbCrColour(matrix: .bt2020, range: .full, siting: .topLeft, transfer: .hlg, primaries: .bt2020, peakLuminance: 1000)
        info.colourOverridden = ["range"]
        info.fieldOrder = .bottomFieldFirst
        info.orientationSource = "EXIF orientation 6"
        info.exifOrientation = 6
        info.hasAlpha = true
        info.dolbyVision = DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 4)
        var still = SourceInfo(codedSize: PixelSize(width: 20000, height: 20000), nominalFrameRate: nil, duration: .zero, hasAudio: false)
        still.isStill = true
        still.largeStill = "read shrunk on load"
        var sequence = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 24, duration: MediaTime(seconds: 2), hasAudio: false)
        sequence.imageSequence = "image sequence img_%04d.png"
        var edit = Edit(clips: [ClipSpec(path: "/m/a.mov"), ClipSpec(path: "/m/big.png")])
        edit.clips[0].colour = ColourOverride(range: .full)
        edit.audioTracks = [AudioTrack(clips: [ClipSpec(path: "/m/a.mov")])]
        edit.music = MusicSpec(path: "/m/song.m4a")
        edit.output.crf = 20
        var policy = InputPolicy(allowIndirectInputs: true, root: "/m", outputRoot: "/out")
        policy.limits.maxClips = 7
        policy.limits.maxDuration = 12.5
        let fp = FileFingerprint(size: 1234, modified: 1_700_000_000, sha256: String(repeating: "ab", count: 32))
        edit.resolution = EditResolution(renderSize: PixelSize(width: 160, height: 90), frameRate: FrameRate(30000, 1001), frameCount: 91,
                                         output: edit.output, audio: false, inputPolicy: policy, frameTimeout: nil, media: [
                                            ResolvedMedia(path: "/m/a.mov", fingerprint: fp, audio: false, colour: ColourOverride(range: .full), imageSequence: nil, info: info),
                                            ResolvedMedia(path: "/m/big.png", fingerprint: fp, audio: false, colour: nil, imageSequence: nil, info: still),
                                            ResolvedMedia(path: "/m/f/img_%04d.png", fingerprint: nil, audio: false, colour: nil,
                                                          imageSequence: ImageSequence(rate: FrameRate(24000, 1001), missingFrames: .hold), info: sequence),
                                            ResolvedMedia(path: "/m/a.mov", fingerprint: fp, audio: true, colour: nil, imageSequence: nil, info: info),
                                         ], files: [ResolvedFile(path: "/m/song.m4a", fingerprint: fp)])
        try assertRoundTrip(edit, "resolved")
        let json = try EditFileWriter.json(edit)
        XCTAssertEqual(json["resolved"]?["schemaVersion"], .int(1))
        XCTAssertEqual(json["resolved"]?["segueVersion"], .string(SegueVersion.current))
        XCTAssertEqual(json["resolved"]?["frameTimeout"], .null)
        // Its output settings are the edit's: a file whose output was changed after it was resolved is refused.
        var text = String(decoding: try EditFileWriter.data(edit), as: UTF8.self)
        XCTAssertTrue(text.contains("\"output\": {\"crf\": 20}"), text)
        text = text.replacingOccurrences(of: "\"output\": {\"crf\": 20}", with: "\"output\": {\"crf\": 21}")
        XCTAssertThrowsError(try EditFile.parse(data: Data(text.utf8), baseDirectory: "/")) { e in
            XCTAssertEqual((e as? EditError)?.field, "resolved.output", "\(e)")
        }
    }

    /// A resolved edit's format version is read before anything else: a newer one is refused naming it (even with
    /// fields this Segue does not know), a missing one too; version 1 is read.
    func testTheResolvedVersionIsCheckedFirst() throws {
        func parse(_ resolved: String) throws -> Edit {
            try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4"}], "resolved": \#(resolved)}"#.utf8), baseDirectory: "/m")
        }
        XCTAssertThrowsError(try parse(#"{"schemaVersion": 2, "segueVersion": "9.0.0", "somethingNew": true}"#)) { e in
            XCTAssertEqual((e as? EditError)?.field, "resolved.schemaVersion")
            XCTAssertTrue("\(e)".contains("is 2: this edit was resolved in a newer format (by segue 9.0.0)"), "\(e)")
            XCTAssertTrue("\(e)".contains("reads resolved edits of schema version 1"), "\(e)")
            XCTAssertEqual((e as? SegueError)?.exitStatus, 2)
        }
        XCTAssertThrowsError(try parse(#"{"segueVersion": "0.31.0"}"#)) { e in
            XCTAssertEqual((e as? EditError)?.field, "resolved.schemaVersion")
            XCTAssertTrue("\(e)".contains("is missing"), "\(e)")
        }
        // Version 1 with a field missing is the schema's to refuse, by name.
        XCTAssertThrowsError(try parse(#"{"schemaVersion": 1}"#)) { e in XCTAssertEqual((e as? EditError)?.field, "resolved.segueVersion", "\(e)") }
    }
}
