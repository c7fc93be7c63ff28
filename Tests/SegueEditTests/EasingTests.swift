import XCTest
import SegueTestSupport
import Foundation
import SegueCore
@testable import SegueEdit

/// CSS Easing Level 1 against closed forms: the Bézier curves solved with Cardano's formula (independent of the
/// renderer's Newton/bisection solver), the step functions from the definition's arithmetic.
final class EasingTests: XCTestCase {
    /// Real roots of a·t³ + b·t² + c·t + d = 0 (a ≠ 0), by Cardano's method / the trigonometric form.
    func cubicRoots(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> [Double] {
        if abs(a) < 1e-12 {   // quadratic
            if abs(b) < 1e-12 { return [-d / c] }
            let disc = c * c - 4 * b * d
            return disc < 0 ? [] : [(-c + disc.squareRoot()) / (2 * b), (-c - disc.squareRoot()) / (2 * b)]
        }
        let p = (3 * a * c - b * b) / (3 * a * a), q = (2 * b * b * b - 9 * a * b * c + 27 * a * a * d) / (27 * a * a * a)
        let shift = -b / (3 * a), disc = q * q / 4 + p * p * p / 27
        if disc > 0 {
            let s = disc.squareRoot()
            return [cbrt(-q / 2 + s) + cbrt(-q / 2 - s) + shift]
        }
        let r = (-p / 3).squareRoot(), phi = acos(max(-1, min(1, -q / (2 * r * r * r))))
        return (0..<3).map { 2 * r * cos((phi - 2 * Double.pi * Double($0)) / 3) + shift }
    }

    /// CSS cubic-bezier by the closed form: the root t in 0…1 of X(t) = x, then Y(t).
    func closedForm(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        // X(t) = (3x1 − 3x2 + 1)t³ + (3x2 − 6x1)t² + 3x1·t
        let t = cubicRoots(3 * x1 - 3 * x2 + 1, 3 * x2 - 6 * x1, 3 * x1, -x).filter { $0 > -1e-9 && $0 < 1 + 1e-9 }.first!
        return (3 * y1 - 3 * y2 + 1) * t * t * t + (3 * y2 - 6 * y1) * t * t + 3 * y1 * t
    }

    func testNamedCurvesAgainstTheClosedForm() {
        XCTAssertEqual(Easing.ease(0.5), 0.8024033877399112, accuracy: 1e-6)   // the CSS `ease` value at ½
        XCTAssertEqual(Easing.easeInOut(0.5), 0.5, accuracy: 1e-6)
        XCTAssertEqual(Easing.easeIn(0.5) + Easing.easeOut(0.5), 1, accuracy: 1e-6)   // mirror images
        let curves: [(Easing, [Double])] = [(.ease, [0.25, 0.1, 0.25, 1]), (.easeIn, [0.42, 0, 1, 1]), (.easeOut, [0, 0, 0.58, 1]),
                                            (.easeInOut, [0.42, 0, 0.58, 1]), (.cubicBezier(0.1, -0.6, 0.7, 1.8), [0.1, -0.6, 0.7, 1.8])]
        for (e, c) in curves {
            XCTAssertEqual(e(0), 0); XCTAssertEqual(e(1), 1)
            for k in 1..<100 {
                let x = Double(k) / 100
                XCTAssertEqual(e(x), closedForm(x, c[0], c[1], c[2], c[3]), accuracy: 1e-6, "\(e) at \(x)")
            }
        }
        // The solver reaches 1e-6 in x: X(t) of the t it finds is the input.
        for k in 1..<50 {
            let x = Double(k) / 50
            let t = cubicRoots(1, -0.75, 0.75, -x).first { $0 >= 0 && $0 <= 1 }!
            XCTAssertEqual(Easing.ease(x), 3 * 0.1 * t * (1 - t) * (1 - t) + 3 * 1 * t * t * (1 - t) + t * t * t, accuracy: 1e-6)
        }
    }

    func testStepsFollowTheDefinition() {
        // steps(4) = steps(4, jump-end): ⌊4x⌋/4.
        XCTAssertEqual(Easing.steps(4, .jumpEnd)(0.3), 0.25)
        XCTAssertEqual(Easing.steps(4, .jumpEnd)(0), 0)
        XCTAssertEqual(Easing.steps(4, .jumpEnd)(0.999), 0.75)
        XCTAssertEqual(Easing.steps(4, .jumpEnd)(1), 1)
        // jump-start: (⌊4x⌋ + 1)/4.
        XCTAssertEqual(Easing.steps(4, .jumpStart)(0), 0.25)
        XCTAssertEqual(Easing.steps(4, .jumpStart)(0.3), 0.5)
        XCTAssertEqual(Easing.steps(4, .jumpStart)(1), 1)
        // jump-none: ⌊5x⌋/4, 0 and 1 both held for a step.
        XCTAssertEqual(Easing.steps(5, .jumpNone)(0.1), 0)
        XCTAssertEqual(Easing.steps(5, .jumpNone)(0.5), 0.5)
        XCTAssertEqual(Easing.steps(5, .jumpNone)(0.9), 1)
        // jump-both: (⌊3x⌋ + 1)/4.
        XCTAssertEqual(Easing.steps(3, .jumpBoth)(0), 0.25)
        XCTAssertEqual(Easing.steps(3, .jumpBoth)(0.5), 0.5)
        XCTAssertEqual(Easing.steps(3, .jumpBoth)(0.9), 0.75)
        XCTAssertEqual(Easing.steps(3, .jumpBoth)(1), 1)
    }

    func testParsing() throws {
        XCTAssertEqual(try Easing.parse("ease", field: "f"), .ease)
        XCTAssertEqual(try Easing.parse(" Ease-In-Out ", field: "f"), .easeInOut)
        XCTAssertEqual(try Easing.parse("cubic-bezier(0.1, 0.7, 1.0, 0.1)", field: "f"), .cubicBezier(0.1, 0.7, 1, 0.1))
        XCTAssertEqual(try Easing.parse("steps(5)", field: "f"), .steps(5, .jumpEnd))
        XCTAssertEqual(try Easing.parse("steps(2, jump-none)", field: "f"), .steps(2, .jumpNone))
        XCTAssertEqual(try Easing.parse("steps(3,start)", field: "f"), .steps(3, .jumpStart))
        XCTAssertEqual(try Easing.parse("step-end", field: "f"), .steps(1, .jumpEnd))
        for (bad, says) in [("cubic-bezier(1.2, 0, 0.5, 1)", "within 0…1"), ("cubic-bezier(0, 1)", "four numbers"),
                            ("steps(1, jump-none)", "at least 2"), ("steps(0)", "at least 1"), ("steps(2, middle)", "jump-start"),
                            ("bounce", "ease-in-out")] {
            XCTAssertThrowsError(try Easing.parse(bad, field: "clips[1].transition.easing")) { e in
                XCTAssertEqual((e as? EditError)?.field, "clips[1].transition.easing")
                XCTAssertTrue("\(e)".contains(says), "\(bad): \(e)")
            }
        }
        for e in [Easing.linear, .ease, .easeIn, .easeOut, .easeInOut, .cubicBezier(0.1, -0.5, 0.9, 1.5), .steps(7, .jumpBoth)] {
            XCTAssertEqual(try Easing.parse(e.description, field: "f"), e)
        }
    }

    /// The timeline hands the renderers the eased progress: `ease` at half time is 0.8024.
    func testTimelineEasesThePictureProgress() throws {
        var t = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1))
        t.easing = .ease
        let edit = Edit(clips: [ClipSpec(path: "/a"), ClipSpec(path: "/b", transition: t)])
        let src = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 30, duration: MediaTime(value: 2, timescale: 1), hasAudio: false)
        var e = edit
        e.frameRate = FrameRate(30)
        let tl = try Timeline(edit: e, sources: [src, src])
        XCTAssertEqual(tl.transitionFrames(into: 1), 30..<60)
        XCTAssertEqual(tl.plan(frame: 45).progress, 0.8024033877399112, accuracy: 1e-6)
        XCTAssertEqual(tl.plan(frame: 30).progress, 0)
        let edit2 = try EditFile.parse(data: Data(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"easing": "steps(4, jump-start)", "audioEasing": "ease-in"}}]}"#.utf8), baseDirectory: "/")
        XCTAssertEqual(edit2.clips[1].transition?.easing, .steps(4, .jumpStart))
        XCTAssertEqual(edit2.clips[1].transition?.audioEasing, .easeIn)
    }
}
