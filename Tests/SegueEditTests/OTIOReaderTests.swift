import XCTest
@testable import SegueEdit
import SegueCore

/// OTIOFile: OpenTimelineIO's JSON read into an `Edit` (schemas and their versions, OTIO's numbers, transitions as
/// overlaps with their cut, nested stacks flattened, time warps, markers, missing media), and the handles of
/// transitions checked against the media where the timeline is resolved (`Timeline.fitHandles`).
final class OTIOReaderTests: XCTestCase {
    var dir = ""
    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "segue-otio-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The reader only looks the files up (they are probed when the edit is resolved).
        for n in ["a", "b", "c", "d"] { _ = FileManager.default.createFile(atPath: "\(dir)/\(n).mkv", contents: Data()) }
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    // MARK: building OTIO JSON

    func rt(_ v: Double, _ rate: Double = 24) -> [String: Any] { ["OTIO_SCHEMA": "RationalTime.1", "value": v, "rate": rate] }
    func range(_ start: Double, _ duration: Double, _ rate: Double = 24) -> [String: Any] {
        ["OTIO_SCHEMA": "TimeRange.1", "start_time": rt(start, rate), "duration": rt(duration, rate)]
    }
    func clip(_ name: String, start: Double, duration: Double, available: (Double, Double)? = (0, 150), effects: [[String: Any]] = [],
              markers: [[String: Any]] = [], enabled: Bool = true) -> [String: Any] {
        var ref: [String: Any] = ["OTIO_SCHEMA": "ExternalReference.1", "target_url": "\(name).mkv"]
        if let a = available { ref["available_range"] = range(a.0, a.1) }
        return ["OTIO_SCHEMA": "Clip.2", "name": name, "source_range": range(start, duration), "effects": effects, "markers": markers,
                "enabled": enabled, "media_references": ["DEFAULT_MEDIA": ref], "active_media_reference_key": "DEFAULT_MEDIA"]
    }
    func gap(_ d: Double) -> [String: Any] { ["OTIO_SCHEMA": "Gap.1", "source_range": range(0, d)] }
    func dissolve(_ i: Double, _ o: Double, type: String = "SMPTE_Dissolve") -> [String: Any] {
        ["OTIO_SCHEMA": "Transition.1", "name": "T", "in_offset": rt(i), "out_offset": rt(o), "transition_type": type]
    }
    func track(_ children: [[String: Any]], kind: String = "Video", sourceRange: [String: Any]? = nil) -> [String: Any] {
        var t: [String: Any] = ["OTIO_SCHEMA": "Track.1", "kind": kind, "children": children]
        if let r = sourceRange { t["source_range"] = r }
        return t
    }
    func stack(_ children: [[String: Any]], sourceRange: [String: Any]? = nil, markers: [[String: Any]] = []) -> [String: Any] {
        var s: [String: Any] = ["OTIO_SCHEMA": "Stack.1", "children": children, "markers": markers]
        if let r = sourceRange { s["source_range"] = r }
        return s
    }
    func read(_ tracks: [[String: Any]], metadata: [String: Any] = [:], globalStart: [String: Any]? = nil, markers: [[String: Any]] = [],
              missing: MissingMediaPolicy = .error) throws -> OTIOFile {
        var tl: [String: Any] = ["OTIO_SCHEMA": "Timeline.1", "name": "t", "tracks": stack(tracks, markers: markers), "metadata": metadata]
        if let g = globalStart { tl["global_start_time"] = g }
        return try OTIOFile.parse(data: JSONSerialization.data(withJSONObject: tl), baseDirectory: dir, options: OTIOReadOptions(missingMedia: missing))
    }
    func frames(_ t: MediaTime?) -> Double { (t ?? .zero).seconds * 24 }

    // MARK: tests

    func testOTIONumbersNaNAndInfinityAndBigIntegers() throws {
        let text = """
            {"OTIO_SCHEMA": "Timeline.1", "name": "NaN Inf", "metadata": {"f": NaN, "g": Inf, "h": -Infinity, "i": 170141183460469231731687303715884105728,
             "s": "NaN, Infinity"},
             "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [
               {"OTIO_SCHEMA": "Gap.1", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "value": 0, "rate": 24},
                "duration": {"OTIO_SCHEMA": "RationalTime.1", "value": 48, "rate": 24}}, "metadata": {"x": -Inf}}]}]}}
            """
        let file = try OTIOFile.parse(data: Data(text.utf8), baseDirectory: dir)
        XCTAssertEqual(file.name, "NaN Inf")
        XCTAssertEqual(file.edit.clips, [.gap(MediaTime(value: 2, timescale: 1))])
        XCTAssertEqual(OTIOJSON.number(OTIOJSON.nan)?.isNaN, true)
        XCTAssertEqual(String(decoding: OTIOJSON.sanitized(Data(#"{"a": "NaN", "b": -Inf}"#.utf8)), as: UTF8.self), #"{"a": "NaN", "b": "\u0000-inf"}"#)
        // NaN where a time is due is an error naming the field.
        let bad = text.replacingOccurrences(of: "\"value\": 48", with: "\"value\": NaN")
        XCTAssertThrowsError(try OTIOFile.parse(data: Data(bad.utf8), baseDirectory: dir)) { e in
            XCTAssertEqual((e as? EditError)?.field, "tracks.children[0].children[0].source_range.duration.value")
        }
    }

    func testSchemaVersionsOldAndNew() throws {
        // Clip.1 (media_reference) on a Sequence.1, a Gap of the first releases (duration), Clip.2 with another active
        // reference, a Clip.3 (newer: read as Clip.2, said), an unknown schema with a range (a gap, said).
        var old = clip("a", start: 0, duration: 12)
        old["OTIO_SCHEMA"] = "Clip.1"
        old["media_reference"] = (old["media_references"] as! [String: Any])["DEFAULT_MEDIA"]
        old["media_references"] = nil
        var proxy = clip("b", start: 0, duration: 6)
        proxy["media_references"] = ["DEFAULT_MEDIA": ["OTIO_SCHEMA": "MissingReference.1"],
                                     "HIGH": ["OTIO_SCHEMA": "ExternalReference.1", "target_url": "file://\(dir)/c.mkv"]]
        proxy["active_media_reference_key"] = "HIGH"
        var newer = clip("d", start: 0, duration: 6)
        newer["OTIO_SCHEMA"] = "Clip.3"
        let legacyGap: [String: Any] = ["OTIO_SCHEMA": "Gap.1", "duration": rt(3)]
        let unknown: [String: Any] = ["OTIO_SCHEMA": "Wobble.1", "source_range": range(0, 4)]
        let sequence: [String: Any] = ["OTIO_SCHEMA": "Sequence.1", "kind": "Video", "children": [old, legacyGap, proxy, newer, unknown]]
        let file = try read([sequence])
        XCTAssertEqual(file.edit.clips.map(\.file), ["\(dir)/a.mkv", nil, "\(dir)/c.mkv", "\(dir)/d.mkv", nil])
        XCTAssertEqual(file.edit.clips.map { frames($0.duration) }, [12, 3, 6, 6, 4])
        XCTAssert(file.edit.warnings.contains { $0.contains("Clip.3 (read as Clip.2)") }, "\(file.edit.warnings)")
        XCTAssert(file.edit.warnings.contains { $0.contains("unknown schema Wobble.1") }, "\(file.edit.warnings)")
    }

    func testTransitionsBecomeOverlapsKeepingTheTrackLength() throws {
        // a [10, 34), dissolve 6/6 at the cut, b [10, 30): a runs 6 past its range, b starts 6 before its own.
        let file = try read([track([clip("a", start: 10, duration: 24), dissolve(6, 6), clip("b", start: 10, duration: 20)])])
        let c = file.edit.clips
        XCTAssertEqual(frames(c[0].duration), 30)
        XCTAssertEqual(frames(c[1].start), 4)
        XCTAssertEqual(frames(c[1].duration), 26)
        XCTAssertEqual(frames(c[1].transition?.duration), 12)
        XCTAssertEqual(frames(c[1].transitionCut), 6)
        XCTAssertEqual(c[1].transition?.kind, .crossfade)
        XCTAssertEqual(c.map(\.volume), [0, 0], "OTIO's video tracks are silent")
        // The track keeps OTIO's length: 30 + 26 − 12 = 44 = 24 + 20.
        let t = try Timeline(edit: file.edit, sources: [info(150), info(150)])
        XCTAssertEqual(t.frameCount, 44)
        XCTAssertEqual(t.placements[1].start, MediaTime(value: 18, timescale: 24))
        XCTAssert(t.warnings.isEmpty, "\(t.warnings)")
    }

    func info(_ frames: Int64, still: Bool = false) -> SourceInfo {
        var s = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 24, duration: MediaTime(value: frames, timescale: 24), hasAudio: false)
        s.isStill = still
        return s
    }

    func testHandlesTheMediaLacksShortenTheTransitionKeepingItsCut() throws {
        // a ends 2 frames before its media's end, b starts 3 frames into its media: the 6/6 dissolve keeps 3 + 2.
        let file = try read([track([clip("a", start: 126, duration: 22), dissolve(6, 6), clip("b", start: 3, duration: 20)])])
        let t = try Timeline(edit: file.edit, sources: [info(150), info(150)])
        let b = t.placements[1]
        XCTAssertEqual(frames(b.spec.transition?.duration), 5)
        XCTAssertEqual(frames(b.spec.transitionCut), 3)
        XCTAssertEqual(b.start, MediaTime(value: 19, timescale: 24), "the cut stays at frame 22: b starts 3 before it")
        XCTAssertEqual(b.sourceStart, .zero)
        XCTAssertEqual(t.placements[0].end, MediaTime(value: 24, timescale: 24), "a ends 2 after the cut, at its media's end")
        XCTAssertEqual(t.frameCount, 42)
        XCTAssertEqual(t.warnings.count, 1)
        XCTAssert(t.warnings[0].contains("the files have 0.125 s and 0.083 s: shortened to 0.208 s, its cut kept"), t.warnings[0])
        // No handles at all: a cut, both items back to it.
        let none = try read([track([clip("a", start: 128, duration: 22), dissolve(6, 6), clip("b", start: 0, duration: 20)])])
        let cut = try Timeline(edit: none.edit, sources: [info(150), info(150)])
        XCTAssertNil(cut.placements[1].spec.transition)
        XCTAssertEqual(cut.placements[1].start, MediaTime(value: 22, timescale: 24))
        XCTAssertEqual(cut.frameCount, 42)
        XCTAssert(cut.warnings[0].contains("less than a frame, so it is a cut"), cut.warnings[0])
        // A still or a gap has handles of any length (and a still's OTIO range start is dropped).
        let still = try read([track([clip("a", start: 40, duration: 10), dissolve(8, 8), gap(10)])])
        let s = try Timeline(edit: still.edit, sources: [info(1, still: true)])
        XCTAssertEqual(frames(s.placements[1].spec.transition?.duration), 16)
        XCTAssertEqual(s.placements[0].sourceStart, .zero)
        XCTAssert(s.warnings.isEmpty, "\(s.warnings)")
    }

    func testNestedStacksFlattenIntoTracksAboveTheirTrack() throws {
        // Track 0: a (10), a nested stack showing [4, 16) of its tracks (b 20 frames; gap 8 + c 10), d (8); track 1: e.
        let nested = stack([track([clip("b", start: 0, duration: 20)]), track([gap(8), clip("c", start: 30, duration: 10)])], sourceRange: range(4, 12))
        let file = try read([track([clip("a", start: 0, duration: 10), nested, clip("d", start: 60, duration: 8)]), track([gap(2), clip("a", start: 0, duration: 4)])])
        let tracks = file.edit.tracks
        XCTAssertEqual(tracks.count, 4, "the nested stack's two tracks sit between track 0 and track 1")
        XCTAssertEqual(tracks[0].clips.map { frames($0.duration) }, [10, 12, 8])
        XCTAssertEqual(tracks[0].clips[1], .gap(MediaTime(value: 12, timescale: 24)))
        // b from frame 4 of its track, for 12 frames, at frame 10.
        XCTAssertEqual(tracks[1].clips.map { frames($0.duration) }, [10, 12])
        XCTAssertEqual(frames(tracks[1].clips[1].start), 4)
        XCTAssertEqual(tracks[1].clips[1].file, "\(dir)/b.mkv")
        // c starts at nested frame 8, i.e. 4 frames into the window: timeline frame 14, and shows 8 of its 10 frames.
        XCTAssertEqual(tracks[2].clips.map { frames($0.duration) }, [10, 4, 8], "placed at 10, the rest of its gap, then c")
        XCTAssertEqual(frames(tracks[2].clips[2].start), 30)
        XCTAssertEqual(tracks[3].clips.map(\.file), [nil, "\(dir)/a.mkv"])
        // A track's own source_range (multiple_track.otio's Track-003: [-7, 9)) starts its content later.
        let shifted = try read([track([clip("a", start: 0, duration: 9)], sourceRange: range(-7, 16))])
        XCTAssertEqual(shifted.edit.clips.map { frames($0.duration) }, [7, 9])
    }

    func testTimeWarpsDisabledItemsMarkersAndTimecode() throws {
        let warp: (Double) -> [String: Any] = { ["OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": $0] }
        let marker: [String: Any] = ["OTIO_SCHEMA": "Marker.2", "name": "look", "color": "GREEN", "comment": "here",
                                     "marked_range": range(15, 0)]
        let newer: [String: Any] = ["OTIO_SCHEMA": "Marker.3", "name": "end", "color": ["OTIO_SCHEMA": "Color.1", "name": "RED", "r": 1, "g": 0, "b": 0],
                                    "marked_range": range(40, 2)]
        let file = try read([track([clip("a", start: 10, duration: 12, effects: [warp(2)], markers: [marker]),
                                    clip("b", start: 20, duration: 10, effects: [warp(-1)]),
                                    clip("c", start: 30, duration: 8, effects: [["OTIO_SCHEMA": "FreezeFrame.1", "time_scalar": 0]]),
                                    clip("d", start: 0, duration: 6, enabled: false),
                                    clip("a", start: 0, duration: 6, effects: [["OTIO_SCHEMA": "Effect.1", "effect_name": "Blur"]])])],
                            globalStart: rt(86400), markers: [newer])
        let c = file.edit.clips
        XCTAssertEqual(c[0].speed, .constant(2))
        XCTAssertEqual(frames(c[0].duration), 24, "12 frames on the track at 2×: 24 of the source")
        XCTAssertEqual(frames(c[0].start), 10)
        XCTAssertTrue(c[1].reverse)
        XCTAssertEqual(frames(c[1].start), 20)
        XCTAssertEqual(frames(c[2].freeze), 30)
        XCTAssertEqual(frames(c[2].duration), 8)
        XCTAssertEqual(c[3], .gap(MediaTime(value: 6, timescale: 24)), "disabled: a gap as long")
        XCTAssertEqual(file.edit.globalStartTime, MediaTime(value: 3600, timescale: 1))
        XCTAssertEqual(file.edit.timecodeRate, FrameRate(24))
        XCTAssertEqual(file.edit.markers.map(\.name), ["look", "end"])
        XCTAssertEqual(frames(file.edit.markers[0].start), 5, "a clip's marker at its media frame 15: 5 frames into it")
        XCTAssertEqual(file.edit.markers[0].on, "clip \"a\"")
        XCTAssertEqual(file.edit.markers[1].colour, "RED")
        XCTAssert(file.edit.warnings.contains { $0.contains("1 effect not rendered: Effect.1 \"Blur\"") }, "\(file.edit.warnings)")
        let t = try Timeline(edit: file.edit, sources: [info(150), info(150), info(150), info(150)])
        let text = TimelineReport(t).text
        XCTAssert(text.contains("timeline starts at timecode 01:00:00:00"), text)
        XCTAssert(text.contains("marker \"look\" at 0.208 s (frame 5), GREEN, on clip \"a\": here"), text)
        XCTAssert(text.contains("marker \"end\" at 1.667 s (frame 40) for 0.083 s, RED, on timeline"), text)
        // Speeds outside 1/32…32 are refused, naming the clip.
        XCTAssertThrowsError(try read([track([clip("a", start: 0, duration: 4, effects: [warp(64)])])])) { e in
            XCTAssert("\(e)".contains("outside 1/32…32"), "\(e)")
        }
    }

    func testMissingMediaPolicies() throws {
        var gone = clip("zz", start: 0, duration: 10)
        gone["media_references"] = ["DEFAULT_MEDIA": ["OTIO_SCHEMA": "ExternalReference.1", "target_url": "file:///nowhere/gone.mov"]]
        var lost = clip("lost", start: 0, duration: 5)
        lost["media_references"] = ["DEFAULT_MEDIA": ["OTIO_SCHEMA": "MissingReference.1"]]
        var bars = clip("bars", start: 0, duration: 5)
        bars["media_references"] = ["DEFAULT_MEDIA": ["OTIO_SCHEMA": "GeneratorReference.1", "generator_kind": "SMPTEBars"]]
        var red = clip("red", start: 0, duration: 5)
        red["media_references"] = ["DEFAULT_MEDIA": ["OTIO_SCHEMA": "GeneratorReference.1", "generator_kind": "SolidColor", "parameters": ["color": [1, 0, 0, 1]]]]
        let tracks = [track([gone, lost, bars, red]), track([clip("zz", start: 0, duration: 4)], kind: "Audio")]
        XCTAssertThrowsError(try read(tracks)) { e in
            let m = e as? MissingMedia
            XCTAssertEqual(m?.items.count, 4, "every missing file at once: \(String(describing: m))")
            XCTAssertEqual(m?.exitStatus, 1)
            XCTAssert(m?.description.contains("/nowhere/gone.mov") == true)
        }
        let black = try read(tracks, missing: .black)
        XCTAssertEqual(black.edit.clips.map(\.content), [.fill(.black), .fill(.black), .fill(.black), .fill(RGBColour(r: 255, g: 0, b: 0))])
        XCTAssertEqual(black.edit.audioTracks.count, 0, "a missing audio file is silence: no audio track")
        XCTAssert(black.edit.warnings.contains { $0.contains("generator \"SMPTEBars\"") })
        // Slates: black in place, and the names as text items on a track right above, each where its clip is.
        let slate = try read(tracks, missing: .slate)
        XCTAssertEqual(slate.edit.tracks.count, 2)
        XCTAssertEqual(slate.edit.clips.map(\.content), black.edit.clips.map(\.content))
        let names = slate.edit.tracks[1].clips
        XCTAssertEqual(names.map { $0.text?.text }, ["gone.mov", "lost", "SMPTEBars"])
        XCTAssertEqual(names.map { frames($0.at) }, [0, 10, 15])
        XCTAssertEqual(names.map { frames($0.duration) }, [10, 5, 5])
    }

    func testMetadataSegueAndTransitionTypes() throws {
        let metadata: [String: Any] = ["segue": ["renderSize": ["width": 320, "height": 240], "frameRate": "25", "background": "#102030"]]
        let custom: [String: Any] = ["OTIO_SCHEMA": "Transition.1", "name": "Push", "in_offset": rt(0), "out_offset": rt(6), "transition_type": "Custom_Transition",
                                     "metadata": ["segue": ["type": "push", "direction": "up", "easing": "ease-in-out"]]]
        let file = try read([track([clip("a", start: 10, duration: 12), dissolve(2, 2, type: "wipe"), clip("b", start: 10, duration: 12),
                                    dissolve(3, 3, type: "segue:slideleft"), clip("c", start: 10, duration: 12), custom, clip("d", start: 10, duration: 12),
                                    dissolve(1, 1, type: "Iris_Wipe"), clip("a", start: 40, duration: 12)])], metadata: metadata)
        XCTAssertEqual(file.edit.renderSize, PixelSize(width: 320, height: 240))
        XCTAssertEqual(file.edit.frameRate, FrameRate(25))
        XCTAssertEqual(file.edit.background, RGBColour(r: 0x10, g: 0x20, b: 0x30))
        let kinds = file.edit.clips.compactMap(\.transition).map(\.kind)
        XCTAssertEqual(kinds, [.wipe, .slideleft, .push, .crossfade])
        XCTAssertEqual(file.edit.clips[3].transition?.direction, .up)
        XCTAssertEqual(frames(file.edit.clips[3].transition?.duration), 6)
        XCTAssert(file.edit.warnings.contains { $0.contains("\"Iris_Wipe\" is not one Segue knows: drawn as a crossfade") }, "\(file.edit.warnings)")
        XCTAssertThrowsError(try read([track([clip("a", start: 0, duration: 4)])], metadata: ["segue": ["size": 3]])) { e in
            XCTAssertEqual((e as? EditError)?.field, "metadata.segue.size")
        }
    }

    /// A gl-transitions file as the transition type (relative to the timeline, read under the input policy), and
    /// `EditFile.load` dispatching on the extension.
    func testShaderTransitionAndEditFileLoad() throws {
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/gl-transitions/BookFlip.glsl").path
        if FileManager.default.fileExists(atPath: shared) {
            try FileManager.default.copyItem(atPath: shared, toPath: "\(dir)/flip.glsl")
            let file = try read([track([clip("a", start: 10, duration: 12), dissolve(3, 3, type: "flip.glsl"), clip("b", start: 10, duration: 12)])])
            XCTAssertEqual(file.edit.clips[1].transition?.kind, .glsl)
            XCTAssertEqual(file.edit.clips[1].transition?.shader?.path, "\(dir)/flip.glsl")
            XCTAssertEqual(file.edit.inputPaths.map(\.field), ["clips[0].path", "clips[1].path", "clips[1].transition.shader"])
        }
        let otio = try JSONSerialization.data(withJSONObject: ["OTIO_SCHEMA": "Timeline.1", "tracks": stack([track([clip("a", start: 0, duration: 24)])])])
        try otio.write(to: URL(fileURLWithPath: "\(dir)/t.otio"))
        XCTAssertEqual(try EditFile.load(path: "\(dir)/t.otio").clips.first?.file, "\(dir)/a.mkv")
        XCTAssertThrowsError(try EditFile.load(path: "\(dir)/t.otioz")) { e in XCTAssert("\(e)".contains("EditDocument"), "\(e)") }
        try FileManager.default.createDirectory(atPath: "\(dir)/root", withIntermediateDirectories: true)
        var outside = InputPolicy()
        outside.root = "\(dir)/root"
        XCTAssertThrowsError(try OTIOFile.load(path: "\(dir)/t.otio", options: OTIOReadOptions(missingMedia: .black, policy: outside))) { e in
            XCTAssert((e as? EditError)?.message.contains("outside the root") == true, "media outside --root are refused, not missing: \(e)")
        }
    }

    func testBundleReferencesStayInsideTheBundle() throws {
        let reader = OTIOReader(options: OTIOReadOptions(bundleFolder: dir), base: dir)
        XCTAssertEqual(try reader.localPath("media/a.mkv", field: "f"), "\(dir)/media/a.mkv")
        for url in ["../a.mkv", "media/../../a.mkv", "/etc/passwd", "file:///etc/passwd", "http://host/a.mkv"] {
            XCTAssertThrowsError(try reader.localPath(url, field: "f"), url)
        }
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/link.mkv", withDestinationPath: "/etc/passwd")
        XCTAssertThrowsError(try reader.localPath("link.mkv", field: "f"), "a symbolic link out of the bundle")
    }

    func testWriterAndReaderAgree() throws {
        // An edit of cuts, a gap, transitions, speeds, a freeze and a fill, written as OTIO and read back: the same
        // placements.
        func item(_ n: String, _ start: Double, _ duration: Double) -> ClipSpec {
            ClipSpec(path: "\(dir)/\(n).mkv", start: MediaTime(seconds: start), duration: MediaTime(seconds: duration))
        }
        var b = item("b", 1, 1.5); b.transition = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 2))
        var c = item("c", 0.25, 2); c.speed = .constant(2)
        var d = item("d", 1, 0.5); d.speed = .constant(0.5); d.transition = Transition(kind: .push, duration: MediaTime(value: 1, timescale: 4), direction: .up)
        var e = ClipSpec(path: "\(dir)/a.mkv"); e.freeze = MediaTime(value: 1, timescale: 2); e.duration = MediaTime(value: 1, timescale: 2)
        var f = item("a", 2, 1); f.reverse = true
        var edit = Edit(clips: [item("a", 0.5, 1), b, .gap(MediaTime(value: 1, timescale: 4)), c, d, e, .fill(RGBColour(r: 1, g: 2, b: 3), duration: MediaTime(value: 1, timescale: 2)), f])
        edit.frameRate = FrameRate(24)
        let sources = Array(repeating: info(150), count: Timeline.mediaItems(of: edit).count)
        let before = try Timeline(edit: edit, sources: sources)
        let (data, warnings) = try OTIOWriter.write(before, name: "round")
        XCTAssert(warnings.isEmpty, "\(warnings)")
        let back = try OTIOFile.parse(data: data, baseDirectory: dir).edit
        let after = try Timeline(edit: back, sources: Array(repeating: info(150), count: Timeline.mediaItems(of: back).count))
        XCTAssertEqual(after.frameCount, before.frameCount)
        XCTAssertEqual(after.placements.count, before.placements.count)
        for (x, y) in zip(before.placements, after.placements) {
            XCTAssertEqual(x.start, y.start, "\(Timeline.name(x.spec))")
            XCTAssertEqual(x.duration, y.duration, "\(Timeline.name(x.spec))")
            XCTAssertEqual(x.sourceStart, y.sourceStart, "\(Timeline.name(x.spec))")
            XCTAssertEqual(x.spec.content, y.spec.content)
            XCTAssertEqual(x.spec.transition?.kind, y.spec.transition?.kind)
            XCTAssertEqual(x.spec.transition?.direction, y.spec.transition?.direction)
            XCTAssertEqual(x.spec.transition?.duration, y.spec.transition?.duration)
            XCTAssertEqual(x.spec.reverse, y.spec.reverse)
            XCTAssertEqual(x.timeMap.isIdentity, y.timeMap.isIdentity)
        }
    }
}
