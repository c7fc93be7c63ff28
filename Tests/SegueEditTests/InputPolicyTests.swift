import XCTest
@testable import SegueCore
@testable import SegueEdit

/// `InputPolicy`: plain files, the root, URLs, outputs and the resource limits, on real files in a temporary folder.
final class InputPolicyTests: XCTestCase {
    var dir = ""
    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "segue-policy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/root/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        for f in ["root/in.mp4", "root/sub/deep.mp4", "outside/x.mp4"] { try Data("x".utf8).write(to: URL(fileURLWithPath: "\(dir)/\(f)")) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/root/link.mp4", withDestinationPath: dir + "/outside/x.mp4")
        try FileManager.default.createSymbolicLink(atPath: dir + "/root/away", withDestinationPath: dir + "/outside")
        try FileManager.default.createSymbolicLink(atPath: dir + "/root/near.mp4", withDestinationPath: dir + "/root/sub/deep.mp4")
        XCTAssertEqual(mkfifo(dir + "/root/fifo.mp4", 0o644), 0)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func refusal(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> EditError? {
        do { try body() } catch let e as EditError { return e } catch { XCTFail("\(error)", file: file, line: line) }
        return nil
    }

    func testInputsMustBeRegularFiles() throws {
        let p = InputPolicy.default
        XCTAssertNoThrow(try p.checkInput(path: dir + "/root/in.mp4", field: "clips[0].path"))
        XCTAssertNoThrow(try p.checkInput(path: dir + "/root/missing.mp4", field: "clips[0].path"), "a missing file is the opener's to report")
        for (path, kind) in [(dir + "/root/fifo.mp4", "a FIFO (named pipe)"), ("/dev/zero", "a character device"), (dir + "/root/sub", "a directory")] {
            let e = refusal { try p.checkInput(path: path, field: "clips[3].path") }
            XCTAssertEqual(e?.field, "clips[3].path")
            XCTAssertEqual(e?.message, "\(path) is \(kind), not a media file: inputs must be regular files")
        }
        XCTAssertEqual(refusal { try p.checkFile(path: "/dev/null", field: "clips[1].transition.shader") }?.field, "clips[1].transition.shader")
    }

    func testURLsAreRefusedAndConcatNeedsTheOptIn() throws {
        XCTAssertEqual(InputPolicy.urlScheme(of: "http://example.com/a.mp4"), "http")
        XCTAssertEqual(InputPolicy.urlScheme(of: "concat:/a.ts|/b.ts"), "concat")
        XCTAssertEqual(InputPolicy.urlScheme(of: "HTTPS://x"), "https")
        XCTAssertNil(InputPolicy.urlScheme(of: "/media/a:b.mp4"))
        XCTAssertNil(InputPolicy.urlScheme(of: "holiday:2024.mp4"), "not a protocol libavformat knows")
        var p = InputPolicy.default
        XCTAssertTrue(refusal { try p.checkInput(path: "http://example.com/a.mp4", field: "f") }?.message.contains("Segue reads local files only") == true)
        XCTAssertTrue(refusal { try p.checkInput(path: "subfile:,start,0,end,10,:/etc/passwd", field: "f") }?.message.contains("a subfile: URL") == true)
        let concat = "concat:\(dir)/root/in.mp4|\(dir)/root/sub/deep.mp4"
        XCTAssertTrue(refusal { try p.checkInput(path: concat, field: "f") }?.message.contains("--allow-indirect-inputs") == true)
        XCTAssertNoThrow(try p.checkInput(path: "file://\(dir)/root/in.mp4", field: "f"), "file: is a path")
        XCTAssertTrue(refusal { try p.checkInput(path: "file:\(dir)/root/fifo.mp4", field: "f") }?.message.contains("FIFO") == true)
        p.allowIndirectInputs = true
        XCTAssertNoThrow(try p.checkInput(path: concat, field: "f"))
        XCTAssertTrue(refusal { try p.checkInput(path: "concat:\(dir)/root/in.mp4|\(dir)/root/fifo.mp4", field: "f") }?.message.contains("FIFO") == true)
        XCTAssertTrue(refusal { try p.checkInput(path: "concat:in.mp4", field: "f") }?.message.contains("absolute paths") == true)
        XCTAssertTrue(refusal { try p.checkInput(path: "http://example.com/a.mp4", field: "f") }?.message.contains("local files only") == true,
                      "no network even with the opt-in")
        XCTAssertTrue(refusal { try p.checkFile(path: concat, field: "f") }?.message.contains("URL") == true, "a shader is never a URL")
        p.root = dir + "/root"
        XCTAssertTrue(refusal { try p.checkInput(path: "concat:\(dir)/root/in.mp4|\(dir)/outside/x.mp4", field: "f") }?.message.contains("outside the root") == true)
    }

    func testRootAfterDotDotAndSymbolicLinks() throws {
        let p = InputPolicy(root: dir + "/root")
        for ok in ["/root/in.mp4", "/root/sub/deep.mp4", "/root/sub/../in.mp4", "/root/near.mp4", "/root/new.mp4"] {
            XCTAssertNoThrow(try p.checkInput(path: dir + ok, field: "f"), ok)
        }
        for (bad, why) in [("/root/../outside/x.mp4", "is outside the root"), ("/outside/x.mp4", "is outside the root"),
                           ("/root/link.mp4", "through a symbolic link"), ("/root/away/x.mp4", "through a symbolic link"),
                           ("/root/away/not-there.mp4", "through a symbolic link")] {
            let e = refusal { try p.checkInput(path: dir + bad, field: "clips[1].path") }
            XCTAssertEqual(e?.field, "clips[1].path", bad)
            XCTAssertTrue(e?.message.contains(why) == true && e?.message.contains("--root") == true, "\(bad): \(String(describing: e))")
        }
        XCTAssertThrowsError(try InputPolicy(root: dir + "/nowhere").checkInput(path: dir + "/root/in.mp4", field: "f")) { XCTAssertTrue($0 is UsageError) }
        // The root given through a symbolic link is the same root.
        try FileManager.default.createSymbolicLink(atPath: dir + "/alias", withDestinationPath: dir + "/root")
        XCTAssertNoThrow(try InputPolicy(root: dir + "/alias").checkInput(path: dir + "/root/in.mp4", field: "f"))
        XCTAssertNoThrow(try InputPolicy(root: dir + "/alias").checkInput(path: dir + "/alias/in.mp4", field: "f"))
    }

    func testOutputRoot() throws {
        let p = InputPolicy(outputRoot: dir + "/root")
        XCTAssertNoThrow(try p.checkOutput(path: dir + "/root/out.mp4"))
        XCTAssertNoThrow(try p.checkOutput(path: dir + "/root/sub/../out.mp4"))
        XCTAssertThrowsError(try p.checkOutput(path: dir + "/outside/out.mp4")) { e in
            XCTAssertTrue("\(e)".contains("outside the output root") && "\(e)".contains("-o"), "\(e)")
        }
        XCTAssertThrowsError(try p.checkOutput(path: dir + "/root/away/out.mp4"), "a folder that is a link to outside")
        XCTAssertNoThrow(try InputPolicy.default.checkOutput(path: "/anywhere/out.mp4"))
    }

    func testEditListsEveryPathItNamesWithItsField() throws {
        let shaderPath = dir + "/root/t.glsl"
        try Data("uniform sampler2D pattern;\nvec4 transition(vec2 uv) { return texture2D(pattern, uv); }\n".utf8).write(to: URL(fileURLWithPath: shaderPath))
        var t = Transition(kind: .glsl, duration: MediaTime(value: 1, timescale: 2))
        t.shader = try GLTransitionShader(path: shaderPath, name: "t.glsl", field: "clips[1].transition.shader")
        t.params = ["pattern": .image(dir + "/outside/x.mp4")]
        var edit = Edit(clips: [ClipSpec(path: dir + "/root/in.mp4"), ClipSpec(path: dir + "/root/near.mp4", transition: t)])
        edit.music = MusicSpec(path: dir + "/root/fifo.mp4")
        XCTAssertEqual(edit.inputPaths.map(\.field), ["clips[0].path", "clips[1].path", "clips[1].transition.shader",
                                                      "clips[1].transition.params.pattern", "music.path"])
        XCTAssertEqual(refusal { try InputPolicy.default.check(edit) }?.field, "music.path")
        edit.music = nil
        XCTAssertNoThrow(try InputPolicy.default.check(edit))
        XCTAssertEqual(refusal { try InputPolicy(root: dir + "/root").check(edit) }?.field, "clips[1].transition.params.pattern")
        var few = InputPolicy.default
        few.limits.maxClips = 1
        XCTAssertThrowsError(try few.check(edit)) { e in
            XCTAssertEqual((e as? LimitExceeded)?.limit, .clips)
            XCTAssertEqual("\(e)", "clips: the edit has 2 clips, over the limit of 1; raise it with --max-clips N (ResourceLimits.maxClips in the library) if the input is trusted")
            XCTAssertEqual((e as? SegueError)?.exitStatus, 2)
        }
    }

    func testEditFileKeepsURLsAndChecksShadersBeforeReadingThem() throws {
        let base = dir + "/root"
        let edit = try EditFile.parse(data: Data(#"{"allowIndirectInputs": true, "clips": [{"path": "concat:/a.ts|/b.ts"}, {"path": "in.mp4"}]}"#.utf8), baseDirectory: base)
        XCTAssertTrue(edit.allowIndirectInputs)
        XCTAssertEqual(edit.clips.map(\.path), ["concat:/a.ts|/b.ts", base + "/in.mp4"])
        XCTAssertFalse(InputPolicy.default.applied(to: Edit(clips: [])).allowIndirectInputs)
        XCTAssertTrue(InputPolicy.default.applied(to: edit).allowIndirectInputs)
        func parse(_ shader: String, policy: InputPolicy = .default) -> EditError? {
            refusal { _ = try EditFile.parse(data: Data(#"{"clips": [{"path": "in.mp4"}, {"path": "in.mp4", "transition": {"type": "glsl", "shader": "\#(shader)"}}]}"#.utf8),
                                             baseDirectory: base, policy: policy) }
        }
        let started = Date()
        XCTAssertTrue(parse("fifo.mp4")?.message.contains("FIFO") == true, "refused without opening it (which would block)")
        XCTAssertEqual(parse("/dev/zero")?.field, "clips[1].transition.shader")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "refused without opening (an open would block for good)")
        XCTAssertTrue(parse("../outside/x.mp4", policy: InputPolicy(root: base))?.message.contains("outside the root") == true)
        XCTAssertTrue(parse("http://example.com/t.glsl")?.message.contains("local files only") == true)
        let big = base + "/big.glsl"
        try Data(count: GLTransitionShader.maxFileSize + 1).write(to: URL(fileURLWithPath: big))
        XCTAssertTrue(parse("big.glsl")?.message.contains("a few kilobytes") == true)
    }

    func still(_ w: Int, _ h: Int, seconds: Double = 4) -> SourceInfo {
        var s = SourceInfo(codedSize: PixelSize(width: w, height: h), nominalFrameRate: nil, duration: MediaTime(seconds: seconds), hasAudio: false)
        s.isStill = true
        return s
    }

    func testLimitsOfAResolvedEdit() throws {
        let cross = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1))
        let edit = Edit(clips: [ClipSpec(path: "/a.png", duration: MediaTime(value: 3, timescale: 1)),
                                ClipSpec(path: "/b.png", duration: MediaTime(value: 3, timescale: 1), transition: cross)])
        let t = try Timeline(edit: edit, sources: [still(1000, 1000), still(2000, 1000)])
        XCTAssertNoThrow(try InputPolicy.default.check(t))
        var p = InputPolicy.default
        p.limits.maxDuration = 4.5
        XCTAssertThrowsError(try p.check(t)) { e in
            XCTAssertEqual((e as? LimitExceeded)?.limit, .duration)
            XCTAssertTrue("\(e)".contains("the edit lasts 5.000 s, over the limit of 4.500 s; raise it with --max-duration SECONDS"), "\(e)")
        }
        // 4 MB and 8 MB of pictures: 12 MB while the crossfade shows both, 8 MB after.
        p = .default
        p.limits.maxPictureMemory = 10 << 20
        XCTAssertThrowsError(try p.check(t)) { e in
            XCTAssertEqual((e as? LimitExceeded)?.limit, .pictureMemory)
            XCTAssertEqual((e as? LimitExceeded)?.field, "clips")
            XCTAssertTrue("\(e)".contains("at 2.000 s clip 0 and clip 1 hold 11.44 MiB of decoded pictures, over the limit of 10 MiB; raise it with --max-picture-memory MIB"), "\(e)")
        }
        p.limits.maxPictureMemory = 12 << 20
        XCTAssertNoThrow(try p.check(t))
        p.limits.maxPicturePixels = 1_999_999
        XCTAssertThrowsError(try p.check(t)) { e in
            XCTAssertEqual((e as? LimitExceeded)?.field, "clips[1].path")
            XCTAssertTrue("\(e)".contains("b.png has a 2000x1000 picture (2 megapixels), over the limit of 1.999999 megapixels; raise it with --max-megapixels"), "\(e)")
        }
    }
}
