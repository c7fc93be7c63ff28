"""Issue 33's bench (`BENCH_SMART_ONLY=1 python3 bench/run.py`, in `make bench`): one 100 s 1280x720 25 fps H.264
recording (x264 veryfast, a keyframe every 25 frames, BT.709, AAC), six 15 s cuts starting mid-GOP with five 1 s
crossfades (85 s), x264 at the bench's preset and CRF: `segue render --smart` against FFmpeg's trim + xfade +
acrossfade graph and against `segue render` without --smart; then the same cuts without transitions (90 s), --smart
against without. Prints the medians (wall and CPU), the ratios (issue's targets: >= 4x with the crossfades, >= 10x
for the cuts alone) and the copied fraction (from `segue plan --smart`). BENCH_SMART_SCALE (default 1) scales the
recording and the cuts (0.2: a 20 s recording, 3 s cuts) for a quick check."""
import json, os, re, subprocess
from run import CPU, CRF, PRESET, SEGUE, env, ff, run, work_path

SCALE = float(env("BENCH_SMART_SCALE", "1"))
REPS = int(env("BENCH_REPS", "1"))


def recording():
    """The recording (made once per scale)."""
    p = work_path(f"smart-recording-{SCALE:g}.mp4")
    if not os.path.exists(p):
        seconds = 100 * SCALE
        ff("-f", "lavfi", "-i", f"testsrc2=s=1280x720:r=25:d={seconds:g}", "-f", "lavfi", "-i", f"sine=f=330:r=48000:d={seconds:g}",
           "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
           "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
           "-c:a", "aac", "-shortest", p + ".tmp.mp4")
        os.rename(p + ".tmp.mp4", p)
    return p


def cuts():
    """(start, duration) of the six cuts, seconds: starts at 0.4 s past a keyframe, so every cut begins mid-GOP."""
    return [(round(0.4 + i * 16.5 * SCALE, 3), 15 * SCALE) for i in range(6)]


def edit(path, name, transitions):
    clips = [{"path": path, "start": s, "duration": d} for s, d in cuts()]
    if transitions:
        for c in clips[1:]:
            c["transition"] = {"type": "crossfade", "duration": 1}
    e = work_path(name)
    with open(e, "w") as fh:
        json.dump({"frameRate": 25, "renderSize": {"width": 1280, "height": 720}, "clips": clips,
                   "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}, fh)
    return e


def xfade(path, output):
    """FFmpeg's graph of the edit with crossfades: trim and atrim per cut, xfade=fade and acrossfade, 1 s each."""
    parts, v, a = [], "v0", "a0"
    for i, (s, d) in enumerate(cuts()):
        parts.append(f"[0:v]trim=start={s}:duration={d},setpts=PTS-STARTPTS,format=yuv420p,setsar=1[v{i}]")
        parts.append(f"[0:a]atrim=start={s}:duration={d},asetpts=PTS-STARTPTS[a{i}]")
    for i in range(1, 6):
        parts.append(f"[{v}][v{i}]xfade=transition=fade:duration=1:offset={i * (15 * SCALE - 1):g}[x{i}]")
        parts.append(f"[{a}][a{i}]acrossfade=d=1:c1=tri:c2=tri[y{i}]")
        v, a = f"x{i}", f"y{i}"
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", path, "-filter_complex", ";".join(parts), "-map", f"[{v}]", "-map", f"[{a}]",
            "-c:v", "libx264", "-preset", PRESET, "-crf", CRF, "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k", output]


def copied(e):
    """'N frames copied, M encoded' of `segue plan --smart`, as (N, N + M)."""
    text = subprocess.run([SEGUE, "plan", e, "--smart"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"(\d+) frames copied, (\d+) encoded", text)
    if m is None:
        raise SystemExit(f"segue plan --smart printed no copied count:\n{text}")
    return int(m.group(1)), int(m.group(1)) + int(m.group(2))


def smart_case():
    src = recording()
    render = lambda e, o, *extra: [[SEGUE, "render", e, "--backend", "auto", "--progress", "none", *extra, "-o", work_path(o)]]
    result = {}
    for name, transitions in (("crossfades", True), ("cuts", False)):
        e = edit(src, f"smart-{name}.json", transitions)
        cases = {"smart": render(e, f"smart-{name}-smart.mp4", "--smart"), "segue": render(e, f"smart-{name}-segue.mp4")}
        if transitions:
            cases["ffmpeg xfade"] = [xfade(src, work_path("smart-crossfades-ffmpeg.mp4"))]
        wall = {k: [] for k in cases}
        cpu = {k: [] for k in cases}
        for rep in range(REPS):
            for k in (list(cases) if rep % 2 == 0 else list(cases)[::-1]):
                wall[k].append(run(cases[k])[0]); cpu[k].append(CPU[id(cases[k])])
                print(f"  {name} rep {rep + 1}/{REPS} {k}: {wall[k][-1]:.1f} s, {cpu[k][-1]:.1f} CPU s", flush=True)
        med = lambda xs: sorted(xs)[len(xs) // 2]
        n, total = copied(e)
        print(f"\nissue 33, {name} ({'six %g s cuts, 1 s crossfades' % (15 * SCALE) if transitions else 'the same cuts, no transitions'}): "
              f"{n} of {total} frames copied ({100 * n / total:.0f} %)")
        for k in cases:
            print(f"  {k:14} {med(wall[k]):7.2f} s {med(cpu[k]):7.1f} CPU s")
        for k in cases:
            if k != "smart":
                print(f"  {k} / smart: {med(wall[k]) / med(wall['smart']):5.1f}x wall, {med(cpu[k]) / med(cpu['smart']):5.1f}x CPU "
                      f"(target >= {4 if transitions else 10}x)")
        result[name] = {"copied": n, "frames": total, "wall": wall, "cpu": cpu}
    return result
