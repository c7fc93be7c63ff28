#!/bin/bash
# Renders docs/effects-sheet.png: one tile of each picture effect (docs/effects.md) on the same picture — colour
# settings, a LUT, a chroma key over a background, a vignette, blur, sharpen, a blurred fill, track mattes and blend modes — 240x136 each, four a row.
# A new tile is one `tile` line: its label, the item (the picture with its effects) and, optionally, the tracks below it.
# Usage: docs/make-effects-sheet.sh [path/to/segue]   (default .build/debug/segue; needs ffmpeg)
source "$(dirname "$0")/sheet-setup.sh"
# The picture: four-colour gradients, a skin tone, red, blue and white patches, a grey ramp.
ffmpeg -v error -y -f lavfi -i "gradients=s=480x270:c0=0xff5020:c1=0x2070ff:c2=0x40d060:c3=0xffe040:nb_colors=4:seed=3,format=rgb24" \
  -f lavfi -i "color=c=black:s=480x40,format=gray,geq=lum='X*255/W'" \
  -filter_complex "[1]format=rgb24[r];[0][r]overlay=0:230,drawbox=x=40:y=40:w=80:h=80:c=0xe0b090:t=fill,drawbox=x=150:y=40:w=80:h=80:c=0xc02030:t=fill,drawbox=x=260:y=40:w=80:h=80:c=0x2040c0:t=fill,drawbox=x=370:y=40:w=80:h=80:c=0xffffff:t=fill" \
  -frames:v 1 picture.png
# A portrait picture for the blurred fill: the picture's left third.
ffmpeg -v error -y -i picture.png -vf "crop=152:270:0:0" portrait.png
# A presenter in front of a green screen: an orange figure with a white face on #00b140.
ffmpeg -v error -y -f lavfi -i "color=c=0x00b140:s=480x270,format=rgb24" \
  -vf "drawbox=x=170:y=110:w=140:h=160:c=0xff8020:t=fill,drawbox=x=200:y=30:w=80:h=80:c=0xf0d0b0:t=fill" -frames:v 1 greenscreen.png
# A texture for the blend modes: dark, light, violet and cyan gradients.
ffmpeg -v error -y -f lavfi -i "gradients=s=480x270:c0=0x181818:c1=0xffffff:c2=0x9040ff:c3=0x00c8c8:nb_colors=4:seed=11,format=rgb24" -frames:v 1 texture.png
# A teal-and-orange grade, 17³: shadows to teal, highlights to orange.
awk 'BEGIN { n = 17; print "TITLE \"teal and orange\""; print "LUT_3D_SIZE " n
  for (b = 0; b < n; b++) for (g = 0; g < n; g++) for (r = 0; r < n; r++) {
    R = r / (n - 1); G = g / (n - 1); B = b / (n - 1); y = 0.2126 * R + 0.7152 * G + 0.0722 * B
    printf "%.5f %.5f %.5f\n", R * 0.6 + y * 0.45, G * 0.7 + y * 0.15 + 0.05, B * 0.55 + (1 - y) * 0.35 }
}' > grade.cube

n=0
label() { echo "{\"text\": \"$1\", \"duration\": 2, \"style\": {\"size\": 13, \"weight\": \"bold\", \"color\": \"#ffffff\", \"box\": {\"color\": \"#00000090\", \"padding\": 3}}, \"layer\": {\"x\": 0.5, \"y\": 0.08}}"; }
picture() { echo "{\"path\": \"picture.png\", \"duration\": 2, \"effects\": [$1]$2}"; }
tile() {  # label, the item drawn (JSON), tracks below it (JSON, each followed by a comma), edit fields (each followed by a comma)
  n=$((n + 1))
  local name; name=$(printf "tile%02d" "$n")
  echo "{${4:-}\"renderSize\": {\"width\": 240, \"height\": 136}, \"frameRate\": 25, \"tracks\": [${3:-} {\"clips\": [$2]}, {\"clips\": [$(label "$1")]}]}" > "$name.json"
  "$SEGUE" frame "$name.json" --at 1 --backend cpu -o "$name.png" > /dev/null
}
tile "the picture" "$(picture '' '')"
tile "colour brightness 1.4" "$(picture '{"type": "colour", "brightness": 1.4}' '')"
tile "colour contrast 1.6" "$(picture '{"type": "colour", "contrast": 1.6}' '')"
tile "colour saturation 0.2" "$(picture '{"type": "colour", "saturation": 0.2}' '')"
tile "colour hue 120" "$(picture '{"type": "colour", "hue": 120}' '')"
tile "colour exposure -1" "$(picture '{"type": "colour", "exposure": -1}' '')"
tile "colour temperature 0.8" "$(picture '{"type": "colour", "temperature": 0.8}' '')"
tile "colour tint -0.8" "$(picture '{"type": "colour", "tint": -0.8}' '')"
tile "lut teal and orange" "$(picture '{"type": "lut", "path": "grade.cube"}' '')"
tile "chromaKey over a picture" '{"path": "greenscreen.png", "duration": 2, "effects": [{"type": "chromaKey", "colour": "#00b140", "similarity": 0.1, "smoothness": 0.05, "spill": 0.3}]}' \
  "{\"clips\": [$(picture '' '')]},"
tile "vignette 0.8, radius 0.3" "$(picture '{"type": "vignette", "amount": 0.8, "radius": 0.3}' '')"
tile "blur radius 3" "$(picture '{"type": "blur", "radius": 3}' '')"
tile "sharpen 2, radius 2" "$(picture '{"type": "sharpen", "amount": 2, "radius": 2}' '')"
tile "fitBackground blur" '{"path": "portrait.png", "duration": 2, "fitBackground": "blur"}' '' '"fit": "fit", '
tile "luma matte (text)" '{"text": "MATTE", "duration": 2, "style": {"size": 56, "weight": "black"}, "matte": "luma"}' \
  "{\"clips\": [{\"fill\": \"#203040\", \"duration\": 2}]}, {\"clips\": [$(picture '' '')]},"
tile "alpha-inverted matte" '{"shape": "ellipse", "width": 150, "height": 100, "fill": "#ffffff", "duration": 2, "matte": "alpha-inverted"}' \
  "{\"clips\": [{\"fill\": \"#203040\", \"duration\": 2}]}, {\"clips\": [$(picture '' '')]},"
for mode in multiply screen overlay darken difference soft-light color; do
  tile "blend $mode" "{\"path\": \"texture.png\", \"duration\": 2, \"layer\": {\"blend\": \"$mode\"}}" "{\"clips\": [$(picture '' '')]},"
done
rows=$(((n + 3) / 4))
ffmpeg -v error -y -framerate 1 -i "tile%02d.png" -vf "tile=4x$rows:padding=2:color=white,format=rgb24" -frames:v 1 -pred mixed "$ROOT/docs/effects-sheet.png"
echo "wrote docs/effects-sheet.png ($n tiles)"
