import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// OpenTimelineIO timelines against the `opentimelineio` package: timelines it builds (cuts, gaps, several tracks, a
/// nested stack, transitions with and without enough handles, time warps, a DaVinci Resolve-style export, a CMX 3600
/// adapter-style dissolve, missing media, a disabled clip, transitions at a track's ends, an image sequence), planned
/// and rendered by Segue, every clip's range and the
/// frame count compared with OTIO's `range_in_parent`/`duration()`, every frame with the source frame OTIO says.
final class OTIOTests: OTIOTestCase {
    func testGeneratedTimelinesAgreeWithOTIO() throws {
        let python = try oraclePython()
        let media = try counterClips(in: path("media"))
        let out = path("timelines")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let made = try TestSupport.run(python, [OTIOTestCase.oracleScript, "make", media, out])
        XCTAssertEqual(made.status, 0, made.stderr)
        let names = ["cuts", "tracks", "nested", "handles", "short_handles", "warps", "resolve", "cmx", "old_schema", "missing", "disabled",
                     "edges", "edges_short"]
        for name in names {
            let timeline = "\(out)/\(name).otio"
            let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/\(name).expected.json")))
            let extra = name == "missing" ? ["--missing-media", "black", "--size", "64x48"] : []
            guard let report = try assertPlanAgrees(timeline, expected, extra: extra, label: name) else { continue }
            try renderLossless(timeline, to: "\(out)/\(name).mkv", extra: extra)
            try assertFramesAgree("\(out)/\(name).mkv", expected, label: name)
            switch name {
            case "resolve":
                // 01:00:00:00 is shown, offsets nothing; the 30/30 dissolves are 60 frames, centred on their cuts.
                XCTAssertEqual(report.startTimecode, "01:00:00:00")
                XCTAssertEqual(report.globalStartTime ?? 0, 3600, accuracy: 1e-9)
                let dissolves = report.clips.compactMap(\.transition)
                XCTAssertEqual(dissolves.map { $0.endFrame - $0.firstFrame }, [60, 60])
                XCTAssertEqual(dissolves.map(\.firstFrame), [10, 74])
            case "short_handles":
                // a ends at its media's end (no out handle), b starts 2 frames into its media: the 6/6 dissolve keeps 2
                // frames before its cut; the 5/5 one into c (which starts at frame 0) keeps the 5 after its cut.
                let dissolves = report.clips.compactMap(\.transition)
                XCTAssertEqual(dissolves.map { $0.endFrame - $0.firstFrame }, [2, 5])
                XCTAssertEqual(dissolves.map(\.firstFrame), [22, 44])
            case "cmx":
                let dissolves = report.clips.compactMap(\.transition)
                XCTAssertEqual(dissolves.map { $0.endFrame - $0.firstFrame }, [12, 10])
                XCTAssertEqual(dissolves.map(\.firstFrame), [24, 48], "in_offset 0: the dissolve starts at the cut")
            case "old_schema":
                let text = try String(contentsOfFile: timeline, encoding: .utf8)
                XCTAssert(text.contains("\"Sequence.1\"") && text.contains("\"Clip.1\"") && !text.contains("Clip.2"), "written in the old schemas")
                XCTAssertEqual(report.clips.compactMap(\.transition).map { $0.endFrame - $0.firstFrame }, [6])
            case "warps":
                let times = report.clips.compactMap(\.time)
                XCTAssertEqual(times.count, 5, "\(times)")
            default: break
            }
        }
    }

    /// The tools' own files (../shared/otio: DaVinci Resolve, Premiere, an editorial screening cut, the old
    /// Sequence.1 schema, NaN and Inf in metadata): each is read, its missing media refused by default and named all at
    /// once, then planned and rendered black at its OTIO duration (`duration()` of the package where it reads the file;
    /// 0.18.1 cannot read the newer Marker.3 schema of two of them, which Segue reads).
    func testSharedOTIOFilesParsePlanAndRender() throws {
        let shared = URL(fileURLWithPath: TestSupport.packageRoot).deletingLastPathComponent().appendingPathComponent("shared/otio").path
        guard FileManager.default.fileExists(atPath: shared) else { throw XCTSkip("no ../shared/otio") }
        let python = try oraclePython()
        let files = try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasSuffix(".otio") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 7)
        // OTIO's durations, where the package reads the file (frames at the timeline's rate).
        let probe = try TestSupport.run(python, ["-c", """
            import json, sys, opentimelineio as otio
            out = {}
            for p in sys.argv[1:]:
                try:
                    d = otio.adapters.read_from_file(p).duration()
                    out[p.split('/')[-1]] = [d.value, d.rate]
                except Exception as e:
                    out[p.split('/')[-1]] = str(e)
            print(json.dumps(out))
            """] + files.map { "\(shared)/\($0)" })
        XCTAssertEqual(probe.status, 0, probe.stderr)
        let durations = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any] ?? [:]
        // Segue's own reading of the two files the package cannot read: their tracks' lengths, counted by hand.
        let handCounted: [String: Double] = ["premiere_example.otio": 1246, "screening_example.otio": 1049]
        for name in files {
            let file = "\(shared)/\(name)"
            let refused = try segue(["plan", file])
            XCTAssertEqual(refused.status, 1, "\(name): missing media refused by default")
            XCTAssert(refused.stderr.contains("missing media file") || refused.stderr.contains("missing"), refused.stderr)
            let r = try segue(["plan", file, "--json", "--missing-media", "black", "--size", "64x48"])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            guard r.status == 0 else { continue }
            let report = try JSONDecoder().decode(TimelineReport.self, from: r.stdout)
            let frames: Double
            if let d = durations[name] as? [Double] {
                frames = d[0]
                XCTAssertEqual(Double(report.frameRate) ?? 0, d[1], "\(name): the timeline's own rate when no clip gives one")
            } else {
                frames = try XCTUnwrap(handCounted[name], "\(name): \(durations[name] ?? "")")
            }
            XCTAssertEqual(Double(report.frameCount), frames, "\(name): frame count")
        }
        // The Resolve export: its effects are named in one warning; its dissolve centred; 01:00:00:00.
        let resolve = try segue(["plan", "\(shared)/effects.otio", "--missing-media", "black", "--size", "64x48"])
        XCTAssert(resolve.stderr.contains("170 effects not rendered"), resolve.stderr)
        XCTAssert(resolve.stderr.contains("(Transform)"), resolve.stderr)
        XCTAssert(resolve.text.contains("timecode 01:00:00:00"), resolve.text)
        XCTAssert(resolve.text.contains("crossfade 2.500 s: frames 414–473"), resolve.text)
        // Premiere's markers (Marker.3) are listed.
        let premiere = try segue(["plan", "\(shared)/premiere_example.otio", "--missing-media", "black", "--size", "64x48"])
        XCTAssert(premiere.text.contains("marker \"My MArker 1\" at 3.767 s (frame 113), RED, on timeline: so, this happened"), premiere.text)
        // The old Sequence.1 file's SMPTEBars generator is missing media, with a warning naming it; a slate renders.
        let bars = try segue(["render", "\(shared)/generator_reference_test.otio", "-o", path("bars.mkv"), "--codec", "ffv1", "--backend", "cpu",
                              "--missing-media", "slate", "--size", "192x144"])
        XCTAssertEqual(bars.status, 0, bars.stderr)
        XCTAssert(bars.stderr.contains("generator \"SMPTEBars\""), bars.stderr)
        let frames = try TestSupport.decodeFrames(path("bars.mkv"), width: 192, height: 144)
        XCTAssertEqual(frames.count, 50, "50 frames at 24 fps, as OTIO says")
        let lit = frames[0][0..<(192 * 144)].filter { $0 > 128 }.count
        XCTAssertGreaterThan(lit, 100, "the slate's text (SMPTEBars) is drawn")
    }

    /// An `ImageSequenceReference` renders as its pictures: picture `start_frame + k` on the k-th frame of the media's
    /// time from its `available_range`'s start, as the package's own `frame_for_time` says (here pictures 1001…1012
    /// on disk, `start_frame` 1003, media from 01:00:00:00, the clip's range 3 frames in: pictures 1006…1011); the
    /// frame count is the package's `duration()` (a 2-frame gap before the clip, a transition to nothing after it
    /// lengthening the track by its `out_offset`).
    func testImageSequenceReferenceRendersItsPictures() throws {
        let python = try oraclePython()
        let frames = path("frames")
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        // Picture n is flat grey 20 + 14 (n − 1001).
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x48:r=24:d=0.5,format=gray,geq=lum='20+14*N'", "-start_number", "1001",
                                "\(frames)/shot.%04d.png"])
        let made = try TestSupport.run(python, ["-c", """
            import json, sys, opentimelineio as otio
            R, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
            ref = otio.schema.ImageSequenceReference(target_url_base="file://" + sys.argv[1] + "/", name_prefix="shot.", name_suffix=".png",
                                                     start_frame=1003, frame_step=1, rate=24, frame_zero_padding=4,
                                                     available_range=TR(R(86400, 24), R(10, 24)))
            clip = otio.schema.Clip(name="shot", media_reference=ref, source_range=TR(R(86403, 24), R(6, 24)))
            track = otio.schema.Track()
            track.append(otio.schema.Gap(source_range=TR(R(0, 24), R(2, 24))))
            track.append(clip)
            track.append(otio.schema.Transition(in_offset=R(0, 24), out_offset=R(3, 24), transition_type="SMPTE_Dissolve"))
            tl = otio.schema.Timeline()
            tl.tracks.append(track)
            otio.adapters.write_to_file(tl, sys.argv[2])
            pictures = [ref.frame_for_time(R(86403 + k, 24)) for k in range(6)]
            print(json.dumps({"frames": tl.duration().to_frames(), "pictures": pictures}))
            """, frames, path("seq.otio")])
        XCTAssertEqual(made.status, 0, made.stderr)
        let oracle = try XCTUnwrap(JSONSerialization.jsonObject(with: made.stdout) as? [String: Any])
        let count = try XCTUnwrap(oracle["frames"] as? Int), pictures = try XCTUnwrap(oracle["pictures"] as? [Int])
        XCTAssertEqual(count, 11, "2 + 6 + 3: the transition at the end lengthens the track")
        XCTAssertEqual(pictures, Array(1006...1011))
        try renderLossless(path("seq.otio"), to: path("seq.mkv"))
        let grey = try TestSupport.decodeFrames(path("seq.mkv"), width: 64, height: 48, pixFmt: "gray").map { f in Double(f.reduce(0) { $0 + Int($1) }) / Double(f.count) }
        XCTAssertEqual(grey.count, count, "the rendered frame count is OTIO's duration()")
        for (k, picture) in pictures.enumerated() {
            XCTAssertEqual(grey[2 + k], Double(20 + 14 * (picture - 1001)), accuracy: 2, "frame \(2 + k) shows picture \(picture)")
        }
        XCTAssertEqual(grey[0], 0, accuracy: 2, "the gap")
        XCTAssertEqual(grey[10], 0, accuracy: 2, "the fade to nothing ends black")
        // export-otio writes an edit's image sequence as an ImageSequenceReference: the package finds the same
        // pictures, and the timeline renders as the edit does.
        try Data(#"{"frameRate": 24, "clips": [{"path": "frames/shot.%04d.png", "rate": 24, "start": 0.125, "duration": 0.25}], "output": {"codec": "ffv1"}}"#.utf8)
            .write(to: URL(fileURLWithPath: path("seq.json")))
        let exported = try segue(["export-otio", path("seq.json"), "-o", path("back.otio")])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let back = try TestSupport.run(python, ["-c", """
            import sys, opentimelineio as otio
            clip = otio.adapters.read_from_file(sys.argv[1]).find_clips()[0]
            r = clip.source_range
            print(type(clip.media_reference).__name__, [clip.media_reference.frame_for_time(r.start_time + otio.opentime.RationalTime(k, 24)) for k in range(6)])
            """, path("back.otio")])
        XCTAssertEqual(back.text.trimmingCharacters(in: .whitespacesAndNewlines), "ImageSequenceReference [1004, 1005, 1006, 1007, 1008, 1009]", back.stderr)
        XCTAssertEqual(try segue(["render", path("seq.json"), "-o", path("json.mkv"), "--backend", "cpu", "--no-audio"]).status, 0)
        try renderLossless(path("back.otio"), to: path("back.mkv"))
        XCTAssertEqual(try framemd5(path("back.mkv"), "v:0"), try framemd5(path("json.mkv"), "v:0"))
    }
}
