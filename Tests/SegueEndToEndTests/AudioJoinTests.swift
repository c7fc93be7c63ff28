import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueMedia
import SegueTestSupport

/// Joins of clips at 8, 11.025, 22.05, 32, 44.1 and 48 kHz: no join adds a step the sources do not have.
/// Step: `|x[k+1] − x[k]|` of the output (48 kHz); a 1 kHz tone of amplitude A has steps up to `2A·sin(π/48)`.
final class AudioJoinTests: EndToEndTestCase {
    static let rates = [8000, 11025, 22050, 32000, 44100, 48000]
    /// 0.5 × sin(2π · 1000 · t): 0.2 s is a whole number of periods and of samples at every rate above.
    func tone(_ rate: Int, seconds: Double = 0.2) throws -> String {
        try exprClip("tone\(rate).mov", "0.5*sin(2*PI*1000*t)", seconds: seconds, rate: rate)
    }
    /// A walk through every ordered pair of `rates` (an Eulerian circuit of the complete digraph: 30 joins, 31 clips).
    func everyPair<T: Hashable>(_ rates: [T]) -> [T] {
        var next = Dictionary(uniqueKeysWithValues: rates.map { r in (r, rates.filter { $0 != r }) })
        var stack = [rates[0]], walk: [T] = []
        while let v = stack.last {
            if let w = next[v]!.popLast() { stack.append(w) } else { walk.append(stack.removeLast()) }
        }
        return walk.reversed()
    }
    /// Largest step within ±5 ms of each join `j` (output samples), relative to the tone's largest step.
    func stepRatios(_ x: [Float], joins: [Int]) -> [Double] {
        let tone = 2 * 0.5 * sin(Double.pi / 48)
        return joins.map { j in largestStep(x, j - 240..<(j + 240)) / tone }
    }

    func testCutsBetweenEveryPairOfRatesAddNoStep() throws {
        let walk = everyPair(Self.rates)
        XCTAssertEqual(walk.count, 31)
        var files: [Int: String] = [:]
        for r in Self.rates { files[r] = try tone(r) }
        // Whole periods: the tone runs on across every join in phase, so any step above its own is the join's.
        let e = Edit(clips: walk.map { clip(files[$0]!) })
        let x = try renderedAudio(e, "aligned.mkv")
        XCTAssertEqual(x.count, 31 * 9600 * 2)
        let ratios = stepRatios(x, joins: (1..<31).map { $0 * 9600 })
        print("aligned cuts, step / tone step per join: " + zip(zip(walk, walk.dropFirst()), ratios).map {
            String(format: "%g→%g kHz %.2f", Double($0.0.0) / 1000, Double($0.0.1) / 1000, $0.1) }.joined(separator: ", "))
        for ((from, to), r) in zip(zip(walk, walk.dropFirst()), ratios) {
            XCTAssertLessThanOrEqual(r, 2, "cut \(from) → \(to) Hz: the largest step within 5 ms is \(r) × the tone's")
        }
        // In phase and at full level outside the 5 ms cut fades: the output is the tone (mono, both channels).
        let mid = 9600 * 10 + 4812   // a crest of the tone in clip 10
        XCTAssertEqual(Double(x[mid * 2 + 1]), 0.5 * sin(2 * Double.pi * 1000 * Double(mid) / 48000), accuracy: 0.002)
        XCTAssertEqual(rmsDB(x, channel: 1, of: 2, mid - 480..<(mid + 480)), 20 * log10(0.5 / 2.0.squareRoot()), accuracy: 0.05)

        // Phases that do not meet: each clip starts 0.1–0.9 ms into its tone and lasts 0.137 s, so the waveforms
        // jump at every cut; the 5 ms fades keep the steps the tone's own size.
        let offsets = [0.0001, 0.00037, 0.00052, 0.00071, 0.00089, 0.00023]
        let odd = Edit(clips: walk.enumerated().map { k, r in clip(files[r]!, start: offsets[k % offsets.count], duration: 0.137) })
        let y = try renderedAudio(odd, "odd.mkv")
        let joins = (1..<31).map { Int((Double($0) * 0.137 * 48000).rounded()) }
        let oddRatios = stepRatios(y, joins: joins)
        print("cuts at unrelated phases, step / tone step: " + oddRatios.map { String(format: "%.2f", $0) }.joined(separator: " "))
        XCTAssertLessThanOrEqual(oddRatios.max()!, 2)
        // Without the fades these joins would step by up to the whole waveform: check that they do jump.
        let jumps = joins.indices.map { k -> Double in
            let before = offsets[k % 6] + 0.137, after = offsets[(k + 1) % 6]
            return abs(sin(2 * Double.pi * 1000 * before) - sin(2 * Double.pi * 1000 * after)) * 0.5 / (2 * 0.5 * sin(Double.pi / 48))
        }
        XCTAssertGreaterThan(jumps.max()!, 5, "the test's joins are hard ones")
    }

    /// The resampler at the stream's ends, through the reader: silence outside the source, no mirrored samples.
    /// Steps within the first and last 5 ms of each tone file, relative to the tone's, and the phase throughout.
    func testReaderEdgesAndPlacementAtEveryRate() throws {
        let toneStep = 2 * 0.5 * sin(Double.pi / 48)
        for rate in Self.rates {
            let file = try tone(rate)
            let reader = try XCTUnwrap(try AudioReader(path: file, videoOrigin: .zero, start: .zero, channels: 1))
            let x = try reader.readAvailable(20000)
            XCTAssertEqual(x.count, 9600, "\(rate) Hz: exactly 0.2 s")
            XCTAssertTrue(try reader.readAvailable(100).isEmpty)
            // Steps counted from the silence before the first sample and to the silence after the last.
            let head = max(abs(Double(x[0])), largestStep(x, of: 1, 0..<240)) / toneStep
            let tail = max(abs(Double(x[9599])), largestStep(x, of: 1, 9359..<9599)) / toneStep
            let endError = (9360..<9600).map { abs(Double(x[$0]) - 0.5 * sin(2 * Double.pi * Double($0) / 48)) }.max()!
            print(String(format: "%5d Hz: first 5 ms %.2f, last 5 ms %.2f × the tone's step; last 5 ms off the tone by %.4f", rate, head, tail, endError))
            XCTAssertLessThanOrEqual(head, 1.5, "\(rate) Hz start")
            XCTAssertLessThanOrEqual(tail, 1.5, "\(rate) Hz end")
            // libswresample's own flush mirrors the last input samples: the 8 kHz tone ended at −0.23 instead of −0.07.
            XCTAssertLessThanOrEqual(endError, 0.06, "\(rate) Hz: the last 5 ms follow the tone into the silence")
            // A start inside the file: the resampler is primed, and sample k is the tone at round(0.0731 s × 48 kHz) + k.
            let later = try XCTUnwrap(try AudioReader(path: file, videoOrigin: .zero, start: MediaTime(seconds: 0.0731), channels: 1))
            let y = try later.read(2400)
            let err = (0..<2400).map { abs(Double(y[$0]) - 0.5 * sin(2 * Double.pi * Double(3509 + $0) / 48)) }.max()!
            XCTAssertLessThan(err, 0.002, "\(rate) Hz from 0.0731 s: off the tone by \(err)")
        }
    }

    /// A clip split in two by a cut (same file, the second half starting where the first ends) plays as one stream:
    /// no fade, no step, in phase.
    func testSplitClipPlaysOnWithoutAFade() throws {
        for rate in [8000, 44100] {
            let file = try tone(rate)
            let e = Edit(clips: [clip(file, duration: 0.0731), clip(file, start: 0.0731)])
            let x = try renderedAudio(e, "split\(rate).mkv")
            let j = Int((0.0731 * 48000).rounded())
            let err = (j - 240..<(j + 240)).map { abs(Double(x[$0 * 2]) - 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48000)) }.max()!
            XCTAssertLessThan(err, 0.01, "\(rate) Hz: the split clip is off the tone by \(err) around the join")
        }
    }
}
