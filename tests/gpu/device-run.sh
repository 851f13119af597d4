#!/usr/bin/env bash
# Runs on the GPU machine, from the checkout's root, after tests/gpu/device-pack.sh here:
# the CPU/GPU parity suite, Lumen's GPU and CPU benchmarks, and in the same call the peers
# (NPP, OpenCV on all cores, CuPy) and the machine's bandwidth limits. Logs and JSON go to
# $OUT; the last lines printed are the summary tables.
#   LUMEN_DEVICE_STEPS="parity bench peers" selects steps (default: all); hdr-parity and
#   hdr-bench are the HDR merge's and tone mapping's, batch and batch-bench lumen-cli
#   batch's; window-debug takes backtraces of a window that does not answer. faults injects
#   GPU failures (LUMEN_CUDA_FAULT) into lumen-cli, a batch and the window; soak edits the
#   window 10,000 times on CUDA (bench/soak.sh); fuzz runs the fuzz campaign of the pack's
#   fuzz-pack.tar.xz in the background while the other steps run (LUMEN_FUZZ_SECONDS per
#   harness, LUMEN_FUZZ_PARALLEL harnesses at once, LUMEN_FUZZ_JOBS processes each).
#   geometry times crop, straighten, resize and the fused point pass against NPP, after
#   their parity (bench/RESULTS.md, "Geometry against NPP on the H200").
set -uo pipefail
pack=${LUMEN_DEVICE_PACK:-.device}
OUT=${OUT:-/tmp/lumen-out}
mkdir -p "$OUT"
export LUMEN_ICC_DIR="$PWD/$pack/icc"
export LUMEN_LENSFUN_DB="$PWD/$pack/lensfun"
steps=${LUMEN_DEVICE_STEPS:-parity tiles hdr-parity memory cli compare window bench view-bench hdr-bench peers detect}
export PYTHONUNBUFFERED=1

# Once: a second run of this script beside the first (a step in the background) shares it.
[ -d "$pack/bundle" ] || tar -C "$pack" -xJf "$pack/bundle.tar.xz"
source "$pack/bundle/env.sh"
bin="$pack/bundle/bin"
export LUMEN_TEST_DATA="$pack/data"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
echo "commit $(cat "$pack/commit" | tr '\n' ' ')" | tee -a "$OUT/gpu.txt"
nproc | sed 's/^/cpus /' | tee -a "$OUT/gpu.txt"
status=0

if [[ " $steps " == *" fuzz "* ]] && [ -f "$pack/fuzz-pack.tar.xz" ]; then
  echo "== fuzz (in the background)"
  tar -C /tmp -xJf "$pack/fuzz-pack.tar.xz"
  bash /tmp/fuzz-pack/fuzz/run-campaign.sh run -b /tmp/fuzz-pack -t "${LUMEN_FUZZ_SECONDS:-400}" \
    -p "${LUMEN_FUZZ_PARALLEL:-12}" -j "${LUMEN_FUZZ_JOBS:-1}" -w /tmp/fuzz-campaign -a "$OUT/fuzz-campaign.tar.xz" \
    > "$OUT/fuzz.log" 2>&1 &
  fuzz_pid=$!
fi

if [[ " $steps " == *" parity "* ]]; then
  echo "== parity"
  "$bin/test-parity" > "$OUT/parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|parity)" "$OUT/parity.log" | tail -n 20
  # The view through the colour transform's tables: the same bytes from both backends.
  "$bin/test-view-parity" > "$OUT/view-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|view parity)" "$OUT/view-parity.log" | tail -n 20
  "$bin/test-mask-parity" > "$OUT/mask-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|mask parity)" "$OUT/mask-parity.log" | tail -n 20
  # Masked instances through the whole render and in tiles.
  LUMEN_PARITY_VERBOSE=1 "$bin/test-render-masks-parity" > "$OUT/render-masks-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|ok|render masks parity)" "$OUT/render-masks-parity.log" | tail -n 20
  # A large photo's view from its pyramid: levels, regions and the diff view, CUDA against CPU.
  "$bin/test-level-parity" > "$OUT/level-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|level parity)" "$OUT/level-parity.log" | tail -n 40
fi

if [[ " $steps " == *" tiles "* ]]; then
  echo "== tiles"
  # Tiled renders under LUMEN_CUDA_MEMORY_LIMIT (8 GB and 1 GB, one child each) against the
  # untiled CUDA render and the CPU, then what tiling costs at 100 MP.
  LUMEN_PARITY_VERBOSE=1 "$bin/test-tiled-parity" > "$OUT/tiled-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|tiled parity|limit|100 MP:)|600 MP" "$OUT/tiled-parity.log" | tail -n 30
  "$bin/bench-tiled" > "$OUT/bench-tiled.log" 2>&1 || status=1
  LUMEN_CUDA_MEMORY_LIMIT=1073741824 "$bin/bench-tiled" >> "$OUT/bench-tiled.log" 2>&1 || status=1
  grep -E "^(bench-tiled|untiled|tiled)" "$OUT/bench-tiled.log"
fi

if [[ " $steps " == *" hdr-parity "* ]]; then
  echo "== hdr-parity"
  "$bin/test-hdr-parity" > "$OUT/hdr-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|hdr parity|one CUDA)" "$OUT/hdr-parity.log" | tail -n 20
  "$bin/test-hdr16-parity" > "$OUT/hdr16-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|hdr16 parity|hdr parity)" "$OUT/hdr16-parity.log" | tail -n 20
fi

if [[ " $steps " == *" window-debug "* ]]; then
  echo "== window-debug"
  export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$PWD/$pack/schemas" NO_AT_BRIDGE=1 XDG_DATA_DIRS="$PWD/$pack/share:${XDG_DATA_DIRS:-/usr/share}"
  export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent-bus
  "$bin/ui-latency" --backend cuda --op gray --count 5 "$pack/data/photos/boats-sunset.jpg" \
    > "$OUT/window-debug.log" 2>&1 &
  pid=$!
  sleep 15
  if kill -0 $pid 2>/dev/null; then
    gdb=$(command -v gdb || command -v cuda-gdb || ls /usr/local/cuda/bin/cuda-gdb 2>/dev/null)
    echo "still running after 15 s; backtraces with ${gdb:-no debugger}"
    [ -n "$gdb" ] && timeout 60 "$gdb" -p $pid -batch -ex "thread apply all bt" > "$OUT/window-bt.log" 2>&1
    grep -E "^(Thread|#)" "$OUT/window-bt.log" | grep -v -e "in ?? ()" | head -n 60
    kill -9 $pid
  fi
  grep -v -e Gtk-WARNING -e "may indicate" -e '^$' "$OUT/window-debug.log" | tail -n 5
fi

if [[ " $steps " == *" batch "* ]]; then
  echo "== batch"
  for b in cpu cuda; do
    "$bin/lumen-cli" batch --backend $b --format png --timings --progress plain -o /tmp/batch-$b \
      "$pack/data/hdr" > "$OUT/batch-$b.log" 2>&1 || status=1
    tail -n 12 "$OUT/batch-$b.log"
  done
  python3 - <<'PY' || status=1
import glob, cv2, numpy as np
worst = 0
for f in sorted(glob.glob("/tmp/batch-cpu/*.png")):
    d = int(np.abs(cv2.imread(f).astype(int) - cv2.imread(f.replace("batch-cpu", "batch-cuda")).astype(int)).max())
    print("batch cpu vs cuda", f.split("/")[-1], "max |d|", d)
    worst = max(worst, d)
raise SystemExit(0 if worst <= 1 else 1)
PY
fi

if [[ " $steps " == *" batch-bench "* ]]; then
  echo "== batch-bench"
  # 12 MP 3-exposure stacks ≥ 30 s per run: CUDA (libjpeg-turbo, nvJPEG, one response), the
  # CPU, OpenCV's process pool, and the disk's rates, into $OUT/batch-bench.
  OUT="$OUT/batch-bench" LUMEN_TEST_DATA="$pack/data" bash bench/bench-batch.sh "$bin/lumen-cli" /tmp/lumen-bench-batch \
    > "$OUT/batch-bench.log" 2>&1 || status=1
  sed -n '/== batch benchmark/,$p' "$OUT/batch-bench.log"
fi

if [[ " $steps " == *" cli "* ]]; then
  echo "== cli"
  photo="$pack/data/photos/boats-sunset.jpg"
  # The CLI tests, here with a device: --backend cuda must work.
  LUMEN_CLI="$bin/lumen-cli" LUMEN_TEST_DATA="$pack/data" python3 tests/cli/test_cli.py \
    > "$OUT/cli-tests.log" 2>&1 || { status=1; tail -n 30 "$OUT/cli-tests.log"; }
  tail -n 3 "$OUT/cli-tests.log"
  # 16-bit files in and out and the linear merge of 16-bit exposures, on the device's backend.
  for t in cli/test_cli_depth16.py hdr/test_hdr16.py; do
    LUMEN_CLI="$bin/lumen-cli" LUMEN_TEST_DATA="$pack/data" python3 "tests/$t" \
      > "$OUT/$(basename "$t" .py).log" 2>&1 || { status=1; tail -n 30 "$OUT/$(basename "$t" .py).log"; }
    tail -n 3 "$OUT/$(basename "$t" .py).log"
  done
  # A render that does not fit the device renders there in tiles: the one-piece render's bytes.
  "$bin/lumen-cli" --backend cuda --gray bt601 --blur 3 -o /tmp/whole.png "$photo" || status=1
  LUMEN_CUDA_MEMORY_LIMIT=24M "$bin/lumen-cli" --backend cuda --timings --gray bt601 --blur 3 \
    -o /tmp/tiled.png "$photo" > /tmp/tiled.txt 2>&1 || status=1
  if grep -q "tiles: " /tmp/tiled.txt && cmp -s /tmp/whole.png /tmp/tiled.png; then
    echo "tiles under a 24 MiB GPU: ok ($(grep "tiles: " /tmp/tiled.txt | head -n 1))"
  else
    echo "tiles under a 24 MiB GPU: FAILED ($(cat /tmp/tiled.txt))"; status=1
  fi
  "$bin/lumen-cli" compare --gray bt601 --equalize luma --blur 10 --heatmap /tmp/heat.png "$photo" \
    | tee "$OUT/compare.txt" || status=1
fi

if [[ " $steps " == *" jpeg "* ]]; then
  echo "== jpeg"
  # JPEG export through nvJPEG: its pixels against the CPU writer's and the source at q95, q90
  # and q75 (the figures of docs/files.md), its metadata, its fall-backs; then its speed against the
  # CPU's encoder at 24 and 50 MP.
  LUMEN_CLI="$bin/lumen-cli" LUMEN_TEST_DATA="$pack/data" LUMEN_REQUIRE_NVJPEG=1 python3 tests/gpu/test_nvjpeg_export.py \
    > "$OUT/nvjpeg-export.log" 2>&1 || { status=1; tail -n 30 "$OUT/nvjpeg-export.log"; }
  grep -E "^nvjpeg export|^(OK|FAILED)" "$OUT/nvjpeg-export.log"
  LUMEN_BENCH_PHOTO="$pack/data/photos/beach-aerial-15mp.jpg" python3 bench/bench-jpeg-export.py \
    --cli "$bin/lumen-cli" --json "$OUT/jpeg-export.json" | tee "$OUT/jpeg-export.txt" || status=1
fi

if [[ " $steps " == *" window "* ]]; then
  echo "== window"
  export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$PWD/$pack/schemas" NO_AT_BRIDGE=1 XDG_DATA_DIRS="$PWD/$pack/share:${XDG_DATA_DIRS:-/usr/share}"
  # No session bus there: say so, rather than let GLib try to start one.
  export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent-bus
  # The window tests, on the GPU this time, with a screenshot of the real window.
  if [ -z "${LUMEN_WINDOW_PROGRAMS:-}" ]; then
    LUMEN_SCREENSHOT="$OUT/window-gpu.png" timeout 120 "$bin/test-window" --tap > "$OUT/window-tests.log" 2>&1 || status=1
    grep -E "^(ok|not ok)|compare:" "$OUT/window-tests.log"
  fi
  # The other window programs. The bundle is no build tree: its catalogues are named, and the
  # test of finding them in a build tree is for CI.
  # LUMEN_WINDOW_PROGRAMS="state panels" runs those alone (the window tests' own step, without
  # test-window, the 600 MP photo and the latency).
  for t in ${LUMEN_WINDOW_PROGRAMS:-navigate state panels}; do
    skip=(); threads=$(nproc)
    # As in tests/meson.build: the busy indicator's render on one thread, slow enough to see.
    [ $t = state ] && skip=(-s /state/build-tree-german) threads=1
    LC_ALL=$(locale -a 2>/dev/null | grep -i -m1 -E '^(de_DE|en_US|en_GB)\.utf-?8$' || echo C.UTF-8) \
    OMP_NUM_THREADS=$threads LUMEN_LOCALEDIR="$PWD/$pack/locale" LUMEN_CLI="$bin/lumen-cli" timeout 180 "$bin/test-$t" --tap "${skip[@]}" \
      > "$OUT/window-$t.log" 2>&1 || status=1
    grep -E "^(ok|not ok)|^# (compare|close|busy|speed)" "$OUT/window-$t.log"
  done
  [ -n "${LUMEN_WINDOW_PROGRAMS:-}" ] && window_rest=false || window_rest=true
fi
if [[ " $steps " == *" window "* ]] && $window_rest; then
  # A 600 MP photo in the window on the GPU: views, memory and the figures for RESULTS.md.
  LUMEN_SLOW_TESTS=1 timeout 400 "$bin/test-large-view" --tap > "$OUT/window-large-view.log" 2>&1 || status=1
  grep -E "^(ok|not ok)|^# 600 MP" "$OUT/window-large-view.log"
  python3 - "$pack" <<'PY'
import sys, cv2
src = cv2.imread(sys.argv[1] + "/data/photos/beach-aerial-15mp.jpg")
cv2.imwrite("/tmp/50mp.jpg", cv2.resize(src, (8660, 5773), interpolation=cv2.INTER_CUBIC),
            [cv2.IMWRITE_JPEG_QUALITY, 92])
PY
  # A small photo first: whether the measurement works at all on the GPU.
  timeout 60 "$bin/ui-latency" --backend cuda --op gray --count 20 "$pack/data/photos/boats-sunset.jpg" \
    2>&1 | grep -v -e Gtk-WARNING -e "may indicate" | tail -n 4
  # exposure: a point operation's slider (the fused pass); curve: a point of the curve editor.
  for op in blur gray equalize exposure curve; do
    LUMEN_SCREENSHOT="$OUT/window-gpu-$op.png" timeout 120 "$bin/ui-latency" --backend cuda --op $op --count 200 --json "$OUT/latency-cuda-$op.json" \
      /tmp/50mp.jpg 2>"$OUT/latency-cuda-$op.log" || { status=1; tail -n 5 "$OUT/latency-cuda-$op.log"; }
  done
fi

if [[ " $steps " == *" masks-latency "* ]]; then
  echo "== masks-latency"
  # Issue 32's goal: slider to result at 50 MP with three masked instances on (a gradient and a
  # brush stroke each, feathered), the first instance's slider and the last one's.
  [ -f /tmp/50mp.jpg ] || python3 -c "import sys, cv2; cv2.imwrite('/tmp/50mp.jpg', cv2.resize(cv2.imread(sys.argv[1]), (8660, 5773), interpolation=cv2.INTER_CUBIC), [cv2.IMWRITE_JPEG_QUALITY, 92])" "$pack/data/photos/beach-aerial-15mp.jpg"
  python3 bench/make-masked-sidecar.py --size 8660x5773 -o /tmp/three.lumen /tmp/50mp.jpg || status=1
  for inst in ${LUMEN_MASK_INSTANCES:-exposure#64 saturation#66}; do
    tag=${inst//#/-}
    LUMEN_SCREENSHOT="$OUT/window-masks-$tag.png" timeout 150 "$bin/ui-latency" --backend cuda --sidecar /tmp/three.lumen \
      --instance "$inst" --count 200 --json "$OUT/latency-masks-$tag.json" /tmp/50mp.jpg \
      2>"$OUT/latency-masks-$tag.log" | tail -n 6 || { status=1; tail -n 5 "$OUT/latency-masks-$tag.log"; }
  done
fi

if [[ " $steps " == *" bench "* ]]; then
  echo "== bench"
  python3 - "$pack" <<'PY'
import sys, cv2
src = cv2.imread(sys.argv[1] + "/data/photos/beach-aerial-15mp.jpg")
for name, size in (("24mp", (6000, 4000)), ("50mp", (8660, 5773))):
    cv2.imwrite(f"/tmp/{name}.png", cv2.resize(src, size, interpolation=cv2.INTER_CUBIC),
                [cv2.IMWRITE_PNG_COMPRESSION, 1])
PY
  for size in 24mp 50mp; do
    "$bin/bench-ops" --backend cuda --repeat 30 --json "$OUT/gpu-$size.json" "/tmp/$size.png" | tee "$OUT/gpu-$size.txt" || status=1
  done
  # NPP's geometry in the same call, on images of the same sizes.
  nvcc -O2 -o /tmp/npp-geometry bench/npp-geometry.cu -lnppc -lnppig -lnppidei -lnppist -lnppisu \
    > "$OUT/npp-geometry-build.log" 2>&1 && /tmp/npp-geometry | tee "$OUT/npp-geometry.txt" || status=1
  python3 bench/cpu-vs-opencv.py --bench-ops "$bin/bench-ops" --threads "$(nproc)" \
    --json "$OUT/cpu-vs-opencv.json" /tmp/24mp.png 2>"$OUT/cpu-bench.log" || status=1
  # The CPU's first run in a process against its warm run (each line one process).
  for op in "gray --set mode=bt601" "equalize"; do
    # shellcheck disable=SC2086 # the operation and its settings
    "$bin/bench-first-run" --op $op /tmp/24mp.png
  done > "$OUT/cpu-first-run.txt" 2>&1 || status=1
fi

if [[ " $steps " == *" geometry "* ]]; then
  echo "== geometry"
  # Crop, straighten, both resizes and the fused point pass against NPP in one call, 24 and
  # 50 MP, with their parity first. LUMEN_GEOMETRY_BEFORE=DIR: a bench-ops built from an
  # earlier commit, timed in the same call for the before column.
  for size in 24mp:6000x4000 50mp:8660x5773; do
    [ -f "/tmp/${size%%:*}.png" ] || python3 -c "import sys, cv2; w, h = map(int, sys.argv[2].split('x')); cv2.imwrite(sys.argv[3], cv2.resize(cv2.imread(sys.argv[1]), (w, h), interpolation=cv2.INTER_CUBIC), [cv2.IMWRITE_PNG_COMPRESSION, 1])" \
      "$pack/data/photos/beach-aerial-15mp.jpg" "${size#*:}" "/tmp/${size%%:*}.png"
  done
  LUMEN_PARITY_QUICK=1 LUMEN_PARITY_ONLY=crop,straighten,resize "$bin/test-parity" > "$OUT/geometry-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|parity)" "$OUT/geometry-parity.log" | tail -n 5
  nvcc -O2 -o /tmp/npp-geometry bench/npp-geometry.cu -lnppc -lnppig -lnppidei -lnppist -lnppisu \
    > "$OUT/npp-geometry-build.log" 2>&1 || status=1
  for size in 24mp 50mp; do
    for b in ${LUMEN_GEOMETRY_BEFORE:+"$LUMEN_GEOMETRY_BEFORE/bench-ops"} "$bin/bench-ops"; do
      echo "# $size $b"
      for only in crop straighten resize points; do
        LUMEN_BENCH_ONLY="$only" "$b" --backend cuda --repeat 30 "/tmp/$size.png" | grep -v "^#\|^case"
      done
    done
  done 2>&1 | tee "$OUT/geometry.txt" || status=1
  /tmp/npp-geometry | tee "$OUT/npp-geometry.txt" || status=1
fi

if [[ " $steps " == *" detail-cpu "* ]]; then
  echo "== detail-cpu"
  # Issue 32's operations on the CPU against OpenCV's counterparts, alone (24 MP, all cores).
  [ -f /tmp/24mp.png ] || python3 -c "import sys, cv2; cv2.imwrite('/tmp/24mp.png', cv2.resize(cv2.imread(sys.argv[1]), (6000, 4000), interpolation=cv2.INTER_CUBIC), [cv2.IMWRITE_PNG_COMPRESSION, 1])" "$pack/data/photos/beach-aerial-15mp.jpg"
  python3 bench/cpu-vs-opencv.py --bench-ops "$bin/bench-ops" --threads "$(nproc)" --rounds 2 \
    --only "denoise,localcontrast,points: colormix,sharpen,vignette,lens" \
    --json "$OUT/cpu-vs-opencv-detail.json" /tmp/24mp.png 2>"$OUT/cpu-bench-detail.log" | tee "$OUT/cpu-vs-opencv-detail.txt" || status=1
fi

if [[ " $steps " == *" io-bench "* ]]; then
  echo "== io-bench"
  # PNG, JPEG and TIFF encode and decode against OpenCV's imwrite and imread, 24 and 100 MP.
  # LUMEN_IO_ONLY: row-name prefixes (bench-io.py --only), e.g. "tiff" for the TIFF rows alone.
  LUMEN_BENCH_PHOTO="$pack/data/photos/beach-aerial-15mp.jpg" python3 bench/bench-io.py --bench-io "$bin/bench-io" \
    --sizes 24,100 --pairs 5 --out /tmp --json "$OUT/io.json" ${LUMEN_IO_ONLY:+--only "$LUMEN_IO_ONLY"} | tee "$OUT/io.txt" || status=1
fi

if [[ " $steps " == *" view-bench "* ]]; then
  echo "== view-bench"
  # The view's colour transform at 50 MP: fit and 100 %, 8 and 16 bits, with and without it.
  "$bin/bench-view" --backend cuda --repeat 30 --json "$OUT/view-50mp.json" | tee "$OUT/view-50mp.txt" || status=1
fi

if [[ " $steps " == *" hdr-bench "* ]]; then
  echo "== hdr-bench"
  # 5 exposures of 12 MP: Lumen on the GPU and on every core, then OpenCV on every core in
  # the same call (a stack of the same size and kind, made by numpy).
  "$bin/bench-hdr" --backend cuda --repeat 30 --json "$OUT/hdr-gpu-12mp.json" || status=1
  "$bin/bench-hdr" --backend cuda --repeat 30 --size 6000x4000 --json "$OUT/hdr-gpu-24mp.json" \
    > "$OUT/hdr-gpu-24mp.txt" || status=1
  "$bin/bench-hdr" --backend cpu --repeat 5 --json "$OUT/hdr-cpu-12mp.json" > "$OUT/hdr-cpu-12mp.txt" || status=1
  tail -n 13 "$OUT/hdr-cpu-12mp.txt"
  python3 - "$OUT/hdr-opencv-12mp.json" <<'PY' || status=1
import json, sys, time
import cv2
import numpy as np
h, w, n = 3000, 4000, 5
u = (np.arange(w) + 0.5) / w
v = (np.arange(h)[:, None] + 0.5) / h
level = 128.5 * (20 * 10 ** (4 * u - 2) * (1 + 0.5 * np.sin(40 * v + 7 * u))) ** (1 / 2.2)
times = np.array([0.001 * 4 ** i for i in range(n)], np.float32)
rng = np.random.default_rng(1)
stack = [np.clip(np.rint(level[..., None] * t ** (1 / 2.2) * np.array([0.8, 0.9, 1.0])
                         + rng.integers(-4, 4, (h, w, 3))), 0, 255).astype(np.uint8) for t in times]
cv2.setNumThreads(-1)
merge, tone = cv2.createMergeDebevec(), cv2.createTonemapReinhard()
def best(f, runs=3):
    f(); out = []
    for _ in range(runs):
        t = time.perf_counter(); f(); out.append((time.perf_counter() - t) * 1e3)
    return sorted(out)[len(out) // 2]
hdr = merge.process(stack, times)
r = {"threads": cv2.getNumThreads(), "merge_debevec_ms": best(lambda: merge.process(stack, times)),
     "tonemap_reinhard_ms": best(lambda: tone.process(hdr))}
fuse, mtb = cv2.createMergeMertens(1.0, 1.0, 1.0), cv2.createAlignMTB()
gray = [cv2.cvtColor(s, cv2.COLOR_RGB2GRAY) for s in stack]
r["merge_mertens_ms"] = best(lambda: fuse.process(stack))
r["align_mtb_ms"] = best(lambda: [mtb.calculateShift(gray[n // 2], g) for g in gray])
print("opencv 12 MP:", json.dumps(r))
json.dump(r, open(sys.argv[1], "w"))
PY
fi

if [[ " $steps " == *" faults "* ]]; then
  echo "== faults"
  LUMEN_CLI="$bin/lumen-cli" LUMEN_TEST_DATA="$pack/data" python3 tests/gpu/test_cuda_fault.py \
    > "$OUT/faults.log" 2>&1 || status=1
  grep -E "^(ok|FAIL|ERROR|Ran|OK|FAILED)|: exit |\.\.\. " "$OUT/faults.log" | tail -n 40
  export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$PWD/$pack/schemas" NO_AT_BRIDGE=1 XDG_DATA_DIRS="$PWD/$pack/share:${XDG_DATA_DIRS:-/usr/share}"
  export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent-bus
  timeout 180 "$bin/test-gpu-fault" --tap > "$OUT/window-gpu-fault.log" 2>&1 || status=1
  grep -E "^(ok|not ok)|^# (after|the next)" "$OUT/window-gpu-fault.log"
  # The bad-input corpus with a GPU present: still refused, one line, no output.
  LUMEN_CLI="$bin/lumen-cli" LUMEN_TEST_DATA="$pack/data" python3 tests/bad-input/test_bad_corpus.py \
    > "$OUT/bad-corpus.log" 2>&1 || { status=1; tail -n 20 "$OUT/bad-corpus.log"; }
  tail -n 1 "$OUT/bad-corpus.log"
fi

if [[ " $steps " == *" soak "* ]]; then
  echo "== soak"
  mkdir -p .soak/bin .soak/data/photos
  cp "$bin/soak-window" .soak/bin/ && cp "$pack/data/photos/forest-path.jpg" .soak/data/photos/
  (cd "$pack/data/hdr/forest" && "$OLDPWD/$bin/lumen-cli" hdr --exposures exposures.txt -o "$OLDPWD/.soak/data/forest.hdr") >/dev/null
  git rev-parse --short HEAD > .soak/commit 2>/dev/null || cp "$pack/commit" .soak/commit
  OUT="$OUT/soak" SOAK_RUNS="${LUMEN_SOAK_RUNS:-photo}" SOAK_LIBS_FROM="$pack" bash bench/soak.sh device .soak || status=1
fi

if [ -n "${fuzz_pid:-}" ]; then
  wait "$fuzz_pid" || status=1
  echo "== fuzz campaign"
  sed -n '/^harness/,$p' "$OUT/fuzz.log" | head -n 40
fi

if [[ " $steps " == *" peers "* ]]; then
  echo "== peers"
  nvcc -O2 -o /tmp/npp_bench "$pack/peers/npp_bench.cu" -lnppc -lnppicc -lnppist -lnppif -lnppidei \
    -lnppisu > "$OUT/npp-build.log" 2>&1 && /tmp/npp_bench | tee "$OUT/npp.txt" || status=1
  python3 "$pack/peers/peer_bench.py" > "$OUT/peers.log" 2>&1 || status=1
  tail -n 5 "$OUT/peers.log"
fi
if [[ " $steps " == *" demosaic "* ]]; then
  echo "== demosaic"
  # The Bayer demosaics: CPU/GPU parity (0 ulp), then RCD, bilinear and half size at 24 and
  # 61 MP against NPP's CFA-to-RGB and a device copy, in one call.
  LUMEN_PARITY_VERBOSE=1 "$bin/test-demosaic-parity" > "$OUT/demosaic-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|demosaic parity)" "$OUT/demosaic-parity.log" | tail -n 20
  LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64" "$bin/bench-demosaic" --json "$OUT/demosaic.json" \
    | tee "$OUT/demosaic.txt" || status=1
fi
if [[ " $steps " == *" detect "* ]]; then
  echo "== detect"
  # Source detection: CPU/GPU parity (synthetic fields up to 8192², the FITS data), then the
  # GPU's steps at 2048² and 8192² with the memory floor, and SciPy, CuPy and sep on the same
  # fields, in one call.
  LUMEN_ASTRO_EXTRA="$pack/data/astro-extra" "$bin/test-detect-parity" > "$OUT/detect-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|detect parity)" "$OUT/detect-parity.log" | tail -n 30
  LUMEN_TEST_DATA="$pack/data" "$bin/test-stretch-parity" > "$OUT/stretch-parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|stretch parity)" "$OUT/stretch-parity.log" | tail -n 10
  mkdir -p /tmp/detect-fields
  "$bin/bench-detect" --json "$OUT/detect-gpu.json" --write-field /tmp/detect-fields | tee "$OUT/detect-gpu.txt" || status=1
  sep=(); [ -x "$pack/peers/bench-detect-sep" ] && sep=(--sep "$pack/peers/bench-detect-sep")
  python3 bench/bench-detect-peers.py --fields /tmp/detect-fields --json "$OUT/detect-peers.json" "${sep[@]}" \
    > "$OUT/detect-peers.log" 2>&1 || status=1
  sed -n '/^peer /,$p' "$OUT/detect-peers.log"
  # lumen-cli detect on each backend: the same label image, byte for byte, and the same
  # catalogue within 1e-5 relative.
  for f in "$pack"/data/astro/*.fits.gz "$pack"/data/astro-extra/thar5s.fit; do
    [ -f "$f" ] || continue
    n=$(basename "$f"); d=/tmp/detect-cli
    mkdir -p $d
    for b in cpu cuda; do
      "$bin/lumen-cli" detect --backend $b --connectivity 8 --timings -o $d/$n.$b.csv --labels $d/$n.$b.labels.fits "$f" \
        > $d/$n.$b.log 2>&1 || status=1
    done
    grep -E "sources|total" $d/$n.cuda.log | sed "s|^|$n cuda: |"
    cmp $d/$n.cpu.labels.fits $d/$n.cuda.labels.fits && echo "$n: label images identical" || status=1
    python3 - $d/$n.cpu.csv $d/$n.cuda.csv <<'PY' || status=1
import sys, numpy as np
names = open(sys.argv[1]).readline().strip().split(",")
a, b = (np.genfromtxt(p, delimiter=",", skip_header=1, ndmin=2) for p in sys.argv[1:])
assert a.shape == b.shape, (a.shape, b.shape)
# Relative to each value, or to its column's largest for values near 0 (xy); theta is left to
# test-detect-parity, which compares it only where a source is elongated enough to have one.
keep = [k for k, n in enumerate(names) if n != "theta"]
a, b, names = a[:, keep], b[:, keep], [names[k] for k in keep]
scale = np.maximum(np.abs(a), 1e-6 * np.abs(a).max(axis=0))
rel = np.where(a == b, 0, np.abs(a - b) / np.where(scale > 0, scale, 1))
worst = rel.max(axis=0)
print(f"{sys.argv[1].split('/')[-1]}: {a.shape[0]} sources, max relative difference CPU/CUDA {rel.max():.2e} "
      f"({names[int(worst.argmax())]})")
assert rel.max() <= 1e-5
PY
  done
fi
if [[ " $steps " == *" memory "* ]]; then
  echo "== memory"
  # LUMEN_CUDA_MEMORY_LIMIT as a GPU of that size (the test sets 64M itself).
  "$bin/test-memory-budget" > "$OUT/memory-budget.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|memory budget)" "$OUT/memory-budget.log"
fi

if [[ " $steps " == *" compare "* ]]; then
  echo "== compare"
  # The end-to-end speedup at 50 MP (8660×5773 RGBA, 200 MB): the CPU on all cores against
  # CUDA with its pinned upload and download (bench/RESULTS.md, "lumen-cli compare").
  python3 - "$pack" <<'PY'
import sys, cv2
src = cv2.imread(sys.argv[1] + "/data/photos/beach-aerial-15mp.jpg")
cv2.imwrite("/tmp/compare-50mp.png", cv2.resize(src, (8660, 5773), interpolation=cv2.INTER_CUBIC),
            [cv2.IMWRITE_PNG_COMPRESSION, 1])
PY
  for ops in "--blur 10" "--gray bt601" "--gray bt601 --equalize luma --blur 10"; do
    echo "-- compare $ops"
    "$bin/lumen-cli" compare $ops /tmp/compare-50mp.png 2>&1 | tee -a "$OUT/compare-50mp.txt" || status=1
  done
fi

# What comes back from the device tool is a few files: everything in one archive.
tar -C "$OUT" -czf /tmp/lumen-results.tar.gz --exclude lumen-results.tar.gz . \
  && find "$OUT" -mindepth 1 -delete && mv /tmp/lumen-results.tar.gz "$OUT/"
exit $status
