import XCTest
@testable import SegueCore
@testable import SegueEdit

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

    /// Gains of a ducker at 1000 Hz (20-sample presence window) over `signal`, feeding `step` samples ahead at a time.
    func duckGains(_ d: Ducking, _ signal: [Double], step: Int) -> [Double] {
        var ducker = Ducker(d, sampleRate: 1000)
        var fed = 0, gains: [Double] = []
        while gains.count < signal.count {
            while fed <= gains.count + ducker.lookahead { ducker.feed(fed < signal.count ? signal[fed] : 0); fed += 1 }
            gains.append(ducker.nextGain())
            if gains.count % step == 0 {   // feed further ahead than needed now and then: must change nothing
                for _ in 0..<step { ducker.feed(fed < signal.count ? signal[fed] : 0); fed += 1 }
            }
        }
        return gains
    }

    func testDuckerIsDownAtTheOnsetAndReleasesAfterTheEnd() {
        var d = Ducking()
        d.level = 0.25; d.attack = 0.2; d.release = 0.6
        // 1 s silence, 1 s of a loud square-ish signal (samples 1000–1999), 2 s silence.
        let signal = (0..<4000).map { k -> Double in k >= 1000 && k < 2000 ? (k % 2 == 0 ? 0.5 : -0.5) : 0 }
        let gains = duckGains(d, signal, step: 7)
        // Present where the centred 20-sample window holds loud samples: samples 991–2009.
        XCTAssertEqual(gains[790], 1)
        XCTAssertEqual(gains[791], 1, "the attack starts 0.2 s before presence")
        XCTAssertEqual(gains[891], 0.625, accuracy: 1e-12, "halfway down")
        XCTAssertEqual(gains[991], 0.25, accuracy: 1e-12)
        XCTAssertEqual(gains[1000], 0.25, accuracy: 1e-12, "at the level when the clips' audio starts")
        XCTAssertEqual(gains[2009], 0.25, accuracy: 1e-12)
        XCTAssertEqual(gains[2309], 0.625, accuracy: 1e-12, "halfway up, 0.3 s after presence ends")
        XCTAssertEqual(gains[2609], 1, accuracy: 1e-12)
        XCTAssertEqual(gains[3999], 1)
        // Slopes: one full swing per attack and per release, never faster.
        for k in 1..<gains.count {
            XCTAssertLessThanOrEqual(abs(gains[k] - gains[k - 1]), 0.75 / 200 + 1e-12, "sample \(k)")
        }
        // The same gains whatever the caller's block sizes.
        XCTAssertEqual(duckGains(d, signal, step: 1000), gains)
        // No attack or release: a step at the window's edges.
        d.attack = 0; d.release = 0
        let hard = duckGains(d, signal, step: 3)
        XCTAssertEqual(hard[990], 1)
        XCTAssertEqual(hard[991], 0.25)
        XCTAssertEqual(hard[2009], 0.25)
        XCTAssertEqual(hard[2010], 1)
    }

    func testDuckerBetweenCloseBurstsTakesTheLowerRamp() {
        var d = Ducking()
        d.level = 0.2; d.attack = 0.1; d.release = 0.4
        // Bursts at 1000–1099 and 1300–1399: presence 991–1109 and 1291–1409; the gap is shorter than release + attack.
        let signal = (0..<3000).map { k -> Double in (1000..<1100).contains(k) || (1300..<1400).contains(k) ? 0.3 : 0 }
        let gains = duckGains(d, signal, step: 50)
        // At 1200: release (91 samples after 1109) says 0.2 + 0.8 × 91/400 = 0.382, attack (91 samples before 1291) 0.928.
        XCTAssertEqual(gains[1200], 0.2 + 0.8 * 91 / 400, accuracy: 1e-12)
        // At 1280: attack (11 samples) is lower: 0.288.
        XCTAssertEqual(gains[1280], 0.2 + 0.8 * 11 / 100, accuracy: 1e-12)
        XCTAssertEqual(gains[1300], 0.2, accuracy: 1e-12)
        // The ramps cross at 1254.6 (0.2 + 0.8 × 145.6/400 = 0.491): the music never comes back up between the bursts.
        XCTAssertEqual(gains[1110...1290].max()!, 0.2 + 0.8 * 145 / 400, accuracy: 0.003)
    }

    func testCutFadeGains() {
        // 5 ms: 240 samples at 48 kHz, 40 at 8 kHz; at most half a short clip.
        XCTAssertEqual(CutFade.length(sampleRate: 48000, clipSamples: 48000), 240)
        XCTAssertEqual(CutFade.length(sampleRate: 8000, clipSamples: 8000), 40)
        XCTAssertEqual(CutFade.length(sampleRate: 48000, clipSamples: 300), 150)
        XCTAssertEqual(CutFade.gain(0, length: 240), 0.5 / 240)
        XCTAssertEqual(CutFade.gain(119, length: 240), 119.5 / 240)
        XCTAssertEqual(CutFade.gain(239, length: 240), 239.5 / 240)
        XCTAssertEqual(CutFade.gain(240, length: 240), 1)
        XCTAssertEqual(CutFade.gain(0, length: 0), 1)
    }
}
