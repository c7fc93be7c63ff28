#!/usr/bin/env bash
# make test's XCTest run: every test class of the suite, in three processes at once — classes named before "Li", those
# from "Li" on, and the classes that spend their time waiting on a clock rather than a core (REALTIME_CLASSES: the
# recordings of `segue record`, which take live streams in real time: about 55 s of wall time and little CPU). Most
# tests use one core at a time (a render of a few small frames, a subprocess), so on 2 cores two processes take about
# two thirds of the time one takes, and the real-time classes ride along. Each process runs its classes one after
# another, as `swift test` does; the test binary is run directly because two `swift test` at once wait for each
# other's lock on .build. Prints the first part as it runs, then the others' logs, then a summary; exits non-zero when a
# test failed, a process crashed or a class was not run.
#   Tests/run-tests.sh [XCTEST_BINARY]   (default .build/debug/SeguePackageTests.xctest, built by
#                                         `swift build --build-tests`)
set -uo pipefail
bin=${1:-.build/debug/SeguePackageTests.xctest}
logs=.build/test-logs
mkdir -p "$logs"
[ -x "$bin" ] || { echo "run-tests: $bin is not there: build with swift build --build-tests" >&2; exit 2; }

# Every class as TARGET.CLASS, from the binary itself (a name written here by hand could silently run nothing).
classes=$("$bin" --list-tests | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' | sed -E 's#/.*##' | sort -u)
total=$("$bin" --list-tests | grep -cE '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/')
realtime=${REALTIME_CLASSES:-RecordTests}
pattern="^[A-Za-z0-9_]+\\.($(tr ' ' '|' <<<"$realtime"))\$"
third=$(grep -E "$pattern" <<<"$classes" | paste -sd, -)
rest=$(grep -vE "$pattern" <<<"$classes")
first=$(awk -F. '$2 < "Li"' <<<"$rest" | paste -sd, -)
second=$(awk -F. '$2 >= "Li"' <<<"$rest" | paste -sd, -)

"$bin" "$second" > "$logs/second-half.log" 2>&1 &
pid=$!
if [ -n "$third" ]; then "$bin" "$third" > "$logs/realtime.log" 2>&1 & pid3=$!; else pid3=; : > "$logs/realtime.log"; fi
trap 'kill $pid $pid3 2>/dev/null' INT TERM
"$bin" "$first" 2>&1 | tee "$logs/first-half.log"
a=${PIPESTATUS[0]}
wait $pid
b=$?
c=0
[ -n "$pid3" ] && { wait $pid3; c=$?; }
echo "---- classes Li–Z (run at the same time as the above) ----"
cat "$logs/second-half.log"
echo "---- real-time classes ($realtime, run at the same time as the above) ----"
cat "$logs/realtime.log"

# The summary line of each process: "Executed N tests, with F failures".
summary() { grep -E "Executed [0-9]+ tests?, with" "$1" | tail -1; }
ran=0
for part in first-half second-half realtime; do
    line=$(summary "$logs/$part.log")
    n=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"${line:-Executed 0 tests}")
    ran=$((ran + n))
done
echo "---- tests: $ran of $total run; classes A–Le: exit $a ($(summary "$logs/first-half.log" | sed 's/^[[:space:]]*//')); classes Li–Z: exit $b ($(summary "$logs/second-half.log" | sed 's/^[[:space:]]*//')); real-time: exit $c ($(summary "$logs/realtime.log" | sed 's/^[[:space:]]*//'))"
grep -hE "error: |: error -|failed \(" "$logs/first-half.log" "$logs/second-half.log" "$logs/realtime.log" | head -40
[ "$a" = 0 ] && [ "$b" = 0 ] && [ "$c" = 0 ] && [ "$ran" = "$total" ]
