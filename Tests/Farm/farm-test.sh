#!/usr/bin/env bash
# A real Slurm run: brings up a single-node cluster, renders a small edit with `segue farm slurm` in 4 chunks
# (chunk 1 forced to fail once: it must requeue itself and the output must still be right), compares the stitched
# file frame by frame and sample by sample with a single-pass render, then makes a chunk fail for good: the stitch
# must not happen, `segue stitch` must refuse naming the chunk, and `segue farm resume` must finish the job. Last, a
# run under the job's root (`--root`): an edit naming a file outside it is refused, one inside renders the same frames.
# Then the edit exported as an OpenTimelineIO bundle (.otioz) renders on the farm to the same frames. Every plan holds
# the resolved edit its workers render (`segue resolve`'s; run 1 submits one resolved beforehand): nothing is replayed.
# Run 6: `segue batch --engine slurm` renders a template once per row as an array job, a bad row failing alone.
# Run 7: a smart edit (`--smart`) in 4 chunks: the one-pass smart render's video packets, frames and audio.
# Run 8: `segue serve --engine slurm`: a render submitted over HTTP runs as chunk jobs and equals the single-pass
# render; a server killed (-9) once the jobs are submitted follows the same jobs after its restart; a cancel scancels.
# Usage: Tests/Farm/farm-test.sh [SEGUE_BINARY]   (run by `make farm-test`, part of `make test`)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
segue=$(realpath "${1:-$root/.build/debug/segue}")
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
if ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi
# A space and an apostrophe in the path: the scripts and sbatch arguments must quote them.
work=$(mktemp -d "/tmp/segue farm's test.XXXXXX")
# Slurm's own state folders cannot have spaces: they live apart.
cluster=$(mktemp -d /tmp/segue-slurm.XXXXXX)
cleanup() {
  status=$?
  $SUDO "$root/Tests/Farm/slurm-cluster.sh" down "$cluster" || true
  if [ "$status" = 0 ]; then rm -rf "$work" "$cluster"; else echo "farm-test: FAILED; files kept in $work" >&2; fi
}
trap cleanup EXIT
fail() { echo "farm-test: FAIL: $*" >&2; exit 1; }
$SUDO "$root/Tests/Farm/slurm-cluster.sh" up "$cluster"

# Three 1 s clips with audio, a crossfade and a push; x264 lossless so frames compare exactly.
cd "$work"
for k in 0 1 2; do
  ffmpeg -nostdin -v error -f lavfi -i "testsrc2=s=96x64:r=30:d=1,hue=h=$((k * 120))" -f lavfi -i "sine=f=$((440 + 220 * k)):d=1:r=48000" \
    -shortest -c:v libx264 -preset ultrafast -g 8 -pix_fmt yuv420p -c:a aac "c$k.mp4"
done
cat > edit.json <<JSON
{"renderSize": {"width": 64, "height": 48}, "frameRate": 30,
 "clips": [{"path": "c0.mp4"},
           {"path": "c1.mp4", "transition": {"type": "crossfade", "duration": 0.6}},
           {"path": "c2.mp4", "transition": {"type": "push", "duration": 0.3, "direction": "up"}}],
 "output": {"codec": "h264", "crf": 0, "preset": "medium"}}
JSON
"$segue" render edit.json -o single.mp4 --backend gpu --progress none
framemd5() { ffmpeg -nostdin -v error -i "$1" -map "0:$2" -f framemd5 - | grep -v '^#'; }

# Polls the queue until none of our jobs is pending or running.
wait_queue() {
  for _ in $(seq 300); do
    if [ -z "$(squeue -h -t PENDING,RUNNING,CONFIGURING,COMPLETING,REQUEUED -o %i)" ]; then return 0; fi
    sleep 1
  done
  squeue; fail "jobs still queued after 300 s"
}

echo "farm-test: refusals before anything is submitted"
set +e
"$segue" farm slurm edit.json --chunks 2 -o c1.mp4 --work-dir refused 2>refused.txt; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "clip 1's input" refused.txt || { cat refused.txt; fail "farm slurm -o CLIP exited $rc"; }
"$segue" farm slurm edit.json --chunks 2 -o dry.mp4 --work-dir dry --dry-run 2>dry.txt
grep -qF "sbatch --parsable '--output=/tmp/segue farm'\\''s test" dry.txt || { cat dry.txt; fail "dry run does not print quoted sbatch commands"; }
set +e
"$segue" farm status dry > drystatus.txt; rc=$?
set -e
[ "$rc" = 1 ] && grep -qE "stitch +not submitted" drystatus.txt || { cat drystatus.txt; fail "farm status of a dry run exited $rc"; }

# The plan holds the resolved edit (format 3), its media's facts and fingerprints, and no command line to replay.
check_plan() {
  python3 - "$1" "$2" <<'PY' || fail "$1 does not hold the resolved edit"
import json, sys
plan = json.load(open(sys.argv[1]))
edit = plan["resolvedEdit"]
assert plan["version"] == 3 and "editArguments" not in plan, plan.keys()
assert edit["resolved"]["schemaVersion"] == 1, edit["resolved"]
assert len(edit["resolved"]["media"]) == int(sys.argv[2]), edit["resolved"]["media"]
assert all(m["path"].startswith("/") or "bundle" in edit["resolved"] for m in edit["resolved"]["media"])
PY
}

echo "farm-test: run 1: a resolved edit, 4 chunks, chunk 1 fails once (exit 75) and is retried"
"$segue" resolve edit.json -o resolved.json
started=$(date +%s.%N)
SEGUE_TEST_FAIL_CHUNK=1:1 "$segue" farm slurm resolved.json --chunks 4 -o out1.mp4 --work-dir run1 --retries 2 --retry-delay 0 \
  --max-parallel 2 --backend gpu
check_plan run1/plan.json 3
wait_queue
echo "farm-test: run 1 took $(echo "$(date +%s.%N) - $started" | bc) s"
"$segue" farm status run1 | tee status1.txt
[ -f out1.mp4 ] || { cat run1/logs/*; fail "no stitched output"; }
grep -q "exit status 75" run1/logs/chunk_0001.attempt0.log || fail "chunk 1 did not fail on its first attempt"
grep -q "exit status 0" run1/logs/chunk_0001.attempt1.log || fail "chunk 1 was not retried successfully"
[ "$(framemd5 out1.mp4 v)" = "$(framemd5 single.mp4 v)" ] || fail "video frames differ from the single pass"
[ "$(framemd5 out1.mp4 a)" = "$(framemd5 single.mp4 a)" ] || fail "audio differs from the single pass"
[ "$(framemd5 out1.mp4 v | wc -l)" = 63 ] || fail "frame count"
[ "$(grep -c ' done ' status1.txt)" = 6 ] || fail "farm status does not show 4 chunks + audio + stitch done"
grep -q "render --plan" run1/chunks.sbatch && ! grep -q "edit.json" run1/chunks.sbatch || fail "the chunk workers do not render the plan's edit"

echo "farm-test: run 2: chunk 2 fails every time; the stitch must not happen"
SEGUE_TEST_FAIL_CHUNK=2:always "$segue" farm slurm edit.json --chunks 4 -o out2.mp4 --work-dir run2 --retries 1 --retry-delay 0 \
  --backend gpu
check_plan run2/plan.json 3
wait_queue
[ -f out2.mp4 ] && fail "a stitched file was written although chunk 2 failed"
[ -f run2/logs/chunk_0002.attempt1.log ] || fail "chunk 2 was not retried once"
[ -f run2/logs/chunk_0002.attempt2.log ] && fail "chunk 2 was retried more than --retries 1"
set +e
"$segue" farm status run2 > status2.txt
rc=$?
set -e
cat status2.txt
[ "$rc" = 1 ] || fail "farm status exited $rc with a failed chunk, expected 1"
grep -E "chunk 2 +failed" status2.txt || fail "farm status does not show chunk 2 failed"
set +e
"$segue" stitch --plan run2/plan.json run2/chunks -o out2.mp4 2>stitch2.txt
rc=$?
set -e
cat stitch2.txt
[ "$rc" = 2 ] || fail "stitch exited $rc, expected 2"
grep -q -- "--chunk 2 -o" stitch2.txt || fail "stitch does not give the command for chunk 2"
grep -q -- "--chunk [013] " stitch2.txt && fail "stitch lists chunks that are fine"

echo "farm-test: resume run 2 (the failure is gone)"
"$segue" farm resume run2
wait_queue
"$segue" farm status run2
[ -f out2.mp4 ] || { cat run2/logs/slurm-stitch-*; fail "resume did not produce the output"; }
[ "$(framemd5 out2.mp4 v)" = "$(framemd5 single.mp4 v)" ] || fail "resumed video differs from the single pass"
[ "$(framemd5 out2.mp4 a)" = "$(framemd5 single.mp4 a)" ] || fail "resumed audio differs from the single pass"
echo "farm-test: run 3: the job's root (--root): a clip outside it is refused before anything is submitted; inside, the workers render under it"
mkdir -p job
cp c0.mp4 c1.mp4 c2.mp4 edit.json job/
sed 's/"c0.mp4"/"..\/c0.mp4"/' edit.json > job/escape.json
set +e
"$segue" farm slurm job/escape.json --chunks 2 -o job/escape.mp4 --work-dir job/escape --root job 2>escape.txt; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "clips\[0\].path: .*c0.mp4 is outside the root" escape.txt || { cat escape.txt; fail "farm slurm with a clip outside --root exited $rc"; }
[ -f job/escape/farm.json ] && fail "a job was submitted for an edit naming a file outside --root"
"$segue" farm slurm job/edit.json --chunks 2 -o job/out3.mp4 --work-dir job/run3 --root job --output-root job --backend gpu --frame-timeout 60
wait_queue
"$segue" farm status job/run3
planned_root=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["inputPolicy"]["root"])' job/run3/plan.json)
[ "$planned_root" = "$(realpath job)" ] || { cat job/run3/plan.json; fail "the plan records the root $planned_root"; }
[ -f job/out3.mp4 ] || { cat job/run3/logs/*; fail "run 3 produced no output"; }
[ "$(framemd5 job/out3.mp4 v)" = "$(framemd5 single.mp4 v)" ] || fail "run 3's video differs from the single pass"
[ "$(framemd5 job/out3.mp4 a)" = "$(framemd5 single.mp4 a)" ] || fail "run 3's audio differs from the single pass"
grep -q -- "--frame-timeout 60" job/run3/chunks.sbatch || fail "the chunk workers do not get --frame-timeout"
echo "farm-test: run 4: an OpenTimelineIO bundle (.otioz): every worker extracts it and reads it the same way"
"$segue" export-otio edit.json -o exported.otio
# The bundle: content.otio with its media references made relative, and the media under media/.
python3 - <<'PY'
import json, zipfile, os
tl = json.load(open("exported.otio"))
def walk(o):
    if isinstance(o, dict):
        if o.get("OTIO_SCHEMA") == "ExternalReference.1":
            o["target_url"] = "media/" + os.path.basename(o["target_url"])
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(tl)
with zipfile.ZipFile("edit.otioz", "w") as z:
    z.writestr("content.otio", json.dumps(tl))
    for k in range(3): z.write("c%d.mp4" % k, "media/c%d.mp4" % k)
PY
"$segue" farm slurm edit.otioz --chunks 3 -o out4.mp4 --work-dir run4 --backend gpu
check_plan run4/plan.json 6   # the exported timeline has each clip on an audio track too
python3 -c 'import json, sys; b = json.load(open(sys.argv[1]))["resolvedEdit"]["resolved"]["bundle"]; assert b.endswith("/edit.otioz"), b' run4/plan.json \
  || fail "run 4's resolved edit does not name its bundle"
wait_queue
"$segue" farm status run4
[ -f out4.mp4 ] || { cat run4/logs/*; fail "run 4 produced no output"; }
[ "$(framemd5 out4.mp4 v)" = "$(framemd5 single.mp4 v)" ] || fail "run 4's video (from the bundle) differs from the single pass"
ls /tmp/segue-otioz-* >/dev/null 2>&1 && fail "an extracted bundle was left in /tmp"
echo "farm-test: run 5: --cache: a second run reuses every chunk from the cache, to the same frames"
for k in a b; do
  "$segue" farm slurm edit.json --chunks 3 -o out5$k.mp4 --work-dir run5$k --cache cache5 --backend gpu
  wait_queue
  [ -f out5$k.mp4 ] || { cat run5$k/logs/*; fail "run 5$k produced no output"; }
  [ "$(framemd5 out5$k.mp4 v)" = "$(framemd5 single.mp4 v)" ] || fail "run 5$k's video differs from the single pass"
done
[ "$(grep -l 'reused from the cache' run5b/logs/chunk_*.log | wc -l)" = 3 ] || { cat run5b/logs/chunk_*; fail "run 5b did not reuse its 3 chunks"; }
[ "$(grep -l 'reused from the cache' run5a/logs/chunk_*.log | wc -l)" = 0 ] || fail "run 5a reused chunks from an empty cache"
echo "farm-test: run 6: segue batch --engine slurm: a task per row, a bad row failing alone; again, nothing rendered"
ffmpeg -nostdin -v error -f lavfi -i color=c=white:s=64x48 -frames:v 1 white.png
cat > card.json <<JSON
{"renderSize": {"width": 64, "height": 48}, "frameRate": 10,
 "tracks": [{"clips": [{"path": "{{photo}}", "duration": 0.5}]},
            {"clips": [{"text": "{{name}}", "duration": 0.5, "style": {"color": "black", "size": 20}}]}]}
JSON
printf 'id,name,photo\n1,Ann,white.png\n2,Bob,missing.png\n3,Cy,white.png\n' > rows.csv
set +e
"$segue" batch card.json rows.csv -o 'run6/{{id}}.mp4' --engine slurm --max-parallel 2 --backend cpu --no-audio --progress plain 2>run6.txt; rc=$?
set -e
[ "$rc" = 1 ] || { cat run6.txt run6/batch-results.jsonl.slurm/logs/* || true; fail "batch run 6 exited $rc"; }
python3 - run6/batch-results.jsonl <<'PY' || { cat run6.txt run6/batch-results.jsonl.slurm/logs/*; fail "run 6's results"; }
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [x["status"] for x in r] == ["ok", "failed", "ok"], r
assert "missing.png" in r[1]["error"], r[1]
assert r[0]["sha256"] != r[2]["sha256"], "rows 1 and 3 (Ann, Cy) rendered the same bytes"
PY
for k in 1 3; do
  [ "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "run6/$k.mp4")" = 5 ] || fail "run6/$k.mp4 is not 5 frames"
done
set +e
"$segue" batch card.json rows.csv -o 'run6/{{id}}.mp4' --engine slurm --backend cpu --no-audio --progress none 2>run6b.txt; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "0 rendered, 2 skipped, 1 failed" run6b.txt || { cat run6b.txt; fail "batch run 6 again: rc $rc"; }
echo "farm-test: run 7: a smart edit (--smart): chunks cut at the copied stretches' keyframes, the stitch copying"
ffmpeg -nostdin -v error -f lavfi -i testsrc2=s=320x180:r=25:d=4 -f lavfi -i sine=f=440:d=4 -c:v libx264 -preset medium \
  -pix_fmt yuv420p -g 25 -keyint_min 25 -sc_threshold 0 -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv \
  -c:a aac -shortest smart.mp4
cat > smart.json <<JSON
{"renderSize": {"width": 320, "height": 180}, "frameRate": 25,
 "clips": [{"path": "smart.mp4", "start": 0.2, "duration": 2.24},
           {"path": "smart.mp4", "start": 1.0, "duration": 2.0, "transition": {"type": "crossfade", "duration": 0.4}}],
 "output": {"smart": true}}
JSON
"$segue" render smart.json -o smart-single.mp4 --backend cpu --progress none
"$segue" farm slurm smart.json --chunks 4 -o out7.mp4 --work-dir run7 --backend cpu 2>run7.txt
grep -q "in 4 chunks (smart: 51 frames copied, 45 encoded" run7.txt || { cat run7.txt; fail "run 7's plan is not a smart one in 4 chunks"; }
wait_queue
[ -f out7.mp4 ] || { cat run7/logs/*; fail "run 7 produced no output"; }
packets() { ffmpeg -nostdin -v error -i "$1" -map 0:v -c copy -f framemd5 - | grep -v '^#'; }
[ "$(packets out7.mp4)" = "$(packets smart-single.mp4)" ] || fail "run 7's video packets differ from the one-pass smart render's"
[ "$(framemd5 out7.mp4 v)" = "$(framemd5 smart-single.mp4 v)" ] || fail "run 7's frames differ from the one-pass smart render's"
[ "$(framemd5 out7.mp4 a)" = "$(framemd5 smart-single.mp4 a)" ] || fail "run 7's audio differs from the one-pass smart render's"
[ -z "$(ffmpeg -nostdin -v warning -xerror -i out7.mp4 -f null - 2>&1)" ] || fail "FFmpeg warns decoding run 7's output"

echo "farm-test: run 8: segue serve --engine slurm: renders as chunked Slurm jobs, followed across a kill -9, cancelled"
printf 'acme:farm-test-token-8\n' > tokens8
"$segue" render edit.json -o single-auto.mp4 --backend auto --progress none
start_server() {
  "$segue" serve --engine slurm --chunks 3 --listen 127.0.0.1:0 --data serve8 --token-file tokens8 > serve8.out 2>> serve8.err &
  server=$!
  for _ in $(seq 100); do port=$(sed -nE 's#.*listening on http://127.0.0.1:([0-9]+).*#\1#p' serve8.out | tail -1); [ -n "$port" ] && break; sleep 0.1; done
  [ -n "$port" ] || { cat serve8.err; fail "segue serve did not start"; }
  : > serve8.out
}
api() { curl -sS -H "Authorization: Bearer farm-test-token-8" "$@"; }
field() { python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])"; }
wait_render() {   # ID STATUS: polls until the render has that status
  for _ in $(seq 300); do
    [ "$(api "http://127.0.0.1:$port/v1/renders/$1" | field status)" = "$2" ] && return 0
    sleep 1
  done
  api "http://127.0.0.1:$port/v1/renders/$1"; cat serve8.err; fail "render $1 is not $2 after 300 s"
}
start_server
for k in 0 1 2; do api --data-binary @"c$k.mp4" "http://127.0.0.1:$port/v1/assets?name=c$k.mp4" > /dev/null; done
sed -E 's#"path": "(c[0-9]\.mp4)"#"path": "asset:\1"#g' edit.json | python3 -c 'import json, sys; print(json.dumps({"edit": json.load(sys.stdin)}))' > request8.json
id=$(api -H "Content-Type: application/json" --data-binary @request8.json "http://127.0.0.1:$port/v1/renders" | field id)
wait_render "$id" done
api -o served8.mp4 "http://127.0.0.1:$port/v1/renders/$id/output"
[ "$(framemd5 served8.mp4 v)" = "$(framemd5 single-auto.mp4 v)" ] || fail "run 8's served render differs from the single-pass render"
[ "$(ls serve8/jobs/$id/farm/chunks | wc -l)" -ge 3 ] || fail "run 8's render was not chunked on Slurm"
# kill -9 once the chunks are submitted; the restarted server follows the same jobs (one chunks submission) to the end.
id=$(api -H "Content-Type: application/json" --data-binary @request8.json "http://127.0.0.1:$port/v1/renders" | field id)
for _ in $(seq 100); do [ -f "serve8/jobs/$id/farm/farm.json" ] && break; sleep 0.1; done
kill -9 "$server"; wait "$server" 2>/dev/null || true
start_server
wait_render "$id" done
python3 - "serve8/jobs/$id/farm/farm.json" <<'PY' || fail "run 8: the restarted server submitted the chunks again"
import json, sys
state = json.load(open(sys.argv[1]))
kinds = [s["kind"] for s in state["submissions"]]
assert kinds.count("chunks") == 1, kinds
PY
api -o served8b.mp4 "http://127.0.0.1:$port/v1/renders/$id/output"
[ "$(framemd5 served8b.mp4 v)" = "$(framemd5 single-auto.mp4 v)" ] || fail "run 8's render across a kill -9 differs from the single-pass render"
# Cancelled while its jobs are queued: no job of it is left in the queue.
scontrol update NodeName=ALL State=DRAIN Reason=farm-test 2>/dev/null || $SUDO scontrol update NodeName=ALL State=DRAIN Reason=farm-test
id=$(api -H "Content-Type: application/json" --data-binary @request8.json "http://127.0.0.1:$port/v1/renders" | field id)
for _ in $(seq 100); do [ -f "serve8/jobs/$id/farm/farm.json" ] && break; sleep 0.1; done
sleep 1
api -X DELETE "http://127.0.0.1:$port/v1/renders/$id" > /dev/null
wait_render "$id" cancelled
scontrol update NodeName=ALL State=RESUME 2>/dev/null || $SUDO scontrol update NodeName=ALL State=RESUME
[ -z "$(squeue -h -o %i)" ] || { squeue; fail "run 8: the cancelled render's jobs are still queued"; }
kill "$server"; wait "$server" 2>/dev/null || true
echo "farm-test: OK"
