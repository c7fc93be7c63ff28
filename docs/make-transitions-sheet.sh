#!/bin/bash
# Renders docs/transitions-sheet.png: every built-in transition at p = 0.4, from a test pattern (A) to colour bars (B).
# Usage: docs/make-transitions-sheet.sh [path/to/segue]   (default .build/debug/segue; needs ffmpeg and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
SEGUE=${1:-.build/debug/segue}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tags=(-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv)
ffmpeg -v error -y -f lavfi -i "testsrc2=s=160x90:r=30:d=2.5" -c:v libx264 -preset ultrafast -pix_fmt yuv420p "${tags[@]}" "$WORK/a.mp4"
ffmpeg -v error -y -f lavfi -i "smptehdbars=s=160x90:r=30:d=2.5" -c:v libx264 -preset ultrafast -pix_fmt yuv420p "${tags[@]}" "$WORK/b.mp4"
"$SEGUE" transitions --json | python3 -c '
import json, sys
names = [t["name"] for t in json.load(sys.stdin)["transitions"] if t["name"] != "glsl"]
clips = [{"path": "a.mp4"}] + [{"path": "ba"[k % 2] + ".mp4", "transition": {"type": n, "duration": 1}} for k, n in enumerate(names)]
json.dump({"frameRate": 30, "clips": clips}, sys.stdout)' > "$WORK/all.json"
"$SEGUE" sheet "$WORK/all.json" --at-progress 0.4 --cols 7 --tile-width 128 -o "$WORK/sheet.png"
ffmpeg -v error -y -i "$WORK/sheet.png" -pix_fmt rgb24 -pred mixed docs/transitions-sheet.png
echo "wrote docs/transitions-sheet.png"
