import Foundation
import SegueCore
import SegueMedia

/// How a take is recorded and what is done to its frames on the way.
public struct RecordOptions: Sendable {
    /// Duration, segments, timeout, reconnect, preset, preview, `--fps` (`RecordingSettings`).
    public var recording = RecordingSettings()
    /// `--square`: a square of the source's short side (after rotation), cropped from the middle.
    public var square = false
    /// `--size WxH`: the picture scaled and cropped to fill this size (even width and height).
    public var size: PixelSize?
    /// The renderer and GPU for processed frames, `verbose`, and where messages go.
    public var render = RenderOptions()
    public init() {}

    /// Whether frames are drawn on the way (`--square`, `--size`, `--fps`): then the video is re-encoded.
    public var processes: Bool { square || size != nil || recording.frameRate != nil }
}

/// Sets up `segue record` / `CaptureSession`: the sources parsed, the frame processor (the renderers) when asked for.
public enum RecordJob {
    /// A recording of `sources` (as given on the command line: `v4l2:/dev/video0`, `udp://…`) into `output`.
    /// - Throws: `UsageError` (an unknown source, `--square` with `--size`, an odd size, a bad output name).
    public static func makeRecording(sources: [String], output: String, options: RecordOptions,
                                     progress: (@Sendable (RecordingProgress) -> Void)? = nil) throws -> LiveRecording {
        if options.square && options.size != nil { throw UsageError("give either --square or --size, not both") }
        if let s = options.size, s.width % 2 != 0 || s.height % 2 != 0 { throw UsageError("--size must be even for 4:2:0 video (got \(s))") }
        let parsed = try sources.map { try CaptureSource($0) }
        let processor = options.processes ? RenderedLiveFrames(square: options.square, size: options.size, options: options.render) : nil
        let log = options.render.log
        return try LiveRecording(sources: parsed, output: output, settings: options.recording, processor: processor, log: log, progress: progress)
    }
}

/// Recorded frames made as `render` makes a clip's: one layer, the source's rotation (its display matrix) applied,
/// scaled to fill the output size and cropped in the middle (`LayerGeometry.outputToSource` with `FitMode.fill`),
/// converted to BT.709 4:2:0, each by its `FrameStrategy`: taken straight from the source's planes where no drawing
/// is needed (turned upright by libavfilter first for a phone's quarter turn, half turn or mirror), else drawn by the
/// renderers (`FrameRenderer`: the GPU, or the CPU per `RenderOptions.backend` and the machine), made on the first
/// frame, on the recording's thread, where a GL context stays current.
final class RenderedLiveFrames: LiveVideoProcessor {
    let square: Bool
    let size: PixelSize?
    let options: RenderOptions
    private var renderer: FrameRenderer?
    private let turner = PictureTurner()
    private var frame: Int64 = 0
    /// Frames taken straight from the source's planes, and of those, turned upright first.
    private(set) var counts = FrameStrategy.Counts()

    init(square: Bool, size: PixelSize?, options: RenderOptions) {
        self.square = square
        self.size = size
        self.options = options
    }

    /// `--size`, else the displayed size (rotated), or with `--square` a square of its short side; even.
    func outputSize(for info: SourceInfo) throws -> PixelSize {
        if let size { return size }
        let d = info.displaySize
        if square {
            let s = max(2, min(d.width, d.height) & ~1)
            return PixelSize(width: s, height: s)
        }
        return PixelSize(width: max(2, d.width & ~1), height: max(2, d.height & ~1))
    }

    func process(_ picture: VideoPicture, info: SourceInfo, size: PixelSize) throws -> YUV420Image {
        if renderer == nil {
            renderer = try RenderJob.makeRenderer(options)
            if options.verbose { options.log("segue: frames drawn by \(renderer!.name)") }
        }
        var plan = RenderedLiveFrames.plan(frame: frame, info: info, size: size)
        frame += 1
        var picture = picture
        let strategy = FrameStrategy.decide(plan, pictures: [picture], machine: renderer!.machine)
        counts.add(strategy)
        if let step = strategy.turns.first {
            plan = DirectFrame.uprighted(plan, turn: step.turn, picture: picture)
            picture = try turner.turned(picture, by: step.turn)
        }
        if strategy.isDirect, !strategy.graded, let b = strategy.base { return DirectFrame.cropped(picture, x: b.x, y: b.y, size: plan.renderSize) }
        return try renderer!.renderYUV420(plan, pictures: [picture])
    }

    func finish() {
        if options.verbose && frame > 0 {
            options.log("segue: \(counts.direct) of \(frame) recorded frames taken straight from the source's planes (\(counts.turned) turned upright first), \(counts.cpu + counts.gpu) drawn")
        }
        renderer = nil
        turner.release()
    }

    /// The one place a recorded frame becomes a `FramePlan`: one layer, no transition, SDR output, black behind.
    static func plan(frame: Int64, info: SourceInfo, size: PixelSize) -> FramePlan {
        let map = LayerGeometry.outputToSource(codedSize: info.codedSize, sar: info.sampleAspectRatio, orientation: info.orientation,
                                               renderSize: size, fit: .fill)
        return FramePlan(frame: frame, time: .zero, renderSize: size,
                         passes: [CompositePass(from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: map), to: nil, transition: nil, progress: 0)])
    }
}
