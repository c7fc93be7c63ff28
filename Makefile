# Segue: `make demo` and `make test` work on a fresh Debian 12 machine (they install what they need).
SHELL := /bin/bash
SWIFT ?= swift
DEB_PACKAGES := pkg-config libegl-dev libgles-dev libgbm-dev libdrm-dev libegl-mesa0 libgl1-mesa-dri \
                libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev ffmpeg
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release demo test fixtures clean

# Installs the Debian packages that are missing (apt-get update first, as a fresh machine needs).
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

fixtures: deps
	Fixtures/make-fixtures.sh

# Renders the bundled example edit to ./demo.mp4.
demo: release fixtures
	.build/release/segue render Fixtures/demo.json -o demo.mp4 --verbose
	@ffprobe -v error -show_entries stream=codec_name,width,height,nb_frames,duration -of compact demo.mp4

# Every test. GPU tests run on Mesa llvmpipe where there is no GPU; under CI=true they fail rather than skip.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

clean:
	rm -rf .build Fixtures/generated demo.mp4
