import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SegueGL
import SegueText
@testable import SeguePipeline
import SegueTestSupport

/// Animated text (issue 36 item 5, `animate` on a text item) in rendered frames: a typewriter's frame is the title of
/// the letters typed so far, pixel for pixel; fades, slides and pops at their keyframes' values; Arabic words come in
/// from the right; both renderers the same.
final class AnimatedTextTests: EndToEndTestCase {
    let render = PixelSize(width: 320, height: 90)

    /// White `text` at 40 px, left-aligned at x 0.1, over black, for 1 s at 10 frames a second.
    func edit(_ text: String, _ animation: TextAnimation?, size: Double = 40) -> Edit {
        var spec = TextSpec(text: text)
        spec.style.size = size
        spec.style.align = .left
        spec.animation = animation
        var item = ClipSpec(content: .text(spec), duration: MediaTime(seconds: 1))
        item.layer.x = .constant(0.1)
        var e = Edit(tracks: [VideoTrack(clips: [.fill(.black, duration: MediaTime(seconds: 1))]), VideoTrack(clips: [item])])
        e.renderSize = render
        e.frameRate = FrameRate(10)
        return e
    }

    /// Frames `n` of `edit`, R′G′B′A, on `backend`.
    func frames(_ edit: Edit, _ n: [Int64], backend: Backend = .cpu) throws -> [RGBAImage] {
        try renderedFrames(edit, n, backend: backend)
    }

    func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// The columns with ink (R′ ≥ 64) in runs separated by at least `gap` empty columns.
    func inkRuns(_ image: RGBAImage, gap: Int = 6) -> [ClosedRange<Int>] {
        let cols = (0..<image.width).filter { x in (0..<image.height).contains { image.pixels[($0 * image.width + x) * 4] >= 64 } }
        var runs: [ClosedRange<Int>] = []
        for c in cols {
            if let last = runs.last, c - last.upperBound <= gap { runs[runs.count - 1] = last.lowerBound...c } else { runs.append(c...c) }
        }
        return runs
    }

    /// Rows with ink (R′ ≥ 64) within columns `cols`.
    func inkRows(_ image: RGBAImage, _ cols: ClosedRange<Int>) -> ClosedRange<Int>? {
        let rows = (0..<image.height).filter { y in cols.contains { image.pixels[(y * image.width + $0) * 4] >= 64 } }
        return rows.first.map { $0...rows.last! }
    }

    /// The brightest R′ within columns `cols`.
    func peak(_ image: RGBAImage, _ cols: ClosedRange<Int>) -> Int {
        (0..<image.height).flatMap { y in cols.map { Int(image.pixels[(y * image.width + $0) * 4]) } }.max() ?? 0
    }

    /// Typewriter by character (4 letters in 0.4 s: 0.1 s apart, one a frame at 10 fps): frame n is, to the pixel,
    /// the unanimated title of the first n + 1 letters; the last frames the whole title's still picture.
    func testTypewriterFrameIsTheTitleTypedSoFar() throws {
        let typed = try frames(edit("ABCD", TextAnimation(entrance: .typewriter, unit: .character, duration: MediaTime(value: 2, timescale: 5))), [0, 1, 2, 3, 9])
        for (n, prefix) in ["A", "AB", "ABC", "ABCD"].enumerated() {
            let still = try frames(edit(prefix, nil), [Int64(n)])[0]
            XCTAssertLessThanOrEqual(largestDifference(typed[n], still), 1, "frame \(n): \"\(prefix)\" typed")
        }
        XCTAssertEqual(inkRuns(typed[0]).count, 1)
        XCTAssertLessThanOrEqual(largestDifference(typed[4], try frames(edit("ABCD", nil), [9])[0]), 1, "typed: the still title")
    }

    /// Fade in by word, 0.4 s, 0.2 s apart: at 0.2 s the first word is at ease-out(½) of its brightness, the second
    /// not yet drawn; at 0.4 s the second is at ease-out(½) and the first whole. White glyph cores: R′ = 255 × opacity.
    func testFadeByWordFollowsItsKeyframes() throws {
        let a = TextAnimation(entrance: .fade, unit: .word, duration: MediaTime(value: 2, timescale: 5), stagger: MediaTime(value: 1, timescale: 5))
        let f = try frames(edit("HHH HHH", a), [2, 4, 9])
        let words = inkRuns(f[2], gap: 12)
        XCTAssertEqual(words.count, 2, "\(words)")
        let half = Easing.easeOut(0.5)
        XCTAssertEqual(Double(peak(f[0], words[0])), 255 * half, accuracy: 3, "word 1 at 0.2 s")
        XCTAssertEqual(peak(f[0], words[1]), 0, "word 2 at 0.2 s")
        XCTAssertEqual(peak(f[1], words[0]), 255, "word 1 at 0.4 s")
        XCTAssertEqual(Double(peak(f[1], words[1])), 255 * half, accuracy: 3, "word 2 at 0.4 s")
    }

    /// Slide-up by line: half-way through (0.2 s of 0.4 s) the line's ink is `slideDistance` em × (1 − ease-out(½))
    /// below where it rests; pop by word: its ink as wide as the keyframed scale makes it, about its centre.
    func testSlideUpAndPopMoveByTheirKeyframes() throws {
        let d = MediaTime(value: 2, timescale: 5)
        let slid = try frames(edit("HHHH", TextAnimation(entrance: .slideUp, unit: .line, duration: d), size: 40), [2, 9])
        let cols = try XCTUnwrap(inkRuns(slid[1]).first)
        let atRest = try XCTUnwrap(inkRows(slid[1], cols)), moving = try XCTUnwrap(inkRows(slid[0], 0...(render.width - 1)))
        let want = TextAnimation.slideDistance * 40 * (1 - Easing.easeOut(0.5))
        XCTAssertEqual(Double(moving.lowerBound - atRest.lowerBound), want, accuracy: 1.5, "slide-up offset at 0.2 s")
        XCTAssertEqual(Double(moving.upperBound - atRest.upperBound), want, accuracy: 1.5)

        let pop = TextAnimation(entrance: .pop, unit: .word, duration: d)
        let scale = pop.motions(units: 1, itemDuration: MediaTime(seconds: 1))[0].scale.value(at: MediaTime(value: 1, timescale: 5))
        let popped = try frames(edit("HHHH", pop), [2, 9])
        let w1 = try XCTUnwrap(inkRuns(popped[1], gap: 30).first), w0 = try XCTUnwrap(inkRuns(popped[0], gap: 30).first)
        XCTAssertGreaterThan(scale, 1, "pop overshoots at 0.2 s")
        XCTAssertEqual(Double(w0.count), Double(w1.count) * scale, accuracy: 2, "pop width at 0.2 s (scale \(scale))")
        XCTAssertEqual(Double(w0.lowerBound + w0.upperBound) / 2, Double(w1.lowerBound + w1.upperBound) / 2, accuracy: 1, "about its centre")
    }

    /// Arabic is animated in reading order: the first word to come in is the rightmost.
    func testArabicWordsComeInFromTheRight() throws {
        let a = TextAnimation(entrance: .typewriter, unit: .word, duration: MediaTime(value: 1, timescale: 2), stagger: MediaTime(value: 1, timescale: 2))
        let f = try frames(edit("مرحبا بالعالم", a, size: 30), [0, 5])
        let first = inkRuns(f[0], gap: 5), both = inkRuns(f[1], gap: 5)
        XCTAssertFalse(first.isEmpty)
        let all = both.first!.lowerBound...both.last!.upperBound
        XCTAssertGreaterThan(first.first!.lowerBound, (all.lowerBound + all.upperBound) / 2, "frame 0: only the right-hand word (\(first) of \(all))")
        XCTAssertEqual(first.last!.upperBound, all.upperBound, accuracy: 1)
    }

    /// Blur and slide by character with an outline and a box: the GPU composites the same pictures as the CPU
    /// (≥ 45 dB), and the plate is there from the first frame.
    func testBothRenderersDrawTheSameAnimatedFrames() throws {
        var e = edit("Blur me", TextAnimation(entrance: .blur, exit: .slideUp, unit: .character, duration: MediaTime(value: 3, timescale: 10)))
        guard case .text(var spec) = e.tracks[1].clips[0].content else { return XCTFail() }
        spec.style.outline = TextOutline(width: 2, colour: .black)
        spec.style.box = TextBox(colour: TextColour(RGBColour(r: 200, g: 0, b: 0)), padding: 6)
        e.tracks[1].clips[0].content = .text(spec)
        let n: [Int64] = [0, 1, 3, 8, 9]
        let gpu = try frames(e, n, backend: .gpu), cpu = try frames(e, n)
        for (k, (a, b)) in zip(gpu, cpu).enumerated() {
            let p = PlaneDifference(a.pixels, b.pixels).psnr
            XCTAssertGreaterThanOrEqual(p, 45, "frame \(n[k]): GPU vs CPU \(p) dB")
        }
        // The red plate at frame 0 (its left edge at the layer's x), before any letter is drawn over it.
        let y = render.height / 2, x = Int(0.1 * Double(render.width)) + 3
        XCTAssertEqual(Int(cpu[0].pixels[(y * render.width + x) * 4]), 200, accuracy: 2)
    }
}
