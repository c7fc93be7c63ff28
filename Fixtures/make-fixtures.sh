#!/usr/bin/env bash
# Generates the demo clips from FFmpeg's lavfi sources into Fixtures/generated/ (not committed).
# Each clip differs the way real inputs do: frame rate, size, a portrait phone-style clip stored landscape
# with a -90 display matrix, audio or none.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/generated"
mkdir -p "$out"
enc=(-c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -c:a aac -b:a 128k)
ff() { ffmpeg -nostdin -v error -y "$@"; }

# a: landscape 1280x720, 30 fps, 4 s, 440 Hz tone.
[ -f "$out/a_landscape.mp4" ] || ff -f lavfi -i "testsrc2=s=1280x720:r=30:d=4" -f lavfi -i "sine=f=440:r=48000:d=4" \
    -shortest "${enc[@]}" "$out/a_landscape.mp4"
# b: a phone-style portrait clip: stored 1280x720 landscape with a -90 display matrix (shown as 720x1280), 30 fps, 3 s, 44.1 kHz mono.
if [ ! -f "$out/b_portrait_rot-90.mp4" ]; then
    ff -f lavfi -i "smptehdbars=s=1280x720:r=30:d=3,drawbox=x=0:y=0:w=160:h=160:color=red:t=fill" \
       -f lavfi -i "sine=f=660:r=44100:d=3" -ac 1 -shortest "${enc[@]}" "$out/b_stored.mp4"
    ff -i "$out/b_stored.mp4" -c copy -metadata:s:v:0 rotate=-90 "$out/b_portrait_rot-90.mp4"
    rm -f "$out/b_stored.mp4"
fi
# c: 25 fps, 960x540, 3 s, no audio.
[ -f "$out/c_noaudio_25fps.mp4" ] || ff -f lavfi -i "mandelbrot=s=960x540:r=25,trim=duration=3" \
    -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p "$out/c_noaudio_25fps.mp4"
# d: 30000/1001 fps, 1280x720, 3 s, stereo 48 kHz.
[ -f "$out/d_2997.mp4" ] || ff -f lavfi -i "testsrc=s=1280x720:r=30000/1001:d=3,hue=h=120" -f lavfi -i "sine=f=330:r=48000:d=3" \
    -ac 2 -shortest "${enc[@]}" "$out/d_2997.mp4"
echo "fixtures in $out"
