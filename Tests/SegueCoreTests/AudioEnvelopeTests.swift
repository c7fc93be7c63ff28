import XCTest
@testable import SegueCore

final class AudioEnvelopeTests: XCTestCase {
    func testCrossfadeCurvesClosedForm() {
        XCTAssertEqual(AudioCurve.linear.gains(0.5).out, 0.5)
        XCTAssertEqual(AudioCurve.linear.gains(0.5).in, 0.5)
        XCTAssertEqual(AudioCurve.linear.gains(0.25).in, 0.25)
        XCTAssertEqual(AudioCurve.equalPower.gains(0.5).out, 0.5.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(AudioCurve.equalPower.gains(0.5).in, 0.5.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(AudioCurve.equalPower.gains(0.25).in, sin(Double.pi / 8), accuracy: 1e-12)
        for p in stride(from: 0.0, through: 1.0, by: 0.1) {   // constant power
            let g = AudioCurve.equalPower.gains(p)
            XCTAssertEqual(g.out * g.out + g.in * g.in, 1, accuracy: 1e-12)
        }
    }

    func testRampsAtKnownInstants() {
        // Fade in over the first 2 s, fade out over the last 3 s of a 10 s edit, at 48 kHz.
        let env = RampEnvelope([VolumeRamp(from: 0, to: 1, start: .zero, duration: MediaTime(seconds: 2)),
                                VolumeRamp(from: 1, to: 0, start: MediaTime(seconds: -3), duration: MediaTime(seconds: 3))],
                               editDuration: MediaTime(seconds: 10), sampleRate: 48000)
        XCTAssertEqual(env.gain(at: 0), 0, accuracy: 0.001)
        XCTAssertEqual(env.gain(at: 24000), 0.25, accuracy: 0.001)      // 0.5 s
        XCTAssertEqual(env.gain(at: 48000), 0.5, accuracy: 0.001)       // 1 s
        XCTAssertEqual(env.gain(at: 96000), 1, accuracy: 0.001)         // 2 s: after the ramp, hold its end
        XCTAssertEqual(env.gain(at: 240_000), 1, accuracy: 0.001)       // 5 s
        XCTAssertEqual(env.gain(at: 336_000 + 72000), 0.5, accuracy: 0.001)  // 8.5 s: halfway down
        XCTAssertEqual(env.gain(at: 479_999), 0, accuracy: 0.001)
        // Before a first ramp that starts later, the gain is 1 (AVFoundation's default volume).
        let late = RampEnvelope([VolumeRamp(from: 0.2, to: 0.4, start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1))],
                                editDuration: MediaTime(seconds: 4), sampleRate: 1000)
        XCTAssertEqual(late.gain(at: 500), 1)
        XCTAssertEqual(late.gain(at: 1500), 0.3, accuracy: 0.001)
        XCTAssertEqual(late.gain(at: 3000), 0.4, accuracy: 0.001)
    }

    func testDuckerFollowsAttackAndRelease() {
        var d = Ducking()
        d.level = 0.25; d.attack = 0.2; d.release = 0.6
        let rate = 1000
        var ducker = Ducker(d, sampleRate: rate)
        var gains: [Double] = []
        // 1 s silence, 1 s of a loud square-ish signal, 2 s silence.
        for k in 0..<4000 {
            let loud = k >= 1000 && k < 2000
            gains.append(ducker.next(loud ? (k % 2 == 0 ? 0.5 : -0.5) : 0))
        }
        XCTAssertEqual(gains[999], 1)
        // Within attack (+ the 20 ms detection window) of the onset, at the level; not before the window fills.
        XCTAssertEqual(gains[1000 + 200 + 20], 0.25, accuracy: 1e-9)
        XCTAssertGreaterThan(gains[1000 + 100], 0.5)
        XCTAssertEqual(gains[1999], 0.25, accuracy: 1e-9)
        // Within release (+ window) of the end, back at 1; halfway through the release about halfway up.
        XCTAssertEqual(gains[2000 + 600 + 20], 1, accuracy: 1e-9)
        XCTAssertEqual(gains[2000 + 20 + 300], 0.625, accuracy: 0.01)
    }
}
