#!/usr/bin/env python3
"""make gpu-check: what Segue does on a machine with an NVIDIA GPU, in one run (< 8 minutes), as one JSON line.

1. The EGL device platform on the NVIDIA driver: a render whose GL_RENDERER is not a software rasteriser
   (llvmpipe, softpipe, swrast). Fails loudly (exit 1) if it is, unless GPU_CHECK_ALLOW_SOFTWARE=1 (for testing
   this script on machines without a GPU).
2. Decoding with FFmpeg's CUDA hwaccel (NVDEC) where present (`--hwaccel cuda`; pictures downloaded to system
   memory): how many source frames it decoded.
3. Composite + readback alone (no decoder, no encoder), frames/s, at 1080p and 4K for crossfade, push and wipe
   (`segue bench-composite`). Target: >= 1000 frames/s at 1080p.
4. h264_nvenc: machines lent for this may have NVDEC but no NVENC (H100, H200); Segue must then fail cleanly (exit 1
   with a message), and nothing else depends on it. Where it works, it joins the encoders of step 6.
5. Each encoder alone on all the machine's cores (FFmpeg encoding a generated picture at the edit's size: the
   encode stage's frames/s): libx264 and libx265 (medium, CRF 18), and h264_nvenc where step 4 found it.
6. End to end against the equivalent FFmpeg filtergraph with the same encoder: 3 clips x 4 s at 1080p (one portrait,
   -90 deg), crossfade + push, alternating runs, libx264 and libx265 on all cores (h264_nvenc where present).
   Segue's `--verbose` stage times give each stage's frames/s in that render: decoding (NVDEC, downloaded) on the
   decode thread, compositing + readback on the GL thread, and the time the GL thread waited for the encoder.
   Target (libx264): segue/ffmpeg <= 0.7.
7. The farm on this one machine (`segue farm local`): the same edit with --jobs 1 and with more chunk processes at
   once (GPU_CHECK_FARM_JOBS, default 1 and one per 8 cores), seconds and speed-up: how a big node's cores scale.

Environment: GPU_CHECK_ALLOW_SOFTWARE=1, GPU_CHECK_SIZES (default 1920x1080,3840x2160), GPU_CHECK_FRAMES (300),
GPU_CHECK_REPS (2), GPU_CHECK_CLIP_SIZE (1920x1080), GPU_CHECK_SECONDS (4), GPU_CHECK_ENCODERS (libx264,libx265),
GPU_CHECK_FARM_JOBS (1,N), SEGUE_BINARY (.build/release/segue).
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


def encoder_settings(enc):
    """The rate control each encoder gets, as FFmpeg arguments: x264/x265 `medium` CRF 18, NVENC constant quality 23."""
    if enc in ("libx264", "libx265"):
        return ["-preset", "medium", "-crf", "18"] + (["-x265-params", "log-level=error"] if enc == "libx265" else [])
    return ["-cq", "23"]


STAGES = re.compile(r"decoding ([\d.]+) s on the decode thread.*waiting for decoded pictures ([\d.]+) s, compositing ([\d.]+) s"
                    r".*waiting for the encoder ([\d.]+) s")


def stage_times(stderr, frames):
    """Segue's `--verbose` stage times of one render, as seconds and frames/s (None where a stage took no time)."""
    m = STAGES.search(stderr.replace("\n", " "))
    if not m:
        return None
    d, wait, comp, enc = map(float, m.groups())
    direct = re.search(r"segue: (\d+) of (\d+) frames needed no compositing", stderr)
    if direct:
        frames = int(direct.group(2))
    composited = frames - (int(direct.group(1)) if direct else 0)
    return {"decode_s": d, "decode_fps": round(frames / d, 1) if d > 0 else None,
            "frames": frames, "composite_s": comp, "composited_frames": composited, "composite_fps": round(composited / comp, 1) if comp > 0 else None,
            "waiting_for_decoder_s": wait, "waiting_for_encoder_s": enc}


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

    # 4. NVENC: works, or fails cleanly.
    nv = segue("render", paths[0], "--encoder", "h264_nvenc", "--no-audio", "--progress", "none", "-o", out("gpu-check-nvenc.mp4"))
    result["nvenc"] = {"exit": nv.returncode, "ok": nv.returncode == 0,
                       "message": (nv.stderr.strip().splitlines() or [""])[-1][:300] if nv.returncode else None,
                       "clean": nv.returncode in (0, 1) and "Traceback" not in nv.stderr and "Fatal error" not in nv.stderr}
    if not result["nvenc"]["clean"]:
        fail(f"h264_nvenc did not fail cleanly: exit {nv.returncode}")
    encoders = env("GPU_CHECK_ENCODERS", "libx264,libx265").split(",") + (["h264_nvenc"] if result["nvenc"]["ok"] else [])

    # 5. Each encoder alone, all cores: frames/s of FFmpeg encoding a generated picture at the edit's size.
    result["encode_fps"] = {}
    n = int(float(bench.SECONDS) * 30)
    for enc in encoders:
        t = time.monotonic()
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", f"testsrc2=s={W}x{H}:r=30:d={bench.SECONDS}",
                        "-pix_fmt", "yuv420p", "-c:v", enc, *encoder_settings(enc), "-f", "null", "-"], check=True)
        result["encode_fps"][enc] = round(n / (time.monotonic() - t), 1)

    # 6. End to end against FFmpeg's filtergraph, alternating, per encoder; Segue's stage times from --verbose.
    result["end_to_end"] = {}
    total = 3 * n - 2 * 30   # frames of the edit: three clips less two 1 s transitions
    for enc in encoders:
        ffmpeg = bench.ffmpeg_graph(paths, int(W), int(H), out(f"gpu-check-ffmpeg-{enc}.mp4"))
        i = ffmpeg.index("libx264")
        ffmpeg[i - 1:i + 5] = ["-c:v", enc, *encoder_settings(enc)]
        segue_cmd = [SEGUE, "render", edit, "--size", f"{W}x{H}", "--backend", "gpu", "--hwaccel", "cuda", "--encoder", enc,
                     "--progress", "none", "--verbose", "-o", out(f"gpu-check-segue-{enc}.mp4")]
        times = {"segue": [], "ffmpeg": []}
        stages = None
        for rep in range(int(env("GPU_CHECK_REPS", "2"))):
            for k in (["segue", "ffmpeg"] if rep % 2 == 0 else ["ffmpeg", "segue"]):
                t = time.monotonic()
                r = subprocess.run(segue_cmd if k == "segue" else ffmpeg, capture_output=True, text=True)
                times[k].append(time.monotonic() - t)
                if r.returncode != 0:
                    fail(f"end to end with {enc} ({k}): {r.stderr.strip()[-300:]}")
                if k == "segue":
                    stages = stage_times(r.stderr, total)
        seg, ffm = min(times["segue"]), min(times["ffmpeg"])
        result["end_to_end"][enc] = {"clips": f"3 x {bench.SECONDS} s {W}x{H}, crossfade + push, {enc} {' '.join(encoder_settings(enc))}",
                                     "frames": total, "segue_s": round(seg, 2), "ffmpeg_s": round(ffm, 2),
                                     "segue_fps": round(total / seg, 1), "segue/ffmpeg": round(seg / ffm, 3), "segue_stages": stages}

    # 7. The farm on this machine: chunk processes at once against one.
    cores = os.cpu_count() or 1
    jobs = [int(j) for j in env("GPU_CHECK_FARM_JOBS", f"1,{max(2, cores // 8)}").split(",")]
    result["farm_local"] = {"cores": cores}
    for j in jobs:
        work = out(f"gpu-check-farm-{j}")
        subprocess.run(["rm", "-rf", work, out(f"gpu-check-farm-{j}.mp4")], check=True)
        t = time.monotonic()
        r = subprocess.run([SEGUE, "farm", "local", edit, "--chunks", str(2 * j), "--jobs", str(j), "--size", f"{W}x{H}",
                            "--backend", "gpu", "-o", out(f"gpu-check-farm-{j}.mp4"), "--work-dir", work], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"farm local --jobs {j}: {r.stderr.strip()[-300:]}")
        result["farm_local"][f"jobs={j}"] = {"chunks": 2 * j, "seconds": round(time.monotonic() - t, 2)}
    one = result["farm_local"][f"jobs={jobs[0]}"]["seconds"]
    for j in jobs:
        result["farm_local"][f"jobs={j}"]["speedup"] = round(one / result["farm_local"][f"jobs={j}"]["seconds"], 2)

    c1080 = result["composite_fps"].get("1920x1080", {})
    x264 = result["end_to_end"].get("libx264")
    result["targets"] = {"composite_1080p_fps>=1000": bool(c1080) and min(c1080.values()) >= 1000,
                         "end_to_end_segue/ffmpeg<=0.7": bool(x264) and x264["segue/ffmpeg"] <= 0.7}
    result["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(result, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
