import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// A text item's `animate` (issue 36 item 5) in the edit model: the presets as keyframes of each unit, exact at their
/// rational instants; the edit file's field, its errors, and the writer.
final class TextAnimationTests: XCTestCase {
    func s(_ v: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(value: v, timescale: d) }
    let ms = MediaTime(value: 1, timescale: 1000)

    /// Typewriter by character: 5 units typed in 0.5 s are 0.1 s apart; unit i is hidden until i × 0.1 s and shown
    /// whole from that instant (no fade), the first from the item's first instant.
    func testTypewriterShowsEachUnitFromItsOwnInstant() {
        let a = TextAnimation(entrance: .typewriter, unit: .character, duration: s(1, 2))
        XCTAssertEqual(a.defaultStagger(units: 5), s(1, 10))
        let m = a.motions(units: 5, itemDuration: s(2))
        for i in 0..<5 {
            let start = s(Int64(i), 10)
            XCTAssertEqual(m[i].opacity.value(at: start), 1, "unit \(i) at its start")
            XCTAssertEqual(m[i].opacity.value(at: start + s(1, 20)), 1, "unit \(i) after its start")
            if i > 0 { XCTAssertEqual(m[i].opacity.value(at: start - ms), 0, "unit \(i) a millisecond before") }
            XCTAssertTrue(m[i].atRest(s(1)))
        }
    }

    /// Fade in by word, 0.1 s apart (the default): unit 1 is transparent at 0.1 s, at ease-out(½) half-way, opaque at
    /// 0.6 s; fade out: the last unit ends at the item's end, each starting 0.1 s after the one before.
    func testFadeInAndOutAreEasedAndStaggered() {
        let a = TextAnimation(entrance: .fade, exit: .fade, unit: .word, duration: s(1, 2))
        let m = a.motions(units: 3, itemDuration: s(3))
        XCTAssertEqual(m[1].opacity.value(at: s(1, 10)), 0)
        XCTAssertEqual(m[1].opacity.value(at: s(35, 100)), Easing.easeOut(0.5), accuracy: 1e-12)
        XCTAssertEqual(m[1].opacity.value(at: s(6, 10)), 1)
        XCTAssertEqual(m[2].opacity.value(at: s(25, 10)), 1)
        XCTAssertEqual(m[2].opacity.value(at: s(275, 100)), 1 - Easing.easeIn(0.5), accuracy: 1e-12)
        XCTAssertEqual(m[2].opacity.value(at: s(3)), 0)
        XCTAssertEqual(m[0].opacity.value(at: s(23, 10)), 1)
        XCTAssertEqual(m[0].opacity.value(at: s(28, 10)), 0)
        XCTAssertFalse(m[0].atRest(s(24, 10)))
        XCTAssertTrue(m[2].atRest(s(15, 10)))
    }

    /// In an item too short for both, a unit's exit starts where its entrance ends (keyframe times stay increasing).
    func testExitNeverStartsBeforeTheEntranceEnds() {
        let a = TextAnimation(entrance: .slideUp, exit: .fade, unit: .line, duration: s(1, 2))
        let m = a.motions(units: 2, itemDuration: s(6, 10))
        for u in m {
            guard case .keyframes(let k) = u.opacity else { return XCTFail("opacity keyframed") }
            XCTAssertTrue(zip(k, k.dropFirst()).allSatisfy { $0.time < $1.time }, "\(k)")
        }
        XCTAssertEqual(m[0].opacity.value(at: s(1, 2)), 1)
        XCTAssertEqual(m[0].offsetY.value(at: .zero), TextAnimation.slideDistance)
        XCTAssertEqual(m[0].offsetY.value(at: s(1, 2)), 0)
        // Line 2 comes in from 0.25 s (0.25 s apart) and has not finished at the item's end: no exit yet.
        XCTAssertEqual(m[1].opacity.value(at: s(6, 10)), Easing.easeOut(0.7), accuracy: 1e-12)
        XCTAssertEqual(m[0].opacity.value(at: s(55, 100)), 1 - Easing.easeIn(0.1), accuracy: 1e-12)
    }

    /// Pop overshoots (ease-out-back peaks above 1.08) and settles at exactly 1; blur starts at `blurAmount` em.
    func testPopOvershootsAndBlurSharpens() {
        let pop = TextAnimation(entrance: .pop, unit: .word, duration: s(1, 2)).motions(units: 1, itemDuration: s(2))[0]
        let peak = (0...50).map { pop.scale.value(at: s(Int64($0), 100)) }.max()!
        XCTAssertGreaterThan(peak, 1.08)
        XCTAssertLessThan(peak, 1.15)
        XCTAssertEqual(pop.scale.value(at: .zero), 0)
        XCTAssertEqual(pop.scale.value(at: s(1, 2)), 1)
        let blur = TextAnimation(entrance: .blur, unit: .word, duration: s(1, 2)).motions(units: 1, itemDuration: s(2))[0]
        XCTAssertEqual(blur.blur.value(at: .zero), TextAnimation.blurAmount)
        XCTAssertEqual(blur.blur.value(at: s(1, 2)), 0)
    }

    /// Typewriter out removes the last unit first, one stagger apart, all gone one stagger before the end.
    func testTypewriterOutErasesFromTheEnd() {
        let m = TextAnimation(exit: .typewriter, unit: .character, duration: s(3, 10)).motions(units: 3, itemDuration: s(1))
        // stagger 0.1: unit 2 goes at 0.7, unit 1 at 0.8, unit 0 at 0.9.
        XCTAssertEqual(m[2].opacity.value(at: s(7, 10) - ms), 1)
        XCTAssertEqual(m[2].opacity.value(at: s(7, 10)), 0)
        XCTAssertEqual(m[1].opacity.value(at: s(8, 10)), 0)
        XCTAssertEqual(m[0].opacity.value(at: s(9, 10) - ms), 1)
        XCTAssertEqual(m[0].opacity.value(at: s(9, 10)), 0)
    }

    func parse(_ animate: String) throws -> TextAnimation? {
        let edit = try EditFile.parse(data: Data("""
        {"tracks": [{"clips": [{"text": "Hello world", "duration": 2, "animate": \(animate)}]}]}
        """.utf8), baseDirectory: "/e")
        return edit.tracks[0].clips[0].text?.animation
    }

    /// The edit file's `animate`: every field read, exact fractions kept; `{}` is none; settings without `in` or `out`
    /// and unknown presets are errors naming the field; the writer writes it back.
    func testEditFileFieldErrorsAndWriter() throws {
        let a = try XCTUnwrap(try parse(#"{"in": "slide-up", "out": "pop", "by": "character", "duration": 0.25, "stagger": "1/30"}"#))
        XCTAssertEqual(a, TextAnimation(entrance: .slideUp, exit: .pop, unit: .character, duration: s(1, 4), stagger: s(1, 30)))
        XCTAssertEqual(a.description, "in slide-up, out pop by character, 0.25 s, stagger 0.0333333 s")
        XCTAssertNil(try parse("{}"))
        XCTAssertThrowsError(try parse(#"{"by": "word"}"#)) { e in
            XCTAssertEqual((e as? EditError)?.field, "tracks[0].clips[0].animate")
            XCTAssertTrue("\(e)".contains("give \"in\" or \"out\""), "\(e)")
        }
        XCTAssertThrowsError(try parse(#"{"in": "zoom"}"#)) { e in
            XCTAssertEqual((e as? EditError)?.field, "tracks[0].clips[0].animate.in")
            XCTAssertTrue("\(e)".contains("typewriter"), "\(e)")
        }
        XCTAssertThrowsError(try parse(#"{"in": "fade", "duration": 0}"#))
        let edit = try EditFile.parse(data: Data("""
        {"tracks": [{"clips": [{"text": "Hi", "duration": 2, "animate": {"in": "typewriter", "by": "character", "duration": "1/3"}}]}]}
        """.utf8), baseDirectory: "/e")
        let back = try EditFile.parse(data: try EditFileWriter.data(edit), baseDirectory: "/e")
        XCTAssertEqual(back.tracks[0].clips[0].text?.animation, TextAnimation(entrance: .typewriter, unit: .character, duration: s(1, 3)))
    }
}
