import Foundation

/// A transition into a clip from the one before it.
public struct Transition: Equatable, Sendable {
    /// Which transition (the table of built-ins: `TransitionKind`).
    public typealias Kind = TransitionKind
    /// Directions of motion (push) or of the wipe edge's travel (wipe), in picture coordinates (y down).
    public enum Direction: String, CaseIterable, Sendable {
        case left, right, up, down
        case upLeft = "up-left", upRight = "up-right", downLeft = "down-left", downRight = "down-right"
        /// Unit step per axis: x to the right, y downwards.
        public var vector: (x: Int, y: Int) {
            switch self {
            case .left: return (-1, 0)
            case .right: return (1, 0)
            case .up: return (0, -1)
            case .down: return (0, 1)
            case .upLeft: return (-1, -1)
            case .upRight: return (1, -1)
            case .downLeft: return (-1, 1)
            case .downRight: return (1, 1)
            }
        }
    }
    public var kind: Kind
    /// Length of the overlap of outgoing and incoming clip.
    public var duration: MediaTime
    /// One of `kind.traits.directions` (`left` for a transition that takes none; it is ignored then).
    public var direction: Direction
    /// How the clips' audio crosses over the same overlap.
    public var audioCurve: AudioCurve = .linear
    /// How the picture's progress follows time (CSS easing; default linear): p = easing((t − T) / d).
    public var easing: Easing = .linear
    /// The audio crossfade's easing, applied before `audioCurve`; nil: linear in time, whatever `easing` is.
    public var audioEasing: Easing?
    /// How colours are mixed (`blend` in the edit file); nil: the edit's `blending`. Resolved in `Timeline`.
    public var blend: Blending?
    /// Values for the kind's parameters (`TransitionTraits.parameters`), by name; a parameter left out takes its default.
    /// For a `glsl` transition: values for the shader's uniforms (`GLTransitionShader.uniforms`).
    public var params: [String: TransitionParameterValue] = [:]
    /// The shader of a `glsl` transition (nil for the built-ins).
    public var shader: GLTransitionShader?

    /// The value of each of the kind's parameters, in the order of `TransitionTraits.parameters`.
    public var parameterValues: [Double] {
        kind.traits.parameters.map { p in params[p.name]?.number ?? p.defaultValue }
    }

    /// `direction` defaults to the kind's first direction (`left` for push, `down-right` for wipe).
    public init(kind: Kind, duration: MediaTime, direction: Direction? = nil) {
        self.kind = kind
        self.duration = duration
        self.direction = direction ?? kind.traits.directions.first ?? .left
    }

    /// Checks that `direction` suits `kind` (one of `kind.traits.directions`). Throws `EditError` naming `field`.
    public static func check(kind: Kind, direction: Direction?, field: String) throws {
        guard let d = direction else { return }
        let allowed = kind.traits.directions
        if allowed.contains(d) { return }
        if allowed.isEmpty { throw EditError(field, "a \(kind.rawValue) has no direction (got \"\(d.rawValue)\")") }
        let names = allowed.map(\.rawValue)
        if Set(allowed) == [.left, .right, .up, .down] {
            throw EditError(field, "\(kind.rawValue) moves along one axis: left, right, up or down (got \"\(d.rawValue)\")")
        }
        throw EditError(field, "\(kind.rawValue) takes the direction \(names.dropLast().joined(separator: ", ")) or \(names.last!) (got \"\(d.rawValue)\")")
    }
}

/// Where a transition mixes colours.
public enum Blending: String, CaseIterable, Sendable {
    /// On the gamma-encoded R′G′B′ values, as AVFoundation and FFmpeg do (the default).
    case gamma
    /// In linear light, as movit does: each layer's colour through the output's EOTF (`DynamicRange.eotf`: in an SDR
    /// edit BT.1886, `L = V^2.4`, ITU-R BT.1886 with white 1 and black 0; in an HDR edit, where the layers are already
    /// in the output's signal, HLG's EOTF for the 1000 cd/m² display or PQ's), mixed, and back through its inverse.
    case linear
}

/// A value the edit file gives a transition parameter (`"params"`).
public enum TransitionParameterValue: Hashable, Sendable {
    /// A number (a `float` or `int` uniform).
    case number(Double)
    /// Two to four numbers (a `vec2` … `vec4`, or `ivec`).
    case vector([Double])
    /// A `bool` uniform.
    case boolean(Bool)
    /// An image file, by absolute path (a `sampler2D` uniform).
    case image(String)

    /// The value as one number (nil for other kinds).
    public var number: Double? { if case .number(let d) = self { return d } else { return nil } }
}

/// One clip of an edit: a time range of a media file.
public struct ClipSpec: Equatable, Sendable {
    /// Absolute path of the media file.
    public var path: String
    /// Offset into the source, seconds; default 0. Must be 0 for a still picture.
    public var start: MediaTime
    /// Length used from the source; nil means to the end of the file (for a still: `SourceInfo.defaultStillDuration`).
    public var duration: MediaTime?
    /// The transition into this clip from the previous one; nil for a cut (and always nil on clip 0).
    public var transition: Transition?
    /// Gain applied to the clip's audio (1 = as recorded, 0 = silent).
    public var volume: Double = 1
    /// Colour description that replaces the file's tags (and the guesses for untagged clips); nil: use the tags.
    public var colour: ColourOverride?
    /// Which audio stream to play, counting the file's audio streams from 0 in file order (0 = the first audio
    /// stream, whatever its stream index); nil: the first stream flagged default, else the first
    /// (`SourceInfo.defaultAudioTrack`).
    public var audioTrack: Int?
    /// Pan and zoom over the clip's time on screen (`Motion`); nil: the fit's framing throughout.
    public var motion: MotionSpec?

    public init(path: String, start: MediaTime = .zero, duration: MediaTime? = nil, transition: Transition? = nil) {
        self.path = path; self.start = start; self.duration = duration; self.transition = transition
    }
}

/// A clip's colour description as the user states it, replacing the stream's tags (some tools write BT.601 without
/// tags, some phones tag wrongly). Each field left nil keeps the tag, or the guess for an untagged clip.
public struct ColourOverride: Equatable, Sendable {
    public var matrix: YCbCrMatrix?
    public var range: ColourRange?
    public var transfer: TransferFunction?
    public var primaries: ColourPrimaries?
    public init(matrix: YCbCrMatrix? = nil, range: ColourRange? = nil, transfer: TransferFunction? = nil, primaries: ColourPrimaries? = nil) {
        self.matrix = matrix; self.range = range; self.transfer = transfer; self.primaries = primaries
    }

    /// `colour` with the stated fields replaced.
    public func applied(to colour: YCbCrColour) -> YCbCrColour {
        var c = colour
        if let m = matrix { c.matrix = m }
        if let r = range { c.range = r }
        if let t = transfer { c.transfer = t }
        if let p = primaries { c.primaries = p }
        return c
    }
}

/// Output encoding settings.
public struct OutputSettings: Equatable, Sendable {
    /// The output format (its row in `OutputFormat.all` says what each writes).
    public enum Codec: String, CaseIterable, Sendable, Codable {
        /// H.264 (libx264; HEVC Main 10 with libx265 for HDR) in MP4 with `+faststart`, AAC audio (`OutputFormat.mp4`).
        case h264
        /// Lossless FFV1 in Matroska, 32-bit float PCM audio: for exact comparisons (`OutputFormat.mkv`).
        case ffv1
    }
    public var codec: Codec = .h264
    /// libx264 constant rate factor (0–51); default 18.
    public var crf: Int = 18
    /// libx264 preset; default `medium`.
    public var preset: String = "medium"
    /// A libavcodec video encoder to use instead of libx264 for MP4 output (e.g. `libx265`, `h264_nvenc`);
    /// `crf` and `preset` are passed to it when it has those options. Nil: libx264.
    public var encoder: String?
    /// The curve that tone-maps HDR clips (HLG, PQ) into the output (`output.toneMap`, `--tone-map`); default BT.2390.
    public var toneMap: ToneMapCurve = .default
    /// What is written (`output.dynamicRange`, `--dynamic-range`): SDR (BT.709, 8-bit; the default), or HDR (BT.2020,
    /// HLG or PQ, 10-bit 4:2:0; libx265 for MP4 unless `encoder` names another 10-bit encoder).
    public var dynamicRange: DynamicRange = .sdr
    /// The libx264 presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
    public init() {}
}

/// An edit as written by the user: clips joined by transitions, plus optional output properties.
/// Anything left nil is derived from the clips when the edit is resolved (`Timeline`).
public struct Edit: Equatable, Sendable {
    public var clips: [ClipSpec]
    /// Output picture size in pixels; nil: the largest width and height among the rotated clips.
    public var renderSize: PixelSize?
    /// A square render size: side = the largest short side (`min(width, height)` after rotation) among the clips,
    /// each clip fitted (by default, centre-cropped) to it.
    public var square: Bool = false
    public var fit: FitMode = .fill
    /// Output frame rate; nil: the highest nominal clip frame rate (snapped to a standard rate), else 30.
    public var frameRate: FrameRate?
    public var output = OutputSettings()
    /// Background music mixed under the clips' audio; nil for none.
    public var music: MusicSpec?
    /// Output audio format.
    public var audio = AudioSettings()
    /// The colour outside the pictures (letterbox bars, pushed-out areas) and under the transparent parts of stills
    /// with alpha; black by default.
    public var background = RGBColour.black
    /// How transitions mix colours unless they say (`Transition.blend`).
    public var blending: Blending = .gamma
    /// The edit asks to open inputs that pull in other files (`"allowIndirectInputs": true`: HLS and DASH playlists,
    /// ffconcat lists, `concat:` paths; see `InputPolicy.allowIndirectInputs`). What they pull in still obeys the
    /// render's `InputPolicy` (local regular files, inside its root).
    public var allowIndirectInputs = false

    public init(clips: [ClipSpec]) { self.clips = clips }
}

extension Edit {
    /// Every file the edit names, with the edit-file field that names it, in edit-file order: each clip's path
    /// (`clips[2].path`), its transition's gl-transitions shader (`clips[2].transition.shader`) and image parameters
    /// (`clips[2].transition.params.NAME`), and the music (`music.path`). `InputPolicy.check(_:)` checks each (a field
    /// ending in `.shader` as a file Segue reads itself, the others as media); an item kind that names a file adds
    /// it here, and the policy then covers it.
    public var inputPaths: [(field: String, path: String)] {
        var out: [(field: String, path: String)] = []
        for (i, clip) in clips.enumerated() {
            out.append(("clips[\(i)].path", clip.path))
            guard let t = clip.transition else { continue }
            if let shader = t.shader { out.append(("clips[\(i)].transition.shader", shader.path)) }
            for (name, value) in t.params.sorted(by: { $0.key < $1.key }) {
                if case .image(let path) = value, !path.isEmpty { out.append(("clips[\(i)].transition.params.\(name)", path)) }
            }
        }
        if let m = music { out.append(("music.path", m.path)) }
        return out
    }

    /// The media items the edit places (what `ResourceLimits.maxClips` counts): its clips.
    public var mediaItemCount: Int { clips.count }
}

/// The shape of an audio crossfade over a transition's overlap, at progress `p` (0…1).
public enum AudioCurve: String, CaseIterable, Sendable {
    /// Outgoing `1 − p`, incoming `p` (FFmpeg `acrossfade` curve `tri`).
    case linear
    /// Outgoing `cos(p·π/2)`, incoming `sin(p·π/2)`: constant power for uncorrelated signals.
    case equalPower = "equal-power"

    /// (outgoing gain, incoming gain) at progress `p`.
    public func gains(_ p: Double) -> (out: Double, in: Double) {
        switch self {
        case .linear: return (1 - p, p)
        case .equalPower: return (cos(p * Double.pi / 2), sin(p * Double.pi / 2))
        }
    }
}

/// A linear gain ramp (`AVMutableAudioMixInputParameters.setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`).
public struct VolumeRamp: Equatable, Sendable {
    public var from: Double
    public var to: Double
    /// Start on the edit's timeline; negative counts back from the edit's end.
    public var start: MediaTime
    public var duration: MediaTime
    public init(from: Double, to: Double, start: MediaTime, duration: MediaTime) {
        self.from = from; self.to = to; self.start = start; self.duration = duration
    }
}

/// Music ducking: while the clips' audio is present, the music's gain moves to `level`.
public struct Ducking: Equatable, Sendable {
    /// Gain while ducked (0…1).
    public var level: Double = 0.25
    /// Seconds to go from full volume down to `level`.
    public var attack: Double = 0.2
    /// Seconds to come back up to full volume.
    public var release: Double = 0.6
    public init() {}
}

/// Background music.
public struct MusicSpec: Equatable, Sendable {
    /// Absolute path of the audio (or video) file.
    public var path: String
    /// Offset into the song, seconds.
    public var start: MediaTime = .zero
    /// Gain multiplying everything else.
    public var volume: Double = 1
    /// Start again from `start` when the song ends (else silence after it).
    public var loop = false
    /// Gain ramps over the edit's timeline; before the first ramp the gain is 1, after a ramp it stays at its `to`.
    public var ramps: [VolumeRamp] = []
    public var duck: Ducking?
    public init(path: String) { self.path = path }
}

/// Output audio format.
public struct AudioSettings: Equatable, Sendable {
    /// Samples per second (one of `aacSampleRates`).
    public var sampleRate: Int = 48000
    /// The sampling rates AAC (ISO/IEC 14496-3) defines, and so the ones FFmpeg's encoder takes.
    public static let aacSampleRates = [7350, 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]
    /// 1 (mono) … 8; the default layout for the count (2 = stereo, 6 = 5.1).
    public var channels: Int = 2
    /// AAC bit rate, bits per second.
    public var bitRate: Int = 192_000
    public init() {}
}

import Foundation
