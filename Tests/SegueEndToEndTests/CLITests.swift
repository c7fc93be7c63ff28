import XCTest
import SegueCore
import SegueEdit
import SegueTestSupport

/// The `segue` command as a user runs it: exit codes, messages, and nothing lost on failure.
final class CLITests: EndToEndTestCase {
    func testMissingClipFailsNamingTheFileAndWritesNothing() throws {
        let a = try cornerClip("a.mp4")
        let out = path("out.mp4")
        let r = try segue(["render", a, path("nope.mp4"), "--transition", "crossfade:0.5", "-o", out])
        // A missing clip is a mistake in the edit (issue 37 #6): exit status 2, naming the field.
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("clips[1].path: \(path("nope.mp4")) is missing: file not found"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }, [])
    }

    func testFailedRenderKeepsTheExistingOutput() throws {
        let a = try cornerClip("a.mp4")
        let out = path("out.mp4")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let edit = path("edit.json")
        try Data(#"{"clips": [{"path": "a.mp4"}, {"path": "a.mp4", "transition": {"type": "crossfade", "duration": 5}}]}"#.utf8).write(to: URL(fileURLWithPath: edit))
        let r = try segue(["render", edit, "-o", out])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("clips[1].transition.duration"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "precious")
        _ = a
    }

    func testOutputEqualToAnInputIsRefused() throws {
        let a = try cornerClip("a.mp4")
        let before = try Data(contentsOf: URL(fileURLWithPath: a))
        let r = try segue(["render", a, "-o", a])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("input"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), before)
        // The same file under another name: a hard link (same device and inode), and a symbolic link.
        let hard = path("hard.mp4"), soft = path("soft.mp4")
        XCTAssertEqual(link(a, hard), 0)
        try FileManager.default.createSymbolicLink(atPath: soft, withDestinationPath: a)
        for (output, what) in [(hard, "is clip 1's input (the same file under another name)"), (soft, "is clip 1's input; choose")] {
            let b = try cornerClip("b.mp4")
            let r = try segue(["render", b, a, "-o", output])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(what), r.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), before)
        }
    }

    /// A GPU the user names must exist: no silent fall back to llvmpipe or the CPU, with `--backend auto` too; the
    /// message names the devices that do exist. Without a named device, auto still falls back.
    func testNamedGPUDeviceThatDoesNotExistFails() throws {
        let a = try cornerClip("a.mp4")
        for (device, backend) in [("5", "auto"), ("5", "gpu"), ("/dev/dri/renderD199", "auto"), ("first", "auto")] {
            let out = path("dev-\(device.split(separator: "/").last!)-\(backend).mkv")
            let r = try segue(["render", a, "--codec", "ffv1", "-o", out, "--gpu-device", device, "--backend", backend, "--verbose"])
            XCTAssertEqual(r.status, 1, "\(device) \(backend): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("this machine has:"), r.stderr)
            XCTAssertFalse(r.stderr.contains("rendering on the CPU"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
        // The same through a chunk render: not worth retrying (exit 1, not 75).
        let planPath = path("plan.json"), edit = path("edit.json")
        try Data(#"{"clips": [{"path": "a.mp4"}], "output": {"codec": "ffv1"}}"#.utf8).write(to: URL(fileURLWithPath: edit))
        let plan = try segue(["plan", edit, "--chunks", "2", "-o", planPath])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let chunk = try segue(["render", edit, "--plan", planPath, "-o", dir, "--chunk", "0", "--gpu-device", "7"])
        XCTAssertEqual(chunk.status, 1, chunk.stderr)
        XCTAssertTrue(chunk.stderr.contains("GPU device 7"), chunk.stderr)
        // A device that exists (EGL device 0 on Mesa) renders.
        let ok = try segue(["render", a, "--codec", "ffv1", "-o", path("dev0.mkv"), "--gpu-device", "0", "--backend", "gpu"])
        if ok.status != 0 && !TestSupport.inCI && ok.stderr.contains("EGL") { throw XCTSkip("no EGL here: \(ok.stderr)") }
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    func testEditFileRenderWithBackendsAndNoEGLFallback() throws {
        _ = try cornerClip("a.mp4")
        _ = try cornerClip("b.mp4", size: "64x96")
        let edit = path("edit.json")
        try Data(#"{"frameRate": 30, "clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "push", "duration": 0.5, "direction": "right"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: edit))
        // With EGL blocked: auto falls back to the CPU with a warning; gpu fails clearly.
        let auto = try segue(["render", edit, "-o", path("auto.mp4")], env: ["SEGUE_DISABLE_EGL": "1"])
        XCTAssertEqual(auto.status, 0, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("warning") && auto.stderr.contains("CPU"), auto.stderr)
        let gpu = try segue(["render", edit, "-o", path("gpu.mp4"), "--backend", "gpu"], env: ["SEGUE_DISABLE_EGL": "1"])
        XCTAssertEqual(gpu.status, 1, gpu.stderr)
        XCTAssertTrue(gpu.stderr.contains("SEGUE_DISABLE_EGL"), gpu.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("gpu.mp4")))
        // --verbose names the EGL platform and GL_RENDERER.
        let v = try segue(["render", edit, "-o", path("v.mkv"), "--backend", "gpu", "--codec", "ffv1", "--verbose"])
        if v.status != 0 && !TestSupport.inCI && v.stderr.contains("EGL") { throw XCTSkip("no EGL here: \(v.stderr)") }
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertTrue(v.stderr.contains("renderer gpu") && v.stderr.contains("EGL"), v.stderr)
        // 1 + 1 - 0.5 = 1.5 s at 30 fps; clips of two sizes, equally long: the first's orientation (landscape), its
        // standard 16:9 scaled to the longest side there is, 96x54 (issue 37 #3; AVFoundation's rule gave 96x96).
        let probe = try TestSupport.ffprobe(path("v.mkv"), "stream=codec_name,width,height,nb_read_frames", count: true)
        XCTAssertEqual(probe["codec_name"], "ffv1")
        XCTAssertEqual(probe["width"], "96")
        XCTAssertEqual(probe["height"], "54")
        XCTAssertEqual(probe["nb_read_frames"], "45")
    }

    func testBadCommandLinesExitTwo() throws {
        XCTAssertEqual(try segue(["render", "a.mp4"]).status, 2)                                    // no -o
        XCTAssertEqual(try segue(["render", "a.mp4", "-o", "x.mp4", "--backend", "vulkan"]).status, 2)
        let r = try segue(["render", "a.mp4", "b.mp4", "--transition", "spin:1", "-o", "x.mp4"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("crossfade, push, wipe"), r.stderr)
        XCTAssertEqual(try segue(["frobnicate"]).status, 2)
    }

    /// Defects a fresh-user review found: each input must be refused up front with status 2, naming what to change.
    func testOutputAndSettingsAreCheckedBeforeRendering() throws {
        let a = try cornerClip("a.mp4")
        try TestSupport.makeClip(path("song.m4a"), video: "color=c=black:s=16x16:r=10:d=1", audio: "sine=f=300:r=48000:d=2", extra: ["-vn"])
        let song = try Data(contentsOf: URL(fileURLWithPath: path("song.m4a")))
        func refused(_ args: [String], _ mentions: String, line: UInt = #line) throws {
            let r = try segue(args)
            XCTAssertEqual(r.status, 2, r.stderr, line: line)
            XCTAssertTrue(r.stderr.contains(mentions), "expected \"\(mentions)\" in \(r.stderr)", line: line)
            XCTAssertFalse(r.stderr.contains(".segue-"), "no temporary path in messages: \(r.stderr)", line: line)
        }
        // The music file and the edit file are inputs too.
        try refused(["render", a, "--music", path("song.m4a"), "-o", path("song.m4a")], "music file")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("song.m4a"))), song)
        let edit = path("self.json")
        try Data(#"{"clips":[{"path":"a.mp4"}]}"#.utf8).write(to: URL(fileURLWithPath: edit))
        try refused(["render", edit, "-o", edit], "edit file")
        XCTAssertEqual(try String(contentsOfFile: edit, encoding: .utf8), #"{"clips":[{"path":"a.mp4"}]}"#)
        // Shorter than a frame.
        try Data(#"{"clips":[{"path":"a.mp4","duration":0.01}]}"#.utf8).write(to: URL(fileURLWithPath: path("short.json")))
        try refused(["render", path("short.json"), "-o", path("short.mp4")], "less than one frame")
        try refused(["plan", path("short.json")], "less than one frame")
        // Directions that do not suit the transition.
        try refused(["render", a, a, "--transition", "push:0.5:down-right", "-o", path("p.mp4")], "one axis")
        try refused(["render", a, a, "--transition", "crossfade:0.5:up", "-o", path("p.mp4")], "no direction")
        // Encoder settings: AAC sample rates, x264 presets.
        try Data(#"{"clips":[{"path":"a.mp4"}],"audio":{"sampleRate":12345}}"#.utf8).write(to: URL(fileURLWithPath: path("rate.json")))
        try refused(["render", path("rate.json"), "-o", path("rate.mp4")], "audio.sampleRate")
        try refused(["render", a, "--preset", "bogus", "-o", path("preset.mp4")], "--preset")
        try Data(#"{"clips":[{"path":"a.mp4"}],"output":{"preset":"ultrafastt"}}"#.utf8).write(to: URL(fileURLWithPath: path("preset.json")))
        try refused(["render", path("preset.json"), "-o", path("preset.mp4")], "output.preset")
        // Output names: a folder, empty, a container that does not match the codec, a picture that is not PNG.
        try refused(["render", a, "-o", dir], "is a folder")
        try refused(["render", a, "-o", ""], "-o needs a file name")
        try refused(["render", a, "-o", path("k.avi")], ".mp4")
        try refused(["frame", a, "--at", "0.5", "-o", path("at.jpg")], ".png")
        // A time past the edit is named in seconds, as given.
        try refused(["frame", a, "--at", "99", "-o", path("late.png")], "99.000 s is outside the edit (0 to ")
        try refused(["render", a, "-o", path("k.xyz")], "k.xyz: its name says no format Segue writes")
        try refused(["render", a, "--delivery", "youtube-1080", "-o", path("d.mp4")], "(got youtube-1080; did you mean youtube-1080p?)")
        // --values is a file, as the edit file is: a pipe is named as one (never opened: it could block).
        XCTAssertEqual(mkfifo(path("values.fifo"), 0o600), 0)
        try refused(["plan", a, "--values", path("values.fifo")], "is a FIFO (named pipe), not a file: write the values to a .json file, or give them with --set")
        // Conflicting options.
        try refused(["render", a, "--square", "--size", "64x64", "-o", path("c.mp4")], "either --square or --size")
        try refused(["render", a, "--music", path("song.m4a"), "--no-audio", "-o", path("c.mp4")], "--no-audio")
        try refused(["compare", "--backends", edit, "--backend", "cpu"], "drop --backend")
        try refused(["compare", a, a, "--size", "64x36"], "takes only --min-psnr and --json; --size")
        // Music that starts past the end of the song, looped or not.
        try Data(#"{"clips":[{"path":"a.mp4"}],"music":{"path":"song.m4a","start":100,"loop":true}}"#.utf8).write(to: URL(fileURLWithPath: path("late.json")))
        try refused(["render", path("late.json"), "-o", path("late.mp4")], "music.start")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mp4") && $0 != "a.mp4" }, [])
    }

    func testVariableFrameRatePhoneClipsRenderAtAStandardRate() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        // 22 frames in 1.23 s (average 10.6 fps) on a 29.97 fps clock: rendered at 29.97, not 11.
        let r = try segue(["plan", "--json", "\(media)/iphone6s_livephoto_1440x1080_vfr_pcm.mov"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try JSONDecoder().decode(TimelineReport.self, from: r.stdout).frameRate, "30000/1001")
        let flir = try segue(["plan", "--json", "\(media)/flir_1080x1440_portrait_vfr.mp4"])
        XCTAssertEqual(try JSONDecoder().decode(TimelineReport.self, from: flir.stdout).frameRate, "30")
    }

    func testOtherVideoEncoders() throws {
        let a = try cornerClip("a.mp4")
        // libx265 in MP4, tagged hvc1, with preset and crf passed through.
        let r = try segue(["render", a, "--encoder", "libx265", "--preset", "ultrafast", "--crf", "30", "--fps", "30", "-o", path("h265.mp4")])
        XCTAssertEqual(r.status, 0, r.stderr)
        // x265 writes its own lines on standard error, past FFmpeg's log: only its errors (its banner was 25 lines).
        XCTAssertFalse(r.stderr.contains("x265 ["), r.stderr)
        let v = try TestSupport.ffprobe(path("h265.mp4"), "stream=codec_name,codec_tag_string,nb_read_frames,color_space", count: true)
        XCTAssertEqual(v["codec_name"], "hevc")
        XCTAssertEqual(v["codec_tag_string"], "hvc1")
        XCTAssertEqual(v["nb_read_frames"], "30")
        XCTAssertEqual(v["color_space"], "bt709")
        // Unknown encoders, audio encoders and encoders with FFV1 are refused up front.
        for (args, text) in [(["--encoder", "nope"], "no encoder named nope"), (["--encoder", "aac"], "not a video encoder"),
                             (["--encoder", "libx265", "--codec", "ffv1"], "an encoder applies to H.264, VP9 and AV1 output")] {
            let out = path("bad.\(args.contains("ffv1") ? "mkv" : "mp4")")
            let b = try segue(["render", a] + args + ["-o", out])
            XCTAssertEqual(b.status, 2, b.stderr)
            XCTAssertTrue(b.stderr.contains(text), b.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
    }

    /// `segue transitions` lists every transition, its directions and parameters; `--json` for machines.
    func testTransitionsListsEveryTransition() throws {
        let r = try segue(["transitions"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for kind in TransitionKind.allCases { XCTAssertTrue(r.text.contains("\n\(kind.rawValue) ") || r.text.hasPrefix("\(kind.rawValue) "), kind.rawValue) }
        XCTAssertTrue(r.text.contains("direction: down-right (default), down-left"), r.text)
        XCTAssertTrue(r.text.contains("params.phase = 0.2 (0.01…0.99)"), r.text)
        let j = try segue(["transitions", "--json"])
        XCTAssertEqual(j.status, 0, j.stderr)
        let catalogue = try JSONDecoder().decode(TransitionCatalogue.self, from: j.stdout)
        XCTAssertEqual(catalogue.transitions.map(\.name), TransitionKind.allCases.map(\.rawValue))
        XCTAssertEqual(catalogue.transitions.count, 50)
        XCTAssertEqual(catalogue.transitions.filter { $0.xfade != nil }.count, 46)
        let fadeblack = try XCTUnwrap(catalogue.transitions.first { $0.name == "fadeblack" })
        XCTAssertEqual(fadeblack.parameters.map(\.name), ["phase"])
        XCTAssertEqual(fadeblack.parameters.first?.defaultValue, 0.2)
        XCTAssertEqual(catalogue.transitions.first { $0.name == "push" }?.directions, ["left", "right", "up", "down"])
        XCTAssertEqual(try segue(["transitions", "extra"]).status, 2)
        // Every built-in by name on the command line; glsl needs an edit file.
        let g = try segue(["render", "a.mp4", "b.mp4", "--transition", "glsl:1", "-o", "x.mp4"])
        XCTAssertEqual(g.status, 2)
        XCTAssertTrue(g.stderr.contains("needs a shader file"), g.stderr)
        let typo = try segue(["render", "a.mp4", "b.mp4", "--transition", "dissolv:1", "-o", "x.mp4"])
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("did you mean \"dissolve\""), typo.stderr)
    }

    /// Ctrl-C (SIGINT) mid-render says where it stopped and exits 130: without `--keep-partial` nothing is kept (no
    /// output, no temporary file); with it, the frames written are a fragmented MP4 (its `moof` boxes) that ffprobe
    /// counts as the message says and FFmpeg decodes without an error. `--keep-partial` needs an MP4 or QuickTime name.
    func testInterruptSaysWhereAndKeepPartialPlays() throws {
        // Ten minutes of a fill: far longer than the moment between its first frame and the interrupt.
        let edit = path("long.json")
        try Data(##"{"renderSize": {"width": 160, "height": 120}, "frameRate": 30, "clips": [{"fill": "#336699", "duration": 600}]}"##.utf8)
            .write(to: URL(fileURLWithPath: edit))
        /// Runs the render, interrupts it once its first frame is encoded (its first JSON progress line), and returns
        /// its exit status and standard error.
        func interrupted(_ extra: [String], out: String) throws -> (status: Int32, stderr: String) {
            let p = Process(), errors = Pipe()
            p.executableURL = URL(fileURLWithPath: TestSupport.segueBinary)
            p.arguments = ["render", edit, "--backend", "cpu", "--progress", "json", "-o", out] + extra
            p.standardError = errors
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            var text = ""
            while !text.contains("\"frame\"") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }   // it ended
                text += String(decoding: chunk, as: UTF8.self)
            }
            p.interrupt()
            text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        func stoppedAt(_ text: String) -> Int? {
            guard let r = text.range(of: #"interrupted at frame (\d+) of 18000"#, options: .regularExpression) else { return nil }
            return Int(text[r].split(separator: " ")[3])
        }
        let lost = path("lost.mp4")
        let plain = try interrupted([], out: lost)
        XCTAssertEqual(plain.status, 130, plain.stderr)
        XCTAssert(plain.stderr.contains("nothing kept (--keep-partial keeps the frames written"), plain.stderr)
        XCTAssertGreaterThan(stoppedAt(plain.stderr) ?? 0, 0, plain.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: lost))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }, [], "no temporary file left")

        let kept = path("kept.mp4")
        let r = try interrupted(["--keep-partial"], out: kept)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssert(r.stderr.contains("written in \(kept) (fragmented MP4)"), r.stderr)
        let frames = try XCTUnwrap(stoppedAt(r.stderr), r.stderr)
        XCTAssertGreaterThan(frames, 0)
        let probe = try TestSupport.ffprobe(kept, "stream=nb_read_frames,width,height", count: true)
        XCTAssertEqual(probe["nb_read_frames"], "\(frames)", "ffprobe counts the frames the message names")
        XCTAssertEqual([probe["width"], probe["height"]], ["160", "120"])
        let decode = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", kept, "-f", "null", "-"])
        XCTAssertEqual(decode.status, 0, decode.stderr)
        XCTAssertEqual(decode.stderr, "", "decodes without an error")
        XCTAssertNotNil(try Data(contentsOf: URL(fileURLWithPath: kept)).range(of: Data("moof".utf8)), "fragmented MP4")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }, [])

        let mkv = try segue(["render", edit, "--keep-partial", "--codec", "ffv1", "-o", path("x.mkv")])
        XCTAssertEqual(mkv.status, 2, mkv.stderr)
        XCTAssert(mkv.stderr.contains("--keep-partial keeps a fragmented MP4"), mkv.stderr)
    }
}
