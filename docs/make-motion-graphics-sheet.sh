#!/bin/bash
# Renders docs/motion-graphics-sheet.png: one frame of each kind of motion graphics (an SVG item, a Lottie animation,
# shapes, word-by-word captions, animated text), 320x180 each, three a row.
# Usage: docs/make-motion-graphics-sheet.sh [path/to/segue]   (default .build/debug/segue; needs ffmpeg)
source "$(dirname "$0")/sheet-setup.sh"
cp "$ROOT/Fixtures/lottie/shapes.json" sting.json
cat > logo.svg <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">
  <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#ffb000"/><stop offset="1" stop-color="#ff3070"/></linearGradient></defs>
  <rect x="2" y="2" width="116" height="56" rx="14" fill="url(#g)" stroke="white" stroke-width="3"/>
  <circle cx="30" cy="30" r="14" fill="white" opacity="0.85"/>
  <path d="M52 40 L64 18 L76 40 Z M82 18 h20 v22 h-20 Z" fill="white"/>
</svg>
SVG
cat > words.json <<'JSON'
{"segments": [{"words": [{"word": "Every", "start": 0.0, "end": 0.4}, {"word": "word", "start": 0.4, "end": 0.8},
  {"word": "lights", "start": 0.8, "end": 1.3}, {"word": "up", "start": 1.3, "end": 1.8}]}]}
JSON
label() { echo "{\"text\": \"$1\", \"duration\": 2, \"style\": {\"size\": 14, \"color\": \"#ffffffb0\"}, \"layer\": {\"x\": 0.5, \"y\": 0.1}}"; }
tile() {  # name, time, tracks JSON (a list), extra edit fields
  echo "{\"renderSize\": {\"width\": 320, \"height\": 180}, \"frameRate\": 25, $4 \"tracks\": [{\"clips\": [{\"fill\": \"#203040\", \"duration\": 2}]}, $3, {\"clips\": [$(label "$1")]}]}" > "$1.json"
  "$SEGUE" frame "$1.json" --at "$2" --backend cpu -o "$1.png" > /dev/null 2>&1 || "$SEGUE" frame "$1.json" --at "$2" --backend cpu -o "$1.png"
}
tile "SVG item (librsvg)" 0.5 '{"clips": [{"path": "logo.svg", "duration": 2, "layer": {"scale": 0.5}}]}' ''
tile "Lottie animation" 0.6 '{"clips": [{"path": "sting.json", "duration": 2, "loop": true}]}' ''
tile "shapes" 1.0 '{"clips": [{"shape": "rect", "width": {"keyframes": [{"time": 0, "value": 0}, {"time": 2, "value": 280}]}, "height": 10, "cornerRadius": 5, "fill": "#ffd400", "duration": 2, "layer": {"y": 0.9}}]},
  {"clips": [{"shape": "ellipse", "width": 90, "height": 90, "stroke": "#ffffff", "strokeWidth": 4, "gradient": {"type": "radial", "stops": [{"offset": 0, "colour": "#ff3070"}, {"offset": 1, "colour": "#ff307000"}]}, "duration": 2, "layer": {"x": 0.3}}]},
  {"clips": [{"shape": "polygon", "points": [{"x": 0, "y": 80}, {"x": 45, "y": 0}, {"x": 90, "y": 80}], "fill": "#40c0ff", "stroke": "white", "strokeWidth": 3, "duration": 2, "layer": {"x": 0.7}}]}' ''
tile "word-by-word captions" 0.9 '{"clips": [{"gap": 2}]}' '"captions": {"path": "words.json", "style": {"size": 24}}, "captionStyle": {"words": "highlight", "activeBox": "#ff3070"},'
tile "animated text: typewriter" 0.45 '{"clips": [{"text": "Typed in, letter by letter", "duration": 2, "style": {"size": 22}, "animate": {"in": "typewriter", "by": "character", "duration": 0.8}}]}' ''
tile "animated text: pop by word" 0.35 '{"clips": [{"text": "Pop goes each word", "duration": 2, "style": {"size": 26, "weight": "bold"}, "animate": {"in": "pop", "by": "word", "duration": 0.5, "stagger": 0.12}}]}' ''
ffmpeg -v error -y -i "SVG item (librsvg).png" -i "Lottie animation.png" -i "shapes.png" -i "word-by-word captions.png" \
  -i "animated text: typewriter.png" -i "animated text: pop by word.png" \
  -filter_complex "[0][1][2]hstack=3[a];[3][4][5]hstack=3[b];[a][b]vstack,format=rgb24" -pred mixed "$ROOT/docs/motion-graphics-sheet.png"
echo "wrote docs/motion-graphics-sheet.png"
