# Lumen's two entry points for a fresh Debian 12 / Ubuntu 24.04 machine (see README.md):
#   make run    install what is missing, build, open the editor on the bundled sample
#   make check  install what is missing, build, run every test suite (and again under ASan)

BUILD      ?= build
ASAN_BUILD ?= build-asan
PYTHON     := /usr/bin/python3
SAMPLE     := data/samples/ladybird.jpg

# Build: compiler, meson, the libraries. Tests: OpenCV as the oracle.
BUILD_DEPS := build-essential pkg-config meson ninja-build gettext \
              libglib2.0-dev libgdk-pixbuf-2.0-dev libgtk-3-dev libjpeg-dev libpng-dev \
              libtiff-dev liblapacke-dev libopenblas0-pthread libexif-dev libstb-dev libopenexr-dev libgif-dev libwebp-dev \
              liblcms2-dev libcfitsio-dev desktop-file-utils
TEST_DEPS  := python3 python3-numpy python3-opencv python3-pil libimage-exiftool-perl colord-data \
              xvfb xauth desktop-file-utils appstream-util slurm-wlm munge \
              python3-scipy python3-astropy python3-photutils python3-sep source-extractor \
              eso-midas-testdata
# localedef's sources: the window tests run in French (tests/ui/run-in-french.sh).
TEST_DEPS  += locales
# Camera raw files (core/io/raw.c); the tests' DNG writer, a real Canon CR2 and LibRaw's tools.
BUILD_DEPS += libraw-dev
TEST_DEPS  += python3-tifffile rawtran-doc libraw-bin
# Lens correction (core/lens): lensfun 0.3 and its database; the tests' oracle links it too.
BUILD_DEPS += liblensfun-dev liblensfun-data-v1
TEST_DEPS  += liblensfun1 liblensfun-data-v1
# Object detection (core/detect): opencv-data's cascade models; scikit-image's astronaut.
TEST_DEPS  += opencv-data python3-skimage

.PHONY: run check deps test-deps build asan-build clean

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_DEPS)"

test-deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_DEPS) $(TEST_DEPS)"

# apt-get when root; otherwise print the exact command and stop. Another apt-get or the
# system's unattended upgrades may hold the package manager's locks: wait for them (10 min).
# DPkg::Lock::Timeout covers dpkg's locks; `apt-get update`'s lists lock ignores it, so the
# update is retried while another holds that lock.
APT_GET := LC_ALL=C apt-get -o DPkg::Lock::Timeout=600

install-packages:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    for i in $$(seq 120); do \
	      out=$$($(APT_GET) update -qq 2>&1) && break; \
	      echo "$$out" | grep -q 'Could not get lock' || { echo "$$out" >&2; exit 1; }; \
	      [ $$i = 1 ] && echo "Waiting for another package manager to finish…"; \
	      [ $$i = 120 ] && { echo "$$out" >&2; exit 1; }; \
	      sleep 5; \
	    done; \
	    DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	  else \
	    echo "Lumen needs these packages. Install them, then run make again:"; \
	    echo "  sudo apt-get install -y --no-install-recommends$$missing"; \
	    exit 1; \
	  fi; \
	fi

# The CUDA architectures: the GPUs this machine has; with none (no driver), one architecture
# with its PTX, so that every kernel is still compiled and checked while nothing could run
# them (meson's default list, for other machines, is in meson_options.txt).
GPU_ARCHS ?= $(shell command -v nvidia-smi >/dev/null 2>&1 \
  && nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d '. ' | sort -u | paste -sd, - \
  || echo 90)

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(if $(GPU_ARCHS),-Dgpu_archs=$(GPU_ARCHS))

build: deps $(BUILD)/build.ninja
	meson compile -C $(BUILD)

# The editor on the sample, from the build tree (its settings schema is compiled there).
run: build
	GSETTINGS_SCHEMA_DIR=$(BUILD)/data $(BUILD)/ui/lumen $(SAMPLE)

# Debug information at line level only (-g1: ASan's reports keep their files and lines, and
# the build costs CI's 2 cores a fifth less than -g); assertions stay (b_ndebug).
$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) -Dcuda=disabled -Dgui=disabled -Doptimization=2 -Ddebug=false \
	  -Dc_args=-g1 -Db_ndebug=false -Db_sanitize=address,undefined -Db_lundef=false

asan-build: test-deps $(ASAN_BUILD)/build.ninja
	meson compile -C $(ASAN_BUILD)

# Every suite in the normal build, then in the ASan+UBSan build, where LeakSanitizer makes a
# leak fail its test, the suites that parse and compute (unit, bad input, formats, HDR, fuzz);
# the CLI's end-to-end suites run in the normal build only, for CI's time on 2 cores. The
# last line counts both: "N passed, N failed".
# The window tests (suite ui) mostly wait on their X servers: they run UI_PROCESSES at a time
# in the background from the moment the build is done, beside the other suites and the
# sanitizers' build; their output follows the others' (results in meson-logs/ui.json, which
# summary.py reads with testlog.json).
# Each run's temporary files go to a folder of its own (TMPDIR), which summary.py counts as
# one more test: it must be empty at the end.
UI_PROCESSES ?= 4
check: test-deps build
	@rm -rf $(BUILD)/test-tmp $(ASAN_BUILD)/test-tmp; mkdir -p $(BUILD)/test-tmp $(ASAN_BUILD)/test-tmp
	@rm -f $(BUILD)/meson-logs/*.json $(ASAN_BUILD)/meson-logs/*.json
	@status=0; \
	TMPDIR=$(abspath $(BUILD)/test-tmp) meson test -C $(BUILD) --no-rebuild --print-errorlogs \
	  --num-processes $(UI_PROCESSES) --suite ui --logbase ui >$(BUILD)/meson-logs/ui-console.txt 2>&1 & ui=$$!; \
	echo "meson test -C $(BUILD) --suite ui --num-processes $(UI_PROCESSES): in the background"; \
	TMPDIR=$(abspath $(BUILD)/test-tmp) meson test -C $(BUILD) --no-rebuild --print-errorlogs \
	  --num-processes 2 --no-suite ui; \
	if $(MAKE) --no-print-directory asan-build; then \
	  TMPDIR=$(abspath $(ASAN_BUILD)/test-tmp) \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  meson test -C $(ASAN_BUILD) --print-errorlogs --num-processes 2 \
	    --suite unit --suite bad-input --suite formats --suite hdr --suite fuzz --timeout-multiplier 3; \
	else status=1; fi; \
	wait $$ui; echo "The window tests (suite ui):"; cat $(BUILD)/meson-logs/ui-console.txt; \
	$(PYTHON) tests/summary.py $(BUILD) $(ASAN_BUILD) || status=1; \
	exit $$status

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
