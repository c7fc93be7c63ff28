#!/usr/bin/env bash
# make leakcheck: renders under valgrind's memcheck, the successful paths (one track; layers; retimed clips; a recorded take) and the failing ones (an encoder that cannot
# open, an EGL platform that fails, a corrupt clip with and without FFmpeg's log routed, a probe of files some of
# which cannot be read, an option a command does not take, a render interrupted by SIGINT). Fails on any definite leak or
# memory error, or on an unexpected exit status.
set -uo pipefail
segue=${1:-.build/debug/segue}
out=.build/leakcheck
mkdir -p "$out"
vg=(valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 --log-file="$out/%p.log")
failed=0
check() {  # check NAME EXPECTED-STATUS COMMAND...
  local name=$1 want=$2; shift 2
  rm -f "$out"/*.log
  "$@" >"$out/$name.out" 2>&1
  local got=$?
  local definite; definite=$(grep -h "definitely lost:" "$out"/*.log | head -1)
  if grep -q "the 'impossible' happened" "$out"/*.log; then
    # valgrind itself crashed (its exit status would pass for the program's): nothing was checked.
    echo "leakcheck $name: FAILED (valgrind crashed)"; grep -h -B2 -A8 "INTERNAL ERROR" "$out"/*.log | head -20; failed=1
  elif [ "$got" = 99 ]; then
    echo "leakcheck $name: FAILED (valgrind found errors or definite leaks)"; grep -h -A12 "definitely lost in\|Invalid\|uninitialised" "$out"/*.log | head -40; failed=1
  elif [ "$got" != "$want" ]; then
    echo "leakcheck $name: FAILED (exit $got, expected $want)"; tail -5 "$out/$name.out"; failed=1
  else
    echo "leakcheck $name: ok (exit $got; ${definite:-no leak summary})"
  fi
}
fixture=Fixtures/generated/a_landscape.mp4
check render 0 "${vg[@]}" "$segue" render Fixtures/demo.json --size 96x96 --backend cpu --progress none -o "$out/render.mp4"
# Layers and time: tracks (a picture-in-picture, a fill, a PNG with alpha, an audio track, ducked music), and clips
# retimed (reversed at 0.5x with its audio, a speed ramp with audio through atempo, blended slow motion).
check layers 0 "${vg[@]}" "$segue" render Fixtures/layers.json --size 96x54 --backend cpu --progress none -o "$out/layers.mp4"
cat > "$out/time.json" <<JSON
{"clips": [{"path": "$PWD/Fixtures/generated/a_landscape.mp4", "duration": 0.5, "reverse": true, "speed": 0.5},
           {"path": "$PWD/Fixtures/generated/d_2997.mp4", "duration": 1, "speed": {"keyframes": [{"time": 0, "value": 1}, {"time": 0.3, "value": 3}]}},
           {"path": "$PWD/Fixtures/generated/a_landscape.mp4", "duration": 0.2, "speed": 0.25, "frameBlend": true, "pitch": "follow"}]}
JSON
check time 0 "${vg[@]}" "$segue" render "$out/time.json" --size 96x54 --backend cpu --progress none -o "$out/time.mp4"
# MPEG-1 video has no 10 fps: avcodec_open2 fails after the muxer was allocated.
check encoder-fails 1 "${vg[@]}" "$segue" render "$fixture" --size 96x64 --fps 10 --encoder mpeg1video --backend cpu --progress none -o "$out/enc.mp4"
# No DRM render node here: the GBM platform fails (on a machine with one, an unknown node does).
check egl-fails 1 "${vg[@]}" "$segue" render "$fixture" --size 96x64 --backend gpu --gpu-device /dev/dri/renderD199 --progress none -o "$out/egl.mp4"
# A clip whose middle is overwritten with garbage: rendered with its damage reported.
head -c 200000 "$fixture" > "$out/corrupt.mp4"; head -c 60000 /dev/urandom | dd of="$out/corrupt.mp4" bs=1 seek=100000 conv=notrunc status=none
cat "$fixture" | tail -c +200001 >> "$out/corrupt.mp4"
check corrupt-clip 0 "${vg[@]}" "$segue" render "$out/corrupt.mp4" --size 96x64 --backend cpu --progress none -o "$out/corrupt-out.mp4"
# The same with --verbose: FFmpeg's log lines go through Segue's logger (FFmpegLog), naming the clip.
check corrupt-clip-verbose 0 "${vg[@]}" "$segue" render "$out/corrupt.mp4" --size 96x64 --backend cpu --progress none --verbose -o "$out/corrupt-verbose.mp4"
grep -q "ffmpeg: \[corrupt.mp4\]" "$out/corrupt-clip-verbose.out" || { echo "leakcheck corrupt-clip-verbose: FAILED (no FFmpeg line naming the clip)"; failed=1; }
# probe of a readable, a missing and an unreadable file: every file reported, exit 1 at the end.
check probe-some-fail 1 "${vg[@]}" "$segue" probe "$fixture" "$out/missing.mp4" "$out/corrupt.mp4" Fixtures/demo.json
grep -q "1 of 4 file(s) could not be read\|2 of 4 file(s) could not be read" "$out/probe-some-fail.out" && grep -q "a_landscape.mp4" "$out/probe-some-fail.out" \
  || { echo "leakcheck probe-some-fail: FAILED (not every file reported)"; cat "$out/probe-some-fail.out"; failed=1; }
# An option the command does not take: a usage error before anything is opened.
check option-refused 2 "${vg[@]}" "$segue" probe --crf 20 "$fixture"
# A take: re-encoded video and audio in two segments, each finished and rewritten with its index first, and the preview
# JPEG (the recording's writers: OutputFile, Encoder, AudioEncoder, StreamCopy.remux). Two sources: FFmpeg 5.1's lavfi
# device itself loses a frame (472 bytes) when one graph has two outputs (`testsrc2[out0];sine[out1]`).
rm -f "$out"/take_*.mp4 "$out/preview.jpg"
check record 0 "${vg[@]}" "$segue" record lavfi:testsrc2=s=64x48:r=10 lavfi:sine=r=16000 -o "$out/take_%03d.mp4" --duration 2 --segment 1 \
  --preview "$out/preview.jpg" --progress none
[ -f "$out/take_000.mp4" ] && [ -f "$out/preview.jpg" ] || { echo "leakcheck record: FAILED (no take or no preview)"; failed=1; }
# Interrupted: SIGINT while rendering; the temporary output is removed, exit 130.
check interrupted 130 timeout --preserve-status -s INT -k 120 25 "${vg[@]}" "$segue" render Fixtures/demo.json --size 96x96 --backend cpu --progress none -o "$out/int.mp4"
if ls "$out"/.int.mp4* >/dev/null 2>&1; then echo "leakcheck interrupted: FAILED (temporary output left)"; failed=1; fi
exit $failed
