import XCTest
import SegueCore
import SegueEdit
import SegueTestSupport

/// Picture effects through OpenTimelineIO (docs/otio.md): `export-otio` writes each as an `Effect.1` named
/// `Segue.TYPE` with its settings (keyframes too) in `metadata.segue`, which the `opentimelineio` package reads with
/// their names and metadata; reading the file back gives the same effects and the same pictures; a timeline the
/// package writes with such effects renders with them; other tools' effects stay warnings.
final class OTIOEffectTests: OTIOTestCase {
    /// A 64×48 testsrc2 clip (2 s at 24 fps, FFV1) and a 17³ `.cube` grade beside it.
    func media() throws -> (clip: String, lut: String) {
        let clip = path("src.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=24:d=2,format=yuv420p", "-c:v", "ffv1",
                                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", clip])
        var lines = ["LUT_3D_SIZE 17"]
        for b in 0..<17 { for g in 0..<17 { for r in 0..<17 {
            let (x, y, z) = (Double(r) / 16, Double(g) / 16, Double(b) / 16)
            lines.append(String(format: "%.6f %.6f %.6f", min(1, x * 0.9 + 0.1), y * y, 1 - z))
        } } }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path("grade.cube"), atomically: true, encoding: .utf8)
        return (clip, path("grade.cube"))
    }

    /// The picture effects of every item of the first track.
    func pictureEffects(_ e: Edit) -> [[ItemEffect]] { e.tracks[0].clips.map(\.pictureEffects) }

    /// An edit whose clip has every picture effect (the colour's hue keyframed) and whose fill has a colour effect,
    /// exported: the package sees `Segue.colour`, `Segue.lut`, `Segue.chromaKey`, `Segue.vignette`, `Segue.blur`, `Segue.sharpen` (and the fill's
    /// `Segue.colour`) with their settings; read back, the effects are equal to the edit's and the render is the
    /// same (lossless, ≥ 50 dB), and unlike the render without them.
    func testExportedEffectsRoundTripAndThePackageReadsThem() throws {
        let (clip, lut) = try media()
        let edit = """
            {"renderSize": {"width": 64, "height": 48}, "frameRate": 24, "tracks": [{"clips": [
              {"path": "\(clip)", "duration": 1, "effects": [
                {"type": "colour", "saturation": 1.5, "hue": {"keyframes": [{"time": 0, "value": 0}, {"time": 1, "value": 90}]}},
                {"type": "lut", "path": "grade.cube", "strength": 0.75},
                {"type": "chromaKey", "colour": "#00ff00", "similarity": 0.2, "smoothness": 0.1},
                {"type": "vignette", "amount": 0.8, "radius": 0.3},
                {"type": "blur", "radius": 1.5},
                {"type": "sharpen", "amount": {"keyframes": [{"time": 0, "value": 0.5}, {"time": 1, "value": 2}]}, "radius": 1}]},
              {"fill": "#808080", "duration": 0.5, "effects": [{"type": "colour", "brightness": 1.5}]}
            ]}], "output": {"codec": "ffv1"}}
            """
        try edit.write(toFile: path("edit.json"), atomically: true, encoding: .utf8)
        let exported = try segue(["export-otio", path("edit.json"), "-o", path("edit.otio")])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertFalse(exported.stderr.contains("effects are not written"), exported.stderr)

        let check = try venvRun("python", ["-c", """
            import json, sys, opentimelineio as otio
            tl = otio.adapters.read_from_file(sys.argv[1])
            segue = lambda e: json.loads(otio.core.serialize_json_to_string(e))["metadata"]["segue"]
            print(json.dumps([[{"class": type(e).__name__, "name": e.effect_name, "segue": segue(e)} for e in c.effects]
                              for c in tl.video_tracks()[0].find_clips()]))
            """, path("edit.otio")])
        let clips = try XCTUnwrap(JSONSerialization.jsonObject(with: check.stdout) as? [[[String: Any]]])
        XCTAssertEqual(clips.count, 2)
        XCTAssertEqual(clips[0].map { $0["name"] as? String }, ["Segue.colour", "Segue.lut", "Segue.chromaKey", "Segue.vignette", "Segue.blur", "Segue.sharpen"])
        XCTAssertEqual(clips[0].map { $0["class"] as? String }, Array(repeating: "Effect", count: 6))
        XCTAssertEqual(clips[1].map { $0["name"] as? String }, ["Segue.colour"])
        let colour = try XCTUnwrap(clips[0][0]["segue"] as? [String: Any])
        XCTAssertEqual(colour["type"] as? String, "colour")
        XCTAssertEqual(colour["saturation"] as? Double, 1.5)
        let hue = try XCTUnwrap((colour["hue"] as? [String: Any])?["keyframes"] as? [[String: Any]])
        XCTAssertEqual(hue.map { $0["value"] as? Double }, [0, 90])
        XCTAssertEqual(hue.map { $0["time"] as? Double }, [0, 1])
        let lutSettings = try XCTUnwrap(clips[0][1]["segue"] as? [String: Any])
        XCTAssertEqual(lutSettings["path"] as? String, lut)
        XCTAssertEqual(lutSettings["strength"] as? Double, 0.75)
        XCTAssertEqual((clips[0][2]["segue"] as? [String: Any])?["colour"] as? String, "#00ff00")
        XCTAssertEqual((clips[0][3]["segue"] as? [String: Any])?["amount"] as? Double, 0.8)
        XCTAssertEqual((clips[1][0]["segue"] as? [String: Any])?["brightness"] as? Double, 1.5)
        XCTAssertEqual((clips[0][4]["segue"] as? [String: Any])?["radius"] as? Double, 1.5)
        let amount = try XCTUnwrap(((clips[0][5]["segue"] as? [String: Any])?["amount"] as? [String: Any])?["keyframes"] as? [[String: Any]])
        XCTAssertEqual(amount.map { $0["value"] as? Double }, [0.5, 2])

        // Read back: the same effects, the same pictures.
        let original = try EditFile.load(path: path("edit.json"))
        let read = try OTIOFile.load(path: path("edit.otio")).edit
        XCTAssertEqual(pictureEffects(read), pictureEffects(original))
        XCTAssertEqual(pictureEffects(read)[0].count, 6)
        XCTAssertEqual(try segue(["render", path("edit.json"), "-o", path("json.mkv"), "--backend", "cpu", "--no-audio"]).status, 0)
        try renderLossless(path("edit.otio"), to: path("otio.mkv"))
        let a = try TestSupport.decodeFrames(path("json.mkv"), width: 64, height: 48)
        let b = try TestSupport.decodeFrames(path("otio.mkv"), width: 64, height: 48)
        XCTAssertEqual(a.count, 36)
        TestSupport.assertYUVSequencesMatch(a, b, width: 64, height: 48, minPSNR: 50, label: "effects through export-otio")

        // The effects are drawn: without them the clip's frames differ.
        let plain = try String(contentsOfFile: path("edit.otio"), encoding: .utf8)
            .replacingOccurrences(of: "\"Segue.", with: "\"Other.")
        try plain.write(toFile: path("plain.otio"), atomically: true, encoding: .utf8)
        try renderLossless(path("plain.otio"), to: path("plain.mkv"))
        let c = try TestSupport.decodeFrames(path("plain.mkv"), width: 64, height: 48)
        let y = 64 * 48
        let psnr = PlaneDifference(Array(b[12][0..<y]), Array(c[12][0..<y])).psnr
        print("frame 12 with and without the effects: luma \(String(format: "%.1f", psnr)) dB apart")
        XCTAssertLessThan(psnr, 25, "the effects change the picture")
    }

    /// A timeline the package writes: a clip with `Segue.colour` (its `type` left to the name), a `Segue.lut` with a
    /// path relative to the timeline, another tool's "Blur" and a disabled `Segue.colour`; a `SolidColor` fill with
    /// `Segue.colour` brightness 1.5. It renders as the edit file with the same effects does (≥ 50 dB), the fill grey
    /// 128 at 1.5 is 192 (Y′ 181); the Blur is a warning, the disabled effect is not drawn; a malformed setting is an
    /// error naming its field.
    func testEffectsWrittenByThePackageRender() throws {
        let (clip, _) = try media()
        try venvRun("python", ["-c", """
            import sys, opentimelineio as otio
            clip_path, out, bad = sys.argv[1], sys.argv[2], sys.argv[3]
            r = lambda f: otio.opentime.RationalTime(f, 24)
            rng = lambda a, d: otio.opentime.TimeRange(r(a), r(d))
            def timeline(brightness):
                c = otio.schema.Clip(name="src", media_reference=otio.schema.ExternalReference(target_url="file://" + clip_path, available_range=rng(0, 48)),
                                     source_range=rng(0, 24))
                c.effects.append(otio.schema.Effect(effect_name="Segue.colour", metadata={"segue": {"contrast": 1.4, "hue": 45}}))
                c.effects.append(otio.schema.Effect(effect_name="Segue.lut", metadata={"segue": {"type": "lut", "path": "grade.cube", "strength": 0.5}}))
                c.effects.append(otio.schema.Effect(effect_name="Blur", metadata={"Other": {"radius": 3}}))
                off = otio.schema.Effect(effect_name="Segue.colour", metadata={"segue": {"brightness": 0}})
                off.enabled = False
                c.effects.append(off)
                f = otio.schema.Clip(name="grey", media_reference=otio.schema.GeneratorReference(generator_kind="SolidColor", parameters={"color": "#808080"}),
                                     source_range=rng(0, 12))
                f.effects.append(otio.schema.Effect(effect_name="Segue.colour", metadata={"segue": {"type": "colour", "brightness": brightness}}))
                tl = otio.schema.Timeline(name="effects")
                tl.tracks.append(otio.schema.Track(kind="Video", children=[c, f]))
                return tl
            otio.adapters.write_to_file(timeline(1.5), out)
            otio.adapters.write_to_file(timeline("bright"), bad)
            """, clip, path("python.otio"), path("bad.otio")])
        let edit = """
            {"renderSize": {"width": 64, "height": 48}, "frameRate": 24, "tracks": [{"clips": [
              {"path": "\(clip)", "duration": 1, "effects": [{"type": "colour", "contrast": 1.4, "hue": 45},
                                                             {"type": "lut", "path": "grade.cube", "strength": 0.5}]},
              {"fill": "#808080", "duration": 0.5, "effects": [{"type": "colour", "brightness": 1.5}]}
            ]}]}
            """
        try edit.write(toFile: path("same.json"), atomically: true, encoding: .utf8)
        let file = try OTIOFile.load(path: path("python.otio"))
        XCTAssertEqual(pictureEffects(file.edit), pictureEffects(try EditFile.load(path: path("same.json"))))
        XCTAssert(file.edit.warnings.contains { $0.contains("1 effect not rendered: Effect.1 \"Blur\"") }, "\(file.edit.warnings)")
        XCTAssertFalse(file.edit.warnings.contains { $0.contains("Segue.") }, "\(file.edit.warnings)")

        try renderLossless(path("python.otio"), to: path("python.mkv"))
        XCTAssertEqual(try segue(["render", path("same.json"), "-o", path("same.mkv"), "--codec", "ffv1", "--backend", "cpu", "--no-audio"]).status, 0)
        let a = try TestSupport.decodeFrames(path("python.mkv"), width: 64, height: 48)
        let b = try TestSupport.decodeFrames(path("same.mkv"), width: 64, height: 48)
        XCTAssertEqual(a.count, 36)
        TestSupport.assertYUVSequencesMatch(a, b, width: 64, height: 48, minPSNR: 50, label: "the package's effects")
        let grey = try means(path("python.mkv"))[30]
        XCTAssertEqual(grey[0], 16 + 219 * 192 / 255, accuracy: 1, "grey 128 × 1.5 = 192")
        XCTAssertEqual(grey[1], 128, accuracy: 1)

        let bad = try segue(["plan", path("bad.otio")])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssert(bad.stderr.contains("tracks.children[0].children[1].effects[0].metadata.segue.brightness"), bad.stderr)
    }
}
