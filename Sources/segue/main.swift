import Foundation
import SegueCore
import SeguePipeline
import SegueMedia
import SegueGL

// segue: thin CLI over SeguePipeline. Exit status: 0 success, 1 a render failed, 2 invalid edit or command line.

let usage = """
usage:
  segue render EDIT.json -o OUT.mp4 [options]
  segue render CLIP CLIP... [--transition TYPE:SECONDS[:DIRECTION]]... [--square | --size WxH]
               [--fit fill|fit|stretch] [--fps RATE] -o OUT.mp4 [options]

options:
  -o, --output PATH            output file (.mp4 for h264, .mkv for ffv1)
  --backend gpu|cpu|auto       renderer (default auto: GPU when an EGL context can be made, else CPU)
  --codec h264|ffv1            H.264 (default) or lossless FFV1 in Matroska
  --crf N, --preset NAME       libx264 settings (default 18, medium)
  --egl-platform gbm|device|surfaceless   force an EGL platform
  --gpu-device PATH|N          a render node (/dev/dri/renderD129) or an EGL device index
  --no-audio                   write video only
  --verbose                    say what was chosen (EGL platform, GL_RENDERER, size, rate)
transitions: crossfade, push, wipe; directions left|right|up|down (push), and up-left|up-right|down-left|down-right (wipe)
"""

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write("segue: \(message)\n".data(using: .utf8)!)
    exit(status)
}

struct CommandLineError: Error { let message: String }

func parseRender(_ args: [String]) throws -> (Edit, String, RenderOptions) {
    var positional: [String] = []
    var output: String?
    var options = RenderOptions()
    var transitions: [Transition?] = []
    var square = false, size: PixelSize?, fit: FitMode?, fps: FrameRate?
    var codec: OutputSettings.Codec?, crf: Int?, preset: String?
    var i = 0
    func value(_ name: String) throws -> String {
        i += 1
        guard i < args.count else { throw CommandLineError(message: "\(name) needs a value") }
        return args[i]
    }
    while i < args.count {
        let a = args[i]
        switch a {
        case "-o", "--output": output = try value(a)
        case "--backend":
            let v = try value(a)
            guard let b = Backend(rawValue: v) else { throw CommandLineError(message: "--backend must be gpu, cpu or auto (got \(v))") }
            options.backend = b
        case "--codec":
            let v = try value(a)
            guard let c = OutputSettings.Codec(rawValue: v) else { throw CommandLineError(message: "--codec must be h264 or ffv1 (got \(v))") }
            codec = c
        case "--crf":
            let v = try value(a)
            guard let n = Int(v), (0...51).contains(n) else { throw CommandLineError(message: "--crf must be 0…51 (got \(v))") }
            crf = n
        case "--preset": preset = try value(a)
        case "--egl-platform":
            let v = try value(a)
            guard let p = EGLOptions.Platform(rawValue: v) else { throw CommandLineError(message: "--egl-platform must be gbm, device or surfaceless (got \(v))") }
            options.egl.platform = p
        case "--gpu-device": options.egl.device = try value(a)
        case "--no-audio": options.audio = false
        case "--verbose", "-v": options.verbose = true
        case "--square": square = true
        case "--size":
            let v = try value(a)
            guard let s = PixelSize.parse(v) else { throw CommandLineError(message: "--size must look like 1280x720 (got \(v))") }
            size = s
        case "--fit":
            let v = try value(a)
            guard let f = FitMode(rawValue: v) else { throw CommandLineError(message: "--fit must be fill, fit or stretch (got \(v))") }
            fit = f
        case "--fps":
            let v = try value(a)
            guard let r = FrameRate.parse(v) else { throw CommandLineError(message: "--fps must be a positive rate such as 30 or 30000/1001 (got \(v))") }
            fps = r
        case "--transition":
            let v = try value(a)
            transitions.append(try parseTransition(v))
        case "-h", "--help":
            print(usage); exit(0)
        default:
            if a.hasPrefix("-") && a != "-" { throw CommandLineError(message: "unknown option \(a)") }
            positional.append(a)
        }
        i += 1
    }
    guard let out = output else { throw CommandLineError(message: "missing -o OUTPUT") }
    guard !positional.isEmpty else { throw CommandLineError(message: "give an edit file or clips to join") }
    var edit: Edit
    if positional.count == 1 && positional[0].lowercased().hasSuffix(".json") {
        edit = try EditFile.load(path: positional[0])
        if !transitions.isEmpty { throw CommandLineError(message: "--transition applies to clips on the command line, not to an edit file") }
    } else {
        let cwd = FileManager.default.currentDirectoryPath
        let clips = positional.enumerated().map { (k, p) -> ClipSpec in
            let path = p.hasPrefix("/") ? p : URL(fileURLWithPath: cwd).appendingPathComponent(p).standardized.path
            let t: Transition? = k == 0 || transitions.isEmpty ? nil : transitions[(k - 1) % transitions.count]
            return ClipSpec(path: path, transition: t)
        }
        edit = Edit(clips: clips)
    }
    if square { edit.square = true }
    if let s = size { edit.renderSize = s }
    if let f = fit { edit.fit = f }
    if let r = fps { edit.frameRate = r }
    if let c = codec { edit.output.codec = c }
    if let c = crf { edit.output.crf = c }
    if let p = preset { edit.output.preset = p }
    return (edit, out, options)
}

/// `TYPE:SECONDS[:DIRECTION]`, or `cut`.
func parseTransition(_ s: String) throws -> Transition? {
    if s == "cut" || s == "none" { return nil }
    let parts = s.split(separator: ":").map(String.init)
    guard let kind = Transition.Kind(rawValue: parts[0]) else {
        throw CommandLineError(message: "--transition type must be crossfade, push, wipe or cut (got \(parts[0]))")
    }
    var duration = MediaTime(value: 1, timescale: 1)
    if parts.count > 1 {
        guard let d = Double(parts[1]), d > 0, d.isFinite else { throw CommandLineError(message: "--transition duration must be > 0 seconds (got \(parts[1]))") }
        duration = MediaTime(seconds: d)
    }
    var direction: Transition.Direction?
    if parts.count > 2 {
        guard let d = Transition.Direction(rawValue: parts[2]) else { throw CommandLineError(message: "unknown --transition direction \(parts[2])") }
        direction = d
    }
    return Transition(kind: kind, duration: duration, direction: direction)
}

var args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { print(usage); exit(2) }
args.removeFirst()
switch command {
case "render":
    do {
        let (edit, out, options) = try parseRender(args)
        let started = Date()
        let result = try RenderJob.render(edit, to: out, options: options)
        let secs = Date().timeIntervalSince(started)
        FileHandle.standardError.write(String(format: "segue: wrote %@: %lld frames at %@ fps (%@), %.1f s, rendered by %@ in %.1f s\n",
                                              result.path, result.frames, result.timeline.frameRate.description,
                                              result.timeline.renderSize.description, result.timeline.duration.seconds,
                                              result.renderer, secs).data(using: .utf8)!)
    } catch let e as CommandLineError {
        fail("\(e.message)\n\(usage)", status: 2)
    } catch let e as EditError {
        fail("invalid edit: \(e)", status: 2)
    } catch let e as MediaError {
        fail("render failed: \(e)", status: 1)
    } catch let e as GPUError {
        fail("GPU render failed: \(e)", status: 1)
    } catch {
        fail("render failed: \(error)", status: 1)
    }
case "-h", "--help", "help":
    print(usage)
default:
    fail("unknown command \(command)\n\(usage)", status: 2)
}
