#!/usr/bin/env bash
# lumen-cli batch, measured on the machine it runs on (issue 7): synthetic 12 MP stacks of 3
# JPEG exposures (the user's case: 11.8 MP, Radiance output), repeated in a manifest under
# distinct ids so that each run lasts ≥ 30 s; in the same call, the disk's write and read
# rates of the output folder, and OpenCV's Debevec calibrate + merge in a process pool (the
# user's baseline) on the same stacks. Prints stacks/s and the stage times; JSON into $OUT.
#   bench/bench-batch.sh LUMEN_CLI [WORKDIR]      (BENCH_SECONDS=35 BENCH_BACKENDS="cuda cpu")
# The outputs are deleted as they are committed (the batch never reads them again), so the
# disk holds a few seconds of them: 35 s of 12 MP radiance would not fit on it.
set -uo pipefail
cli=${1:?usage: bench-batch.sh LUMEN_CLI [WORKDIR]}
work=${2:-/tmp/lumen-bench-batch}
OUT=${OUT:-$work/out}
seconds=${BENCH_SECONDS:-35}
backends=${BENCH_BACKENDS:-cuda cpu}
# The first Python that has OpenCV (here /usr/bin/python3; on the GPU machine, the one on PATH).
py=
for candidate in python3 /usr/bin/python3; do
  "$candidate" -c "import cv2" 2>/dev/null && { py=$candidate; break; }
done
[ -n "$py" ] || { echo "bench-batch: no python3 with OpenCV (cv2)" >&2; exit 1; }
export LC_ALL=C.UTF-8 LANGUAGE=
mkdir -p "$work" "$OUT"
status=0

# Stacks: 8 scenes from the shared photos, each as linear radiance seen at 3 exposures two
# stops apart, JPEG quality 95 (4:2:0, baseline: what cameras write).
"$py" - "$work/stacks" "${LUMEN_TEST_DATA:-$(dirname "$0")/../../shared/data}/photos" <<'PY' || exit 1
import glob, os, sys
import cv2, numpy as np
root, photos = sys.argv[1], sys.argv[2]
os.makedirs(root, exist_ok=True)
names = sorted(p for p in glob.glob(os.path.join(photos, "*.jpg")) + glob.glob(os.path.join(photos, "*.png")))
names = [p for p in names if cv2.imread(p) is not None and cv2.imread(p).ndim == 3][:8]
rng = np.random.default_rng(7)
for k, path in enumerate(names):
    d = os.path.join(root, f"scene{k}")
    if os.path.exists(os.path.join(d, "times.txt")):
        continue
    os.makedirs(d, exist_ok=True)
    src = cv2.resize(cv2.imread(path), (3968, 2976), interpolation=cv2.INTER_CUBIC).astype(np.float32) / 255
    radiance = (src ** 2.2) * 16 + 0.002          # a scene wider than one exposure
    lines = []
    for i, t in enumerate((1 / 64, 1 / 16, 1 / 4)):
        z = 255 * np.clip(radiance * t, 0, 1) ** (1 / 2.2) + rng.normal(0, 1.0, radiance.shape)
        name = f"e{i}.jpg"
        cv2.imwrite(os.path.join(d, name), np.clip(np.rint(z), 0, 255).astype(np.uint8),
                    [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines.append(f"{name}\t{t!r}\n")
    open(os.path.join(d, "times.txt"), "w").writelines(lines)
print("stacks:", len(names), "scenes of 3 × 3968×2976 JPEG")
PY

# manifest N PREFIX: N stacks cycling over the scenes, ids PREFIX00000…
manifest () {
  "$py" - "$work/stacks" "$1" "$2" > "$work/$2.tsv" <<'PY'
import os, sys
root, n, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
scenes = sorted(d for d in os.listdir(root) if os.path.exists(os.path.join(root, d, "times.txt")))
for k in range(n):
    d = os.path.join(root, scenes[k % len(scenes)])
    for line in open(os.path.join(d, "times.txt")):
        name, t = line.split()
        print(f"{prefix}{k:05d}\t{os.path.join(d, name)}\t{t}")
PY
  echo "$work/$2.tsv"
}

# The disk under the output folder: 2 GiB written and synced, then read back after its
# pages were dropped from the cache.
"$py" - "$work" "$OUT/disk.json" <<'PY' || status=1
import json, os, sys, time
path = os.path.join(sys.argv[1], "disk-probe.bin")
block = os.urandom(8 << 20)
t = time.perf_counter()
with open(path, "wb") as f:
    for _ in range(256):
        f.write(block)
    f.flush(); os.fsync(f.fileno())
write = 2048 / (time.perf_counter() - t)
fd = os.open(path, os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
t = time.perf_counter()
while os.read(fd, 8 << 20):
    pass
read = 2048 / (time.perf_counter() - t)
os.close(fd); os.unlink(path)
r = {"write_MBps": round(write * 1.048576, 1), "read_MBps": round(read * 1.048576, 1)}
print("disk:", json.dumps(r))
json.dump(r, open(sys.argv[2], "w"))
PY

# run NAME N FLAGS…: one batch of N stacks, outputs deleted as they land; timings kept.
run () {
  local name=$1 n=$2; shift 2
  local out="$work/out-$name"
  rm -rf "$out"; mkdir -p "$out"
  # Committed outputs only: temporaries start with a dot.
  ( while sleep 1; do find "$out" -maxdepth 1 -name '[!.]*.hdr' -delete 2>/dev/null; done ) &
  local sweeper=$!
  "$cli" batch --timings --progress none -o "$out" "$@" "$(manifest "$n" "$name-")" > "$OUT/$name.txt" 2>&1
  local rc=$?
  kill "$sweeper"; wait "$sweeper" 2>/dev/null
  rm -rf "$out"
  return $rc
}

rate () { sed -n 's/^wall: .*, \([0-9.]*\) stacks\/s$/\1/p' "$OUT/$1.txt"; }

wall () { sed -n 's/^wall: \([0-9.]*\) s, .*$/\1/p' "$OUT/$1.txt"; }

# bench NAME FLAGS…: a 24-stack pilot gives the rate; the run then lasts at least $seconds s.
# The pilot's rate includes the start (the pipeline filling), so it underestimates: a run
# that ends early is sized again from its own rate and redone.
bench () {
  local name=$1; shift
  run "$name-pilot" 24 "$@" || { status=1; tail -n 5 "$OUT/$name-pilot.txt"; return; }
  local n
  n=$("$py" -c "import sys; print(max(48, int(float(sys.argv[1] or 1) * $seconds)))" "$(rate "$name-pilot")")
  echo "== $name: $n stacks ($*)"
  run "$name" "$n" "$@" || status=1
  if "$py" -c "import sys; sys.exit(0 if float(sys.argv[1] or 0) < $seconds else 1)" "$(wall "$name")"; then
    n=$("$py" -c "import sys; print(int(float(sys.argv[1]) * $seconds * 1.15))" "$(rate "$name")")
    echo "== $name: $n stacks, sized from the first run ($*)"
    run "$name" "$n" "$@" || status=1
  fi
  grep -vE '^batch:' "$OUT/$name.txt"
}

"$cli" hdr --exposures "$work/stacks/scene0/times.txt" --response-out "$work/response.txt" \
  -o "$work/scene0.hdr" > /dev/null 2>&1 || true
for b in $backends; do
  bench "$b" --backend "$b"
  [ "$b" = cuda ] && bench cuda-nvjpeg --backend cuda --decoder nvjpeg
  [ -f "$work/response.txt" ] && bench "$b-response" --backend "$b" --response-in "$work/response.txt"
done

# OpenCV's baseline: a process per core, each reading, calibrating (Debevec), merging and
# writing one stack at a time, single-threaded OpenCV inside, as the user runs it.
"$py" - "$(manifest 48 opencv-)" "$work/out-opencv" "$OUT/opencv.json" <<'PY' || status=1
import collections, json, multiprocessing as mp, os, shutil, sys, time
import cv2, numpy as np
manifest, outdir, result = sys.argv[1:4]
stacks = collections.OrderedDict()
for line in open(manifest):
    sid, path, t = line.rstrip("\n").split("\t")
    stacks.setdefault(sid, []).append((path, float(t)))
os.makedirs(outdir, exist_ok=True)

def one(item):
    cv2.setNumThreads(1)
    sid, members = item
    ms = {}
    t = time.perf_counter()
    images = [cv2.imread(p) for p, _ in members]
    times = np.array([s for _, s in members], np.float32)
    ms["decode"] = (time.perf_counter() - t) * 1e3; t = time.perf_counter()
    response = cv2.createCalibrateDebevec().process(images, times)
    ms["calibrate"] = (time.perf_counter() - t) * 1e3; t = time.perf_counter()
    hdr = cv2.createMergeDebevec().process(images, times, response)
    ms["merge"] = (time.perf_counter() - t) * 1e3; t = time.perf_counter()
    path = os.path.join(outdir, sid + ".hdr")
    cv2.imwrite(path, hdr)
    ms["write"] = (time.perf_counter() - t) * 1e3
    os.unlink(path)
    return ms

procs = os.cpu_count()
with mp.Pool(procs) as pool:
    t = time.perf_counter()
    per = pool.map(one, list(stacks.items()), chunksize=1)
    wall = time.perf_counter() - t
shutil.rmtree(outdir, ignore_errors=True)
r = {"processes": procs, "stacks": len(per), "wall_s": round(wall, 2),
     "stacks_per_s": round(len(per) / wall, 2),
     "ms_per_stack": {k: round(sum(m[k] for m in per) / len(per), 1) for k in per[0]}}
print("opencv pool:", json.dumps(r))
json.dump(r, open(result, "w"))
PY

# Everything in one JSON, with the floors each measured rate sets.
"$py" - "$OUT" "$work/stacks" "$backends" <<'PY' || status=1
import glob, json, os, re, sys
out, stacks, backends = sys.argv[1], sys.argv[2], sys.argv[3].split()
def parse(path):
    r = {"stages_ms_per_stack": {}}
    for line in open(path):
        m = re.match(r"  (\S.*?)\s+([0-9.]+) ms\s+([0-9.]+) ms/stack$", line)
        if m:
            r["stages_ms_per_stack"][m.group(1)] = float(m.group(3))
        m = re.match(r"wall: ([0-9.]+) s, ([0-9.]+) stacks/s", line)
        if m:
            r["wall_s"], r["stacks_per_s"] = float(m.group(1)), float(m.group(2))
        m = re.match(r"batch: (\d+) of", line)
        if m:
            r["stacks"] = int(m.group(1))
        for key in ("decoder", "merge workers", "read threads", "host images"):
            if line.startswith(key + ":"):
                r[key.replace(" ", "_")] = line.split(":", 1)[1].strip()
    return r
res = {name: parse(os.path.join(out, name + ".txt"))
       for name in [os.path.basename(p)[:-4] for p in glob.glob(os.path.join(out, "*.txt"))]
       if not name.endswith("-pilot") and name not in ("gpu",)}
disk = json.load(open(os.path.join(out, "disk.json")))
opencv = json.load(open(os.path.join(out, "opencv.json"))) if os.path.exists(os.path.join(out, "opencv.json")) else {}
jpeg_mb = sum(os.path.getsize(p) for p in glob.glob(os.path.join(stacks, "scene0", "*.jpg"))) / 1e6
radiance_mb = os.path.getsize(os.path.join(os.path.dirname(stacks), "scene0.hdr")) / 1e6 \
    if os.path.exists(os.path.join(os.path.dirname(stacks), "scene0.hdr")) else None
cores = os.cpu_count()
floors = {"disk_read_stacks_per_s": round(disk["read_MBps"] / jpeg_mb, 1)}
if radiance_mb:
    floors["disk_write_stacks_per_s"] = round(disk["write_MBps"] / radiance_mb, 1)
for name, r in res.items():
    st = r.get("stages_ms_per_stack", {})
    if "decode" in st and "nvjpeg" not in name:
        floors[f"{name}: decode on {cores} cores"] = round(cores * 1000 / st["decode"], 1)
    if "calibrate" in st and st["calibrate"] > 1:
        floors[f"{name}: calibrate on {cores} cores"] = round(cores * 1000 / st["calibrate"], 1)
    if "encode + write" in st:
        floors[f"{name}: encode + write on {cores} threads"] = round(cores * 1000 / st["encode + write"], 1)
    if "upload" in st and "download" in st and st["upload"] + st["download"] > 0.5:
        floors[f"{name}: copies of one stream (upload + download)"] = round(1000 / (st["upload"] + st["download"]), 1)
summary = {"disk": disk, "stack_MB": {"jpeg_in": round(jpeg_mb, 1), "radiance_out": radiance_mb and round(radiance_mb, 1)},
           "lumen": res, "opencv_pool": opencv, "floors_stacks_per_s": floors}
json.dump(summary, open(os.path.join(out, "batch-bench.json"), "w"), indent=1)
print("\n== batch benchmark (stacks/s)")
for name, r in sorted(res.items()):
    print(f"  lumen {name:18s} {r.get('stacks_per_s', 0):8.2f}  over {r.get('wall_s', 0):.0f} s  ({r.get('decoder', '')})")
if opencv:
    print(f"  opencv pool ×{opencv['processes']:<10d} {opencv['stacks_per_s']:8.2f}  {opencv['ms_per_stack']}")
print("  floors (stacks/s each limit allows):")
for k, v in floors.items():
    print(f"    {k:55s} {v:8.1f}")
PY
exit $status
