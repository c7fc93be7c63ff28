#!/usr/bin/env bash
# make test: runs the ThreeClips example (built by `swift build --package-path Examples/ThreeClips`) on three
# generated clips and checks its output: 2 s + 1.6 s (a 25 fps portrait clip) + 2 s joined by two 0.5 s
# transitions = 4.6 s = 138 frames at 30 fps, at 320x180 (the example's debug build draws on the CPU unoptimised:
# 1280x720 took 150 s of make test's time).
set -euo pipefail
example=${1:-Examples/ThreeClips/.build/debug/ThreeClips}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -nostdin -v error -y "$@"; }
ff -f lavfi -i testsrc2=s=640x360:r=30:d=2 -f lavfi -i sine=f=440:r=48000:d=2 -c:v libx264 -preset ultrafast -c:a aac "$work/a.mp4"
ff -f lavfi -i smptebars=s=360x640:r=25:d=1.6 -c:v libx264 -preset ultrafast "$work/b.mp4"
ff -f lavfi -i rgbtestsrc=s=800x600:r=30:d=2 -c:v libx264 -preset ultrafast "$work/c.mp4"
"$example" "$work/a.mp4" "$work/b.mp4" "$work/c.mp4" "$work/out.mp4" 320x180
got=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height -of csv=p=0 "$work/out.mp4")
[ "$got" = "320,180,138" ] || { echo "ThreeClips example: FAILED: expected 320,180,138 (width, height, frames), got $got" >&2; exit 1; }
echo "ThreeClips example: ok ($got)"
