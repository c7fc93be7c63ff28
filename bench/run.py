#!/usr/bin/env python3
"""Segue benchmark: segue (GPU and CPU backends) against the equivalent FFmpeg filtergraph and the codec floor,
run alternately in one process run, several repetitions each. Prints medians, ratios and peak RSS; writes JSON.

Environment (defaults follow the issue's spec):
  BENCH_CLIPS=10  BENCH_CLIP_SECONDS=3  BENCH_TRANSITION=1  BENCH_REPS=3  BENCH_PRESET=medium  BENCH_CRF=18
  BENCH_SIZE=1920x1080  BENCH_LONG=1 (also an edit 4x as long, for memory)  BENCH_BACKENDS=auto,gpu,cpu (auto: llvmpipe with
  the frames the planes draw (scaled clips, crossfade/wipe/push/circles, logos over them) drawn by the CPU, what `segue render` does by default here)
  BENCH_PREFILTER=1 (also the 4K60 clip into a 720 square)  BENCH_PREFILTER_ONLY=1 (only that case)
  BENCH_PEERS=1 (also the peers' edit: six 4 s clips at 1280x720, crossfade, wipe, push, circleopen and the gl-transitions
  shader directionalwipe, 1 s each, against FFmpeg's xfade graph with diagtl in the shader's place; BENCH_PEERS_ONLY=1: only it)
  BENCH_FARM=1 (default on machines of 8 cores or more: the edit through `segue farm local` with one chunk process and
  with one per 8 cores, its scaling)
  BENCH_HEAVY=1 (also issue 32's transition-heavy edit: six 4 s clips at 1280x720, fade, wipeleft, slideleft, circleopen
  and diagtl, 1 s each, the same xfade names in Segue and in FFmpeg's xfade graph; BENCH_HEAVY_ONLY=1: only it)
  BENCH_LOGO=1 (also the same edit with a logo over every frame: `--overlay logo.png:0.92,0.9,0.1`, against FFmpeg's
  graph with an `overlay` at the end; reports what the logo costs, segue with logo / segue without)
  BENCH_CACHE_ONLY=1 (issue 34: a 60 s edit with a title every 12 s rendered cold with `--cache`, then again after one
  title's words changed: the re-render's time / the cold render's, target <= 0.25)
  BENCH_LUT_ONLY=1 (issue 35: a 4 s clip rendered plain and graded with a 33³ LUT, `--backend auto`: the graded render's
  time over the plain one's, wall and CPU, target <= 1.3)
  BENCH_BATCH_ONLY=1 (issue 34: 20 variants of a template, a photo and a clip under a name, by one `segue batch` against
  20 separate `segue render` runs one after another: rows per minute each, and their ratio)
  BENCH_SMART_ONLY=1 (issue 33: --smart on six cuts of a 100 s 1280x720 recording, with crossfades against FFmpeg's xfade
  graph and Segue without --smart, and without transitions; bench/smart.py, BENCH_SMART_SCALE for a quick check)
"""
import json, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build", "bench")
env = os.environ.get
SEGUE = env("SEGUE_BINARY", os.path.join(ROOT, ".build", "release", "segue"))
CLIPS, SECONDS, TRANS = int(env("BENCH_CLIPS", "10")), float(env("BENCH_CLIP_SECONDS", "3")), float(env("BENCH_TRANSITION", "1"))
REPS, PRESET, CRF = int(env("BENCH_REPS", "3")), env("BENCH_PRESET", "medium"), env("BENCH_CRF", "18")
W, H = map(int, env("BENCH_SIZE", "1920x1080").split("x"))
BACKENDS = env("BENCH_BACKENDS", "auto,gpu,cpu").split(",")
KINDS = ["crossfade", "push", "wipe"]
XFADE = {"crossfade": "fade", "push": "slideleft", "wipe": "wipetl"}   # wipe down-right reveals B from the top-left


def ff(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def make_inputs():
    os.makedirs(WORK, exist_ok=True)
    paths = []
    for i in range(CLIPS):
        p = os.path.join(WORK, f"clip{i}_{W}x{H}_{SECONDS}.mp4")
        if not os.path.exists(p):
            src = ["testsrc2", "smptehdbars", "mandelbrot", "rgbtestsrc", "testsrc"][i % 5]
            video = f"{src}=s={W}x{H}:r=30" + ("" if src == "mandelbrot" else f":d={SECONDS}")
            tmp = p + ".tmp.mp4"
            ff("-f", "lavfi", "-i", f"{video},trim=duration={SECONDS},hue=h={i * 36}", "-f", "lavfi", "-i", f"sine=f={220 + 40 * i}:r=48000:d={SECONDS}",
               "-shortest", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", tmp)
            if i == CLIPS // 2:   # a portrait phone-style clip: stored landscape with a -90 display matrix
                ff("-i", tmp, "-c", "copy", "-metadata:s:v:0", "rotate=-90", p)
                os.remove(tmp)
            else:
                os.rename(tmp, p)
        paths.append(p)
    return paths


def edit_file(paths, name):
    def transition(kind):
        t = {"type": kind, "duration": TRANS}
        if kind != "crossfade":
            t["direction"] = "left" if kind == "push" else "down-right"
        return t
    clips = [{"path": paths[0]}] + [{"path": p, "transition": transition(KINDS[(k - 1) % 3])} for k, p in enumerate(paths) if k > 0]
    e = {"frameRate": 30, "clips": clips, "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}
    f = os.path.join(WORK, name)
    with open(f, "w") as fh:
        json.dump(e, fh)
    return f


def ffmpeg_graph(paths, w, h, out):
    """The equivalent FFmpeg CLI filtergraph: autorotate (on by default), scale+crop to fill, xfade, acrossfade."""
    args = []
    for p in paths:
        args += ["-i", p]
    parts, v, a = [], "v0", "a0"
    for i in range(len(paths)):
        parts.append(f"[{i}:v]scale={w}:{h}:force_original_aspect_ratio=increase,crop={w}:{h},setsar=1,fps=30,format=yuv420p[v{i}]")
    offset = SECONDS - TRANS
    for i in range(1, len(paths)):
        kind = XFADE[KINDS[(i - 1) % 3]]
        parts.append(f"[{v}][v{i}]xfade=transition={kind}:duration={TRANS}:offset={offset:.6f}[x{i}]")
        parts.append(f"[{a}][{i}:a]acrossfade=d={TRANS}:c1=tri:c2=tri[y{i}]")
        v, a = f"x{i}", f"y{i}"
        offset += SECONDS - TRANS
    if len(paths) == 1:
        parts.append("[0:a]anull[y0]"); a = "y0"
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", *args, "-filter_complex", ";".join(parts).replace("[a0]", "[0:a]"),
            "-map", f"[{v}]", "-map", f"[{a}]", "-c:v", "libx264", "-preset", PRESET, "-crf", CRF, "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart", out]


def make_logo():
    """A 400x200 PNG logo with alpha (a soft-edged disc and a bar), as people overlay them."""
    p = os.path.join(WORK, "logo.png")
    if not os.path.exists(p):
        ff("-f", "lavfi", "-i", "color=c=black:s=400x200:d=1:r=1,format=rgba,geq=r='200+X/8':g=90:b='40+Y/2':"
           "a='if(lt(hypot(X-100,Y-100),90),255,if(between(Y,70,130)*between(X,180,390),200,0))'", "-frames:v", "1", p)
    return p


# Where `--overlay logo.png:0.92,0.9,0.1` puts the 400x200 logo in a WxH frame (the edit's fit, fill: scaled to cover
# the frame, then 0.1 of that, centred at (0.92 W, 0.9 H)), for FFmpeg's overlay.
def logo_box(w, h):
    k = max(w / 400, h / 200) * 0.1
    lw, lh = round(400 * k), round(200 * k)
    return lw, lh, round(0.92 * w - lw / 2), round(0.9 * h - lh / 2)


def with_logo(cmd, logo, w, h):
    """`ffmpeg_graph`'s command with the logo overlaid on its video at the end."""
    lw, lh, x, y = logo_box(w, h)
    cmd = list(cmd)
    i = cmd.index("-filter_complex")
    n = sum(1 for a in cmd[:i] if a == "-i")
    v = cmd[cmd.index("-map") + 1].strip("[]")
    cmd[i + 1] += f";[{n}:v]scale={lw}:{lh}[logo];[{v}][logo]overlay={x}:{y}[logoed]"
    cmd[cmd.index("-map") + 1] = "[logoed]"
    cmd[i:i] = ["-i", logo]
    return cmd


def floor_cmds(paths, reference_output, out):
    """Codec floor: decode exactly the source ranges (all of each clip here) + encode an output of the same
    length, size and settings (the reference render re-encoded; includes one decode of that output)."""
    dec = ["ffmpeg", "-nostdin", "-v", "error", "-threads", "0"]
    for p in paths:
        dec += ["-i", p]
    for i in range(len(paths)):
        dec += ["-map", f"{i}:v", "-map", f"{i}:a"]
    dec += ["-f", "null", "-"]
    enc = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", reference_output, "-c:v", "libx264", "-preset", PRESET, "-crf", CRF,
           "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart", out]
    return [dec, enc]


CPU = {}   # CPU seconds (user + system) of the last run() of each command list, by id


def run(cmds):
    """Runs commands one after another; returns (seconds, peak RSS in MB of the largest process). The CPU seconds they
    used (user + system, every thread) are kept in CPU[id(cmds)]: on a machine others load too, wall time says as much
    about them as about the command, CPU time mostly about the command."""
    total, peak, cpu = 0.0, 0, 0.0
    for c in cmds:
        t = time.monotonic()
        p = subprocess.Popen(c, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        total += time.monotonic() - t
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"failed: {' '.join(c)}")
        peak = max(peak, usage.ru_maxrss // 1024)
        cpu += usage.ru_utime + usage.ru_stime
    CPU[id(cmds)] = cpu
    return total, peak


def main():
    if not os.path.exists(SEGUE):
        raise SystemExit("build first: swift build -c release")
    paths = make_inputs()
    edit = edit_file(paths, "edit.json")
    sq = min(W, H)
    out = lambda n: os.path.join(WORK, n)
    cases = {}
    for b in BACKENDS:
        cases[f"segue-{b} {W}x{H}"] = [[SEGUE, "render", edit, "--size", f"{W}x{H}", "--backend", b, "--progress", "none", "-o", out(f"segue-{b}.mp4")]]
        cases[f"segue-{b} square"] = [[SEGUE, "render", edit, "--size", f"{sq}x{sq}", "--backend", b, "--progress", "none", "-o", out(f"segue-{b}-sq.mp4")]]
    cases[f"ffmpeg {W}x{H}"] = [ffmpeg_graph(paths, W, H, out("ffmpeg.mp4"))]
    logo = make_logo() if env("BENCH_LOGO", "1") == "1" else None
    if logo:
        for b in BACKENDS:
            cases[f"segue-{b} {W}x{H} logo"] = [[SEGUE, "render", edit, "--size", f"{W}x{H}", "--backend", b, "--overlay",
                                                 f"{logo}:0.92,0.9,0.1", "--progress", "none", "-o", out(f"segue-{b}-logo.mp4")]]
        cases[f"ffmpeg {W}x{H} logo"] = [with_logo(ffmpeg_graph(paths, W, H, out("ffmpeg-logo.mp4")), logo, W, H)]
        # The encoder's share: libx264 alone (same settings) on Segue's own pictures with and without the logo, rendered
        # once losslessly (untimed). A logo moves x264's decisions (frame types, bits) as any change of content can;
        # what it costs there is the encoder's, the rest is Segue's.
        lossless = {}
        for tag, extra in (("", []), (" logo", ["--overlay", f"{logo}:0.92,0.9,0.1"])):
            p = out(f"segue-frames{tag.strip() and '-logo'}-{W}x{H}.mkv")
            subprocess.run([SEGUE, "render", edit, "--size", f"{W}x{H}", "--codec", "ffv1", "--no-audio", "--progress", "none", "-o", p] + extra,
                           check=True, stderr=subprocess.DEVNULL)
            lossless[tag] = p
            cases[f"x264 on segue's frames{tag}"] = [["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", p, "-an", "-c:v", "libx264",
                                                      "-preset", PRESET, "-crf", CRF, out(f"x264-frames{tag.strip() and '-logo'}.mp4")]]
    cases["ffmpeg square"] = [ffmpeg_graph(paths, sq, sq, out("ffmpeg-sq.mp4"))]
    # The floor re-encodes a reference of the right size: make them once (untimed).
    tag = f"{W}x{H}-{CLIPS}x{SECONDS}-{TRANS}-{PRESET}-{CRF}"
    ref = out(f"reference-{tag}.mp4"); ref_sq = out(f"reference-sq-{tag}.mp4")
    if not os.path.exists(ref):
        subprocess.run(ffmpeg_graph(paths, W, H, ref), check=True)
        subprocess.run(ffmpeg_graph(paths, sq, sq, ref_sq), check=True)
    cases[f"floor {W}x{H}"] = floor_cmds(paths, ref, out("floor.mp4"))
    cases["floor square"] = floor_cmds(paths, ref_sq, out("floor-sq.mp4"))
    times = {k: [] for k in cases}
    cpus = {k: [] for k in cases}
    rss = {k: 0 for k in cases}
    order = list(cases)
    load = [os.getloadavg()[0]]
    for rep in range(REPS):
        for k in (order if rep % 2 == 0 else order[::-1]):   # alternate, so drift hits every case alike
            t, m = run(cases[k])
            times[k].append(t); rss[k] = max(rss[k], m); cpus[k].append(CPU[id(cases[k])])
            print(f"  rep {rep + 1}/{REPS} {k}: {t:.1f} s, {cpus[k][-1]:.1f} CPU s, {m} MB", flush=True)
        load.append(os.getloadavg()[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    cpu = {k: statistics.median(v) for k, v in cpus.items()}
    result = {"machine": f"{os.cpu_count()} cores", "clips": CLIPS, "clip_seconds": SECONDS, "transition": TRANS, "preset": PRESET,
              "crf": CRF, "reps": REPS, "median_seconds": med, "median_cpu_seconds": cpu, "peak_rss_mb": rss, "ratios": {},
              "load_average_1min": load, "runs": times}
    print(f"\nload average (1 min) before and after each round: {' '.join(f'{x:.1f}' for x in load)}"
          + ("  (the machine was busy: compare CPU seconds)" if max(load) > 1.5 * (os.cpu_count() or 1) / 2 else ""))
    print(f"\n{'case':28} {'median s':>9} {'CPU s':>7} {'peak MB':>8}")
    for k in order:
        print(f"{k:28} {med[k]:9.2f} {cpu[k]:7.1f} {rss[k]:8d}")
    print()
    for b in BACKENDS:
        for shape, ff_key, fl_key in [(f"{W}x{H}", f"ffmpeg {W}x{H}", f"floor {W}x{H}"), ("square", "ffmpeg square", "floor square")]:
            k = f"segue-{b} {shape}"
            r1, r2 = med[k] / med[ff_key], med[k] / med[fl_key]
            c1, c2 = cpu[k] / cpu[ff_key], cpu[k] / cpu[fl_key]
            result["ratios"][k] = {"segue/ffmpeg": r1, "segue/floor": r2, "cpu segue/ffmpeg": c1, "cpu segue/floor": c2}
            print(f"{k:28} segue/ffmpeg {r1:5.2f}   segue/floor {r2:5.2f}   CPU: segue/ffmpeg {c1:5.2f}   segue/floor {c2:5.2f}")
    if logo:
        print()
        for b in BACKENDS:
            k = f"segue-{b} {W}x{H} logo"
            r = {"logo cost (with/without)": med[k] / med[f"segue-{b} {W}x{H}"], "segue/ffmpeg": med[k] / med[f"ffmpeg {W}x{H} logo"],
                 "segue/floor": med[k] / med[f"floor {W}x{H}"], "cpu logo cost": cpu[k] / cpu[f"segue-{b} {W}x{H}"]}
            # Seconds the logo adds to the render, less what it adds to libx264 alone on the same pictures.
            enc = med["x264 on segue's frames logo"] - med["x264 on segue's frames"]
            own = med[k] - med[f"segue-{b} {W}x{H}"] - enc
            r["encoder's share s"], r["segue's own logo cost"] = enc, own / med[f"segue-{b} {W}x{H}"]
            r["bytes with/without"] = os.path.getsize(out(f"segue-{b}-logo.mp4")) / os.path.getsize(out(f"segue-{b}.mp4"))
            result["ratios"][k] = r
            print(f"{k:28} logo costs {100 * (r['logo cost (with/without)'] - 1):+5.1f} % (CPU {100 * (r['cpu logo cost'] - 1):+5.1f} %, "
                  f"bytes {100 * (r['bytes with/without'] - 1):+5.1f} %)   segue/ffmpeg {r['segue/ffmpeg']:5.2f}   segue/floor {r['segue/floor']:5.2f}")
            own_pct = 100 * r["segue's own logo cost"]
            print(f"{'':28} libx264 alone on the same pictures: {enc:+.2f} s; Segue's own cost of the logo {own_pct:+5.1f} %")
    if env("BENCH_LONG", "1") == "1":
        long_edit = edit_file(paths * 4, "edit-40.json")
        t10, m10 = run([[SEGUE, "render", edit, "--size", f"{sq}x{sq}", "--progress", "none", "-o", out("mem10.mp4")]])
        t40, m40 = run([[SEGUE, "render", long_edit, "--size", f"{sq}x{sq}", "--progress", "none", "-o", out("mem40.mp4")]])
        result["memory"] = {f"{CLIPS} clips MB": m10, f"{4 * CLIPS} clips MB": m40, "growth": (m40 - m10) / m10}
        print(f"\nmemory: {CLIPS} clips {m10} MB ({t10:.0f} s), {4 * CLIPS} clips {m40} MB ({t40:.0f} s): {100 * (m40 - m10) / m10:+.1f} %")
    if env("BENCH_PREFILTER", "1") == "1":
        result["prefilter"] = prefilter_case()
    if env("BENCH_PEERS", "1") == "1":
        result["peers"] = peers_case()
    if env("BENCH_HEAVY", "1") == "1":
        result["heavy"] = heavy_case()
    if env("BENCH_FARM", "1" if (os.cpu_count() or 1) >= 8 else "0") == "1":
        result["farm_local"] = farm_case(edit)
    name = f"results-{CLIPS}x{SECONDS:g}.json"
    with open(out(name), "w") as fh:
        json.dump(result, fh, indent=2)
    print(f"\nwrote {out(name)}")


def farm_case(edit):
    """`segue farm local` on this machine: the edit in 2J chunks with J = 1 and J = one chunk process per 8 cores,
    alternating, against the single pass: how a big node's cores scale (on 2 cores it cannot win)."""
    cores = os.cpu_count() or 1
    jobs = sorted({1, max(2, cores // 8)})
    out = lambda n: os.path.join(WORK, n)
    cases = {"single pass": [[SEGUE, "render", edit, "--size", f"{W}x{H}", "--progress", "none", "-o", out("farm-single.mp4")]]}
    for j in jobs:
        cases[f"farm local --jobs {j}"] = [["rm", "-rf", out(f"farm-{j}.mp4.segue-farm"), out(f"farm-{j}.mp4")],
                                           [SEGUE, "farm", "local", edit, "--chunks", str(2 * j), "--jobs", str(j), "--size", f"{W}x{H}",
                                            "-o", out(f"farm-{j}.mp4")]]
    times = {k: [] for k in cases}
    for rep in range(REPS):
        for k in (list(cases) if rep % 2 == 0 else list(cases)[::-1]):
            times[k].append(run(cases[k])[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\nfarm local on {cores} cores:")
    for k in cases:
        print(f"  {k:28} {med[k]:6.2f} s  speed-up {med['single pass'] / med[k]:4.2f}")
    return {"cores": cores, "median_seconds": med}


HEAVY = ["fade", "wipeleft", "slideleft", "circleopen", "diagtl"]


def work_path(name):
    """The path of `name` in the bench's work folder (.build/bench), made if missing."""
    os.makedirs(WORK, exist_ok=True)
    return os.path.join(WORK, name)


def shared_input(case, *parts):
    """The path of a test input in ../shared (e.g. "media", "clip.mp4"), or None, saying that `case` is skipped, where
    that folder or file is not present."""
    path = os.path.join(os.path.dirname(ROOT), "shared", *parts)
    if not os.path.exists(path):
        print(f"{case}: ../shared/{parts[0]} not present, skipped")
        return None
    return path


def heavy_case():
    """Issue 32's transition-heavy edit: six 4 s clips at 1280x720 (H.264 + AAC), five 1 s transitions with the same
    xfade names on both sides (fade, wipeleft, slideleft, circleopen, diagtl), x264 medium CRF 18, AAC; Segue (auto:
    what `segue render` picks here) against FFmpeg's xfade graph, alternating. Prints segue/ffmpeg (target <= 0.85)."""
    out = work_path
    w, h, seconds, n = 1280, 720, 4, 6
    paths = peer_clips(w, h, seconds, n)
    clips = [{"path": paths[0]}] + [{"path": p, "transition": {"type": HEAVY[i - 1], "duration": 1}} for i, p in enumerate(paths) if i > 0]
    edit = out("heavy.json")
    with open(edit, "w") as fh:
        json.dump({"frameRate": 30, "renderSize": {"width": w, "height": h}, "clips": clips,
                   "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}, fh)
    ffmpeg = xfade_graph(paths, HEAVY, seconds, out("heavy-ffmpeg.mp4"))
    cases = {f"segue-{b} heavy": [[SEGUE, "render", edit, "--backend", b, "--progress", "none", "-o", out(f"heavy-segue-{b}.mp4")]]
             for b in BACKENDS if b == "auto"}
    cases["ffmpeg xfade heavy"] = [ffmpeg]
    return side_by_side(cases, "ffmpeg xfade heavy", "transition-heavy edit (6 x 4 s 1280x720; fade, wipeleft, slideleft, circleopen, diagtl)")


def peer_clips(w, h, seconds, n):
    """The six test clips of the peers' and the transition-heavy edits (made once)."""
    paths = []
    for i in range(n):
        p = work_path(f"peers{i}_{w}x{h}.mp4")
        if not os.path.exists(p):
            src = ["testsrc2", "smptehdbars", "mandelbrot", "rgbtestsrc", "testsrc", "cellauto"][i]
            video = f"{src}=s={w}x{h}:r=30" + ("" if src in ("mandelbrot", "cellauto") else f":d={seconds}")
            ff("-f", "lavfi", "-i", f"{video},trim=duration={seconds},hue=h={i * 50}", "-f", "lavfi", "-i",
               f"sine=f={200 + 50 * i}:r=48000:d={seconds}", "-shortest", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
               "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-c:a", "aac", p + ".tmp.mp4")
            os.rename(p + ".tmp.mp4", p)
        paths.append(p)
    return paths


def xfade_graph(paths, names, seconds, output):
    """FFmpeg's xfade graph over `paths` with the xfade transitions `names` (1 s each), acrossfade for the audio."""
    args = [a for p in paths for a in ("-i", p)]
    parts, v, a, offset = [], "v0", "0:a", seconds - 1
    for i in range(len(paths)):
        parts.append(f"[{i}:v]fps=30,format=yuv420p,setsar=1[v{i}]")
    for i in range(1, len(paths)):
        parts.append(f"[{v}][v{i}]xfade=transition={names[i - 1]}:duration=1:offset={offset}[x{i}]")
        parts.append(f"[{a}][{i}:a]acrossfade=d=1:c1=tri:c2=tri[y{i}]")
        v, a, offset = f"x{i}", f"y{i}", offset + seconds - 1
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", *args, "-filter_complex", ";".join(parts), "-map", f"[{v}]", "-map", f"[{a}]",
            "-c:v", "libx264", "-preset", PRESET, "-crf", CRF, "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k",
            "-movflags", "+faststart", output]


def side_by_side(cases, reference, title):
    """Runs `cases` alternately REPS times; prints and returns medians, CPU seconds, peak RSS and each segue case's
    ratio to `reference`."""
    times = {k: [] for k in cases}
    cpus = {k: [] for k in cases}
    rss = {k: 0 for k in cases}
    load = [os.getloadavg()[0]]
    for rep in range(REPS):
        for k in (list(cases) if rep % 2 == 0 else list(cases)[::-1]):
            t, m = run(cases[k])
            times[k].append(t); rss[k] = max(rss[k], m); cpus[k].append(CPU[id(cases[k])])
            print(f"  rep {rep + 1}/{REPS} {k}: {t:.1f} s, {cpus[k][-1]:.1f} CPU s, {m} MB", flush=True)
        load.append(os.getloadavg()[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    cpu = {k: statistics.median(v) for k, v in cpus.items()}
    ratios = {k: med[k] / med[reference] for k in cases if k.startswith("segue")}
    cpu_ratios = {k: cpu[k] / cpu[reference] for k in cases if k.startswith("segue")}
    print(f"\n{title}:")
    print(f"  load average (1 min) before and after each round: {' '.join(f'{x:.1f}' for x in load)}")
    for k in cases:
        print(f"  {k:28} {med[k]:6.2f} s {cpu[k]:6.1f} CPU s {rss[k]:6d} MB")
    for k, r in ratios.items():
        print(f"  {k:28} segue/ffmpeg {r:5.2f}   CPU {cpu_ratios[k]:5.2f}")
    return {"median_seconds": med, "median_cpu_seconds": cpu, "peak_rss_mb": rss, "segue/ffmpeg": ratios,
            "cpu segue/ffmpeg": cpu_ratios, "runs": times, "cpu_runs": cpus, "load_average_1min": load}


PEERS = [("crossfade", "fade"), ("wipe", "wipeleft"), ("push", "slideleft"), ("circleopen", "circleopen"),
         ("directionalwipe", "diagtl")]


def peers_case():
    """The edit of the issue's side-by-side table (docs/performance.md): six 4 s clips at 1280x720 (H.264 + AAC),
    five 1 s transitions (crossfade, wipe, push, circleopen and the gl-transitions shader directionalwipe from
    ../shared/gl-transitions), x264 medium CRF 18, AAC; Segue (auto: what `segue render` picks here, and gpu) against
    FFmpeg's xfade graph (fade, wipeleft, slideleft, circleopen, and diagtl in the shader's place), alternating."""
    shader = shared_input("peers case", "gl-transitions", "directionalwipe.glsl")
    if shader is None:
        return None
    out = work_path
    w, h, seconds, n = 1280, 720, 4, 6
    paths = peer_clips(w, h, seconds, n)
    def transition(kind):
        if kind == "directionalwipe":
            return {"type": "glsl", "shader": shader, "duration": 1}
        t = {"type": kind, "duration": 1}
        if kind in ("push", "wipe"):
            t["direction"] = "left"
        return t
    clips = [{"path": paths[0]}] + [{"path": p, "transition": transition(PEERS[i - 1][0])} for i, p in enumerate(paths) if i > 0]
    edit = out("peers.json")
    with open(edit, "w") as fh:
        json.dump({"frameRate": 30, "renderSize": {"width": w, "height": h}, "clips": clips,
                   "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}, fh)
    ffmpeg = xfade_graph(paths, [x for _, x in PEERS], seconds, out("peers-ffmpeg.mp4"))
    cases = {f"segue-{b} peers": [[SEGUE, "render", edit, "--backend", b, "--progress", "none", "-o", out(f"peers-segue-{b}.mp4")]]
             for b in BACKENDS if b != "cpu"}
    cases["ffmpeg xfade peers"] = [ffmpeg]
    return side_by_side(cases, "ffmpeg xfade peers", "peers' edit (6 x 4 s 1280x720, crossfade, wipe, push, circleopen, directionalwipe)")


def prefilter_case():
    """The 4K60 phone clip (../shared/media, 3840x2160 stored, -90 deg, 18 frames) into a 720x720 square: Segue (area
    prefilter on the decode thread) against FFmpeg's autorotate + scale=flags=area + crop with the same x264 settings,
    alternating. Three shapes, since the clip is only 0.3 s long: one render of the clip (start-up dominates); the
    clip ten times over, cut together, against FFmpeg's equivalent graph (ten inputs, concat filter: each input opened
    and probed, as Segue opens each clip); and against FFmpeg's best case, one input read ten times (-stream_loop 9:
    one open, one decoder). Prints segue/ffmpeg for each (issue 14's target: <= 1.2)."""
    clip = shared_input("prefilter case", "media", "android12_portrait_4k60_rot-90.mp4")
    if clip is None:
        return None
    out = work_path
    vf = "scale=720:1280:flags=area,crop=720:720,fps=60,format=yuv420p"
    x264 = ["-c:v", "libx264", "-preset", PRESET, "-crf", CRF]
    def edit(n):
        path = out(f"prefilter-4k-{n}.json")
        with open(path, "w") as fh:
            json.dump({"frameRate": 60, "renderSize": {"width": 720, "height": 720},
                       "clips": [{"path": clip}] * n, "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}, fh)
        return path
    segue = lambda n: [[SEGUE, "render", edit(n), "--no-audio", "--progress", "none", "-o", out(f"pf-segue-{n}.mp4")]]
    ff_one = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", clip, "-an", "-vf", vf, *x264, out("pf-ffmpeg-1.mp4")]
    inputs = [a for _ in range(10) for a in ("-i", clip)]
    ff_concat = ["ffmpeg", "-nostdin", "-v", "error", "-y", *inputs, "-an", "-filter_complex",
                 "".join(f"[{i}:v]" for i in range(10)) + f"concat=n=10:v=1:a=0,{vf}", *x264, out("pf-ffmpeg-10.mp4")]
    ff_loop = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-stream_loop", "9", "-i", clip, "-an", "-vf", vf, *x264,
               out("pf-ffmpeg-loop.mp4")]
    cases = {"segue 1 clip": segue(1), "ffmpeg 1 clip": [ff_one],
             "segue 10 clips": segue(10), "ffmpeg 10 inputs + concat": [ff_concat], "ffmpeg -stream_loop 9": [ff_loop]}
    times = {k: [] for k in cases}
    rss = {k: 0 for k in cases}
    for rep in range(REPS):
        for k in (list(cases) if rep % 2 == 0 else list(cases)[::-1]):
            t, m = run(cases[k])
            times[k].append(t); rss[k] = max(rss[k], m)
    med = {k: statistics.median(v) for k, v in times.items()}
    ratios = {"1 clip": med["segue 1 clip"] / med["ffmpeg 1 clip"],
              "10 clips vs concat": med["segue 10 clips"] / med["ffmpeg 10 inputs + concat"],
              "10 clips vs stream_loop": med["segue 10 clips"] / med["ffmpeg -stream_loop 9"]}
    print("\nprefilter (4K60 clip -> 720 square):")
    for k in cases:
        print(f"  {k:28} {med[k]:6.2f} s {rss[k]:6d} MB")
    for k, r in ratios.items():
        print(f"  segue/ffmpeg {k:24} {r:5.2f}")
    return {"median_seconds": med, "peak_rss_mb": rss, "segue/ffmpeg": ratios}


def cache_case():
    """Issue 34's cache: a 60 s edit (fifteen 4 s clips at W x H, a 2 s title every 12 s on a track above), rendered with an
    empty `--cache` (cold), then after one title's words changed (the chunks showing it, and for x264 medium the chunk
    whose lookahead reaches it, render again). Prints the re-render's time over the cold render's (target <= 0.25)."""
    out = work_path
    paths = peer_clips(W, H, 4, 6)
    def edit(changed):
        titles = []
        for i in range(5):
            titles += [{"gap": 5}, {"text": f"Title {i}" + (" changed" if changed and i == 3 else ""), "duration": 2, "style": {"size": 64}}, {"gap": 5}]
        path = out(f"cache-{'changed' if changed else 'cold'}.json")
        with open(path, "w") as fh:
            json.dump({"frameRate": 30, "renderSize": {"width": W, "height": H},
                       "tracks": [{"clips": [{"path": paths[i % 6]} for i in range(15)]}, {"clips": titles}],
                       "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}, fh)
        return path
    cold, changed = edit(False), edit(True)
    times = {"cold": [], "one title changed": []}
    for rep in range(REPS):
        cache = out("cache-dir")
        subprocess.run(["rm", "-rf", cache], check=True)
        times["cold"].append(run([[SEGUE, "render", cold, "--cache", cache, "--progress", "none", "-o", out("cache-cold.mp4")]])[0])
        times["one title changed"].append(run([[SEGUE, "render", changed, "--cache", cache, "--verbose", "--progress", "none",
                                                "-o", out("cache-changed.mp4")]])[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = med["one title changed"] / med["cold"]
    print(f"\ncache (60 s at {W}x{H}): cold {med['cold']:.2f} s, one title changed {med['one title changed']:.2f} s, ratio {ratio:.2f} (target <= 0.25)")
    return {"median_seconds": med, "ratio": ratio}


BATCH_ROWS = 20


def batch_case():
    """Issue 34's batch: a template (a 3 s clip at W x H under a name and a 2 s title card) filled from 20 rows, by one
    `segue batch` (default --jobs) against 20 separate `segue render` runs one after another, as a script would run
    them. Prints rows per minute of each and batch / separate (lower is better)."""
    out = work_path
    clip = peer_clips(W, H, 3, 1)[0]
    template = out("batch-template.json")
    with open(template, "w") as fh:
        json.dump({"frameRate": 30, "renderSize": {"width": W, "height": H},
                   "tracks": [{"clips": [{"path": clip}, {"fill": "#203040", "duration": 2}]},
                              {"clips": [{"text": "{{name}}", "duration": 5, "style": {"size": 72}}]}],
                   "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}, fh)
    rows = out("batch-rows.csv")
    with open(rows, "w") as fh:
        fh.write("id,name\n" + "".join(f"{i},Customer {i}\n" for i in range(1, BATCH_ROWS + 1)))
    batch_dir, single_dir = out("batch-out"), out("batch-single")
    times = {"segue batch": [], "separate renders": []}
    for rep in range(REPS):
        subprocess.run(["rm", "-rf", batch_dir, single_dir], check=True)
        os.makedirs(single_dir)
        times["segue batch"].append(run([[SEGUE, "batch", template, rows, "-o", os.path.join(batch_dir, "{{id}}.mp4"),
                                          "--progress", "none"]])[0])
        times["separate renders"].append(run([[SEGUE, "render", template, "--set", f"name=Customer {i}", "--progress", "none",
                                               "-o", os.path.join(single_dir, f"{i}.mp4")] for i in range(1, BATCH_ROWS + 1)])[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    rate = {k: 60 * BATCH_ROWS / v for k, v in med.items()}
    ratio = med["segue batch"] / med["separate renders"]
    print(f"\nbatch ({BATCH_ROWS} rows, 5 s at {W}x{H}): segue batch {med['segue batch']:.2f} s ({rate['segue batch']:.1f} rows/min), "
          f"separate renders {med['separate renders']:.2f} s ({rate['separate renders']:.1f} rows/min), ratio {ratio:.2f}")
    return {"median_seconds": med, "rows_per_minute": rate, "ratio": ratio}


def lut_case():
    """Issue 35 item 8: a 4 s clip at W x H (H.264) rendered as it is and graded with a 33³ `.cube` LUT (`--backend
    auto`: on a machine whose only GPU is a software rasteriser, the CPU), alternating, x264 at the bench's settings.
    Prints the graded render's time over the plain one's, wall and CPU seconds (target <= 1.3)."""
    out = work_path
    clip = peer_clips(W, H, 4, 1)[0]
    lut = out("grade33.cube")
    with open(lut, "w") as fh:
        fh.write("LUT_3D_SIZE 33\n")
        for b in range(33):
            for g in range(33):
                for r in range(33):
                    R, G, B = r / 32, g / 32, b / 32
                    fh.write(f"{min(1, R ** 0.8 * 0.95 + 0.05 * G):.6f} {G ** 1.15:.6f} {B * 0.8 + 0.1:.6f}\n")
    def edit(name, effects):
        path = out(f"lut-{name}.json")
        with open(path, "w") as fh:
            json.dump({"frameRate": 30, "renderSize": {"width": W, "height": H}, "clips": [{"path": clip, "effects": effects}],
                       "output": {"codec": "h264", "crf": int(CRF), "preset": PRESET}}, fh)
        return path
    cases = {"plain": [[SEGUE, "render", edit("plain", []), "--progress", "none", "--no-audio", "-o", out("lut-plain.mp4")]],
             "lut": [[SEGUE, "render", edit("lut", [{"type": "lut", "path": lut}]), "--progress", "none", "--no-audio", "-o", out("lut-graded.mp4")]]}
    times, cpu = {k: [] for k in cases}, {k: [] for k in cases}
    for rep in range(REPS):
        for k, c in cases.items():
            times[k].append(run(c)[0])
            cpu[k].append(CPU[id(c)])
    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    ratio, ratio_cpu = med["lut"] / med["plain"], med_cpu["lut"] / med_cpu["plain"]
    print(f"\nLUT grade (4 s at {W}x{H}, auto): plain {med['plain']:.2f} s ({med_cpu['plain']:.2f} s CPU), "
          f"graded {med['lut']:.2f} s ({med_cpu['lut']:.2f} s CPU), ratio {ratio:.2f} wall, {ratio_cpu:.2f} CPU (target <= 1.3)")
    return {"median_seconds": med, "median_cpu_seconds": med_cpu, "ratio": ratio, "ratio_cpu": ratio_cpu}


if __name__ == "__main__":
    if env("BENCH_LUT_ONLY") == "1":
        lut_case()
    elif env("BENCH_CACHE_ONLY") == "1":
        cache_case()
    elif env("BENCH_BATCH_ONLY") == "1":
        batch_case()
    elif env("BENCH_PREFILTER_ONLY") == "1":
        prefilter_case()
    elif env("BENCH_PEERS_ONLY") == "1":
        print(json.dumps(peers_case(), indent=2))
    elif env("BENCH_HEAVY_ONLY") == "1":
        heavy_case()
    elif env("BENCH_SMART_ONLY") == "1":
        from smart import smart_case
        smart_case()
    else:
        main()
