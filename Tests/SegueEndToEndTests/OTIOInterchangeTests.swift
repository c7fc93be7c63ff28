import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import Segue
import SegueTestSupport

/// The routes into and out of OpenTimelineIO: EDLs and FCP 7 XML converted by the package's adapters (`otioconvert`),
/// `export-otio` round trips, `.otioz` bundles (extracted for the render and removed after; hostile members refused),
/// chunked renders of a timeline, and the library's `EditDocument`.
final class OTIOInterchangeTests: OTIOTestCase {
    /// Makes the counter clips and the oracle's generated timelines; returns (media folder, timelines folder).
    func generated() throws -> (media: String, timelines: String) {
        let python = try oraclePython()
        let media = try counterClips(in: path("media"))
        let out = path("timelines")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let r = try TestSupport.run(python, [OTIOTestCase.oracleScript, "make", media, out])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (media, out)
    }

    /// What the oracle expects of timelines made elsewhere.
    func expectations(_ files: [String]) throws -> [String: Expected] {
        let r = try venvRun("python", [OTIOTestCase.oracleScript, "expect"] + files)
        return try JSONDecoder().decode([String: Expected].self, from: r.stdout)
    }

    /// A CMX 3600 EDL (cuts and a 12-frame dissolve, as editors write them) and an FCP 7 XML (written by the
    /// adapter from a timeline with two dissolves), each converted by `otioconvert`, plan and render as OTIO says.
    func testEDLAndFCP7XMLThroughTheAdapters() throws {
        let (media, timelines) = try generated()
        let edl = """
            TITLE: SEGUE EDL
            FCM: NON-DROP FRAME

            001  AX       V     C        00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00
            * FROM CLIP NAME: a
            * FROM CLIP: \(media)/a.mkv

            002  AX       V     C        00:00:02:00 00:00:02:00 00:00:01:00 00:00:01:00
            002  AX       V     D    012 00:00:02:00 00:00:03:00 00:00:01:00 00:00:02:00
            * FROM CLIP NAME: b
            * FROM CLIP: \(media)/b.mkv

            003  AX       V     C        00:00:01:00 00:00:02:00 00:00:02:00 00:00:03:00
            * FROM CLIP NAME: c
            * FROM CLIP: \(media)/c.mkv

            """
        try edl.write(toFile: path("cut.edl"), atomically: true, encoding: .utf8)
        try venvRun("otioconvert", ["-i", path("cut.edl"), "-o", path("cut.otio")])
        try venvRun("otioconvert", ["-i", "\(timelines)/handles.otio", "-o", path("handles.xml")])
        try venvRun("otioconvert", ["-i", path("handles.xml"), "-o", path("from-xml.otio")])
        let expected = try expectations([path("cut.otio"), path("from-xml.otio")])
        for (name, file) in [("EDL", path("cut.otio")), ("FCP 7 XML", path("from-xml.otio"))] {
            let e = try XCTUnwrap(expected[file])
            let report = try assertPlanAgrees(file, e, label: name)
            XCTAssertEqual(report?.clips.compactMap(\.transition).isEmpty, false, "\(name): the dissolve is kept")
            try renderLossless(file, to: path("\(name.prefix(3)).mkv"))
            try assertFramesAgree(path("\(name.prefix(3)).mkv"), e, label: name)
        }
    }

    /// `segue export-otio`: an edit of two tracks (cuts, a gap, a crossfade, a push, speeds, a freeze, a fill, a clip
    /// played backwards) as OTIO; the package reads it (its duration is the edit's frame count, its transitions and time
    /// warps are there); rendered again, it matches the edit's own render (≥ 50 dB: lossless, it is the same).
    func testExportOTIORoundTrip() throws {
        let (media, _) = try generated()
        let edit = """
            {"tracks": [
              {"clips": [
                {"path": "\(media)/a.mkv", "start": 0.5, "duration": 1},
                {"path": "\(media)/b.mkv", "start": 1, "duration": 1.5, "transition": {"type": "crossfade", "duration": 0.5}},
                {"gap": 0.25},
                {"path": "\(media)/c.mkv", "start": 0.25, "duration": 2, "speed": 2},
                {"path": "\(media)/d.mkv", "start": 1, "duration": 0.5, "speed": 0.5, "transition": {"type": "push", "direction": "left", "duration": 0.25}},
                {"path": "\(media)/e.mkv", "freeze": 0.5, "duration": 0.5},
                {"fill": "#336699", "duration": 0.5},
                {"path": "\(media)/a.mkv", "start": 2, "duration": 1, "reverse": true}
              ]},
              {"clips": [{"gap": 1}, {"path": "\(media)/e.mkv", "start": 2, "duration": 1, "layer": {"x": 0.5, "y": 0.5, "scale": 1}}]}
            ], "output": {"codec": "ffv1"}}
            """
        try edit.write(toFile: path("edit.json"), atomically: true, encoding: .utf8)
        let exported = try segue(["export-otio", path("edit.json"), "-o", path("edit.otio")])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        // The package reads it: its duration, its transitions and time warps.
        let python = try oraclePython()
        let check = try TestSupport.run(python, ["-c", """
            import json, sys, opentimelineio as otio
            tl = otio.adapters.read_from_file(sys.argv[1])
            kinds = [t.transition_type for t in tl.find_children(descended_from_type=otio.schema.Transition)]
            warps = sorted(e.time_scalar for c in tl.find_clips() for e in c.effects if isinstance(e, otio.schema.LinearTimeWarp) and not isinstance(e, otio.schema.FreezeFrame))
            freezes = sum(1 for c in tl.find_clips() for e in c.effects if isinstance(e, otio.schema.FreezeFrame))
            print(json.dumps({"frames": tl.duration().to_frames(), "kinds": kinds, "warps": warps, "freezes": freezes,
                              "video": len(tl.video_tracks()), "segue": tl.metadata["segue"]["frameRate"]}))
            """, path("edit.otio")])
        XCTAssertEqual(check.status, 0, check.stderr)
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        let plan = try JSONDecoder().decode(TimelineReport.self, from: try segue(["plan", path("edit.json"), "--json"]).stdout)
        XCTAssertEqual(info["frames"] as? Int, Int(plan.frameCount))
        XCTAssertEqual(info["kinds"] as? [String], ["SMPTE_Dissolve", "Custom_Transition"])
        XCTAssertEqual(info["warps"] as? [Double], [-1, 0.5, 2])
        XCTAssertEqual(info["freezes"] as? Int, 1)
        XCTAssertEqual(info["video"] as? Int, 2)
        // Rendered again through OTIO: the same pictures.
        XCTAssertEqual(try segue(["render", path("edit.json"), "-o", path("json.mkv"), "--backend", "cpu", "--no-audio"]).status, 0)
        try renderLossless(path("edit.otio"), to: path("otio.mkv"))
        let a = try TestSupport.decodeFrames(path("json.mkv"), width: 64, height: 48), b = try TestSupport.decodeFrames(path("otio.mkv"), width: 64, height: 48)
        XCTAssertEqual(a.count, Int(plan.frameCount))
        TestSupport.assertYUVSequencesMatch(a, b, width: 64, height: 48, minPSNR: 50, label: "export-otio round trip")
    }

    /// An `.otioz` bundle (written by the package, its media inside) renders as its timeline does; its folder is gone
    /// after the render; a chunked render of it (every worker extracting it anew) stitches to the same frames.
    func testBundleRendersAndChunks() throws {
        let (_, timelines) = try generated()
        let python = try oraclePython()
        let bundle = path("handles.otioz")
        let made = try TestSupport.run(python, ["-c", "import sys, opentimelineio as otio; otio.adapters.write_to_file(otio.adapters.read_from_file(sys.argv[1]), sys.argv[2])",
                                                "\(timelines)/handles.otio", bundle])
        XCTAssertEqual(made.status, 0, made.stderr)
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: "\(timelines)/handles.expected.json")))
        let tmp = path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let env = ["TMPDIR": tmp]
        let r = try segue(["render", bundle, "-o", path("bundle.mkv"), "--codec", "ffv1", "--backend", "cpu", "--no-audio"], env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertFramesAgree(path("bundle.mkv"), expected, label: "otioz")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [], "the extracted bundle is removed after the render")
        // The plan names the bundle's media relative to it: workers extract their own copy and agree.
        let plan = path("plan.json")
        let p = try segue(["plan", bundle, "--chunks", "3", "-o", plan, "--no-audio", "--codec", "ffv1"], env: env)
        XCTAssertEqual(p.status, 0, p.stderr)
        for c in 0..<3 {
            let w = try segue(["render", "--plan", plan, "--chunk", "\(c)", "-o", path("chunks"), "--backend", "cpu"], env: env)
            XCTAssertEqual(w.status, 0, w.stderr)
        }
        let s = try segue(["stitch", "--plan", plan, path("chunks"), "-o", path("stitched.mkv")], env: env)
        XCTAssertEqual(s.status, 0, s.stderr)
        XCTAssertEqual(try framemd5(path("stitched.mkv"), "v:0"), try framemd5(path("bundle.mkv"), "v:0"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [])
        // Under --root (the bundle inside it), the extracted media pass: they come from the bundle.
        let rooted = try segue(["plan", bundle, "--root", dir], env: env)
        XCTAssertEqual(rooted.status, 0, rooted.stderr)
    }

    /// Hostile bundles are refused before anything lands outside their folder: members named `../…` or with an
    /// absolute path, a symbolic link, and a timeline whose media reference leads out of the bundle.
    func testHostileBundlesAreRefused() throws {
        let python = try oraclePython()
        let script = """
            import sys, zipfile, os
            out, kind = sys.argv[1], sys.argv[2]
            content = '{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [{"OTIO_SCHEMA": "Clip.1", "name": "x", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "value": 0, "rate": 24}, "duration": {"OTIO_SCHEMA": "RationalTime.1", "value": 24, "rate": 24}}, "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "TARGET"}}]}]}}'
            with zipfile.ZipFile(out, "w") as z:
                if kind == "dotdot":
                    z.writestr("content.otio", content.replace("TARGET", "media/a.mkv")); z.writestr("../escaped.txt", "x")
                elif kind == "absolute":
                    z.writestr("content.otio", content.replace("TARGET", "media/a.mkv")); z.writestr("/tmp/segue-absolute-member.txt", "x")
                elif kind == "symlink":
                    z.writestr("content.otio", content.replace("TARGET", "media/a.mkv"))
                    info = zipfile.ZipInfo("media/a.mkv"); info.external_attr = (0o120777 << 16); z.writestr(info, "/etc/passwd")
                elif kind == "reference":
                    z.writestr("content.otio", content.replace("TARGET", "../../outside.mkv"))
                elif kind == "absolute-reference":
                    z.writestr("content.otio", content.replace("TARGET", "file:///etc/passwd"))
            """
        for kind in ["dotdot", "absolute", "symlink", "reference", "absolute-reference"] {
            let bundle = path("\(kind).otioz")
            let made = try TestSupport.run(python, ["-c", script, bundle, kind])
            XCTAssertEqual(made.status, 0, made.stderr)
            let r = try segue(["plan", bundle, "--missing-media", "black", "--size", "64x48"])
            XCTAssertEqual(r.status, 2, "\(kind): refused as an invalid edit: \(r.stderr)")
            XCTAssert(r.stderr.contains("refused") || r.stderr.contains("outside the bundle"), "\(kind): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/segue-absolute-member.txt"))
    }

    /// The missing-media policy: refused by default, every missing file named at once (exit status 1); black; a slate
    /// with the missing file's name.
    func testMissingMediaPolicies() throws {
        let (_, timelines) = try generated()
        let timeline = "\(timelines)/missing.otio"
        let refused = try segue(["render", timeline, "-o", path("m.mkv")])
        XCTAssertEqual(refused.status, 1)
        XCTAssert(refused.stderr.contains("2 missing media files"), refused.stderr)
        XCTAssert(refused.stderr.contains("gone.mov") && refused.stderr.contains("MissingReference"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("m.mkv")))
        let slate = try segue(["render", timeline, "-o", path("slate.mkv"), "--codec", "ffv1", "--backend", "cpu", "--missing-media", "slate", "--size", "320x240"])
        XCTAssertEqual(slate.status, 0, slate.stderr)
        let frames = try TestSupport.decodeFrames(path("slate.mkv"), width: 320, height: 240)
        XCTAssertEqual(frames.count, 16, "the OTIO duration: 16 frames")
        // Frame 0 shows the slate of gone.mov (white text on black); frame 12 the MissingReference's, named by its clip.
        for n in [0, 12] {
            let luma = frames[n][0..<(320 * 240)]
            XCTAssertGreaterThan(luma.filter { $0 > 200 }.count, 60, "frame \(n): the slate's text")
            XCTAssertGreaterThan(luma.filter { $0 < 20 }.count, 320 * 240 / 2, "frame \(n): on black")
        }
        XCTAssertNotEqual(frames[0], frames[12], "each slate names its own clip")
        let usage = try segue(["render", path("x.json"), "--missing-media", "black", "-o", path("x.mp4")])
        XCTAssertEqual(usage.status, 2, "--missing-media applies to OTIO timelines only")
    }

    /// The library: `EditDocument` opens a bundle (its media extracted while it lives), renders through
    /// `ExportSession`; `frame` and `sheet` take timelines too.
    func testLibraryFrameAndSheet() async throws {
        let (_, timelines) = try generated()
        let python = try oraclePython()
        let bundle = path("cuts.otioz")
        let made = try TestSupport.run(python, ["-c", "import sys, opentimelineio as otio; otio.adapters.write_to_file(otio.adapters.read_from_file(sys.argv[1]), sys.argv[2])",
                                                "\(timelines)/cuts.otio", bundle])
        XCTAssertEqual(made.status, 0, made.stderr)
        var document: EditDocument? = try EditDocument.open(bundle)
        let folder = try XCTUnwrap(document?.bundle?.folder)
        XCTAssert(FileManager.default.fileExists(atPath: folder + "/media"))
        var options = ExportOptions()
        options.backend = .cpu
        options.audio = false
        var edit = try XCTUnwrap(document?.edit)
        edit.output.codec = .ffv1
        let result = try await ExportSession(edit: edit, outputPath: path("library.mkv"), options: options).export()
        XCTAssertEqual(result.frames, 40)
        // The library's export: the bundle's edit as a timeline of its own, which plans as the bundle does.
        let warnings = try await exportOTIO(edit, to: path("library.otio"))
        XCTAssertEqual(warnings, [])
        document = nil
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "released with its document")
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: "\(timelines)/cuts.expected.json")))
        try assertFramesAgree(path("library.mkv"), expected, label: "library")
        XCTAssertEqual(try segue(["plan", path("library.otio")]).status, 1, "its media were the bundle's, gone with it: missing")
        let frame = try segue(["frame", "\(timelines)/nested.otio", "--frame", "14", "-o", path("f.png"), "--backend", "cpu"])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        let sheet = try segue(["sheet", "\(timelines)/warps.otio", "-o", path("s.png"), "--backend", "cpu", "--cols", "3"])
        XCTAssertEqual(sheet.status, 0, sheet.stderr)
        XCTAssert(FileManager.default.fileExists(atPath: path("s.png")))
    }

    /// OTIO has no output size, rate or colour: the timeline's `metadata.segue` gives them, the command line overrides
    /// them (as it does an edit file's), Segue's rules give the rest.
    func testOutputPropertiesFromMetadataThenTheCommandLine() throws {
        let (_, timelines) = try generated()
        var tl = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(timelines)/cuts.otio"))) as? [String: Any])
        tl["metadata"] = ["segue": ["renderSize": ["width": 96, "height": 64], "frameRate": 12, "background": "white"]]
        try JSONSerialization.data(withJSONObject: tl).write(to: URL(fileURLWithPath: path("meta.otio")))
        func report(_ extra: [String]) throws -> TimelineReport {
            let r = try segue(["plan", path("meta.otio"), "--json"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return try JSONDecoder().decode(TimelineReport.self, from: r.stdout)
        }
        let meta = try report([])
        XCTAssertEqual([meta.width, meta.height], [96, 64])
        XCTAssertEqual(meta.frameRate, "12")
        XCTAssertEqual(meta.frameCount, 20, "40 frames at 24 fps: 20 at 12")
        XCTAssertEqual(meta.background, "#ffffff")
        let cli = try report(["--size", "32x24", "--fps", "48"])
        XCTAssertEqual([cli.width, cli.height], [32, 24])
        XCTAssertEqual(cli.frameRate, "48")
        let rules = try JSONDecoder().decode(TimelineReport.self, from: try segue(["plan", "\(timelines)/cuts.otio", "--json"]).stdout)
        XCTAssertEqual([rules.width, rules.height, Int(rules.frameRate) ?? 0], [64, 48, 24], "without metadata.segue: the clips' size and rate")
    }

    /// OTIO's video tracks carry pictures and its audio tracks sound: a clip on a video track is silent, the same file
    /// on an audio track is heard; `export-otio` gives a clip's sound an audio track of its own, so the round trip
    /// sounds as the edit does.
    func testAudioTracksAreHeardVideoTracksAreSilent() throws {
        let python = try oraclePython()
        let clip = path("sound.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=24:d=2", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
                                "-c:v", "ffv1", "-c:a", "pcm_s16le", clip])
        let made = try TestSupport.run(python, ["-c", """
            import sys, opentimelineio as otio
            R, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
            def c(): return otio.schema.Clip(name="s", media_reference=otio.schema.ExternalReference(target_url=sys.argv[1]), source_range=TR(R(0, 24), R(24, 24)))
            for name, kinds in (("v", ["Video"]), ("va", ["Video", "Audio"])):
                tl = otio.schema.Timeline()
                for k in kinds:
                    t = otio.schema.Track(kind=k); t.append(c()); tl.tracks.append(t)
                otio.adapters.write_to_file(tl, sys.argv[2] + "/" + name + ".otio")
            """, clip, dir])
        XCTAssertEqual(made.status, 0, made.stderr)
        func meanVolume(_ file: String) throws -> Double {
            let r = try TestSupport.run("ffmpeg", ["-nostdin", "-i", file, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"])
            let line = try XCTUnwrap(r.stderr.split(separator: "\n").first { $0.contains("mean_volume") })
            return Double(line.split(separator: ":").last!.replacingOccurrences(of: "dB", with: "").trimmingCharacters(in: .whitespaces)) ?? 0
        }
        for name in ["v", "va"] {
            let r = try segue(["render", "\(dir)/\(name).otio", "-o", path("\(name).mp4"), "--backend", "cpu"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertLessThan(try meanVolume(path("v.mp4")), -80, "a video track's clip is silent")
        XCTAssertGreaterThan(try meanVolume(path("va.mp4")), -25, "the audio track's clip is heard")
        // export-otio: the clip's sound on an audio track; the round trip sounds the same.
        try #"{"clips": [{"path": "\#(clip)", "duration": 1.5, "volume": 0.5}]}"#.write(toFile: path("s.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try segue(["export-otio", path("s.json"), "-o", path("s.otio")]).status, 0)
        let tracks = try TestSupport.run(python, ["-c", "import sys, opentimelineio as otio; t = otio.adapters.read_from_file(sys.argv[1]); print(len(t.video_tracks()), len(t.audio_tracks()))", path("s.otio")])
        XCTAssertEqual(tracks.text.trimmingCharacters(in: .whitespacesAndNewlines), "1 1")
        XCTAssertEqual(try segue(["render", path("s.json"), "-o", path("json.mp4"), "--backend", "cpu"]).status, 0)
        XCTAssertEqual(try segue(["render", path("s.otio"), "-o", path("otio.mp4"), "--backend", "cpu"]).status, 0)
        XCTAssertEqual(try meanVolume(path("otio.mp4")), try meanVolume(path("json.mp4")), accuracy: 0.2, "the gain (0.5) goes with the sound")
        // The edit names no codec, nor does the export: the output's name chooses the format, for both.
        let otioMKV = try segue(["render", path("s.otio"), "-o", path("otio.mkv"), "--backend", "cpu"])
        XCTAssertEqual(otioMKV.status, 0, otioMKV.stderr)
        XCTAssertEqual(try segue(["render", path("s.json"), "-o", path("json.mkv"), "--backend", "cpu"]).status, 0)
        XCTAssertEqual(try TestSupport.ffprobe(path("otio.mkv"), "stream=codec_name")["codec_name"],
                       try TestSupport.ffprobe(path("json.mkv"), "stream=codec_name")["codec_name"])
    }

    /// A clip whose file ends between two frames inside a transition: Segue shows it on the frames that start within it,
    /// OTIO's whole frames ask for the rest of the last one, which the file lacks. `export-otio` says so (a reader
    /// shortens the transition by that much) and names the clip; an edit whose files cover the frames gets no warning.
    func testExportWarnsWhereAFileEndsInsideATransitionsLastFrame() throws {
        for (name, frames) in [("a", 60), ("b", 37), ("c", 45)] {
            try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "\(frames)", "-c:v", "libx264", "-preset", "ultrafast",
                                    "-pix_fmt", "yuv420p", path("\(name).mp4")])
        }
        // b lasts 37/25 = 1.48 s from 0.4 s, to 1.88 s: frame 56 (1.8667 s) is its last; the crossfade into c runs to
        // frame 57 (1.9 s) in OTIO, 0.02 s past b's end.
        func export(_ bDuration: String) throws -> String {
            try #"{"frameRate": 30, "clips": [{"path": "a.mp4", "duration": 0.9}, {"path": "b.mp4"\#(bDuration), "transition": {"type": "crossfade", "duration": 0.5}}, {"path": "c.mp4", "transition": {"type": "crossfade", "duration": 0.5}}]}"#
                .write(toFile: path("e.json"), atomically: true, encoding: .utf8)
            let r = try segue(["export-otio", path("e.json"), "-o", path("e.otio")])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stderr
        }
        let warned = try export("")
        XCTAssertTrue(warned.contains("the crossfade from b.mp4 into c.mp4") && warned.contains("0.020 s of b.mp4 past its file's end"), warned)
        XCTAssertFalse(try export(#", "duration": 1.4"#).contains("past its file's end"), "b cut at 1.4 s: its file covers the frames")
    }

    /// `export-otio` writes whole frames at the edit's rate: an edit at 30 fps cut at times off its frames (counter
    /// clips at 24 fps, a 1.5× speed, a crossfade, a gap, an item placed `at`) exports with every item's, gap's and
    /// transition's length a whole number of frames, so the package's `duration()` is exactly the render's frame count;
    /// the timeline rendered through OTIO has those frames and the same pictures as the edit (≥ 50 dB, lossless).
    func testExportOTIOWholeFramesAtTheEditRate() throws {
        let (media, _) = try generated()
        let edit = """
            {"frameRate": 30, "tracks": [
              {"clips": [
                {"path": "\(media)/a.mkv", "start": 0.1, "duration": 1.013},
                {"path": "\(media)/b.mkv", "start": 0.5, "duration": 0.77, "transition": {"type": "crossfade", "duration": 0.31}},
                {"gap": 0.123},
                {"path": "\(media)/c.mkv", "start": 0.2, "duration": 1.3, "speed": 1.5}
              ]},
              {"clips": [{"path": "\(media)/d.mkv", "at": 0.45, "start": 0.3, "duration": 1.1}]}
            ], "output": {"codec": "ffv1"}}
            """
        try edit.write(toFile: path("frac.json"), atomically: true, encoding: .utf8)
        let exported = try segue(["export-otio", path("frac.json"), "-o", path("frac.otio")])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let check = try TestSupport.run(try oraclePython(), ["-c", """
            import json, sys, opentimelineio as otio
            tl = otio.adapters.read_from_file(sys.argv[1])
            lengths = [c.duration().value for t in tl.tracks for c in t if not isinstance(c, otio.schema.Transition)]
            lengths += [x.value for t in tl.tracks for c in t if isinstance(c, otio.schema.Transition) for x in (c.in_offset, c.out_offset)]
            d = tl.duration()
            print(json.dumps({"value": d.value, "rate": d.rate, "lengths": lengths}))
            """, path("frac.otio")])
        XCTAssertEqual(check.status, 0, check.stderr)
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        let lengths = try XCTUnwrap(info["lengths"] as? [Double])
        XCTAssertEqual(lengths.count, 8, "six items and gaps, one transition's two offsets")
        XCTAssert(lengths.allSatisfy { $0 == $0.rounded() }, "every length a whole number of frames: \(lengths)")
        let plan = try JSONDecoder().decode(TimelineReport.self, from: try segue(["plan", path("frac.json"), "--json"]).stdout)
        XCTAssertEqual(info["rate"] as? Double, 30)
        XCTAssertEqual(info["value"] as? Double, Double(plan.frameCount), "OTIO's duration() is the render's frame count")
        XCTAssertEqual(try segue(["render", path("frac.json"), "-o", path("frac-json.mkv"), "--backend", "cpu", "--no-audio"]).status, 0)
        try renderLossless(path("frac.otio"), to: path("frac-otio.mkv"))
        let a = try TestSupport.decodeFrames(path("frac-json.mkv"), width: 64, height: 48), b = try TestSupport.decodeFrames(path("frac-otio.mkv"), width: 64, height: 48)
        XCTAssertEqual(a.count, Int(plan.frameCount))
        XCTAssertEqual(b.count, Int(plan.frameCount))
        TestSupport.assertYUVSequencesMatch(a, b, width: 64, height: 48, minPSNR: 50, label: "export-otio off-frame round trip")
    }
}
