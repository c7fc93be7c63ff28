import Foundation
import XCTest
import SegueCore
import SegueEdit
import SegueGL
import SegueMedia
import SeguePipeline
import SegueReference
import SegueTestSupport

/// Lottie items (issue 36, item 2): clips at the file's own rate whose frames rlottie draws at the size they are shown,
/// with alpha. The oracle is python-lottie (PyPI `lottie`, in `make schema-venv`'s environment: another player, drawing
/// through CairoSVG). The animations are Fixtures/lottie/: steps.json (an 8×8 red square whose left edge is at
/// x = 4 + 2 (k − 10) on frame k, frames 10…59 at 25 fps, 128×32) and shapes.json (a stroked rounded box turning and
/// growing, an ellipse fading out, a 60 % opaque triangle sliding: 30 frames at 30 fps, 160×120).
final class LottieTests: EndToEndTestCase {
    static let fixtures = TestSupport.packageRoot + "/Fixtures/lottie"

    func write(_ text: String, _ name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Copies a fixture beside the edit files.
    func fixture(_ name: String) throws -> String {
        try? FileManager.default.removeItem(atPath: path(name))
        try FileManager.default.copyItem(atPath: Self.fixtures + "/" + name, toPath: path(name))
        return path(name)
    }

    /// Frames `frames` of the edit file `json` (written to edit.json beside the animations), by `renderer` (default: CPU).
    func frames(_ json: String, _ frames: [Int64], renderer: CompositeRenderer = ReferenceRenderer()) throws -> [RGBAImage] {
        let edit = try write(json, "edit.json")
        return try RenderJob.renderFrames(try RenderJob.resolve(try EditFile.load(path: edit)), frames: frames, renderer: renderer).images
    }

    func rgb(_ image: RGBAImage) -> [UInt8] { image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }

    /// The steps.json frame a 128×32 picture shows: from the red square's left edge on row 16, x = 4 + 2 (k − 10).
    func stepsFrame(_ image: RGBAImage) -> Int? {
        guard let left = (0..<image.width).first(where: { image.pixels[(16 * image.width + $0) * 4] > 128 }) else { return nil }
        return (left - 4) / 2 + 10
    }

    func testReaderDescribesTheAnimation() throws {
        let reader = try VideoReader(path: try fixture("steps.json"))
        XCTAssertFalse(reader.isStill)
        XCTAssertEqual(reader.info.codedSize, PixelSize(width: 128, height: 32))
        XCTAssertEqual(reader.info.nominalFrameRate, 25)
        XCTAssertEqual(reader.info.duration, MediaTime(value: 2, timescale: 1), "50 frames at 25 fps")
        XCTAssertEqual(reader.info.timestampTolerance, .zero)
        XCTAssertTrue(reader.info.hasAlpha)
        XCTAssertEqual(try reader.picture(at: MediaTime(value: 1, timescale: 5)).size, PixelSize(width: 128, height: 32))
        XCTAssertEqual(stepsFrame(try reader.frame(at: MediaTime(value: 1, timescale: 5))), 15, "0.2 s: frame ip + 5")
        XCTAssertEqual(stepsFrame(try reader.frame(at: MediaTime(value: 3, timescale: 1))), 59, "past the end: the last frame held")
        let steps2997 = try String(contentsOfFile: path("steps.json"), encoding: .utf8).replacingOccurrences(of: #""fr":25"#, with: #""fr":29.97"#)
        let ntsc = try VideoReader(path: try write(steps2997, "ntsc.json"))
        XCTAssertEqual(ntsc.info.streamRate, FrameRate(30000, 1001))
        XCTAssertEqual(ntsc.info.duration, MediaTime(frame: 50, rate: FrameRate(30000, 1001)))
        XCTAssertEqual(stepsFrame(try ntsc.frame(at: MediaTime(frame: 7, rate: FrameRate(30000, 1001)))), 17, "frame 7 at its exact time")
        let probe = try ProbeReport(path: path("steps.json"))
        XCTAssertEqual(probe.container, "lottie (Lottie 5.7.4, frames 10–59: 50 at 25 fps, rlottie, drawn at the size it is shown)")
        XCTAssertEqual(probe.video?.averageFrameRate, 25)
        XCTAssertEqual(probe.video?.still, false)
        XCTAssertEqual(probe.duration, 2)
        // A FIFO named .json is not read to find out (it would block).
        XCTAssertEqual(mkfifo(path("pipe.json"), 0o600), 0)
        XCTAssertFalse(isLottieAnimation(path: path("pipe.json")))
        XCTAssertTrue(isLottieAnimation(path: path("steps.json")))
        // An edit file is not an animation; a broken one says which field.
        XCTAssertThrowsError(try VideoReader(path: TestSupport.packageRoot + "/Fixtures/demo.json")) { XCTAssertFalse("\($0)".contains("Lottie"), "\($0)") }
        let steps = try String(contentsOfFile: path("steps.json"), encoding: .utf8)
        XCTAssertThrowsError(try VideoReader(path: try write(steps.replacingOccurrences(of: #""fr":25"#, with: #""fr":0"#), "zero.json"))) {
            XCTAssertTrue("\($0)".contains("zero.json") && "\($0)".contains("\"fr\""), "\($0)")
        }
        XCTAssertThrowsError(try VideoReader(path: try write(steps.replacingOccurrences(of: #""op":60"#, with: #""op":10"#), "empty.json"))) {
            XCTAssertTrue("\($0)".contains("must come after"), "\($0)")
        }
        // An image asset read from a file (or URL) is refused; the input policy holds for the animation itself.
        let external = steps.replacingOccurrences(of: #""assets":[]"#, with: #""assets":[{"id":"img","w":8,"h":8,"u":"/etc/","p":"passwd","e":0}]"#)
        XCTAssertThrowsError(try VideoReader(path: try write(external, "external.json"))) {
            XCTAssertTrue("\($0)".contains("names a file or URL (/etc/passwd)"), "\($0)")
        }
        try assertInputPolicyRefuses("steps.json")
    }

    /// At the file's rate output frame n shows Lottie frame ip + n; at 30 fps, ip + ⌊t · 25⌋ from t = n / 30; with `start`
    /// and `speed` likewise from the source time; backwards from the last.
    func testFrameTimingIsExactAtTheFileRateAndAnother() throws {
        _ = try fixture("steps.json")
        func shown(_ rate: Int, _ item: String, _ count: Int) throws -> [Int?] {
            try frames(##"{"renderSize": {"width": 128, "height": 32}, "frameRate": \##(rate), "background": "#000000", "clips": [\##(item)]}"##,
                       (0..<Int64(count)).map { $0 }).map(stepsFrame)
        }
        XCTAssertEqual(try shown(25, #"{"path": "steps.json"}"#, 50), (0..<50).map { 10 + $0 })
        XCTAssertEqual(try shown(30, #"{"path": "steps.json"}"#, 60), (0..<60).map { 10 + $0 * 25 / 30 })
        XCTAssertEqual(try shown(30, #"{"path": "steps.json", "start": 0.4, "duration": 0.8}"#, 24), (0..<24).map { 20 + $0 * 25 / 30 })
        XCTAssertEqual(try shown(30, #"{"path": "steps.json", "speed": 2}"#, 30), (0..<30).map { 10 + $0 * 50 / 30 })
        XCTAssertEqual(try shown(25, #"{"path": "steps.json", "reverse": true}"#, 50), (0..<50).map { 59 - $0 })
        // Frame blending at half speed: output frame 1 (source 0.02 s) is half frame 10 (x 4…11), half frame 11 (x 6…13).
        let blended = try frames(##"{"renderSize": {"width": 128, "height": 32}, "frameRate": 25, "background": "#000000", "clips": [{"path": "steps.json", "speed": 0.5, "frameBlend": true}]}"##, [1])[0]
        let red = [4, 8, 12].map { Int(blended.pixels[(16 * 128 + $0) * 4]) }
        print("Lottie frames blended half-way, red at x = 4, 8, 12: \(red)")
        XCTAssertEqual(Double(red[0]), 127.5, accuracy: 3)
        XCTAssertEqual(red[1], 255)
        XCTAssertEqual(Double(red[2]), 127.5, accuracy: 3)
    }

    /// `"loop": true` plays the animation again from `start` at its end, for the item's duration (past the file's own);
    /// at another rate too, in exact time; with `"duration": "edit"` for as long as the edit.
    func testLoopPlaysAgainFromStart() throws {
        _ = try fixture("steps.json")
        func shown(_ rate: Int, _ items: String, _ count: Int) throws -> [Int?] {
            try frames(##"{"renderSize": {"width": 128, "height": 32}, "frameRate": \##(rate), "background": "#000000", "tracks": [\##(items)]}"##,
                       (0..<Int64(count)).map { $0 }).map(stepsFrame)
        }
        XCTAssertEqual(try shown(25, #"{"clips": [{"path": "steps.json", "loop": true, "duration": 5}]}"#, 125), (0..<125).map { 10 + $0 % 50 })
        XCTAssertEqual(try shown(30, #"{"clips": [{"path": "steps.json", "loop": true, "start": 1, "duration": 3}]}"#, 90),
                       (0..<90).map { 35 + ($0 * 25 / 30) % 25 })
        XCTAssertEqual(try shown(25, ##"{"clips": [{"fill": "#000000", "duration": 3}]}, {"clips": [{"path": "steps.json", "loop": true, "duration": "edit"}]}"##, 75),
                       (0..<75).map { 10 + $0 % 50 })
        let edit = try EditFile.load(path: try write(##"{"clips": [{"path": "steps.json", "loop": true, "duration": 5}]}"##, "loop.json"))
        XCTAssertEqual(try RenderJob.resolve(edit).duration, MediaTime(value: 5, timescale: 1))
        XCTAssertEqual(try RenderJob.resolve(edit).frameRate, FrameRate(25), "an edit of a Lottie item alone runs at its rate")
        // The writer keeps it: the written edit reads back the same.
        let written = String(decoding: try EditFileWriter.json(edit).serialized(pretty: false), as: UTF8.self)
        XCTAssertTrue(written.contains(#""loop":true"#), written)
        // A clip with audio does not loop; neither does a still.
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=64x48:r=25:d=1", "-f", "lavfi", "-i", "sine=d=1", "-shortest", path("sound.mp4")])
        XCTAssertThrowsError(try RenderJob.resolve(try EditFile.load(path: try write(##"{"clips": [{"path": "sound.mp4", "loop": true, "duration": 3}]}"##, "bad.json")))) {
            XCTAssertTrue("\($0)".contains("clips[0].loop") && "\($0)".contains("has audio"), "\($0)")
        }
        XCTAssertThrowsError(try RenderJob.resolve(try EditFile.load(path: try write(##"{"clips": [{"path": "steps.json", "loop": true, "reverse": true}]}"##, "bad.json")))) {
            XCTAssertTrue("\($0)".contains("clips[0].loop") && "\($0)".contains("reverse"), "\($0)")
        }
    }

    /// Frames of shapes.json against python-lottie's PNGs of the same frames, both over the same opaque background
    /// (≥ 30 dB); the 60 % opaque triangle's colour over it shows alpha applied once; the GPU against the CPU (≥ 45 dB).
    func testAgreesWithPythonLottieAndGPUAgreesWithCPU() throws {
        let python = SchemaTests.venv + "/bin/python"
        guard (try? TestSupport.run(python, ["-c", "import lottie.exporters.cairo"]))?.status == 0 else {
            throw XCTSkip("no python-lottie in \(SchemaTests.venv): run `make schema-venv`")
        }
        let animation = try fixture("shapes.json")
        let checked: [Int64] = [0, 14, 29]
        let script = """
            import io, sys
            from lottie.importers.core import import_lottie
            from lottie.exporters.cairo import export_png
            from PIL import Image
            anim = import_lottie(sys.argv[1])
            bg = (0x20, 0x60, 0xa0)
            for k in map(int, sys.argv[3].split(",")):
                png = io.BytesIO()
                export_png(anim, png, k)
                out = bytearray()
                for r, g, b, a in Image.open(io.BytesIO(png.getvalue())).convert("RGBA").getdata():
                    out += bytes((c * a + q * (255 - a) + 127) // 255 for c, q in zip((r, g, b), bg))
                open("%s-%d.rgb" % (sys.argv[2], k), "wb").write(out)
            """
        let r = try TestSupport.run(python, ["-c", script, animation, path("oracle"), checked.map(String.init).joined(separator: ",")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = ##"{"renderSize": {"width": 160, "height": 120}, "frameRate": 30, "background": "#2060a0", "clips": [{"path": "shapes.json"}]}"##
        let cpu = try frames(json, checked)
        for (k, image) in zip(checked, cpu) {
            let oracle = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("oracle-\(k).rgb"))))
            XCTAssertEqual(oracle.count, 160 * 120 * 3)
            let db = PlaneDifference(rgb(image), oracle).psnr
            print("Lottie frame \(k) against python-lottie: \(db) dB")
            XCTAssertGreaterThanOrEqual(db, 30, "frame \(k)")
        }
        // Frame 0: the triangle (0.1, 0.7, 0.3) at 60 % over the background at (30, 95).
        let i = (95 * 160 + 30) * 4
        let expected = zip([0.1, 0.7, 0.3], [0x20, 0x60, 0xa0]).map { 255 * $0 * 0.6 + Double($1) * 0.4 }
        for c in 0..<3 { XCTAssertEqual(Double(cpu[0].pixels[i + c]), expected[c], accuracy: 2, "channel \(c)") }
        let gpu: GPURenderer
        do { gpu = try GPURenderer() } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
        // Shown at 2×, crossfading into a colour, a transition as any clip's.
        let moving = ##"{"renderSize": {"width": 320, "height": 240}, "frameRate": 30, "background": "#2060a0", "clips": [{"path": "shapes.json"}, {"fill": "#ff8000", "duration": 1, "transition": {"type": "crossfade", "duration": 0.5}}]}"##
        let reference = try frames(moving, [20], renderer: ReferenceRenderer())[0]
        let gpuDB = PlaneDifference(rgb(try frames(moving, [20], renderer: gpu)[0]), rgb(reference)).psnr
        print("Lottie GPU against CPU: \(gpuDB) dB")
        XCTAssertGreaterThanOrEqual(gpuDB, 45, "GPU against CPU")
    }

    /// A dotLottie archive plays its animation as the JSON does; archives naming a path or lacking a manifest are refused.
    func testDotLottieArchive() throws {
        _ = try fixture("shapes.json")
        let python = "python3"
        func archive(_ name: String, manifest: String, member: String) throws {
            let script = """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[1], "w") as z:
                    if sys.argv[2]: z.writestr("manifest.json", sys.argv[2])
                    z.write(sys.argv[3], sys.argv[4])
                """
            let r = try TestSupport.run(python, ["-c", script, path(name), manifest, path("shapes.json"), member])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        try archive("sting.lottie", manifest: #"{"version": "1", "animations": [{"id": "sting"}], "activeAnimationId": "sting"}"#, member: "animations/sting.json")
        let edit = ##"{"renderSize": {"width": 160, "height": 120}, "frameRate": 30, "background": "#2060a0", "clips": [{"path": "NAME"}]}"##
        let fromArchive = try frames(edit.replacingOccurrences(of: "NAME", with: "sting.lottie"), [7])[0]
        let fromJSON = try frames(edit.replacingOccurrences(of: "NAME", with: "shapes.json"), [7])[0]
        XCTAssertTrue(fromArchive == fromJSON, "the archive's animation is not drawn as its JSON")
        XCTAssertTrue(try ProbeReport(path: path("sting.lottie")).container.hasPrefix("lottie (dotLottie archive (animation sting) 5.7.4, frames 0–29: 30 at 30 fps"))
        try archive("v2.lottie", manifest: #"{"version": "2", "animations": [{"id": "x"}]}"#, member: "a/x.json")
        XCTAssertEqual(try VideoReader(path: path("v2.lottie")).info.duration, MediaTime(value: 1, timescale: 1))
        try archive("escape.lottie", manifest: #"{"animations": [{"id": "../../shapes"}]}"#, member: "animations/x.json")
        XCTAssertThrowsError(try VideoReader(path: path("escape.lottie"))) { XCTAssertTrue("\($0)".contains("not a plain name"), "\($0)") }
        try archive("bare.lottie", manifest: "", member: "animations/x.json")
        XCTAssertThrowsError(try VideoReader(path: path("bare.lottie"))) { XCTAssertTrue("\($0)".contains("no manifest.json"), "\($0)") }
    }

    /// `segue render sting.json` renders the animation (a clip, not an edit file); an edit file stays one.
    func testCommandLineRendersAnAnimationGivenAlone() throws {
        _ = try fixture("shapes.json")
        let r = try segue(["render", path("shapes.json"), "-o", path("sting.mov")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let probe = try ProbeReport(path: path("sting.mov"))
        XCTAssertEqual(probe.video?.codedWidth, 160)
        XCTAssertEqual(probe.video?.averageFrameRate, 30)
        XCTAssertEqual(probe.duration, 1, accuracy: 0.001)
        let plan = try segue(["plan", try write(##"{"renderSize": {"width": 160, "height": 120}, "clips": [{"path": "shapes.json", "loop": true, "duration": 2}]}"##, "edit.json")])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.text.contains("render size 160x120, 30 fps, 2.000 s, 60 frames"), plan.text)
        XCTAssertTrue(plan.text.contains("frames 0–59, looped: again from 0.000 s every 1.000 s"), plan.text)
        // Resolved (the animation's description recorded), it renders the same frames.
        let loop = try write(##"{"renderSize": {"width": 128, "height": 32}, "frameRate": 30, "clips": [{"path": "shapes.json", "loop": true, "start": 0.5, "duration": 2}]}"##, "loop.json")
        let quiet = ["--backend", "cpu", "--progress", "none"]
        for args in [["render", loop, "-o", path("direct.mkv"), "--codec", "ffv1"] + quiet, ["resolve", loop, "--codec", "ffv1", "-o", path("loop.resolved.json")],
                     ["render", path("loop.resolved.json"), "-o", path("resolved.mkv")] + quiet] {
            let r = try segue(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        func md5(_ file: String) throws -> String { try TestSupport.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") }
        let direct = try md5(path("direct.mkv"))
        XCTAssertEqual(direct.split(separator: "\n").count, 60)
        XCTAssertEqual(direct, try md5(path("resolved.mkv")), "the resolved edit renders other frames")
    }

    /// An OpenTimelineIO media reference to a Lottie file is a Lottie item: its source range picks the frames.
    func testOTIOMediaReferenceToALottie() throws {
        _ = try fixture("steps.json")
        let otio = try write(#"""
            {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [{"OTIO_SCHEMA": "Clip.1", "name": "sting", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "value": 5, "rate": 25}, "duration": {"OTIO_SCHEMA": "RationalTime.1", "value": 10, "rate": 25}}, "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "steps.json"}}]}]}}
            """#, "sting.otio")
        let timeline = try RenderJob.resolve(try EditFile.load(path: otio))
        XCTAssertEqual(timeline.frameRate, FrameRate(25))
        let images = try RenderJob.renderFrames(timeline, frames: [0, 9], renderer: ReferenceRenderer()).images
        XCTAssertEqual(images.map(stepsFrame), [15, 24])
    }
}
