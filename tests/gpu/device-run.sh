#!/usr/bin/env bash
# Runs on the GPU machine, from the checkout's root, after tests/gpu/device-pack.sh here:
# the CPU/GPU parity suite, Lumen's GPU and CPU benchmarks, and in the same call the peers
# (NPP, OpenCV on all cores, CuPy) and the machine's bandwidth limits. Logs and JSON go to
# $OUT; the last lines printed are the summary tables.
#   LUMEN_DEVICE_STEPS="parity bench peers" selects steps (default: all).
set -uo pipefail
pack=${LUMEN_DEVICE_PACK:-.device}
OUT=${OUT:-/tmp/lumen-out}
mkdir -p "$OUT"
steps=${LUMEN_DEVICE_STEPS:-parity cli window bench peers}
export PYTHONUNBUFFERED=1

tar -C "$pack" -xJf "$pack/bundle.tar.xz" && source "$pack/bundle/env.sh"
bin="$pack/bundle/bin"
export LUMEN_TEST_DATA="$pack/data"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
echo "commit $(cat "$pack/commit" | tr '\n' ' ')" | tee -a "$OUT/gpu.txt"
nproc | sed 's/^/cpus /' | tee -a "$OUT/gpu.txt"
status=0

if [[ " $steps " == *" parity "* ]]; then
  echo "== parity"
  "$bin/test-parity" > "$OUT/parity.log" 2>&1 || status=1
  grep -E "^(FAIL|SKIP|parity)" "$OUT/parity.log" | tail -n 20
fi

if [[ " $steps " == *" cli "* ]]; then
  echo "== cli"
  photo="$pack/data/photos/boats-sunset.jpg"
  # The CLI tests, here with a device: --backend cuda must work.
  LUMEN_CLI="$bin/lumen-cli" LUMEN_TEST_DATA="$pack/data" python3 tests/cli/test_cli.py \
    > "$OUT/cli-tests.log" 2>&1 || { status=1; tail -n 30 "$OUT/cli-tests.log"; }
  tail -n 3 "$OUT/cli-tests.log"
  # A render that does not fit the device falls back to the CPU, with a note, same result.
  "$bin/lumen-cli" --backend cpu --gray bt601 --blur 3 -o /tmp/cpu.png "$photo" || status=1
  LUMEN_CUDA_MEMORY_LIMIT=1000000 "$bin/lumen-cli" --backend cuda --gray bt601 --blur 3 \
    -o /tmp/oom.png "$photo" 2> /tmp/oom.err || status=1
  if grep -q "rendering on the CPU" /tmp/oom.err && cmp -s /tmp/cpu.png /tmp/oom.png; then
    echo "out-of-memory fall-back: ok ($(cat /tmp/oom.err))"
  else
    echo "out-of-memory fall-back: FAILED ($(cat /tmp/oom.err))"; status=1
  fi
  "$bin/lumen-cli" compare --gray bt601 --equalize luma --blur 10 --heatmap /tmp/heat.png "$photo" \
    | tee "$OUT/compare.txt" || status=1
fi

if [[ " $steps " == *" window "* ]]; then
  echo "== window"
  export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 XDG_DATA_DIRS="$PWD/$pack/share:${XDG_DATA_DIRS:-/usr/share}"
  # No session bus there: say so, rather than let GLib try to start one.
  export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent-bus
  # The window tests, on the GPU this time, with a screenshot of the real window.
  LUMEN_SCREENSHOT="$OUT/window-gpu.png" timeout 120 "$bin/test-window" --tap > "$OUT/window-tests.log" 2>&1 || status=1
  grep -E "^(ok|not ok)|compare:" "$OUT/window-tests.log"
  python3 - "$pack" <<'PY'
import sys, cv2
src = cv2.imread(sys.argv[1] + "/data/photos/beach-aerial-15mp.jpg")
cv2.imwrite("/tmp/50mp.jpg", cv2.resize(src, (8660, 5773), interpolation=cv2.INTER_CUBIC),
            [cv2.IMWRITE_JPEG_QUALITY, 92])
PY
  for op in blur gray equalize; do
    timeout 90 "$bin/ui-latency" --backend cuda --op $op --count 200 --json "$OUT/latency-cuda-$op.json" \
      /tmp/50mp.jpg 2>/dev/null || status=1
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
    "$bin/bench-ops" --backend cuda --repeat 30 --json "$OUT/gpu-$size.json" "/tmp/$size.png" || status=1
  done
  python3 bench/cpu-vs-opencv.py --bench-ops "$bin/bench-ops" --threads "$(nproc)" \
    --json "$OUT/cpu-vs-opencv.json" /tmp/24mp.png 2>"$OUT/cpu-bench.log" || status=1
fi

if [[ " $steps " == *" peers "* ]]; then
  echo "== peers"
  nvcc -O2 -o /tmp/npp_bench "$pack/peers/npp_bench.cu" -lnppc -lnppicc -lnppist -lnppif -lnppidei \
    -lnppisu > "$OUT/npp-build.log" 2>&1 && /tmp/npp_bench | tee "$OUT/npp.txt" || status=1
  python3 "$pack/peers/peer_bench.py" > "$OUT/peers.log" 2>&1 || status=1
  tail -n 5 "$OUT/peers.log"
fi
# What comes back from the device tool is a few files: everything in one archive.
tar -C "$OUT" -czf /tmp/lumen-results.tar.gz --exclude lumen-results.tar.gz . && mv /tmp/lumen-results.tar.gz "$OUT/"
exit $status
