#!/usr/bin/env bash
# lumen-cli batch, measured on the machine it runs on (issue 7): 12 MP stacks of 3 JPEG
# exposures (the user's case: 11.8 MP, 500,000 stacks), each stack distinct so that no cache
# flatters the rate, repeated in a manifest under distinct ids so that each run lasts ≥ 30 s;
# Radiance and tone-mapped JPEG outputs; in the same call, the disk's write and read rates of
# the output folder, and OpenCV's Debevec calibrate + merge in a process pool (the user's
# baseline) on the same stacks. Prints stacks/s, the stage times and the hours 500,000 stacks
# would take; JSON into $OUT.
#   bench/bench-batch.sh LUMEN_CLI [WORKDIR]      (BENCH_SECONDS=35 BENCH_BACKENDS="cuda cpu"
#     BENCH_STACKS=200 BENCH_RUNS="cuda-jpg cpu-jpg…" (default: all) BENCH_OPENCV_STACKS=48, 0: none
#     BENCH_FLAGS="--devices 0": flags for every run)
# The outputs are deleted as they are committed (the batch never reads them again), so the
# disk holds a few seconds of them: 35 s of 12 MP radiance would not fit on it.
set -uo pipefail
cli=${1:?usage: bench-batch.sh LUMEN_CLI [WORKDIR]}
work=${2:-/tmp/lumen-bench-batch}
OUT=${OUT:-$work/out}
seconds=${BENCH_SECONDS:-35}
backends=${BENCH_BACKENDS:-cuda cpu}
nstacks=${BENCH_STACKS:-200}
runs=${BENCH_RUNS:-}
opencv_stacks=${BENCH_OPENCV_STACKS:-48}
data=${LUMEN_TEST_DATA:-$(dirname "$0")/../../shared/data}
first=$work/stacks/stack000
# The first Python that has OpenCV (here /usr/bin/python3; on the GPU machine, the one on PATH).
py=
for candidate in python3 /usr/bin/python3; do
  "$candidate" -c "import cv2" 2>/dev/null && { py=$candidate; break; }
done
[ -n "$py" ] || { echo "bench-batch: no python3 with OpenCV (cv2)" >&2; exit 1; }
export LC_ALL=C.UTF-8 LANGUAGE=
mkdir -p "$work" "$OUT"
status=0

# Stacks: windows of one 15 MP photo, each at its own offset and every other one mirrored,
# so that no two stacks share pixels at the same place; the photo's linear light seen at 3
# exposures two stops apart, JPEG quality 93 (4:2:0, baseline: what cameras write).
"$py" - "$work/stacks" "$data/photos/beach-aerial-15mp.jpg" "$nstacks" <<'PY' || exit 1
import multiprocessing as mp, os, sys
import cv2, numpy as np
root, photo, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(root, exist_ok=True)
W, H, TIMES = 4096, 2880, (0.25, 1.0, 4.0)
# Each exposure is a function of the 8-bit source value: a table of 256 does the float work.
v = np.arange(256, dtype=np.float32) / 255
tables = [255 * np.clip(v ** 2.2 * t, 0, 1) ** (1 / 2.2) for t in TIMES]

def load():
    global src
    cv2.setNumThreads(1)
    src = cv2.imread(photo)

def make(k):
    d = os.path.join(root, f"stack{k:03d}")
    os.makedirs(d, exist_ok=True)
    # 389 is prime to 1025: the offsets of stacks 0…1024 are distinct and spread over 0…1024,
    # whatever BENCH_STACKS is, so stacks kept from an earlier call stay what they were.
    x = k * 389 % 1025
    window = src[:H, x:x + W]
    window = window[:, ::-1] if k % 2 else window
    rng = np.random.default_rng(1000 + k)
    lines = []
    for i, (t, table) in enumerate(zip(TIMES, tables)):
        z = table[window] + rng.standard_normal(window.shape, dtype=np.float32)
        name = f"e{i}.jpg"
        cv2.imwrite(os.path.join(d, name), np.clip(np.rint(z), 0, 255).astype(np.uint8),
                    [cv2.IMWRITE_JPEG_QUALITY, 93])
        lines.append(f"{name}\t{t!r}\n")
    # Last, so that an interrupted stack is made again.
    open(os.path.join(d, "times.txt"), "w").writelines(lines)

todo = [k for k in range(n) if not os.path.exists(os.path.join(root, f"stack{k:03d}", "times.txt"))]
if todo:
    with mp.Pool(os.cpu_count(), initializer=load) as pool:
        pool.map(make, todo, chunksize=1)
print(f"stacks: {n} of 3 × {W}×{H} JPEG ({len(todo)} made now)")
PY

# manifest N PREFIX: N stacks cycling over the generated ones, ids PREFIX00000…
manifest () {
  "$py" - "$work/stacks" "$1" "$2" "$nstacks" > "$work/$2.tsv" <<'PY'
import os, sys
root, n, prefix, m = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
for k in range(n):
    d = os.path.join(root, f"stack{k % m:03d}")
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
  # Committed outputs only: temporaries start with a dot, and journal.tsv and failed.tsv
  # (journal-I-of-N.tsv… when sharded) are the batch's own records.
  ( while sleep 1; do
      find "$out" -maxdepth 1 -type f -name '[!.]*' \( -name '*.hdr' -o -name '*.jpg' -o -name '*.exr' \
        -o -name '*.png' -o -name '*.tif' \) -delete 2>/dev/null
    done ) &
  local sweeper=$!
  # shellcheck disable=SC2086 # BENCH_FLAGS: flags for every run, e.g. --devices 0
  "$cli" batch --timings --progress none ${BENCH_FLAGS:-} -o "$out" "$@" "$(manifest "$n" "$name-")" > "$OUT/$name.txt" 2>&1
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
  # Each run is faster than the one it was sized from (a longer run hides the start): a
  # third try at most.
  local try
  for try in 2 3; do
    "$py" -c "import sys; sys.exit(0 if float(sys.argv[1] or 0) < $seconds else 1)" "$(wall "$name")" || break
    n=$("$py" -c "import sys; print(int(float(sys.argv[1]) * $seconds * 1.3))" "$(rate "$name")")
    echo "== $name: $n stacks, sized from the run before ($*)"
    run "$name" "$n" "$@" || status=1
  done
  grep -vE '^batch:' "$OUT/$name.txt"
}

# The first stack once, through lumen-cli hdr: the response the -response runs reuse, and
# one output of each format for its size. Stale ones would pass for this stack's.
rm -f "$work/response.txt" "$work/first-stack.hdr" "$work/first-stack.jpg"
"$cli" hdr --exposures "$first/times.txt" --response-out "$work/response.txt" \
  -o "$work/first-stack.hdr" > /dev/null 2>&1 || true
"$cli" hdr --exposures "$first/times.txt" --tonemap reinhard -o "$work/first-stack.jpg" > /dev/null 2>&1 || true

# want NAME: in BENCH_RUNS, or no BENCH_RUNS.
want () { [ -z "$runs" ] || case " $runs " in *" $1 "*) true ;; *) false ;; esac; }
jpg=(--format jpg --tonemap reinhard)
catalogue=
ran=
try () {
  local name=$1; shift
  catalogue+=" $name"
  want "$name" || return 0
  rm -f "$OUT/$name.txt"
  bench "$name" "$@"
  # A failed pilot leaves no run to report.
  [ -f "$OUT/$name.txt" ] && ran+=" $name"
}
for b in $backends; do
  try "$b-hdr" --backend "$b"
  try "$b-jpg" --backend "$b" "${jpg[@]}"
  [ "$b" = cuda ] || continue
  try cuda-hdr-nvjpeg --backend cuda --decoder nvjpeg
  try cuda-jpg-nvjpeg --backend cuda "${jpg[@]}" --decoder nvjpeg --encoder nvjpeg
  if [ -f "$work/response.txt" ]; then
    try cuda-hdr-response --backend cuda --response-in "$work/response.txt"
    try cuda-jpg-response --backend cuda "${jpg[@]}" --response-in "$work/response.txt"
  else
    catalogue+=" cuda-hdr-response cuda-jpg-response"
    echo "bench-batch: lumen-cli hdr gave no response: no -response runs" >&2
  fi
done
for r in $runs; do
  case " $catalogue " in *" $r "*) ;; *) echo "bench-batch: BENCH_RUNS: no run “$r” (runs:$catalogue)" >&2; status=1 ;; esac
done

# OpenCV's baseline: a process per core, each reading, calibrating (Debevec), merging and
# writing one stack at a time, single-threaded OpenCV inside, as the user runs it; FORMAT jpg
# adds Reinhard's tone mapping, as lumen-cli's jpg runs do.
opencv () {
  "$py" - "$(manifest "$opencv_stacks" "opencv_$1-")" "$work/out-opencv" "$OUT/opencv$2.json" "$1" <<'PY' || status=1
import collections, json, multiprocessing as mp, os, shutil, sys, time
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")   # Reinhard's notes on MatExpr, per stack
import cv2, numpy as np
manifest, outdir, result, fmt = sys.argv[1:5]
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
    path = os.path.join(outdir, sid + "." + fmt)
    if fmt == "jpg":
        ldr = cv2.createTonemapReinhard(1.0).process(hdr)
        ldr = np.clip(ldr * 255, 0, 255).astype(np.uint8)
        ms["tonemap"] = (time.perf_counter() - t) * 1e3; t = time.perf_counter()
        cv2.imwrite(path, ldr, [cv2.IMWRITE_JPEG_QUALITY, 92])
    else:
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
r = {"processes": procs, "format": fmt, "stacks": len(per), "wall_s": round(wall, 2),
     "stacks_per_s": round(len(per) / wall, 2),
     "ms_per_stack": {k: round(sum(m[k] for m in per) / len(per), 1) for k in per[0]}}
print(f"opencv pool, {fmt}:", json.dumps(r))
json.dump(r, open(result, "w"))
PY
}
rm -f "$OUT/opencv.json" "$OUT/opencv_jpg.json"
if [ "$opencv_stacks" -gt 0 ]; then
  opencv hdr ""
  opencv jpg _jpg
fi

# Everything in one JSON, with the floors each measured rate sets.
"$py" - "$OUT" "$first" "$ran" <<'PY' || status=1
import glob, json, os, re, sys
out, first, ran = sys.argv[1], sys.argv[2], sys.argv[3].split()
work = os.path.dirname(os.path.dirname(first))
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
        for key in ("decoder", "encoder", "merge workers", "read threads", "host images"):
            if line.startswith(key + ":"):
                r[key.replace(" ", "_")] = line.split(":", 1)[1].strip()
    return r
# The user's job: 500,000 stacks.
def hours(r):
    return round(500000 / r["stacks_per_s"] / 3600, 1) if r.get("stacks_per_s") else None
res = {name: parse(os.path.join(out, name + ".txt")) for name in ran}
for r in res.values():
    r["projected_hours_500k"] = hours(r)
disk = json.load(open(os.path.join(out, "disk.json")))
pools = {}
for key, name in (("opencv_pool", "opencv.json"), ("opencv_jpg_pool", "opencv_jpg.json")):
    path = os.path.join(out, name)
    pools[key] = json.load(open(path)) if os.path.exists(path) else {}
    if pools[key]:
        pools[key]["projected_hours_500k"] = hours(pools[key])
def mb(path):
    return os.path.getsize(path) / 1e6 if os.path.exists(path) else None
jpeg_mb = sum(os.path.getsize(p) for p in glob.glob(os.path.join(first, "*.jpg"))) / 1e6
radiance_mb, jpg_out_mb = mb(os.path.join(work, "first-stack.hdr")), mb(os.path.join(work, "first-stack.jpg"))
cores = os.cpu_count()
floors = {"disk_read_stacks_per_s": round(disk["read_MBps"] / jpeg_mb, 1)}
if radiance_mb:
    floors["disk_write_stacks_per_s"] = round(disk["write_MBps"] / radiance_mb, 1)
if jpg_out_mb:
    floors["disk_write_jpg_stacks_per_s"] = round(disk["write_MBps"] / jpg_out_mb, 1)
for name, r in res.items():
    st = r.get("stages_ms_per_stack", {})
    if "decode" in st and "nvjpeg" not in name:
        floors[f"{name}: decode on {cores} cores"] = round(cores * 1000 / st["decode"], 1)
    if "calibrate" in st and st["calibrate"] > 1:
        floors[f"{name}: calibrate on {cores} cores"] = round(cores * 1000 / st["calibrate"], 1)
    if "encode + write" in st and st["encode + write"] > 0:
        floors[f"{name}: encode + write on {cores} threads"] = round(cores * 1000 / st["encode + write"], 1)
    if "upload" in st and "download" in st and st["upload"] + st["download"] > 0.5:
        floors[f"{name}: copies of one stream (upload + download)"] = round(1000 / (st["upload"] + st["download"]), 1)
rnd = lambda v: v and round(v, 1)
summary = {"disk": disk, "stack_MB": {"jpeg_in": rnd(jpeg_mb), "radiance_out": rnd(radiance_mb), "jpg_out": rnd(jpg_out_mb)},
           "lumen": res, **pools, "floors_stacks_per_s": floors}
json.dump(summary, open(os.path.join(out, "batch-bench.json"), "w"), indent=1)
print("\n== batch benchmark (stacks/s; hours for 500,000 stacks)")
for name, r in sorted(res.items()):
    print(f"  lumen {name:18s} {r.get('stacks_per_s', 0):8.2f}  {r['projected_hours_500k'] or 0:7.1f} h"
          f"  over {r.get('wall_s', 0):.0f} s  ({r.get('decoder', '')})")
for key, p in pools.items():
    if p:
        label = f"opencv pool {p['format']} ×{p['processes']}"
        print(f"  {label:24s} {p['stacks_per_s']:8.2f}  {p['projected_hours_500k'] or 0:7.1f} h  {p['ms_per_stack']}")
print("  floors (stacks/s each limit allows):")
for k, v in floors.items():
    print(f"    {k:55s} {v:8.1f}")
PY
exit $status
