import Foundation
import Segue
import SeguePipeline
import SegueMedia
import SegueFarm

// segue: a thin command line: a client of the Segue library (render, probe, frame, plan) and of SegueFarm (chunks).
// Exit status: 0 success, 1 a render (or comparison) failed, 2 invalid edit or command line (or stitch refused),
// 3 (`farm status` only) the farm's work is still queued or running, 75 a chunk render failed in a way worth retrying (GPU/EGL start-up, output I/O).

let usage = """
usage:
  segue render EDIT.json -o OUT.mp4 [options]
  segue render CLIP CLIP... [--transition TYPE:SECONDS[:DIRECTION]]... [--square | --size WxH]
               [--fit fill|fit|stretch] [--fps RATE] [--background COLOUR] -o OUT.mp4 [options]
  segue record SOURCE... -o take.mp4 [--duration SECONDS] [--segment SECONDS] [--square | --size WxH] [--fps N]
               [--preset high|medium|low] [--preview preview.jpg] [--reconnect] [--timeout SECONDS] [--progress ...]
  segue probe FILE... [--json] [--tone-map CURVE]
  segue plan EDIT.json [--json]
  segue plan EDIT.json --chunks N [-o plan.json] [--no-audio]
  segue render [EDIT.json] --plan plan.json --chunk I|auto -o DIR [--backend ...]
  segue render timeline.otio|bundle.otioz -o OUT.mp4 [--missing-media error|black|slate] [options]
  segue export-otio EDIT.json -o EDIT.otio
  segue render-audio EDIT.json -o audio.m4a
  segue stitch --plan plan.json DIR -o OUT.mp4 [--audio audio.m4a]
  segue farm [local] EDIT.json --chunks N -o OUT.mp4 [--jobs J] [--work-dir DIR] [--retries R] [--retry-delay SECONDS]
               [--dry-run]   (chunks as processes on this machine, J at once; the default engine)
  segue farm slurm EDIT.json --chunks N -o OUT.mp4 [--work-dir DIR] [--partition P] [--gres gpu:1]
               [--time T] [--max-parallel K] [--retries R] [--retry-delay SECONDS] [--dry-run] [--allow-local]
  segue farm status WORK_DIR [--json]
  segue farm resume WORK_DIR
  segue frame EDIT.json (--at SECONDS | --frame N) -o FRAME.png [--backend ...]
  segue sheet EDIT.json -o SHEET.png [--cols 5] [--tile-width 192] [--at-progress P[,P...]] [--backend ...]
  segue transitions [--json]
  segue schema                 the JSON Schema (draft 2020-12) of the edit file, from the parser's declarations
  segue compare A.mp4 B.mp4 [--min-psnr DB] [--json]
  segue compare --backends EDIT.json [--min-psnr DB] [--json]
  segue bench-composite [--size WxH] [--frames N] [--transition TYPE:SECONDS]... [--backend gpu|cpu] [--json]

render options:
  -o, --output PATH            output file; its name chooses the format unless --codec does (\(OutputFormat.all.map { ($0.isImageSequence ? "frames/%05d." : ".") + "\($0.extensions[0]) \($0.codec.rawValue)" }.joined(separator: ", ")))
  --backend gpu|cpu|auto       renderer (default auto: GPU when an EGL context can be made, else CPU)
  --codec NAME                 \(OutputFormat.all.map { "\($0.codec.rawValue): \($0.name)" }.joined(separator: "; ")) (default h264)
  --background COLOUR          under the pictures (default black); transparent keeps alpha (ffv1, vp9, prores, png, tiff, exr)
  --crf N, --preset NAME       encoder settings (default 18, medium)
  --encoder NAME               another libavcodec video encoder (libx265, h264_nvenc, ...; for h264, vp9 and av1)
  --tone-map CURVE             how HDR clips (HLG, PQ) are tone-mapped: bt2390 (default), hable, mobius, reinhard, clip
  --dynamic-range sdr|hlg|pq   what is written: SDR BT.709 8-bit (default), or HDR BT.2020 10-bit (HEVC Main 10)
  --egl-platform gbm|device|surfaceless   force an EGL platform
  --gpu-device PATH|N          a render node (/dev/dri/renderD129) or an EGL device index
  --hwaccel none|cuda          decode on an NVIDIA GPU (NVDEC) where there is one (default none)
  --no-audio                   write video only
  --overlay FILE[:x,y,scale[,opacity]]
                               a picture or clip over the whole edit (repeatable; a watermark: logo.png:0.92,0.9,0.1)
  --title "TEXT"[:SECONDS]     a centred title from the start (default 4 s; repeatable: one after another)
  --captions FILE              captions over the whole edit (.srt, .vtt, .ass, .ssa; docs/text.md)
  --music FILE[:VOLUME]        background music under the clips' audio (e.g. song.m4a:0.6)
  --duck                       lower the music while the clips' audio is present
  --progress bar|plain|json|none   progress on stderr (default: bar on a terminal, else none)
  --missing-media error|black|slate   an OpenTimelineIO timeline's missing media: refused, naming them all (default),
                               black, or black with the file's name (docs/otio.md)
  --verbose                    say what was chosen (EGL platform, GL_RENDERER, size, rate, clips); FFmpeg's warnings
untrusted edits (docs/untrusted-edits.md): inputs must be regular local files; playlists and URLs are refused
  --root DIR                   every file the edit names must lie inside DIR (after resolving .. and symbolic links)
  --output-root DIR            every file written must lie inside DIR
  --allow-indirect-inputs      open HLS/DASH playlists, ffconcat lists and concat: paths (what they read obeys --root)
  --max-megapixels N           the largest picture: 200 decoded whole, 1000 for a PNG/JPEG read shrunk on load (sets both)
  --max-duration SECONDS       the longest edit (default 7200)
  --max-clips N                the most clips (default 1000)
  --max-picture-memory MIB     decoded pictures on screen at once, 4 bytes a pixel (default 2048)
  --frame-timeout SECONDS      a frame that takes longer ends the render with exit status 1, the temporary file removed
                               (default 120; 0: no watchdog); each glsl shader is tried first (pre-flight: 2 s once compiled)
exit status: 0 done, 1 failed, 2 invalid edit or command line (each command takes only its own options);
render farms (see docs/farms.md): chunk exit status 75 = transient (retry), 2 = invalid, 1 = other
record: SOURCE is v4l2:/dev/video0, alsa:default, pulse:default, x11grab::0.0, kmsgrab, lavfi:testsrc2 or a stream URL
  (rtsp://, srt://, udp://, rtmp://, http(s)://....m3u8); a video and an audio source may be given together. Ends at
  --duration, SIGINT/SIGTERM (exit 0: the take is finished) or the source's end; --timeout (default 10 s) without data: exit 1
transitions: `segue transitions` lists every built-in with its parameters and directions
"""

var args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { print(usage); exit(ExitStatus.invalid) }
args.removeFirst()
let commands: [String: (Arguments) throws -> Void] = [
    "render": renderCommand, "probe": probeCommand, "plan": planCommand,
    "frame": frameCommand, "sheet": sheetCommand, "compare": compareCommand,
    "render-audio": renderAudioCommand, "stitch": stitchCommand, "farm": farmCommand, "transitions": transitionsCommand,
    "bench-composite": benchCompositeCommand, "record": recordCommand, "export-otio": exportOTIOCommand,
    "schema": { a in
        guard a.positional.isEmpty else { throw UsageError("schema takes no arguments") }
        FileHandle.standardOutput.write(EditSchema.json)
    },
]
if ["-h", "--help", "help"].contains(command) { print(usage); exit(0) }
guard let run = commands[command] else { say("segue: unknown command \(command)\n\(usage)"); exit(ExitStatus.invalid) }
SignalCleanup.installHandlers()
// Each segue process renders once: its heap is fresh, and zero-filling every allocation would only cost memory.
HeapPolicy.zeroFilledAllocations = false
var chunkRender = false
do {
    let arguments = try Arguments(args)
    chunkRender = command == "render" && (arguments.plan != nil || arguments.chunk != nil)
    if command != "farm" { try CommandOptions.check(arguments.given, command: command) }
    try CommandOptions.checkRepeats(arguments.given)
    // FFmpeg's own lines (a corrupt packet, a deprecated option) only with --verbose, naming the file.
    if arguments.options.verbose { FFmpegLog.setHandler { say("ffmpeg: \($0)") } }
    try run(arguments)
    OpenDocuments.shared.closeAll()
} catch {
    OpenDocuments.shared.closeAll()
    exit(report(error, command: command, chunkRender: chunkRender))
}

/// The one place an error becomes a message on standard error and an exit status: the status is the error's own
/// (`SegueError.exitStatus`; 1 for errors that are not Segue's), or 75 for a chunk render's retryable failure.
func report(_ error: Error, command: String, chunkRender: Bool) -> Int32 {
    let retry = chunkRender && ((error as? SegueError)?.isRetryable ?? false)
    switch error {
    case is HelpRequested: print(usage); return 0
    case _ where retry: say("segue: \(command) failed (transient, worth a retry): \(error)")
    case let e as UsageError: say("segue: \(e)\n(`segue --help` lists the commands and their options)")
    case let e as EditError: say("segue: invalid edit: \(e)")
    case let e as InputRefused: say("segue: refused: \(e)")
    case let e as LimitExceeded: say("segue: refused: \(e)")
    case let e as StitchRefused: say("segue: stitch refused: \(e)")
    case let e as GPUError: say("segue: GPU \(command) failed: \(e)")
    case let e as PlanMismatch: say("segue: \(e)")
    case let e as ComparisonFailed: say("segue: \(e.message)")
    case let e as MissingMedia: say("segue: \(command) failed: \(e)")
    default: say("segue: \(command) failed: \(error)")
    }
    return retry ? ExitStatus.retry : (error as? SegueError)?.exitStatus ?? ExitStatus.failed
}
