import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Audio of layered edits (issue 19): audio tracks placed with `at` (sample-exact), ducking of the music under them,
/// the audio of clips on upper video tracks mixed in (AVFoundation mixes every track), `"volume": 0` and
/// `"duck": false`.
final class LayerAudioTests: EndToEndTestCase {
    /// An audio-only WAV of `seconds` whose samples are `expression` (an `aevalsrc` expression of t).
    func wav(_ name: String, _ expression: String, seconds: Double) throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "aevalsrc='\(expression)':s=48000:d=\(seconds):c=stereo", "-c:a", "pcm_s16le", p])
        return p
    }
    /// A silent 32×32 clip of `seconds` (video only).
    func silentClip(_ name: String, seconds: Double) throws -> String {
        let p = path(name)
        try TestSupport.makeClip(p, video: "color=c=gray:s=32x32:r=30:d=\(seconds)")
        return p
    }
    /// Amplitude of the `freq` component of channel 0 over samples `range` (a projection on sine and cosine).
    func amplitude(_ x: [Float], freq: Double, _ range: Range<Int>) -> Double {
        var s = 0.0, c = 0.0
        for n in range {
            let v = Double(x[2 * n]), w = 2 * Double.pi * freq * Double(n) / 48000
            s += v * sin(w); c += v * cos(w)
        }
        return 2 * (s * s + c * c).squareRoot() / Double(range.count)
    }

    /// A voice-over placed at 0.5 s on an audio track starts on sample 24 000 exactly and ends after its 24 000
    /// samples; the edit lasts as long as its longest track (the audio track: 1.25 s).
    func testVoiceOverStartsOnItsSample() throws {
        let video = try silentClip("v.mp4", seconds: 1)
        let voice = try wav("voice.wav", "0.5", seconds: 0.5)
        var item = ClipSpec(path: voice)
        item.at = MediaTime(seconds: 0.75)
        let edit = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: video)])], audioTracks: [AudioTrack(clips: [item])])
        let x = try renderedAudio(edit, "vo.mkv")
        let first = (0..<(x.count / 2)).first { abs(x[2 * $0]) > 1e-6 }
        let last = (0..<(x.count / 2)).last { abs(x[2 * $0]) > 1e-6 }
        XCTAssertEqual(first, 36_000)
        XCTAssertEqual(last, 59_999)
        XCTAssertEqual(Double(x[2 * 40_000]), 0.5, accuracy: 1e-4)
        // The audio track is the longest: 1.25 s, 37.5 frames at 30 fps rounded to 38, and the audio runs to the last
        // frame's end (38 / 30 s = 60 800 samples).
        XCTAssertEqual(x.count / 2, 60_800)
    }

    /// The music ducks under an audio track (to the default level 0.25), not under one that says `"duck": false`;
    /// the audio of a clip on an upper video track mixes in, unless its volume is 0.
    func testDuckingAndUpperTrackAudio() throws {
        let base = try toneClip("base.mov", freq: 300, seconds: 2)
        let pip = try toneClip("pip.mov", freq: 1000, seconds: 1)
        let song = try wav("song.wav", "0.4*sin(2*PI*440*t)", seconds: 3)
        let voice = try wav("voice.wav", "0.3*sin(2*PI*2000*t)", seconds: 0.5)
        var upper = ClipSpec(path: pip)
        upper.layer.scale = .constant(0.3)
        var spoken = ClipSpec(path: voice)
        spoken.at = MediaTime(seconds: 2.2)
        func edit(duck: Bool, pipVolume: Double) -> Edit {
            var u = upper
            u.volume = pipVolume
            var base = ClipSpec(path: base)
            base.volume = 0   // only the voice and the upper clip should duck the music here
            var e = Edit(tracks: [VideoTrack(clips: [base]), VideoTrack(clips: [.gap(MediaTime(seconds: 0.5)), u])],
                         audioTracks: [{ var t = AudioTrack(clips: [spoken]); t.duck = duck; return t }()])
            var m = MusicSpec(path: song)
            m.duck = Ducking()
            e.music = m
            return e
        }
        let ducked = try renderedAudio(edit(duck: true, pipVolume: 0), "ducked.mkv")
        // Before anything else sounds (0.1–0.2 s) the music is at full level; under the voice (2.3–2.6 s) at 0.25.
        let full = amplitude(ducked, freq: 440, 4800..<9600)
        XCTAssertEqual(full, 0.4, accuracy: 0.01)
        XCTAssertEqual(amplitude(ducked, freq: 440, 110_400..<124_800) / full, 0.25, accuracy: 0.02)
        XCTAssertEqual(amplitude(ducked, freq: 2000, 110_400..<124_800), 0.3, accuracy: 0.01)
        // The upper clip at volume 0 adds nothing and ducks nothing (0.6–1.1 s: the music at full level).
        XCTAssertLessThan(amplitude(ducked, freq: 1000, 28_800..<52_800), 0.001)
        XCTAssertEqual(amplitude(ducked, freq: 440, 28_800..<52_800) / full, 1, accuracy: 0.02)
        // An audio track that says "duck": false leaves the music alone; the upper clip's audio mixes in and ducks it.
        let mixed = try renderedAudio(edit(duck: false, pipVolume: 1), "mixed.mkv")
        XCTAssertEqual(amplitude(mixed, freq: 440, 110_400..<124_800) / full, 1, accuracy: 0.02, "not ducked under a duck: false track")
        // The tone as recorded: lavfi's sine (1/8) made stereo by FFmpeg at −3 dB a channel, 0.125 · √½ = 0.0884.
        XCTAssertEqual(amplitude(mixed, freq: 1000, 28_800..<52_800), 0.125 * 0.5.squareRoot(), accuracy: 0.003, "the upper track's clip audio mixes in")
        XCTAssertLessThan(amplitude(mixed, freq: 1000, 4800..<19_200), 0.001, "not before its clip starts (0.5 s)")
        XCTAssertEqual(amplitude(mixed, freq: 440, 33_600..<48_000) / full, 0.25, accuracy: 0.02, "ducked under the upper clip's audio")
    }
}
