import XCTest
import SegueEdit
import SegueCore
import SegueGL
import SeguePipeline
@testable import SegueFarm
import SegueTestSupport

/// Edits from strangers (docs/untrusted-edits.md): disguised playlists, URLs, FIFOs and devices, `--root`,
/// decompression bombs, resource limits, shaders that never finish. Through the `segue` command, as a farm runs it.
final class UntrustedEditTests: EndToEndTestCase {
    func segue(_ args: [String]) throws -> TestSupport.ProcessResult { try TestSupport.run(TestSupport.segueBinary, args) }
    func leftovers(_ folder: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder ?? dir).filter { $0.contains(".segue-") }
    }
    func write(_ text: String, _ name: String) throws -> String {
        let p = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }
    /// Runs `segue ARGS` and expects `status` with every fragment of `mentions` on standard error, no output file and
    /// no temporary file; returns the seconds it took.
    @discardableResult
    func expect(_ args: [String], status: Int32, mentions: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let started = Date()
        let r = try segue(args)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
        for m in mentions { XCTAssertTrue(r.stderr.contains(m), "expected \"\(m)\" in: \(r.stderr)", file: file, line: line) }
        var isDir: ObjCBool = false
        if let o = args.firstIndex(of: "-o"), o + 1 < args.count, status != 0,
           FileManager.default.fileExists(atPath: args[o + 1], isDirectory: &isDir), !isDir.boolValue {
            XCTFail("no output expected at \(args[o + 1])", file: file, line: line)
        }
        XCTAssertEqual(try leftovers(), [], "no temporary file left", file: file, line: line)
        return seconds
    }
    /// Frames of a video, counted by ffprobe.
    func frames(_ file: String) throws -> Int { Int(try TestSupport.ffprobe(file, "stream=nb_read_frames", count: true)["nb_read_frames"] ?? "") ?? -1 }
    /// Mean R, G, B of the first frame, decoded by FFmpeg.
    func meanRGB(_ file: String, width: Int = 64, height: Int = 48) throws -> [Double] {
        let f = try TestSupport.decodeFrames(file, width: width, height: height, pixFmt: "rgb24")[0]
        return (0..<3).map { c in Double(stride(from: c, to: f.count, by: 3).reduce(0) { $0 + Int(f[$1]) }) / Double(f.count / 3) }
    }
    /// A one-second 64x48 clip of one colour (no B-frames), MPEG-TS or MP4 by the name; `offset` shifts its timestamps
    /// (seconds), so that two can follow each other in one stream.
    func colourClip(_ name: String, _ colour: String, offset: Double = 0) throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=\(colour):s=64x48:r=30:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10", "-bf", "0",
                                "-output_ts_offset", "\(offset)", p])
        return p
    }

    // An HLS playlist saved as holiday.mp4 whose segment is someone else's video: the classic local-file disclosure.
    func testDisguisedHLSPlaylistIsRefusedAndNamed() throws {
        let secret = try colourClip("secret.ts", "red")
        let holiday = try write("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1.0,\nfile://\(secret)\n#EXT-X-ENDLIST\n", "holiday.mp4")
        try expect(["render", holiday, "-o", path("out.mp4")], status: 2,
                   mentions: ["clips[0].path: holiday.mp4 is an HLS playlist, not a media file", "--allow-indirect-inputs"])
        try expect(["probe", holiday], status: 1, mentions: ["holiday.mp4 is an HLS playlist, not a media file"])
        // With the opt-in it renders the segment (the red clip, 30 frames)...
        let r = try segue(["render", holiday, "-o", path("opened.mp4"), "--allow-indirect-inputs", "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try frames(path("opened.mp4")), 30)
        let rgb = try meanRGB(path("opened.mp4"))
        XCTAssertGreaterThan(rgb[0], 200, "\(rgb)")
        XCTAssertLessThan(rgb[1] + rgb[2], 60, "\(rgb)")
        // ...but what the playlist reads obeys --root: the segment lies outside this one.
        let root = path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: holiday, toPath: root + "/holiday.mp4")
        try expect(["render", root + "/holiday.mp4", "-o", path("rooted.mp4"), "--allow-indirect-inputs", "--root", root], status: 2,
                   mentions: ["clips[0].path: holiday.mp4 is an HLS playlist that reads a file Segue may not open", "outside the root"])
    }

    // An ffconcat list saved as a video: refused; with the opt-in, read, its files checked against the policy too.
    func testDisguisedFFconcatListIsRefusedAndOpensWithTheOptIn() throws {
        _ = try colourClip("a.mp4", "blue")
        let list = try write("ffconcat version 1.0\nfile a.mp4\nfile a.mp4\n", "list.mp4")
        try expect(["render", list, "-o", path("out.mp4")], status: 2, mentions: ["list.mp4 is an ffconcat list, not a media file"])
        let r = try segue(["render", list, "-o", path("opened.mp4"), "--allow-indirect-inputs", "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try frames(path("opened.mp4")), 60, "both entries")
        // Inside a root, a list naming a symbolic link to a file outside it is refused.
        let root = path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/a.mp4", withDestinationPath: path("a.mp4"))
        try FileManager.default.copyItem(atPath: list, toPath: root + "/list.mp4")
        try expect(["render", root + "/list.mp4", "-o", path("rooted.mp4"), "--allow-indirect-inputs", "--root", root], status: 2,
                   mentions: ["list.mp4 is an ffconcat list that names a file Segue may not open", "outside the root"])
        // Absolute names: libavformat's safe mode, kept on.
        let absolute = try write("ffconcat version 1.0\nfile \(path("a.mp4"))\n", "absolute.mp4")
        try expect(["render", absolute, "-o", path("abs.mp4"), "--allow-indirect-inputs"], status: 2, mentions: ["safe mode"])
    }

    // concat: and http:// paths: refused; concat: of local files passes with the opt-in, a network URL never does.
    func testURLPathsAreRefused() throws {
        let a = try colourClip("a.ts", "red"), b = try colourClip("b.ts", "lime", offset: 1)
        let concat = "concat:\(a)|\(b)"
        try expect(["render", concat, "-o", path("out.mp4")], status: 2, mentions: ["clips[0].path: \(concat) is a concat: URL", "--allow-indirect-inputs"])
        try expect(["render", "http://127.0.0.1:9/a.mp4", "-o", path("out.mp4")], status: 2, mentions: ["is a URL (http:)", "local files only"])
        try expect(["render", "http://127.0.0.1:9/a.mp4", "-o", path("out.mp4"), "--allow-indirect-inputs"], status: 2, mentions: ["local files only"])
        let edit = try write(#"{"clips": [{"path": "https://example.com/a.mp4"}]}"#, "web.json")
        try expect(["render", edit, "-o", path("out.mp4")], status: 2, mentions: ["clips[0].path: https://example.com/a.mp4 is a URL (https:)"])
        let r = try segue(["render", concat, "-o", path("joined.mp4"), "--allow-indirect-inputs", "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try frames(path("joined.mp4")), 60, "both files, one after the other")
        let joined = try TestSupport.decodeFrames(path("joined.mp4"), width: 64, height: 48, pixFmt: "rgb24")
        XCTAssertEqual(joined.count, 60)
        XCTAssertEqual(Array(joined[0][0..<3]).map { Int($0) / 16 }, [15, 0, 0], "red first")
        XCTAssertEqual(Array(joined[59][0..<3]).map { Int($0) / 16 }, [0, 15, 0], "lime last")
        try expect(["render", "concat:\(a)|/etc/hostname", "-o", path("out.mp4"), "--allow-indirect-inputs", "--root", dir], status: 2,
                   mentions: ["/etc/hostname is outside the root"])
    }

    // A FIFO would block the render forever, a device would never end: refused at once, wherever the edit names them.
    func testFIFOsAndDevicesAreRefusedAtOnce() throws {
        let fifo = path("fifo.mp4")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let good = try cornerClip("good.mp4")
        _ = try write("vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n", "fade.glsl")
        var slowest = 0.0
        slowest = max(slowest, try expect(["render", fifo, "-o", path("o.mp4")], status: 2, mentions: ["clips[0].path", "is a FIFO (named pipe), not a media file"]))
        slowest = max(slowest, try expect(["render", good, "/dev/zero", "-o", path("o.mp4")], status: 2, mentions: ["clips[1].path: /dev/zero is a character device"]))
        slowest = max(slowest, try expect(["render", good, "--music", fifo, "-o", path("o.mp4")], status: 2, mentions: ["music.path", "FIFO"]))
        slowest = max(slowest, try expect(["probe", fifo, "/dev/zero"], status: 1, mentions: ["fifo.mp4 is a FIFO", "zero is a character device", "2 of 2 file(s)"]))
        let edit = try write(#"{"clips": [{"path": "good.mp4"}, {"path": "good.mp4", "transition": {"type": "glsl", "shader": "fifo.mp4", "duration": 0.5}}]}"#, "e.json")
        slowest = max(slowest, try expect(["render", edit, "-o", path("o.mp4")], status: 2, mentions: ["clips[1].transition.shader", "FIFO"]))
        let music = try write(#"{"clips": [{"path": "good.mp4"}, {"path": "good.mp4", "transition": {"type": "glsl", "shader": "fade.glsl", "duration": 0.5}}], "music": {"path": "/dev/urandom"}}"#, "m.json")
        slowest = max(slowest, try expect(["render", music, "-o", path("o.mp4")], status: 2, mentions: ["music.path: /dev/urandom is a character device"]))
        XCTAssertEqual(mkfifo(path("edit.json"), 0o644), 0)
        slowest = max(slowest, try expect(["render", path("edit.json"), "-o", path("o.mp4")], status: 2, mentions: ["the edit file is a FIFO"]))
        XCTAssertLessThan(slowest, 5, "each refused at once (opening one would block for good; 5 s is start-up under load, with margin)")
    }

    // --root: every path the edit names must lie inside it after resolving .. and symbolic links; --output-root too.
    func testRootConfinesEveryPathTheEditNames() throws {
        let root = path("job"), outside = path("elsewhere")
        for d in [root, outside] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try TestSupport.makeClip(root + "/in.mp4", video: "testsrc2=s=64x48:r=30:d=1")
        try TestSupport.makeClip(outside + "/x.mp4", video: "testsrc2=s=64x48:r=30:d=1")
        try FileManager.default.createSymbolicLink(atPath: root + "/link.mp4", withDestinationPath: outside + "/x.mp4")
        try Data("vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n".utf8)
            .write(to: URL(fileURLWithPath: outside + "/fade.glsl"))
        func edit(_ clips: String, _ name: String) throws -> String {
            let p = root + "/\(name).json"
            try Data("{\"clips\": [\(clips)]}".utf8).write(to: URL(fileURLWithPath: p))
            return p
        }
        let cases: [(String, String)] = [
            (#"{"path": "../elsewhere/x.mp4"}"#, "clips[0].path"),
            ("{\"path\": \"in.mp4\"}, {\"path\": \"\(outside)/x.mp4\"}", "clips[1].path"),
            (#"{"path": "link.mp4"}"#, "clips[0].path"),
            (#"{"path": "in.mp4"}, {"path": "in.mp4", "transition": {"type": "glsl", "shader": "../elsewhere/fade.glsl", "duration": 0.5}}"#,
             "clips[1].transition.shader"),
        ]
        for (k, (clips, field)) in cases.enumerated() {
            try expect(["render", try edit(clips, "e\(k)"), "-o", root + "/out.mp4", "--root", root], status: 2, mentions: ["\(field):", "outside the root", "--root"])
        }
        try expect(["render", root + "/in.mp4", "--music", outside + "/x.mp4", "-o", root + "/out.mp4", "--root", root], status: 2, mentions: ["music.path:", "outside the root"])
        // Inside the root it renders; the same edits render without --root.
        var r = try segue(["render", try edit(#"{"path": "in.mp4"}, {"path": "./in.mp4", "transition": {"type": "crossfade", "duration": 0.5}}"#, "ok"),
                           "-o", root + "/out.mp4", "--root", root, "--output-root", root, "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try frames(root + "/out.mp4"), 45)
        r = try segue(["render", try edit(#"{"path": "link.mp4"}"#, "link"), "-o", path("free.mp4"), "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try expect(["render", root + "/in.mp4", "-o", outside + "/out.mp4", "--output-root", root], status: 2, mentions: ["-o \(outside)/out.mp4 is outside the output root"])
        try expect(["render", root + "/in.mp4", "-o", root + "/out2.mp4", "--root", path("no-such-folder")], status: 2, mentions: ["--root needs an existing folder"])
    }

    /// Runs `segue ARGS` under python's resource accounting: its status, standard error, wall seconds and peak RSS (MB).
    func measured(_ args: [String]) throws -> (status: Int32, stderr: String, seconds: Double, peakMB: Double) {
        let script = """
        import resource, subprocess, sys, time
        t = time.monotonic()
        r = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE)
        d = time.monotonic() - t
        sys.stderr.write(r.stderr.decode(errors="replace"))
        print(r.returncode, d, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
        """
        let r = try TestSupport.run("/usr/bin/python3", ["-c", script, TestSupport.segueBinary] + args)
        let f = r.text.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        return (Int32(f[0]) ?? -1, r.stderr, Double(f[1]) ?? -1, Double(f[2]) ?? -1)
    }

    /// A PNG whose header claims `width`x`height` (8-bit RGB), with a few bytes of picture data.
    func pngHeader(_ name: String, width: UInt32, height: UInt32) throws -> String {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let tb = Array(type.utf8) + body
            return be(UInt32(body.count)) + tb + be(crc32(tb))
        }
        // zlib stream of a few zero bytes (stored block).
        let zeros = [UInt8](repeating: 0, count: 16)
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x10, 0x00, 0xEF, 0xFF] + zeros + be(adler32(zeros))
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be(width) + be(height) + [8, 2, 0, 0, 0])
            + chunk("IDAT", idat) + chunk("IEND", [])
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
    func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }

    // Decompression bombs: a picture header claiming more pixels than the limit is refused before anything is allocated.
    func testDecompressionBombsAreRefusedBeforeAllocation() throws {
        let huge = try pngHeader("huge.png", width: 100_000, height: 100_000)
        for args in [["render", huge, "-o", path("o.mp4")], ["probe", huge]] {
            let r = try measured(args)
            XCTAssertEqual(r.status, args[0] == "probe" ? 1 : 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("huge.png has a 100000x100000 picture (10000 megapixels), over the limit of 1000 megapixels; raise it with --max-megapixels"), r.stderr)
            XCTAssertLessThan(r.seconds, 5, "refused at once (decoding it would take minutes; 5 s is start-up under load, with margin)")
            XCTAssertLessThan(r.peakMB, 200, "refused in under 200 MB")
            XCTAssertGreaterThan(r.peakMB, 1, "the measurement measured something")
        }
        // 15000x15000 (225 megapixels) is under libavutil's own sanity limit. A PNG that large is read shrunk on load
        // (docs/semantics.md): this one's header promises rows its file does not have, which libpng says, in bounded
        // memory; the picture limit (--max-megapixels) refuses it before a row is read.
        let big = try pngHeader("big.png", width: 15_000, height: 15_000)
        var r = try measured(["render", big, "-o", path("o.mp4"), "--size", "640x640"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("big.png: cannot read the 15000x15000 picture shrunk to 640x640: libpng: Not enough image data"), r.stderr)
        XCTAssertLessThan(r.peakMB, 200)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("o.mp4")))
        r = try measured(["render", big, "-o", path("o.mp4"), "--max-megapixels", "200"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("clips[0].path: big.png has a 15000x15000 picture (225 megapixels), over the limit of 200 megapixels"), r.stderr)
        XCTAssertLessThan(r.peakMB, 200)
        // The limit is the option's: a 64x48 picture (3072 pixels) over 0.001 megapixels.
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", path("small.png")])
        try expect(["render", path("small.png"), "-o", path("o.mp4"), "--max-megapixels", "0.001"], status: 2,
                   mentions: ["small.png has a 64x48 picture (0.003072 megapixels), over the limit of 0.001 megapixels"])
        XCTAssertEqual(try segue(["render", path("small.png"), "-o", path("small.mp4"), "--backend", "cpu"]).status, 0)
        // HEIF: the sizes libheif reads from the file's boxes (ispe) are checked before it decodes.
        try TestSupport.run("/usr/bin/heif-enc", ["-q", "50", path("small.png"), "-o", path("small.heic")])
        var heic = try Data(contentsOf: URL(fileURLWithPath: path("small.heic")))
        var at = heic.startIndex
        while let r = heic[at...].range(of: Data("ispe".utf8)) {
            heic.replaceSubrange((r.lowerBound + 8)..<(r.lowerBound + 16), with: [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20])   // 20000x20000
            at = r.upperBound
        }
        try heic.write(to: URL(fileURLWithPath: path("bomb.heic")))
        let h = try measured(["render", path("bomb.heic"), "-o", path("o.mp4")])
        XCTAssertEqual(h.status, 2, h.stderr)
        XCTAssertTrue(h.stderr.contains("bomb.heic has a 20000x20000 picture (400 megapixels)"), h.stderr)
        XCTAssertLessThan(h.seconds, 5)
        XCTAssertLessThan(h.peakMB, 200)
    }

    // The other limits: clip count, edit length, decoded-picture memory; each names its option.
    func testLimitsNameTheirOption() throws {
        let a = try cornerClip("a.mp4"), large = try cornerClip("large.mp4", size: "320x240")
        try expect(["render", a, a, a, "-o", path("o.mp4"), "--max-clips", "2"], status: 2,
                   mentions: ["clips: the edit has 3 clips, over the limit of 2; raise it with --max-clips N"])
        try expect(["render", a, a, "-o", path("o.mp4"), "--max-duration", "1.5"], status: 2,
                   mentions: ["the edit lasts 2.000 s, over the limit of 1.500 s; raise it with --max-duration SECONDS"])
        // 320x240 is 0.293 MiB at 4 bytes a pixel; with a crossfade two such pictures are on screen at once.
        try expect(["render", large, "-o", path("o.mp4"), "--max-picture-memory", "0.25"], status: 2,
                   mentions: ["clips[0].path: at 0.000 s clip 0 holds 0.293 MiB of decoded pictures, over the limit of 0.25 MiB; raise it with --max-picture-memory MIB"])
        try expect(["render", large, large, "--transition", "crossfade:0.5", "-o", path("o.mp4"), "--max-picture-memory", "0.5"], status: 2,
                   mentions: ["clips: at 0.500 s clip 0 and clip 1 hold 0.5859 MiB of decoded pictures, over the limit of 0.5 MiB"])
        let r = try segue(["render", a, a, "-o", path("ok.mp4"), "--max-clips", "2", "--max-duration", "2", "--max-picture-memory", "0.5", "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func requireGPU() throws {
        do { _ = try EGLSession() } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
    }

    /// Slow by construction, not by the machine's speed. llvmpipe's loop limiter ends a shader invocation's loops after
    /// 65,535 iterations in all (gallivm's `LP_MAX_TGSI_LOOP_ITERATIONS`, one counter for every loop of the invocation),
    /// so the work is inside the iteration: a chain of 400 dependent divisions and square roots (each waits for the one
    /// before: nothing can be hoisted, merged or pipelined; cheap to compile, unlike clip lookups, whose sampler code
    /// llvmpipe inlines at each call). A frame of 64×48 is one 64×64 tile, which llvmpipe draws on one thread however
    /// many cores the machine has. Measured here (llvmpipe, LLVM 15, 256 bits): a 16×16 frame about 11 s (the pre-flight
    /// allows 2 s for its five), a 64×48 frame over two minutes (the watchdog test allows 8 s), compiling it under half
    /// a second with Mesa's shader cache off. The four independent clip lookups this had before took under 8 s a 64×48
    /// frame on this machine, so the watchdog test passed or failed with the machine's speed and load. The watchdog ends
    /// the process at its deadline, so how slow a frame would have been costs the test nothing. `gate` limits the work
    /// to some progress values.
    func slowShader(_ name: String, gate: String? = nil) throws -> String {
        let loop = """
            for (int i = 0; i < 100000000; i++) {
              D100 D100 D100 D100
              c.x += x * 1e-9;
            }
        """
        return try write("""
        #define D x = sqrt(1.0 / (x + 1.37) + c.x);
        #define D10 D D D D D D D D D D
        #define D100 D10 D10 D10 D10 D10 D10 D10 D10 D10 D10
        vec4 transition(vec2 uv) {
          vec4 c = vec4(0.0);
          float x = uv.x;
          \(gate.map { "if (\($0)) {\n\(loop)\n}" } ?? loop)
          return mix(getFromColor(uv), getToColor(uv), progress) + c * 1e-12;
        }

        """, name)
    }

    // A shader that never finishes fails in the pre-flight, before the render starts, naming it.
    func testEndlessShaderFailsInThePreflight() throws {
        try requireGPU()
        _ = try cornerClip("a.mp4", size: "64x48")
        _ = try cornerClip("b.mp4", size: "64x48")
        _ = try slowShader("endless.glsl")
        let edit = try write(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "glsl", "shader": "endless.glsl", "duration": 0.5}}]}"#, "e.json")
        let seconds = try expect(["render", edit, "-o", path("out.mp4"), "--no-audio"], status: 1,
                                 mentions: ["clips[1].transition.shader: the shader endless.glsl", "before the render started", "the pre-flight"])
        XCTAssertLessThan(seconds, 40, "the pre-flight's deadline (2 s of frames after start-up and compiling), not the 120 s frame timeout")
        // Macros that expand to a thousand statements: Mesa compiles that for minutes. Compiling is timed too.
        _ = try write("""
        #define A x = sin(x + uv.x) * cos(x * 1.0001 + uv.y);
        #define B A A A A A A A A A A
        #define C B B B B B B B B B B
        vec4 transition(vec2 uv) { float x = progress; C C C C C C C C C C return mix(getFromColor(uv), getToColor(uv), progress) + vec4(fract(x) * 0.01); }

        """, "expanding.glsl")
        let expanding = try write(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "glsl", "shader": "expanding.glsl", "duration": 0.5}}]}"#, "x.json")
        // Which deadline stops it depends on the machine: where compiling takes over 3 s (a minute with LLVM's
        // optimisations), the compile's (min(--frame-timeout, 10 s)); where it compiles sooner (GALLIVM_PERF=nopt, a
        // fast CPU), the test frames' (min(--frame-timeout, 2 s)). Either is the pre-flight's, under --frame-timeout 3.
        let compiling = try expect(["render", expanding, "-o", path("out.mp4"), "--no-audio", "--frame-timeout", "3"], status: 1,
                                   mentions: ["expanding.glsl", "before the render started", "(the pre-flight; --frame-timeout 3 s)"])
        XCTAssertLessThan(compiling, 30, "the pre-flight's deadlines (3 s to compile, then 2 s of frames), not a minute of compiling")
    }

    // A shader that is slow only at some progress values passes the pre-flight; the frame watchdog stops the render
    // at the first such frame, naming it, and removes the temporary output.
    func testShaderSlowAtSomeProgressIsStoppedByTheWatchdog() throws {
        try requireGPU()
        _ = try cornerClip("a.mp4", size: "64x48")
        _ = try cornerClip("b.mp4", size: "64x48")
        _ = try slowShader("late.glsl", gate: "progress > 0.55 && progress < 0.7")
        // The transition runs over frames 3…29 at progress (n − 3) / 27: 0.55 < p < 0.7 on frames 18…21.
        let edit = try write(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "glsl", "shader": "late.glsl", "duration": 0.9}}]}"#, "e.json")
        let started = Date()
        let r = try segue(["render", edit, "-o", path("out.mp4"), "--no-audio", "--frame-timeout", "8"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("the shader late.glsl (clips[1].transition.shader) took longer than the frame timeout (8 s, --frame-timeout)"), r.stderr)
        XCTAssertNotNil(r.stderr.range(of: "frame (18|19|20|21), showing clip 0 \\(a.mp4\\) and clip 1 \\(b.mp4\\)", options: .regularExpression), r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "18 quick frames, then the 8 s deadline; the slow frames would take minutes each")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.mp4")))
        XCTAssertEqual(try leftovers(), [], "the temporary output was removed")
    }

    // The library applies the same policy: `RenderOptions.inputPolicy`, `RenderJob.resolve(_:policy:)`, `probeSource`.
    func testTheLibraryRefusesTheSame() throws {
        let root = path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let inside = root + "/in.mp4"
        try TestSupport.makeClip(inside, video: "testsrc2=s=64x48:r=30:d=1")
        let outside = try cornerClip("out.mp4")
        var options = RenderOptions()
        options.backend = .cpu
        options.inputPolicy = InputPolicy(root: root)
        XCTAssertThrowsError(try RenderJob.render(Edit(clips: [clip(inside), clip(outside)]), to: root + "/o.mp4", options: options)) { e in
            XCTAssertEqual((e as? EditError)?.field, "clips[1].path", "\(e)")
        }
        XCTAssertEqual(try RenderJob.render(Edit(clips: [clip(inside)]), to: root + "/o.mp4", options: options).frames, 30)
        let playlist = root + "/list.m3u8"
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1.0,\n\(outside)\n#EXT-X-ENDLIST\n".utf8).write(to: URL(fileURLWithPath: playlist))
        XCTAssertThrowsError(try RenderJob.resolve(Edit(clips: [clip(playlist)]))) { e in
            XCTAssertEqual((e as? InputRefused)?.field, "clips[0].path", "\(e)")
            XCTAssertEqual((e as? SegueError)?.exitStatus, 2)
        }
        XCTAssertEqual(try RenderJob.resolve(Edit(clips: [clip(playlist)]), policy: InputPolicy(allowIndirectInputs: true)).frameCount, 30)
        var edit = Edit(clips: [clip(playlist)])
        edit.allowIndirectInputs = true
        XCTAssertEqual(try RenderJob.resolve(edit).frameCount, 30, "the edit's own opt-in")
        XCTAssertThrowsError(try RenderJob.resolve(edit, policy: InputPolicy(root: root)), "what the playlist reads obeys the root") { e in
            XCTAssertTrue("\(e)".contains("list.m3u8 is an HLS playlist that reads a file Segue may not open"), "\(e)")
        }
    }

    // Farm workers render under the plan's input policy: a clip turned into a symbolic link to an identical file
    // outside the root after planning is refused by the worker, and a worker cannot be given another root.
    func testChunkWorkersRenderUnderThePlansRoot() throws {
        let root = path("job"), outside = path("elsewhere")
        for d in [root, outside] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        for n in ["a", "b"] { try TestSupport.makeClip(root + "/\(n).mp4", video: "testsrc2=s=64x48:r=30:d=1") }
        let edit = root + "/edit.json"
        try Data(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "crossfade", "duration": 0.5}}]}"#.utf8).write(to: URL(fileURLWithPath: edit))
        var r = try segue(["plan", edit, "--chunks", "2", "-o", root + "/plan.json", "--root", root, "--no-audio"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let plan = try JSONDecoder().decode(ChunkPlan.self, from: Data(contentsOf: URL(fileURLWithPath: root + "/plan.json")))
        XCTAssertEqual(plan.inputPolicy?.root, InputPolicy.realPath(root))
        r = try segue(["render", "--plan", root + "/plan.json", "--chunk", "0", "-o", root + "/chunks", "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try expect(["render", "--plan", root + "/plan.json", "--chunk", "1", "-o", root + "/chunks", "--root", outside], status: 2,
                   mentions: ["the plan fixes what the edit may read"])
        // b.mp4 moves out (same bytes, same time: the plan still matches) and a link takes its place.
        try TestSupport.run("/bin/cp", ["-p", root + "/b.mp4", outside + "/b.mp4"])
        try FileManager.default.removeItem(atPath: root + "/b.mp4")
        try FileManager.default.createSymbolicLink(atPath: root + "/b.mp4", withDestinationPath: outside + "/b.mp4")
        try expect(["render", "--plan", root + "/plan.json", "--chunk", "1", "-o", root + "/chunks", "--backend", "cpu"], status: 2,
                   mentions: ["clips[1].path: \(root)/b.mp4 leads outside the root"])
    }
}
