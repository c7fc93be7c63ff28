#!/usr/bin/env python3
"""make gpu-check: what Segue does on a machine with an NVIDIA GPU, in one run (< 8 minutes), as one JSON line.

1. The EGL device platform on the NVIDIA driver: a render whose GL_RENDERER is not a software rasteriser
   (llvmpipe, softpipe, swrast). Fails loudly (exit 1) if it is, unless GPU_CHECK_ALLOW_SOFTWARE=1 (for testing
   this script on machines without a GPU).
2. Decoding with FFmpeg's CUDA hwaccel (NVDEC) where present (`--hwaccel cuda`; pictures downloaded to system
   memory): how many source frames it decoded.
3. Composite + readback alone (no decoder, no encoder), frames/s, at 1080p and 4K for crossfade, push and wipe
   (`segue bench-composite`). Target: >= 1000 frames/s at 1080p.
4. End to end against the equivalent FFmpeg filtergraph with the same CPU x264 (medium, CRF 18): 3 clips x 4 s at
   1080p (one portrait, -90 deg), crossfade + push, alternating runs. Target: segue/ffmpeg <= 0.7.
5. h264_nvenc: machines lent for this may have NVDEC but no NVENC; Segue must then fail cleanly (exit 1 with a
   message), and nothing above depends on it.

Environment: GPU_CHECK_ALLOW_SOFTWARE=1, GPU_CHECK_SIZES (default 1920x1080,3840x2160), GPU_CHECK_FRAMES (300),
GPU_CHECK_REPS (2), GPU_CHECK_CLIP_SIZE (1920x1080), GPU_CHECK_SECONDS (4), SEGUE_BINARY (.build/release/segue).
"""
import json, os, re, subprocess, sys, time

env = os.environ.get
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
W, H = env("GPU_CHECK_CLIP_SIZE", "1920x1080").split("x")
os.environ.update({"BENCH_CLIPS": "3", "BENCH_CLIP_SECONDS": env("GPU_CHECK_SECONDS", "4"), "BENCH_TRANSITION": "1",
                   "BENCH_SIZE": f"{W}x{H}", "BENCH_PRESET": "medium", "BENCH_CRF": "18"})
sys.path.insert(0, os.path.join(ROOT, "bench"))
import run as bench  # noqa: E402  (the benchmark's inputs, edit and FFmpeg filtergraph)

SEGUE = bench.SEGUE
SOFTWARE = re.compile(r"llvmpipe|softpipe|swrast|software", re.I)
started = time.monotonic()
result = {"check": "segue gpu-check", "machine": f"{os.cpu_count()} cores"}


def segue(*args):
    return subprocess.run([SEGUE, *args], capture_output=True, text=True)


def fail(message):
    result["error"] = message
    print(json.dumps(result), flush=True)
    print(f"gpu-check FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if not os.path.exists(SEGUE):
        fail(f"build first: {SEGUE} is missing")
    try:
        result["nvidia_smi"] = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        result["nvidia_smi"] = None
    paths = bench.make_inputs()
    edit = bench.edit_file(paths, "gpu-check-edit.json")
    out = lambda n: os.path.join(bench.WORK, n)

    # 1. EGL device platform and GL_RENDERER.
    probe = segue("render", paths[0], "--backend", "gpu", "--egl-platform", "device", "--codec", "ffv1", "--no-audio",
                  "--verbose", "--progress", "none", "-o", out("gpu-check-probe.mkv"))
    m = re.search(r"renderer gpu \((.*), EGL (device \d+ \(.*\))\)", probe.stderr)
    if probe.returncode != 0 or not m:
        fail("no OpenGL ES context on the EGL device platform: " + (probe.stderr.strip().splitlines() or ["?"])[-1])
    result["gl_renderer"], result["egl_platform"] = m.group(1), m.group(2)
    result["software_renderer"] = bool(SOFTWARE.search(m.group(1)))
    if result["software_renderer"] and env("GPU_CHECK_ALLOW_SOFTWARE") != "1":
        fail(f"GL_RENDERER is {m.group(1)}: a software rasteriser, not the NVIDIA driver (is the NVIDIA EGL vendor library installed?)")

    # 2. CUDA decoding.
    hw = segue("render", paths[0], "--backend", "gpu", "--hwaccel", "cuda", "--codec", "ffv1", "--no-audio", "--verbose",
               "--progress", "none", "-o", out("gpu-check-hw.mkv"))
    d = re.search(r"(\d+) of (\d+) source frames decoded with cuda", hw.stderr)
    why = re.search(r"cuda decoding is not available \((.*)\)", hw.stderr)
    result["cuda_decode"] = {"exit": hw.returncode, "frames": int(d.group(1)) if d else 0, "of": int(d.group(2)) if d else 0,
                             "problem": why.group(1) if why else None}

    # 3. Composite + readback alone.
    frames = env("GPU_CHECK_FRAMES", "300")
    result["composite_fps"] = {}
    for size in env("GPU_CHECK_SIZES", "1920x1080,3840x2160").split(","):
        n = frames if size != "3840x2160" else str(max(10, int(frames) // 2))
        r = segue("bench-composite", "--size", size, "--frames", n, "--backend", "gpu", "--json")
        if r.returncode != 0:
            fail(f"bench-composite {size}: {r.stderr.strip()}")
        result["composite_fps"][size] = {x["transition"]: round(x["framesPerSecond"], 1) for x in json.loads(r.stdout)}

    # 4. End to end against FFmpeg's filtergraph, alternating.
    cases = {"segue": [[SEGUE, "render", edit, "--size", f"{W}x{H}", "--backend", "gpu", "--hwaccel", "cuda", "--progress", "none",
                        "-o", out("gpu-check-segue.mp4")]],
             "ffmpeg": [bench.ffmpeg_graph(paths, int(W), int(H), out("gpu-check-ffmpeg.mp4"))]}
    times = {k: [] for k in cases}
    for rep in range(int(env("GPU_CHECK_REPS", "2"))):
        for k in (list(cases) if rep % 2 == 0 else list(cases)[::-1]):
            t, _ = bench.run(cases[k])
            times[k].append(t)
    seg, ffm = min(times["segue"]), min(times["ffmpeg"])
    result["end_to_end"] = {"clips": f"3 x {bench.SECONDS} s {W}x{H}, crossfade + push, x264 medium CRF 18",
                            "segue_s": round(seg, 2), "ffmpeg_s": round(ffm, 2), "segue/ffmpeg": round(seg / ffm, 3)}

    # 5. NVENC: works, or fails cleanly.
    nv = segue("render", paths[0], "--encoder", "h264_nvenc", "--no-audio", "--progress", "none", "-o", out("gpu-check-nvenc.mp4"))
    result["nvenc"] = {"exit": nv.returncode, "ok": nv.returncode == 0,
                       "message": (nv.stderr.strip().splitlines() or [""])[-1][:300] if nv.returncode else None,
                       "clean": nv.returncode in (0, 1) and "Traceback" not in nv.stderr and "Fatal error" not in nv.stderr}
    if not result["nvenc"]["clean"]:
        fail(f"h264_nvenc did not fail cleanly: exit {nv.returncode}")

    c1080 = result["composite_fps"].get("1920x1080", {})
    result["targets"] = {"composite_1080p_fps>=1000": bool(c1080) and min(c1080.values()) >= 1000,
                         "end_to_end_segue/ffmpeg<=0.7": result["end_to_end"]["segue/ffmpeg"] <= 0.7}
    result["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(result, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
