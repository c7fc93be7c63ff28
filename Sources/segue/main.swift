import Foundation
import SegueCore
import SeguePipeline
import SegueMedia
import SegueGL
import SegueFarm

// segue: a thin command line over SeguePipeline.
// Exit status: 0 success, 1 a render (or comparison) failed, 2 invalid edit or command line (or stitch refused),
// 75 a chunk render failed in a way worth retrying (GPU/EGL start-up, output I/O).

let usage = """
usage:
  segue render EDIT.json -o OUT.mp4 [options]
  segue render CLIP CLIP... [--transition TYPE:SECONDS[:DIRECTION]]... [--square | --size WxH]
               [--fit fill|fit|stretch] [--fps RATE] [--background COLOUR] -o OUT.mp4 [options]
  segue probe FILE... [--json] [--tone-map CURVE]
  segue plan EDIT.json [--json]
  segue plan EDIT.json --chunks N [-o plan.json] [--no-audio]
  segue render [EDIT.json] --plan plan.json --chunk I|auto -o DIR [--backend ...]
  segue render-audio EDIT.json -o audio.m4a
  segue stitch --plan plan.json DIR -o OUT.mp4 [--audio audio.m4a]
  segue farm slurm EDIT.json --chunks N -o OUT.mp4 [--work-dir DIR] [--partition P] [--gres gpu:1]
               [--time T] [--max-parallel K] [--retries R] [--retry-delay SECONDS] [--dry-run] [--allow-local]
  segue farm status WORK_DIR [--json]
  segue farm resume WORK_DIR
  segue frame EDIT.json (--at SECONDS | --frame N) -o FRAME.png [--backend ...]
  segue sheet EDIT.json -o SHEET.png [--cols 5] [--tile-width 192] [--at-progress P[,P...]] [--backend ...]
  segue transitions [--json]
  segue compare A.mp4 B.mp4 [--min-psnr DB] [--json]
  segue compare --backends EDIT.json [--min-psnr DB] [--json]
  segue bench-composite [--size WxH] [--frames N] [--transition TYPE:SECONDS]... [--backend gpu|cpu] [--json]

render options:
  -o, --output PATH            output file (.mp4 for h264, .mkv for ffv1)
  --backend gpu|cpu|auto       renderer (default auto: GPU when an EGL context can be made, else CPU)
  --codec h264|ffv1            H.264 (default) or lossless FFV1 in Matroska
  --crf N, --preset NAME       encoder settings (default 18, medium)
  --encoder NAME               another libavcodec video encoder for MP4 output (libx265, h264_nvenc, ...)
  --tone-map CURVE             how HDR clips (HLG, PQ) are tone-mapped: bt2390 (default), hable, mobius, reinhard, clip
  --dynamic-range sdr|hlg|pq   what is written: SDR BT.709 8-bit (default), or HDR BT.2020 10-bit (HEVC Main 10)
  --egl-platform gbm|device|surfaceless   force an EGL platform
  --gpu-device PATH|N          a render node (/dev/dri/renderD129) or an EGL device index
  --hwaccel none|cuda          decode on an NVIDIA GPU (NVDEC) where there is one (default none)
  --no-audio                   write video only
  --music FILE[:VOLUME]        background music under the clips' audio (e.g. song.m4a:0.6)
  --duck                       lower the music while the clips' audio is present
  --progress bar|plain|json|none   progress on stderr (default: bar on a terminal, else none)
  --verbose                    say what was chosen (EGL platform, GL_RENDERER, size, rate, clips)
render farms (see README, "Render farms"): chunk exit status 75 = transient (retry), 2 = invalid edit, 1 = other
transitions: `segue transitions` lists every built-in with its parameters and directions
"""

var args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { print(usage); exit(2) }
args.removeFirst()
let commands: [String: (Arguments) throws -> Void] = [
    "render": renderCommand, "probe": probeCommand, "plan": planCommand,
    "frame": frameCommand, "sheet": sheetCommand, "compare": compareCommand,
    "render-audio": renderAudioCommand, "stitch": stitchCommand, "farm": farmCommand, "transitions": transitionsCommand,
    "bench-composite": benchCompositeCommand,
]
if ["-h", "--help", "help"].contains(command) { print(usage); exit(0) }
guard let run = commands[command] else { say("segue: unknown command \(command)\n\(usage)"); exit(2) }
SignalCleanup.installHandlers()
// Each segue process renders once: its heap is fresh, and zero-filling every allocation would only cost memory.
HeapPolicy.zeroFilledAllocations = false
do {
    try run(try Arguments(args))
} catch is HelpRequested {
    print(usage)
} catch let e as CommandLineError {
    say("segue: \(e.message)\n\(usage)"); exit(2)
} catch let e as StitchRefused {
    say("segue: stitch refused: \(e)"); exit(2)
} catch let e as EditError {
    say("segue: invalid edit: \(e)"); exit(2)
} catch let e as MediaError {
    say("segue: \(command) failed: \(e)"); exit(1)
} catch let e as GPUError {
    say("segue: GPU \(command) failed: \(e)"); exit(1)
} catch let e as FarmError {
    say("segue: \(command) failed: \(e)"); exit(1)
} catch let e as ComparisonFailed {
    say("segue: \(e.message)"); exit(1)
} catch {
    say("segue: \(command) failed: \(error)"); exit(1)
}
