#!/usr/bin/env bash
# bench/chunk-seams.sh SEGUE SIZE CHUNKS [render options...]: what a chunked lossy render costs against a single pass
# (docs/farms.md). Renders Fixtures/demo.json (make fixtures) at SIZE once in a single pass, once losslessly
# (the reference) and in CHUNKS chunks stitched, then prints luma PSNR against the reference: the worst frame near a
# seam (the two frames before it and the two from it on), the worst frame anywhere, and the means.
# PIXFMT=yuv420p10le for HDR output (10-bit PSNR). Example: bench/chunk-seams.sh .build/release/segue 720x720 4
set -euo pipefail
segue=$(realpath "$1"); size=$2; n=$3; shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT; cd "$d"
sed "s|\"generated/|\"$root/Fixtures/generated/|g" "$root/Fixtures/demo.json" > edit.json
quiet=(--backend gpu --progress none)
"$segue" render edit.json --size "$size" "${quiet[@]}" "$@" -o single.mp4 2>/dev/null
lossless=(); skip=0
for a in "$@"; do   # the reference keeps every option but the encoder settings
  if [ $skip = 1 ]; then skip=0; continue; fi
  case $a in --preset|--crf|--encoder) skip=1 ;; *) lossless+=("$a") ;; esac
done
"$segue" render edit.json --size "$size" "${quiet[@]}" --codec ffv1 --no-audio ${lossless[@]+"${lossless[@]}"} -o ref.mkv 2>/dev/null
"$segue" plan edit.json --size "$size" --chunks "$n" "$@" -o plan.json 2>/dev/null
for i in $(seq 0 $((n - 1))); do "$segue" render --plan plan.json --chunk "$i" -o chunks "${quiet[@]}" 2>/dev/null; done
"$segue" render-audio --plan plan.json -o "chunks/$(python3 -c "import json; print(json.load(open('plan.json'))['audio']['file'])")" 2>/dev/null
"$segue" stitch --plan plan.json chunks -o chunked.mp4 2>/dev/null
for v in single chunked; do ffmpeg -nostdin -v error -i $v.mp4 -map 0:v -f rawvideo -pix_fmt "${PIXFMT:-yuv420p}" $v.yuv; done
ffmpeg -nostdin -v error -i ref.mkv -f rawvideo -pix_fmt "${PIXFMT:-yuv420p}" ref.yuv
python3 - "$size" <<'PY'
import json, os, sys
import numpy as np
w, h = map(int, sys.argv[1].split('x'))
ten = os.environ.get('PIXFMT', '') == 'yuv420p10le'
peak, frame = (1023 if ten else 255), w * h * 3 // 2
def luma(f):
    return np.fromfile(f, dtype=np.uint16 if ten else np.uint8).reshape(-1, frame)[:, :w * h].astype(np.float64)
def psnr(a, b):
    return 10 * np.log10(peak ** 2 / np.maximum(((a - b) ** 2).mean(axis=1), 1e-10))
ref = luma('ref.yuv'); single = psnr(luma('single.yuv'), ref); chunked = psnr(luma('chunked.yuv'), ref)
seams = [c['start'] for c in json.load(open('plan.json'))['chunks'][1:]]
d = chunked - single
near = [f for s in seams for f in range(s - 2, s + 2)]
f = min(near, key=lambda k: d[k]); a = int(np.argmin(d))
print(f"{len(ref)} frames, seams at {seams}")
print(f"near a seam, worst: {d[f]:+.2f} dB at frame {f} (chunked {chunked[f]:.2f}, single pass {single[f]:.2f})")
print(f"any frame, worst:   {d[a]:+.2f} dB at frame {a} (chunked {chunked[a]:.2f}, single pass {single[a]:.2f})")
print(f"mean: chunked {chunked.mean():.2f} dB, single pass {single.mean():.2f} dB ({chunked.mean() - single.mean():+.2f} dB)")
PY
