import Foundation
import SegueCore

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

    public init(clips: [ClipSpec]) { self.clips = clips }
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
