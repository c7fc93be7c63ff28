import Foundation
import SegueCore
import SegueMedia
import SegueReference
import SegueGL

/// Which renderer draws the frames.
public enum Backend: String, CaseIterable, Sendable {
    /// The GPU path (headless EGL + GLSL ES shaders); fails if no EGL context can be made.
    case gpu
    /// The pure-Swift CPU reference.
    case cpu
    /// The GPU when an EGL context can be made, else the CPU with a warning.
    case auto
}

/// Options for one render.
public struct RenderOptions {
    public var backend: Backend = .auto
    public var egl = EGLOptions()
    /// Print what was chosen (EGL platform, `GL_RENDERER`, render size and frame rate and why).
    public var verbose = false
    /// Include the audio mix (AAC 48 kHz stereo).
    public var audio = true
    /// Where messages go (default: standard error).
    public var log: (String) -> Void = { FileHandle.standardError.write(($0 + "\n").data(using: .utf8)!) }
    public init() {}
}

/// What a finished render wrote.
public struct RenderResult {
    public let path: String
    public let frames: Int64
    public let audioSamples: Int64
    public let renderer: String
    public let timeline: Timeline
}

/// Renders edits: probes every clip first (so a bad clip fails before any work), resolves the timeline,
/// draws each output frame with the chosen renderer and encodes it, writing to a temporary file beside the
/// destination that is renamed into place only on success.
public enum RenderJob {
    /// Opens and probes every clip, then resolves the edit.
    /// - Throws: `EditError` (invalid edit; names the clip and field) or `MediaError` (a clip cannot be read; names the file).
    public static func resolve(_ edit: Edit) throws -> Timeline {
        var infos: [SourceInfo] = []
        for (i, clip) in edit.clips.enumerated() {
            var isDir: ObjCBool = false
            if !FileManager.default.fileExists(atPath: clip.path, isDirectory: &isDir) {
                throw MediaError(path: clip.path, function: nil, message: "clip \(i): file not found")
            }
            if isDir.boolValue { throw MediaError(path: clip.path, function: nil, message: "clip \(i): is a directory, not a media file") }
            do {
                infos.append(try probeSource(path: clip.path))
            } catch let e as MediaError {
                throw MediaError(path: clip.path, function: e.function, code: e.code, message: "clip \(i): \(e.message)")
            }
        }
        return try Timeline(edit: edit, sources: infos)
    }

    /// Makes the renderer for `options.backend`. With `.auto`, falls back to the CPU with a one-line warning.
    public static func makeRenderer(_ options: RenderOptions) throws -> CompositeRenderer {
        switch options.backend {
        case .cpu: return ReferenceRenderer()
        case .gpu: return try GPURenderer(options: options.egl)
        case .auto:
            do { return try GPURenderer(options: options.egl) } catch {
                options.log("warning: no GPU context (\(error)); rendering on the CPU reference instead")
                return ReferenceRenderer()
            }
        }
    }

    /// Renders `edit` to `outputPath`.
    /// - Throws: `EditError` (exit status 2), `MediaError` or `GPUError` (exit status 1). On any error the
    ///   temporary file is removed and an existing file at `outputPath` is left untouched.
    @discardableResult
    public static func render(_ edit: Edit, to outputPath: String, options: RenderOptions = RenderOptions()) throws -> RenderResult {
        let out = URL(fileURLWithPath: outputPath).standardizedFileURL
        for (i, c) in edit.clips.enumerated() where URL(fileURLWithPath: c.path).standardizedFileURL.resolvingSymlinksInPath() == out.resolvingSymlinksInPath() {
            throw EditError("output", "the output path \(outputPath) is clip \(i)'s input; choose another output path")
        }
        if edit.output.codec == .ffv1 && out.pathExtension.lowercased() != "mkv" {
            throw EditError("output", "FFV1 is written into Matroska: give the output a .mkv name")
        }
        let dir = out.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw MediaError(path: dir.path, function: nil, message: "the output folder does not exist")
        }
        let timeline = try resolve(edit)
        if options.verbose { timeline.notes.forEach { options.log("segue: \($0)") } }
        let renderer = try makeRenderer(options)
        if options.verbose { options.log("segue: renderer \(renderer.name)") }

        let temp = dir.appendingPathComponent(".\(out.lastPathComponent).segue-\(getpid()).tmp")
        do {
            let result = try encode(timeline, renderer: renderer, to: temp.path, options: options)
            if rename(temp.path, out.path) != 0 {
                throw MediaError(path: out.path, function: "rename", message: "cannot move the finished file into place: \(String(cString: strerror(errno)))")
            }
            return RenderResult(path: out.path, frames: result.0, audioSamples: result.1, renderer: renderer.name, timeline: timeline)
        } catch {
            unlink(temp.path)
            throw error
        }
    }

    static func encode(_ timeline: Timeline, renderer: CompositeRenderer, to path: String, options: RenderOptions) throws -> (Int64, Int64) {
        let sampleRate: Int32 = 48000
        let writer = try MediaWriter(path: path, size: timeline.renderSize, frameRate: timeline.frameRate,
                                     settings: timeline.output, audio: options.audio ? MediaWriter.AudioSettings() : nil)
        let mixer = options.audio ? AudioMixer(timeline: timeline, sampleRate: sampleRate) : nil
        let frames = FrameSource(timeline: timeline)
        let rate = timeline.frameRate
        for n in 0..<timeline.frameCount {
            let plan = timeline.plan(frame: n)
            let from = try frames.picture(plan.from)
            let to = try plan.to.map { try frames.picture($0) }
            frames.release(before: plan.time)
            let image = try renderer.render(plan, from: from, to: to, renderSize: timeline.renderSize)
            try writer.writeVideo(image)
            if let m = mixer {
                // Audio up to the end of this frame: round((n + 1) / fps × rate), exact.
                let end = MediaTime(frame: n + 1, rate: rate).rounded(toUnitsOf: Int64(sampleRate))
                if end > m.position { try writer.writeAudio(try m.next(Int(end - m.position))) }
            }
        }
        return try writer.finish()
    }
}

/// Decoders for the clips visible now: opened (and seeked to the clip's start) when a clip appears,
/// closed once the timeline has passed its end.
final class FrameSource {
    let timeline: Timeline
    private var readers: [Int: VideoReader] = [:]

    init(timeline: Timeline) { self.timeline = timeline }

    func picture(_ layer: LayerPlan) throws -> RGBAImage {
        let r: VideoReader
        if let existing = readers[layer.clipIndex] { r = existing } else {
            let p = timeline.placements[layer.clipIndex]
            r = try VideoReader(path: p.spec.path)
            try r.seek(to: layer.sourceTime)
            readers[layer.clipIndex] = r
        }
        return try r.frame(at: layer.sourceTime)
    }

    func release(before t: MediaTime) {
        for (i, _) in readers where !(t < timeline.placements[i].end) { readers[i] = nil }
    }
}
