# Segue: `make demo` and `make test` work on a fresh Debian 12 machine (they install what they need).
SHELL := /bin/bash
SWIFT ?= swift
# The debug configuration (what `make build` and `make test` build, .build/debug) is compiled optimised (-O; @testable,
# assertions and overflow checks stay): the CPU reference renderer and the audio mixer run several times faster and the
# test suite takes about half the time (465 s against 861 s here). `make build SWIFT_DEBUG_FLAGS=` builds unoptimised
# for a debugger.
SWIFT_DEBUG_FLAGS ?= -Xswiftc -O
# chromium: the browser oracle of the colour functions and blend modes (BrowserOracleTests; tests only): 10 packages,
# about 370 MB installed.
DEB_PACKAGES := pkg-config libegl-dev libgles-dev libgbm-dev libdrm-dev libegl-mesa0 libgl1-mesa-dri \
                libavformat-dev libavdevice-dev libavcodec-dev libavfilter-dev libavutil-dev libswscale-dev libswresample-dev ffmpeg python3 \
                libheif-dev libexif-dev libtiff-dev libheif-examples libimage-exiftool-perl time libzip-dev python3-venv \
                libcurl4-openssl-dev libssl-dev \
                libpng-dev libjpeg62-turbo-dev librsvg2-dev librlottie-dev \
                libraqm-dev libharfbuzz-dev libfribidi-dev libfreetype-dev libfontconfig-dev libunibreak-dev libass-dev \
                fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
                tesseract-ocr tesseract-ocr-eng tesseract-ocr-ara tesseract-ocr-chi-sim libharfbuzz-bin \
                man-db groff-base zsh fish \
                libmicrohttpd-dev libsqlite3-dev
# Only `make test` and `make farm-test` need these (the real Slurm cluster of Tests/Farm/farm-test.sh; libde265, the
# second HEVC decoder of SmartRenderTests; headless Chromium,
# the browser oracle of BrowserOracleTests): installed with
# the others, in one apt-get, when one of them is the goal.
DEB_TEST_PACKAGES := slurm-wlm munge chromium libde265-examples
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release demo memory layers text text-docs man test example farm-test fixtures fuzz leakcheck bench gpu-check clean otio-venv schema-venv openapi-venv

# Installs the Debian packages that are missing (apt-get update first, as a fresh machine needs).
deps:
	@missing=$$(for p in $(DEB_PACKAGES) $(if $(filter test farm-test,$(MAKECMDGOALS)),$(DEB_TEST_PACKAGES)); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_DEBUG_FLAGS)

release: deps
	$(SWIFT) build -c release

fixtures: deps
	Fixtures/make-fixtures.sh

# Renders the bundled example edit to ./demo.mp4.
demo: release fixtures
	.build/release/segue render Fixtures/demo.json -o demo.mp4 --verbose
	@ffprobe -v error -show_entries stream=codec_name,width,height,nb_frames,duration -of compact demo.mp4

# Renders Fixtures/memory.json (photos + video + music: a portrait JPEG with EXIF orientation 6, a PNG with alpha,
# a HEIC photo) to ./memory.mp4.
memory: release fixtures
	.build/release/segue render Fixtures/memory.json -o memory.mp4 --verbose

# Renders Fixtures/layers.json (tracks: a clip crossfading into another; a phone clip sliding in as a
# picture-in-picture, then a lower-third card; a PNG logo with alpha over everything; a voice-over on an audio track;
# music ducked under it) to ./layers.mp4.
layers: release fixtures
	.build/release/segue render Fixtures/layers.json -o layers.mp4 --verbose

# Renders Fixtures/titles.json (titles in six scripts, each in another style, over a lower third) and
# Fixtures/captions.json (a clip with a title fading in and SubRip captions) to ./titles.mp4 and ./captions.mp4.
text: release fixtures
	.build/release/segue render Fixtures/titles.json -o titles.mp4 --verbose
	.build/release/segue render Fixtures/captions.json -o captions.mp4 --verbose

# The contact sheets of docs/text.md: docs/text-titles.png and docs/text-captions.png.
text-docs: build fixtures
	.build/debug/segue sheet Fixtures/titles.json -o docs/text-titles.png --cols 3 --tile-width 320
	.build/debug/segue sheet Fixtures/captions.json -o docs/text-captions.png --cols 2 --tile-width 320

# The manual page and the reference of every command and option, generated from the option table
# (Sources/segue/Options*.swift, CommandTable.swift): docs/segue.1 (`man -l docs/segue.1`) and docs/cli-reference.md.
# CLIHelpTests fails when they differ from what `segue man` prints.
man: build
	.build/debug/segue man > docs/segue.1
	.build/debug/segue man --format markdown > docs/cli-reference.md

# The oracle of the OpenTimelineIO tests: the `opentimelineio` package and its CMX 3600 EDL and FCP 7 XML adapters
# (separate packages since OTIO 0.17), from PyPI into a virtual environment made once and kept in .build (about 11 s
# the first time). Only the tests use it: Segue reads and writes OTIO itself, and nothing is fetched at render time.
OTIO_VENV := .build/otio-venv
OTIO_PACKAGES := opentimelineio==0.18.1 otio-cmx3600-adapter==1.0.0 otio-fcp-adapter==1.0.0
otio-venv: deps
	@if [ ! -x $(OTIO_VENV)/bin/otioconvert ] || [ ! -f $(OTIO_VENV)/.segue-packages ] || [ "$$(cat $(OTIO_VENV)/.segue-packages)" != "$(OTIO_PACKAGES)" ]; then \
	  rm -rf $(OTIO_VENV) && python3 -m venv $(OTIO_VENV) && $(OTIO_VENV)/bin/pip install -q --disable-pip-version-check $(OTIO_PACKAGES) && \
	  echo "$(OTIO_PACKAGES)" > $(OTIO_VENV)/.segue-packages; \
	fi

# The oracles of the edit file's JSON Schema tests (`segue schema`): Python's `jsonschema` (draft 2020-12), and of the
# SVG tests (SVGStillTests): CairoSVG, another SVG implementation than the librsvg Segue draws with; of the Lottie tests
# (LottieTests): python-lottie (`lottie`, drawing a frame through CairoSVG), another player than rlottie; from PyPI, in a
# virtual environment made once and kept in .build. Only the tests use it.
SCHEMA_VENV := .build/schema-venv
SCHEMA_PACKAGES := jsonschema==4.23.0 cairosvg==2.7.1 lottie==0.7.0
schema-venv: deps
	@if [ ! -x $(SCHEMA_VENV)/bin/python ] || [ ! -f $(SCHEMA_VENV)/.segue-packages ] || [ "$$(cat $(SCHEMA_VENV)/.segue-packages)" != "$(SCHEMA_PACKAGES)" ]; then \
	  rm -rf $(SCHEMA_VENV) && python3 -m venv $(SCHEMA_VENV) && $(SCHEMA_VENV)/bin/pip install -q --disable-pip-version-check $(SCHEMA_PACKAGES) && \
	  echo "$(SCHEMA_PACKAGES)" > $(SCHEMA_VENV)/.segue-packages; \
	fi

# The oracle of docs/openapi.json (OpenAPIDocTests): openapi-spec-validator, which checks an OpenAPI 3.1 document
# against the specification's schema and rules; from PyPI, in its own virtual environment (it needs a newer jsonschema
# than schema-venv pins), made once and kept in .build. Only the tests use it.
OPENAPI_VENV := .build/openapi-venv
OPENAPI_PACKAGES := openapi-spec-validator==0.9.0
openapi-venv: deps
	@if [ ! -x $(OPENAPI_VENV)/bin/python ] || [ ! -f $(OPENAPI_VENV)/.segue-packages ] || [ "$$(cat $(OPENAPI_VENV)/.segue-packages)" != "$(OPENAPI_PACKAGES)" ]; then \
	  rm -rf $(OPENAPI_VENV) && python3 -m venv $(OPENAPI_VENV) && $(OPENAPI_VENV)/bin/pip install -q --disable-pip-version-check $(OPENAPI_PACKAGES) && \
	  echo "$(OPENAPI_PACKAGES)" > $(OPENAPI_VENV)/.segue-packages; \
	fi

# Every test. GPU tests run on Mesa llvmpipe where there is no GPU; under CI=true they fail rather than skip.
# Tests/run-tests.sh runs the XCTest classes in three processes at once (names before "Li", the rest, and the classes
# that wait on a clock: RecordTests' real-time recordings; about 6 min instead of 12.9 here: most tests use one core at
# a time); `swift test --skip-build --disable-swift-testing` runs them in one, `--filter` some.
# The real Slurm run (farm-test) beside them; then the library's example package (Examples/ThreeClips).
# TEST_ENV: llvmpipe compiles the tests' shaders without LLVM's optimisation passes (Mesa's GALLIVM_PERF=nopt). The
# tests' frames are tiny, so compiling the several hundred shader programs they make dominates (a cold Mesa shader
# cache, as on a fresh machine): HDRRenderTests' and PlanarColourTests' GPU-against-CPU tests take 21 s instead of 71 s,
# with the same results (53.08 dB worst plane both ways). It has no effect on a real GPU, and renders are not run so.
TEST_ENV ?= GALLIVM_PERF=nopt
# The Slurm run (about 80 s, nearly all of it waiting on Slurm's scheduler: 8 s of CPU) runs beside the XCTest run, its
# log printed after it.
test: deps otio-venv schema-venv openapi-venv
	$(SWIFT) build --build-tests $(SWIFT_DEBUG_FLAGS)
	@mkdir -p .build/test-logs
	@$(TEST_ENV) Tests/Farm/farm-test.sh .build/debug/segue > .build/test-logs/farm-test.log 2>&1 & farm=$$!; \
	  $(TEST_ENV) Tests/run-tests.sh; tests=$$?; \
	  wait $$farm; f=$$?; echo "---- Tests/Farm/farm-test.sh (run at the same time as the above): exit $$f ----"; \
	  cat .build/test-logs/farm-test.log; [ $$tests = 0 ] && [ $$f = 0 ]
	$(MAKE) example

# Builds the example client of the Segue library (its own package, depending on this one by path) and runs it on
# generated clips, checking the output's size and frame count.
example: deps
	$(SWIFT) build --package-path Examples/ThreeClips
	Examples/ThreeClips/check.sh Examples/ThreeClips/.build/debug/ThreeClips

# A real single-node Slurm cluster (installs slurm-wlm and munge; needs root or sudo) running `segue farm slurm`:
# retries, refusal to stitch a failed chunk, resume, output identical to a single pass.
farm-test: build
	Tests/Farm/farm-test.sh .build/debug/segue

# Benchmark against FFmpeg's filtergraph and the codec floor (see bench/run.py for BENCH_* settings).
# Three edits: issue 14's (3 clips x 4 s, one portrait, crossfade + push; also with a logo over every frame, issue 19),
# the peers' edit (6 x 4 s at 720p, five transitions, one a gl-transitions shader, against FFmpeg's xfade graph: issue 25)
# and the demo edit's 4 x 3 s one (docs/performance.md) (with the memory run and the 4K60 prefilter case); issue 34's
# cache (a 60 s edit re-rendered after one title changed) and batch (20 variants by `segue batch` against 20 renders).
bench: release
	BENCH_CLIPS=3 BENCH_CLIP_SECONDS=4 BENCH_LONG=0 BENCH_PREFILTER=0 python3 bench/run.py
	BENCH_CLIPS=4 BENCH_CLIP_SECONDS=3 BENCH_LOGO=0 BENCH_PEERS=0 python3 bench/run.py
	BENCH_CACHE_ONLY=1 BENCH_SIZE=1280x720 BENCH_REPS=1 python3 bench/run.py
	BENCH_BATCH_ONLY=1 BENCH_SIZE=1280x720 BENCH_REPS=1 python3 bench/run.py
	BENCH_LUT_ONLY=1 python3 bench/run.py
	BENCH_SMART_ONLY=1 python3 bench/run.py

# On a machine with an NVIDIA GPU: EGL device platform on the NVIDIA driver (fails loudly on llvmpipe), CUDA
# decoding, composite + readback frames/s at 1080p and 4K, end to end against FFmpeg, NVENC failing cleanly;
# one JSON line (bench/gpu_check.py says more).
gpu-check: release
	python3 bench/gpu_check.py

# Fuzzes the edit-file parser and the input policy (paths, URLs, --root, limits; corpus entries with the fields of
# track-based edits: tracks, layer, text, fonts, captions) with libFuzzer for FUZZ_SECONDS (default 180), with the
# dictionary Fuzz/editfile.dict. A crash leaves fuzz-crash-* here: turn it into a test in
# Tests/SegueEditTests/EditFileFuzzRegressionTests.swift.
FUZZ_SECONDS ?= 180
fuzz: deps
	rm -rf .build/fuzz-src && mkdir -p .build .build/fuzz-corpus .build/fuzz-src
	# SegueCore and SegueEdit compiled as one module (their imports of each other dropped), with the fuzz entry point.
	for f in Sources/SegueCore/*.swift Sources/SegueEdit/*.swift; do sed '/^import SegueCore$$/d' "$$f" > ".build/fuzz-src/$$(basename "$$(dirname "$$f")")-$$(basename "$$f")"; done
	swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name SegueEdit .build/fuzz-src/*.swift Fuzz/EditFileFuzz.swift -o .build/fuzz-editfile
	cp Fuzz/corpus/* .build/fuzz-corpus/
	.build/fuzz-editfile -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -dict=Fuzz/editfile.dict -artifact_prefix=fuzz- .build/fuzz-corpus

# Renders under valgrind's memcheck: a small edit, and the failing paths (an encoder that cannot open, an EGL
# platform that fails, a corrupt clip with and without --verbose, a probe of files some of which cannot be read, an
# option a command does not take, a render interrupted by SIGINT); fails on definite leaks or memory errors.
leakcheck: build fixtures
	valgrind --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq valgrind; }
	Tests/leakcheck.sh .build/debug/segue

clean:
	rm -rf .build Examples/ThreeClips/.build Fixtures/generated demo.mp4 memory.mp4 layers.mp4 titles.mp4 captions.mp4
