import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline
import SegueTestSupport

/// gl-transitions shaders loaded at run time: the 125 shaders of the gl-transitions collection
/// (`../shared/gl-transitions`, test data, MIT) each compile and render two clips; at p = 0 the frame is the
/// outgoing clip and at p = 1 the incoming one (within 2 codes) except where a shader's own source says otherwise
/// (`endpointExceptions`); `Directional` with its default plays in the documented direction; a parameter changes
/// the picture; a shader that does not compile is exit status 2 naming its file and line; the CPU backend refuses GLSL.
final class GLTransitionsTests: EndToEndTestCase {
    /// `../shared/gl-transitions` relative to the package root, if present.
    static var corpus: String? {
        let p = URL(fileURLWithPath: TestSupport.packageRoot).deletingLastPathComponent().appendingPathComponent("shared/gl-transitions").path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    /// Shaders whose own definition does not show exactly the outgoing clip at p = 0 or the incoming one at p = 1,
    /// with the reason read in their source.
    static let endpointExceptions: [String: String] = [
        "AdvancedMosaic": "its mosaic never gets down to single pixels: at p = 0 and 1 it reads the centres of a grid 0.005 wide, not the pixels'",
        "BlockDissolve": "rand(floor(uv / blocksize)) is 0 for the bottom-left block (sin 0 = 0) and step(0, 0) = 1: that block shows B at p = 0",
        "InvertedPageCurl": "its curl starts at amount = MIN_AMOUNT = −0.16: at p = 0 a corner is already turned",
        "Radial": "its smoothstep edge spans a wedge left of the centre (atan below 1 − 1.25π) that shows part of B at p = 0",
        "tangentMotionBlur": "its blur weight normpdf(t) = exp(−20(t − ½)²) is e⁻⁵, not 0, at both ends (and its reads wrap with fract)",
        "undulatingBurnOut": "at p = 0 its burn ring around the centre (radius about 0.03, the inside extrapolated to 2A − B) is already drawn",
    ]

    let W = 48, H = 32

    /// Two small clips, the timeline of a two-clip edit joined by a 1 s transition, and the decoded pictures at
    /// its middle frame.
    func twoClips() throws -> (timeline: Timeline, a: VideoPicture, b: VideoPicture, frame: Int64) {
        let a = path("a.mp4"), b = path("b.mp4")
        let tags = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        try TestSupport.makeClip(a, video: "testsrc2=s=\(W)x\(H):r=30:d=1.5", extra: tags)
        try TestSupport.makeClip(b, video: "smptebars=s=\(W)x\(H):r=30:d=1.5", extra: tags)
        let timeline = try Timeline(edit: Edit(clips: [clip(a), clip(b, tr(.crossfade, 1))]), sources: [try probeSource(path: a), try probeSource(path: b)])
        let n: Int64 = 30
        let plan = timeline.plan(frame: n)
        return (timeline, try VideoReader(path: a).picture(at: plan.from.sourceTime), try VideoReader(path: b).picture(at: plan.to!.sourceTime), n)
    }

    func gpu(for transitions: [Transition]) throws -> CompositeRenderer {
        var o = RenderOptions()
        o.backend = .gpu
        do { _ = try RenderJob.makeRenderer(o) } catch let e where !(e is EditError) {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(e)") }
            throw XCTSkip("no EGL context: \(e)")
        }
        let r = try RenderJob.makeRenderer(o)
        try r.prepare(for: transitions, images: [:])
        return r
    }

    func glsl(_ file: String, params: [String: TransitionParameterValue] = [:]) throws -> Transition {
        var t = Transition(kind: .glsl, duration: MediaTime(value: 1, timescale: 1))
        t.shader = try GLTransitionShader(path: file, name: (file as NSString).lastPathComponent, field: "transition.shader")
        t.params = params
        return t
    }

    func frame(_ c: (timeline: Timeline, a: VideoPicture, b: VideoPicture, frame: Int64), _ t: Transition?, _ p: Double) -> FramePlan {
        let base = c.timeline.plan(frame: c.frame)
        return FramePlan(frame: c.frame, time: base.time, from: base.from, to: t == nil ? nil : base.to, transition: t, progress: p)
    }

    func testEveryShaderOfTheCollectionCompilesAndRendersTwoClips() throws {
        guard let corpus = GLTransitionsTests.corpus else { throw XCTSkip("../shared/gl-transitions is absent") }
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".glsl") }.sorted()
        XCTAssertEqual(files.count, 125)
        let c = try twoClips()
        let renderer = try gpu(for: [])
        let size = c.timeline.renderSize
        // The R′G′B′ pass (one program per shader: the Y′CbCr passes pack four samples per fragment, which makes
        // llvmpipe's compile of some shaders take seconds; their compile is what `testRenderingAGLSLEdit` covers).
        // A and B as a transition that moves its layers reads them (filtered, as a shader's lookups are): push at 0 and 1.
        let push = Transition(kind: .push, duration: MediaTime(value: 1, timescale: 1))
        let onlyA = try renderer.render(frame(c, push, 0), from: c.a, to: c.b, renderSize: size)
        let onlyB = try renderer.render(frame(c, push, 1), from: c.a, to: c.b, renderSize: size)
        var failures: [String] = [], endpointFailures: [String] = []
        for file in files {
            let name = String(file.dropLast(5))
            do {
                let t = try glsl("\(corpus)/\(file)")
                for (p, expected) in [(0.0, onlyA), (0.5, nil), (1.0, onlyB)] {
                    let img = try renderer.render(frame(c, t, p), from: c.a, to: c.b, renderSize: size)
                    guard let e = expected else { continue }
                    let worst = PlaneDifference(img.pixels, e.pixels).maxAbsDifference
                    if worst > 2 && GLTransitionsTests.endpointExceptions[name] == nil { endpointFailures.append("\(name) p=\(p): max |Δ| \(worst)") }
                }
            } catch {
                failures.append("\(name): \(error)")
            }
        }
        XCTAssertEqual(failures, [], "shaders that do not compile or render")
        XCTAssertEqual(endpointFailures, [], "shaders not showing A at p = 0 / B at p = 1")
    }

    /// Flat clips (A red, B green) and the renderer, for reading which clip shows where.
    func flatClips() throws -> (timeline: Timeline, a: VideoPicture, b: VideoPicture, frame: Int64) {
        let a = path("red.mp4"), b = path("green.mp4")
        try TestSupport.makeClip(a, video: "color=c=red:s=\(W)x\(H):r=30:d=1.5")
        try TestSupport.makeClip(b, video: "color=c=lime:s=\(W)x\(H):r=30:d=1.5")
        let timeline = try Timeline(edit: Edit(clips: [clip(a), clip(b, tr(.crossfade, 1))]), sources: [try probeSource(path: a), try probeSource(path: b)])
        let plan = timeline.plan(frame: 30)
        return (timeline, try VideoReader(path: a).picture(at: plan.from.sourceTime), try VideoReader(path: b).picture(at: plan.to!.sourceTime), 30)
    }

    /// Which clip a pixel of an RGBA frame shows: "A" (red), "B" (green) or "?".
    func clipAt(_ img: RGBAImage, _ x: Int, _ y: Int) -> String {
        let p = img.pixel(x, y)
        if p.0 > 200 && p.1 < 60 { return "A" }
        if p.1 > 200 && p.0 < 60 { return "B" }
        return "?"
    }

    /// gl-transitions' Directional: `uv + progress·sign(direction)` in the specification's uv (origin at the bottom
    /// left). With its default direction vec2(0.0, 1.0) the pictures move down: at p = 0.25 the top quarter shows the
    /// incoming clip, the rest the outgoing one (a host with the origin at the top would show it at the bottom).
    /// Its parameter turns it: vec2(1.0, 0.0) brings B in from the right, moving left.
    func testDirectionalPlaysDownwardsByDefaultAndItsParameterTurnsIt() throws {
        guard let corpus = GLTransitionsTests.corpus else { throw XCTSkip("../shared/gl-transitions is absent") }
        let c = try flatClips()
        let directional = try glsl("\(corpus)/Directional.glsl")
        XCTAssertEqual(directional.shader?.uniform("direction")?.defaultValue, .vector([0, 1]))
        let renderer = try gpu(for: [directional])
        var img = try renderer.render(frame(c, directional, 0.25), from: c.a, to: c.b, renderSize: c.timeline.renderSize)
        for y in [1, 6, H / 4 - 2] { XCTAssertEqual(clipAt(img, W / 2, y), "B", "row \(y) (top quarter)") }
        for y in [H / 4 + 2, H / 2, H - 2] { XCTAssertEqual(clipAt(img, W / 2, y), "A", "row \(y)") }
        let right = try glsl("\(corpus)/Directional.glsl", params: ["direction": .vector([1, 0])])
        img = try renderer.render(frame(c, right, 0.25), from: c.a, to: c.b, renderSize: c.timeline.renderSize)
        for x in [W - 2, W - W / 4 + 2] { XCTAssertEqual(clipAt(img, x, H / 2), "B", "column \(x) (right quarter)") }
        for x in [1, W / 2, W - W / 4 - 2] { XCTAssertEqual(clipAt(img, x, H / 2), "A", "column \(x)") }
    }

    /// Lookups outside 0…1 clamp to the edge (Segue's own would show black), and a colour with alpha below 1 is
    /// composited over black.
    func testLookupsClampToTheEdgeAndAlphaIsCompositedOverBlack() throws {
        let c = try flatClips()
        func inline(_ source: String) throws -> Transition {
            var t = Transition(kind: .glsl, duration: MediaTime(value: 1, timescale: 1))
            t.shader = try GLTransitionShader(source: source, path: path("inline.glsl"), name: "inline.glsl", field: "transition.shader")
            return t
        }
        let outside = try inline("vec4 transition(vec2 uv) { return getFromColor(vec2(uv.x - 2.0, uv.y + 3.0)); }")
        let half = try inline("vec4 transition(vec2 uv) { return vec4(getToColor(uv).rgb, 0.5); }")
        let renderer = try gpu(for: [outside, half])
        var img = try renderer.render(frame(c, outside, 0.5), from: c.a, to: c.b, renderSize: c.timeline.renderSize)
        XCTAssertEqual(clipAt(img, W / 2, H / 2), "A")
        img = try renderer.render(frame(c, half, 0.5), from: c.a, to: c.b, renderSize: c.timeline.renderSize)
        let p = img.pixel(W / 2, H / 2)
        XCTAssertLessThan(Int(p.0), 8); XCTAssertEqual(Double(p.1), 127.5, accuracy: 3); XCTAssertLessThan(Int(p.2), 8)
    }

    /// A parameter given in `params` changes the picture: wind's `size` (default 0.2) at 0.6.
    func testAParameterChangesThePicture() throws {
        guard let corpus = GLTransitionsTests.corpus else { throw XCTSkip("../shared/gl-transitions is absent") }
        let c = try twoClips()
        let wind = try glsl("\(corpus)/wind.glsl"), wider = try glsl("\(corpus)/wind.glsl", params: ["size": .number(0.6)])
        XCTAssertEqual(wind.shader?.uniform("size")?.defaultValue, .number(0.2))
        let renderer = try gpu(for: [wind, wider])
        let a = try renderer.renderYUV420(frame(c, wind, 0.4), from: c.a, to: c.b, renderSize: c.timeline.renderSize)
        let b = try renderer.renderYUV420(frame(c, wider, 0.4), from: c.a, to: c.b, renderSize: c.timeline.renderSize)
        XCTAssertGreaterThan(PlaneDifference(a.y, b.y).maxAbsDifference, 40)
        // And the default given explicitly is the default.
        let same = try renderer.renderYUV420(frame(c, try glsl("\(corpus)/wind.glsl", params: ["size": .number(0.2)]), 0.4), from: c.a, to: c.b, renderSize: c.timeline.renderSize)
        XCTAssertEqual(same.y, a.y)
    }

    /// A shader that does not compile: exit status 2, the compiler's message at the user's file and line (its
    /// global initialiser moved into a function keeps its line too); the CPU backend refuses GLSL (exit 2); a
    /// good shader renders through the command line, its params and image file included.
    func testTheCommandLineRendersAShaderAndRefusesBrokenOnes() throws {
        let a = path("a.mp4")
        try TestSupport.makeClip(a, video: "testsrc2=s=64x48:r=30:d=1.5")
        try FileManager.default.createDirectory(atPath: path("transitions"), withIntermediateDirectories: true)
        // A shader with a global initialiser that uses progress, an int and a vec3 parameter, an image parameter.
        try """
        // A test transition.
        uniform float amount; // = 0.5
        uniform ivec2 cells; // = ivec2(4)
        uniform vec3 tint /* = vec3(1.0, 0.5, 0.0) */;
        uniform sampler2D mask;
        float p2 = progress * progress;
        vec4 transition(vec2 uv) {
          vec2 cell = floor(uv * vec2(cells)) / vec2(cells);
          vec4 m = texture2D(mask, cell);
          return mix(getFromColor(uv), getToColor(uv) * vec4(tint, 1.0), step(m.r * amount, p2));
        }
        """.write(toFile: path("transitions/Good.glsl"), atomically: true, encoding: .utf8)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=32x32:d=1", "-frames:v", "1", path("mask.png")])
        try """
        uniform float amount; // = 0.5
        float p2 = progress * undefinedThing;
        vec4 transition(vec2 uv) {
          return mix(getFromColor(uv), getToColor(uv), amount + p2 + nonsense);
        }
        """.write(toFile: path("transitions/Broken.glsl"), atomically: true, encoding: .utf8)
        func edit(_ shader: String, params: String = "") throws -> String {
            let e = path("edit-\(shader).json")
            try #"{"clips": [{"path": "a.mp4", "duration": 1}, {"path": "a.mp4", "duration": 1, "transition": {"type": "glsl", "shader": "transitions/\#(shader).glsl", "duration": 0.5\#(params)}}], "output": {"codec": "ffv1"}}"#
                .write(toFile: e, atomically: true, encoding: .utf8)
            return e
        }
        let good = try edit("Good", params: #", "params": {"amount": 0.8, "cells": [8, 2], "mask": "mask.png"}"#)
        let ok = try TestSupport.run(TestSupport.segueBinary, ["render", good, "--backend", "gpu", "-o", path("good.mkv")])
        if ok.status != 0 && !TestSupport.inCI && ok.stderr.contains("EGL") { throw XCTSkip("no EGL here: \(ok.stderr)") }
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(try TestSupport.decodeFrames(path("good.mkv"), width: 64, height: 48).count, 45)
        let broken = try TestSupport.run(TestSupport.segueBinary, ["render", try edit("Broken"), "-o", path("broken.mkv")])
        XCTAssertEqual(broken.status, 2, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("clips[1].transition.shader"), broken.stderr)
        XCTAssertTrue(broken.stderr.contains("transitions/Broken.glsl:2:"), broken.stderr)   // the moved initialiser
        XCTAssertTrue(broken.stderr.contains("transitions/Broken.glsl:4:"), broken.stderr)
        XCTAssertTrue(broken.stderr.contains("undefinedThing") && broken.stderr.contains("nonsense"), broken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("broken.mkv")))
        let cpu = try TestSupport.run(TestSupport.segueBinary, ["render", good, "--backend", "cpu", "-o", path("cpu.mkv")])
        XCTAssertEqual(cpu.status, 2, cpu.stderr)
        XCTAssertTrue(cpu.stderr.contains("CPU reference cannot run GLSL"), cpu.stderr)
        // A chunk plan covers the shader file and the image: either changed, the plan is refused.
        let plan = path("plan.json")
        XCTAssertEqual(try TestSupport.run(TestSupport.segueBinary, ["plan", good, "--chunks", "2", "-o", plan]).status, 0)
        for changed in [path("transitions/Good.glsl"), path("mask.png")] {
            let before = try Data(contentsOf: URL(fileURLWithPath: changed))
            let modified = try FileManager.default.attributesOfItem(atPath: changed)[.modificationDate] as! Date
            var after = before
            after.append(contentsOf: Array("\n// changed\n".utf8))
            try after.write(to: URL(fileURLWithPath: changed))
            let r = try TestSupport.run(TestSupport.segueBinary, ["render", "--plan", plan, "--chunk", "0", "-o", path("chunks")])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("\(changed) changed (its size"), "\(changed): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("since the edit was resolved"), "\(changed): \(r.stderr)")
            try before.write(to: URL(fileURLWithPath: changed))
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: changed)
        }
        // Errors in the edit: an unknown parameter, a value of the wrong shape, a missing image.
        for (params, says) in [(#", "params": {"amout": 1}"#, #"did you mean "amount""#), (#", "params": {"cells": [1, 2, 3]}"#, "list of 2 numbers"),
                               (#", "params": {"cells": [1.5, 2]}"#, "whole numbers"), (#", "params": {"mask": "nope.png"}"#, "not there")] {
            let r = try TestSupport.run(TestSupport.segueBinary, ["plan", try edit("Good", params: params)])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(says), "\(params): \(r.stderr)")
        }
        // An image parameter that is no picture: an invalid edit naming the parameter (it was a failed render).
        try Data("LUT_3D_SIZE 2\n".utf8).write(to: URL(fileURLWithPath: path("grade.cube")))
        let notPicture = try TestSupport.run(TestSupport.segueBinary, ["render", try edit("Good", params: #", "params": {"mask": "grade.cube"}"#),
                                                                       "--backend", "gpu", "-o", path("np.mkv")])
        XCTAssertEqual(notPicture.status, 2, notPicture.stderr)
        XCTAssertTrue(notPicture.stderr.contains("clips[1].transition.params.mask: ") && notPicture.stderr.contains("grade.cube is not a picture"), notPicture.stderr)
    }
}
