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

# Stills for Fixtures/memory.json (a photo + video "memory"; EXIF written with exiftool, HEIC with heif-enc: both are
# installed by `make fixtures`, from libimage-exiftool-perl and libheif-examples).
# e: a phone photo taken upright: stored landscape 1600x1200 with EXIF orientation 6 (shown 1200x1600), red top-left corner.
if [ ! -f "$out/e_photo_exif6.jpg" ]; then
    ff -f lavfi -i "testsrc2=s=1600x1200:d=1:r=1,drawbox=x=0:y=0:w=300:h=300:color=red:t=fill" -frames:v 1 -q:v 3 "$out/e_photo_exif6.jpg"
    exiftool -q -overwrite_original -n -Orientation=6 "$out/e_photo_exif6.jpg"
fi
# f: a PNG sticker with alpha: an orange disc with a soft edge on a transparent ground.
[ -f "$out/f_sticker_alpha.png" ] || ff -f lavfi -i "color=c=black:s=800x800:d=1:r=1,format=rgba,geq=r=255:g='120+X/8':b=40:a='clip(255*(340-hypot(X-400,Y-400))/20,0,255)'" \
    -frames:v 1 "$out/f_sticker_alpha.png"
# g: an iPhone-style HEIC photo (HEVC in HEIF), 1440x1080.
if [ ! -f "$out/g_photo.heic" ]; then
    ff -f lavfi -i "mandelbrot=s=1440x1080:r=1,trim=end_frame=1" -frames:v 1 "$out/g_source.png"
    heif-enc -q 85 "$out/g_source.png" -o "$out/g_photo.heic" >/dev/null
    rm -f "$out/g_source.png"
fi
# h: music, 15 s (a C-major arpeggio of sines).
[ -f "$out/h_music.m4a" ] || ff -f lavfi -i "aevalsrc=0.2*sin(2*PI*t*(262+(mod(floor(t*4)\,3))*65)):s=48000:d=15" -c:a aac -b:a 128k "$out/h_music.m4a"
# i: a voice-over for Fixtures/layers.json: three spoken-length tone bursts (a "voice") in 3 s, 48 kHz mono.
[ -f "$out/i_voice.m4a" ] || ff -f lavfi -i "aevalsrc=0.3*sin(2*PI*t*520)*lt(mod(t\,1)\,0.7):s=48000:d=3" -c:a aac -b:a 96k "$out/i_voice.m4a"
echo "fixtures in $out"
