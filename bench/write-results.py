#!/usr/bin/env python3
"""Writes bench/RESULTS.md from the JSON that tests/gpu/device-run.sh and cpu-vs-opencv.py
leave (kept in bench/results/): Lumen's GPU figures beside NPP, CuPy and OpenCV measured in
the same call, each as a ratio to the memory floor, and the CPU against OpenCV.

    write-results.py [--date YYYY-MM-DD] [-o FILE] [RESULTS_DIR]

Every part of RESULTS.md comes from bench/results/: tables from the JSON and text that the
benchmarks leave, and the parts written by hand (what changed between two calls and why, or
figures whose call left no data file) from bench/results/text/. Re-running it remakes
RESULTS.md byte for byte (the test `docs results generated`, tests/docs/)."""
import argparse
import json
import os

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")

# Bytes per pixel that must cross device memory at least once: each input read once, each
# output written once. Equalize reads its input twice (histogram, then mapping): a whole
# image must be seen before the first output pixel is known.
FLOOR_BYTES = {
    "histogram (rgba)": 4,
    "histogram (gray)": 1,
    "gray bt601 (rgba->gray)": 4 + 1,
    "gray amount 0.5 (rgba->rgba)": 4 + 4,
    "equalize (gray)": 1 + 1 + 1,
    "equalize luma (rgba)": 4 + 4 + 4,
    "equalize rgb (rgba)": 4 + 4 + 4,
    "blur sigma=2.5 (rgba)": 4 + 4,
    "blur sigma=10 (rgba)": 4 + 4,
    "blur sigma=10 (gray)": 1 + 1,
    "blur sigma=50 (rgba)": 4 + 4,
}
GOALS = {  # the goals on the H100 at 24 MP
    "gray bt601 (rgba->gray)": ("≤ 1.5× floor", lambda ms, floor, npp: ms <= 1.5 * floor),
    "equalize (gray)": ("≤ 3× floor, faster than NPP", lambda ms, floor, npp: ms <= 3 * floor and ms < npp),
    "blur sigma=10 (rgba)": ("≤ 1 ms", lambda ms, floor, npp: ms <= 1.0),
    "blur sigma=50 (rgba)": ("≤ 2 ms", lambda ms, floor, npp: ms <= 2.0),
}


def load(d, name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


def npp_figures(d):
    out = {}
    with open(os.path.join(d, "npp.txt")) as f:
        for line in f:
            if line.startswith("{"):
                r = json.loads(line)
                out[r["MP"]] = r
    return out


def peer_columns(case, peers, npp):
    """NPP, CuPy and OpenCV (all cores) on the same machine for the matching case."""
    if case.startswith("gray bt601"):
        return npp.get("npp_gray_ms"), peers.get("gray_cupy_ms"), peers.get("gray_cv2cpu_ms")
    if case == "histogram (gray)":
        return npp.get("npp_hist_ms"), peers.get("hist_cupy_bincount_ms"), None
    if case == "equalize (gray)":
        return npp.get("npp_equalize_ms"), peers.get("eq_cupy_ms"), peers.get("eq_cv2cpu_ms")
    if case == "blur sigma=10 (rgba)":
        return npp.get("npp_gauss_sigma10_61tap_rgb_ms"), peers.get("blur10_cupy_u8_ms"), peers.get("blur10_cv2cpu_ms")
    return None, None, None


def fmt(v, digits=3):
    return "–" if v is None else f"{v:.{digits}f}"


def gpu_section(d, date):
    gpu = open(os.path.join(d, "gpu.txt")).read().split("\n")
    peers = load(d, "peers.json")
    npp = npp_figures(d)
    bw = peers["d2d_GBps(read+write)"] * 1e6  # bytes per ms
    lines = [f"## GPU: {gpu[0].split(',')[0]}",
             "",
             f"{date}; {gpu[0]}; {gpu[1]}; {gpu[2]}. Device copy bandwidth measured in the same "
             f"call: {peers['d2d_GBps(read+write)']:.0f} GB/s (read + write); pinned PCIe "
             f"{peers['h2d_pinned_GBps']:.1f} GB/s up, {peers['d2h_pinned_GBps']:.1f} GB/s down.",
             "",
             "Operation: CUDA events around the kernels, warm, median of 30, inputs rotating among "
             "three copies. End to end: pinned host image up, operation, result down into buffers "
             "allocated once. Floor: the bytes that must move (FLOOR_BYTES in write-results.py) over "
             "the measured bandwidth. Peers on the same machine in the same call: NPP 13 "
             "(nppiRGBToGray, histogram + LUT, FilterGaussBorder σ=10 with 61 taps, on RGB), CuPy "
             "(uint8), OpenCV on all 16 cores.",
             ""]
    for tag, name, mp in (("24MP", "gpu-24mp.json", 24), ("50MP", "gpu-50mp.json", 50)):
        rows = load(d, name)
        lines += [f"### {rows[0]['width']}×{rows[0]['height']} ({tag})", "",
                  "| operation | Lumen ms | end to end ms | floor ms | × floor | NPP ms | CuPy ms | OpenCV 16 cores ms | goal |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            if r["case"] not in FLOOR_BYTES:
                continue  # measured later, with its own floor: edits_section
            floor = rows[0]["width"] * rows[0]["height"] * FLOOR_BYTES[r["case"]] / bw
            n, c, o = peer_columns(r["case"], peers.get(tag, {}), npp.get(mp, {}))
            goal = ""
            if mp == 24 and r["case"] in GOALS:
                text, ok = GOALS[r["case"]]
                goal = f"{text}: {'met' if ok(r['op_ms'], floor, n or float('inf')) else 'NOT met'}"
            lines.append(f"| {r['case']} | {r['op_ms']:.3f} | {r['end_to_end_ms']:.2f} | {floor:.3f} | "
                         f"{r['op_ms'] / floor:.1f} | {fmt(n)} | {fmt(c)} | {fmt(o, 1)} | {goal} |")
        lines.append("")
    return lines


def npp_geometry(d):
    """bench/npp-geometry.cu's lines: {"24mp": {"crop from 300,200": ms, …}, …}."""
    out = {}
    for line in open(os.path.join(d, "npp-geometry.txt")):
        if not line.startswith("npp "):
            continue
        head, cases = line[4:].split(": ", 1)
        out[head.split()[0]] = {c.rsplit(" ", 2)[0]: float(c.rsplit(" ", 2)[1]) for c in cases.strip().split(", ")}
    return out


# Lumen's geometry case and the NPP call doing the same work (bench-ops.c, npp-geometry.cu).
GEOMETRY_PEERS = {
    "rotate 90 (rgba)": ["rotate 90 (nppiRotate)", "rotate 90 (transpose+mirror)"],
    "crop from 300,200 (rgba)": ["crop from 300,200"],
    "straighten 1.5 (rgba)": ["straighten 1.5 cubic"],
    "resize to 3000x2000, area (rgba)": ["resize to 3000x2000 super"],
    "resize to 4500x3000, lanczos (rgba)": ["resize to 4500x3000 lanczos"],
}


def edits_section(d):
    """The fused point pass against the memory floor (a copy of the same image, timed in the
    same run), and the geometry against NPP in the same call (bench/results/edits-h100/)."""
    if not os.path.exists(os.path.join(d, "gpu-24mp.json")):
        return []
    gpu = open(os.path.join(d, "gpu.txt")).read().strip().split("\n")
    npp = npp_geometry(d)
    lines = ["## Edits: the fused point pass and the geometry", "",
             f"{'; '.join(gpu)}. CUDA events around the kernels, warm, median of 30. The floor is a "
             "device copy of the same RGBA image timed in the same run: one read and one write, "
             "all the fused pass must do. NPP 13 in the same call on images of the same size "
             "(bench/npp-geometry.cu).", "",
             "| image | case | Lumen ms | floor ms | × floor | NPP ms | goal |", "|---|---|---|---|---|---|---|"]
    for tag, name in (("24mp", "gpu-24mp.json"), ("50mp", "gpu-50mp.json")):
        rows = {r["case"]: r for r in load(d, name)}
        floor = rows["memory floor (copy rgba)"]["op_ms"]
        first = next(iter(rows.values()))
        size = f"{first['width']}×{first['height']}"
        for case, r in rows.items():
            if case.startswith("points:"):
                ratio = r["op_ms"] / floor
                lines.append(f"| {size} | {case} | {r['op_ms']:.3f} | {floor:.3f} | {ratio:.2f} | – | "
                             f"≤ 1.3× floor: {'met' if ratio <= 1.3 else 'NOT met'} |")
        for case, peers in GEOMETRY_PEERS.items():
            if case in rows:
                ms = [npp.get(tag, {}).get(p) for p in peers]
                best = min((m for m in ms if m is not None), default=None)
                lines.append(f"| {size} | {case} | {rows[case]['op_ms']:.3f} | – | – | {fmt(best)} | "
                             f"{'faster than NPP' if best and rows[case]['op_ms'] < best else 'slower than NPP'} |")
    return lines + [""]


def view_section(d):
    """The view through the colour transform's tables against the plain view, at 50 MP
    (bench/bench-view, bench/results/view-h100/)."""
    if not os.path.exists(os.path.join(d, "view-50mp.json")):
        return []
    gpu = open(os.path.join(d, "gpu.txt")).read().strip().split("\n")
    rows = {r["case"]: r for r in load(d, "view-50mp.json")}
    first = next(iter(rows.values()))
    lines = ["## The view through the colour transform (`bench/bench-view`)", "",
             f"{'; '.join(gpu)}. {first['width']}×{first['height']} photo, Adobe RGB shown on an "
             "sRGB monitor; CUDA events around the kernel, warm, median of 30. The view is what the "
             "window asks for on a change: the visible region at the view's scale (fit: the whole "
             "photo into 2160×1440; 100 %: a 2560×1440 region). The histogram as seen counts the "
             "whole photo through the tables.", "",
             "| case | depth | plain ms | through the tables ms | added ms |", "|---|---|---|---|---|"]
    for case in ("view fit", "view 100%", "histogram as seen"):
        for depth in ("8-bit", "16-bit"):
            plain = rows.get(f"{case} {depth} plain")
            lut = rows.get(f"{case} {depth} through tables")
            if plain and lut:
                lines.append(f"| {case} | {depth} | {plain['ms']:.3f} | {lut['ms']:.3f} | "
                             f"{lut['ms'] - plain['ms']:.3f} |")
    return lines + [""]


def cpu_section(path, machine, date, commit):
    d = json.load(open(path))
    lines = [f"### {machine}, {d['threads']} threads, OpenCV {d['opencv']}", "",
             f"{d.get('date', date)}, commit {d.get('commit', commit)}, {d['width']}×{d['height']}, "
             f"median of {d.get('repeat', 7)} warm runs each.", "",
             "| operation | Lumen ms | OpenCV ms | Lumen / OpenCV |", "|---|---|---|---|"]
    for r in d["rows"]:
        lines.append(f"| {r['case']} | {r['lumen_ms']:.2f} | {r['opencv_ms']:.2f} | {r['ratio']:.2f} |")
    return lines + [""]


HDR_GOALS = {  # 5 exposures of 12 MP on the GPU machine (issue's figures)
    "merge debevec + tonemap reinhard": 3.0,
    "fuse mertens": 10.0,
    "align mtb": 5.0,
}


def hdr_section(d):
    """The HDR merge, fusion, alignment and tone mapping: Lumen on the GPU and on every core,
    OpenCV on every core, measured in one call (bench/results/hdr/)."""
    if not os.path.exists(os.path.join(d, "hdr-gpu-12mp.json")):
        return []
    gpu = open(os.path.join(d, "gpu.txt")).read().strip().split("\n")
    rows = {r["case"]: r for r in load(d, "hdr-gpu-12mp.json")}
    cpu = {r["case"]: r for r in load(d, "hdr-cpu-12mp.json")} if os.path.exists(
        os.path.join(d, "hdr-cpu-12mp.json")) else {}
    cv = load(d, "hdr-opencv-12mp.json") if os.path.exists(os.path.join(d, "hdr-opencv-12mp.json")) else {}
    opencv = {"merge debevec": cv.get("merge_debevec_ms"), "tonemap reinhard": cv.get("tonemap_reinhard_ms"),
              "fuse mertens": cv.get("merge_mertens_ms"), "align mtb": cv.get("align_mtb_ms")}
    if cv.get("merge_debevec_ms") and cv.get("tonemap_reinhard_ms"):
        opencv["merge debevec + tonemap reinhard"] = cv["merge_debevec_ms"] + cv["tonemap_reinhard_ms"]
    first = next(iter(rows.values()))
    lines = ["## HDR: merge, fusion, alignment, tone mapping", "",
             f"{'; '.join(gpu)}. {first['exposures']} exposures of {first['width']}×{first['height']} "
             "(a synthetic bracket, the same in each program). GPU: CUDA events around the kernels, "
             "median of 30; floor: the bytes that must move over the device copy bandwidth measured "
             "in the same call. CPU: Lumen's reference on every core. OpenCV: the same steps with "
             "cv2 on every core, in the same call.", "",
             "| step | Lumen GPU ms | floor ms | Lumen CPU ms | OpenCV ms | goal |", "|---|---|---|---|---|---|"]
    for case, r in rows.items():
        goal = ""
        if case in HDR_GOALS:
            goal = f"≤ {HDR_GOALS[case]:g} ms: {'met' if r['ms'] <= HDR_GOALS[case] else 'NOT met'}"
        c = cpu.get(case, {}).get("ms")
        lines.append(f"| {case} | {r['ms']:.3f} | {fmt(r.get('floor_ms'))} | {fmt(c, 1)} | "
                     f"{fmt(opencv.get(case), 1)} | {goal} |")
    return lines + [""]


BATCH_LABELS = {  # bench/results/<dir>: what the call measured
    "batch-h100": "one H100, every run",
    "batch-h100-final": "one H100, the all-GPU JPEG path, the CPU backend and OpenCV",
    "batch-h100-cpu": "one H100's 16 cores, the CPU backend",
    "batch-h200-decode-batches": "one H200, several stacks a batch of nvJPEG (2026-11-30, 1e6e6b5c)",
    "batch-h200x2-one-gpu": "2 × H200, one GPU used (`--devices 0`)",
    "batch-h200x2-two-gpus": "2 × H200, both GPUs",
}


# Calls whose figures are kept only as text (bench/results/text/), each put before a kept call.
BATCH_TEXT = {
    "batch-h100": ["batch-h100-a06566f.md", "batch-h100-e63822f.md"],
    "batch-h200x2-one-gpu": ["batch-h200x2-workers.md"],
    "batch-h200-decode-batches": ["batch-h200-decode-batches.md"],
}


def batch_runs(d):
    path = os.path.join(d, "batch-bench.json")
    return json.load(open(path)) if os.path.exists(path) else None


def batch_section(d):
    """lumen-cli batch against the user's OpenCV pool, with the limits measured in the same
    call (bench/bench-batch.sh into bench/results/batch-*/)."""
    b = batch_runs(d)
    if b is None:
        return []
    gpu = open(os.path.join(d, "gpu.txt")).read().strip().split("\n")
    mb = b["stack_MB"]
    lines = [f"### {BATCH_LABELS.get(os.path.basename(d), os.path.basename(d))}", "",
             f"{'; '.join(gpu)}. Disk measured in the same call: write {b['disk']['write_MBps']:.0f} MB/s, "
             f"read {b['disk']['read_MBps']:.0f} MB/s. A stack: {mb['jpeg_in']:.1f} MB of JPEG in; "
             f"{mb['radiance_out']:.1f} MB of Radiance or {mb['jpg_out']:.1f} MB of JPEG out.", "",
             "| run | output | decoder | encoder | stacks/s | 500,000 stacks | decode | calibrate | merge | GPU encode | encode + write |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in sorted(b["lumen"].items()):
        st = r["stages_ms_per_stack"]
        jpg = "-jpg" in name
        encoder = (r.get("encoder") or "").split(",")[0] if jpg else "RLE (CPU)"
        lines.append(f"| lumen {name} | {'JPEG, Reinhard' if jpg else 'Radiance .hdr'} | {r['decoder'].split(',')[0]} | "
                     f"{encoder} | {r['stacks_per_s']:.2f} | {r['projected_hours_500k']:.1f} h | "
                     f"{fmt(st.get('decode'), 0)} | {fmt(st.get('calibrate'), 1)} | {fmt(st.get('merge'), 1)} | "
                     f"{fmt(st.get('encode (nvJPEG)'), 1)} | {fmt(st.get('encode + write'), 0)} |")
    for key, label in (("opencv_pool", "Radiance .hdr"), ("opencv_jpg_pool", "JPEG, Reinhard")):
        pool = b.get(key) or {}
        if not pool:
            continue
        ms = pool["ms_per_stack"]
        lines.append(f"| OpenCV, Python pool of {pool['processes']} | {label} | cv2.imread | cv2.imwrite | "
                     f"{pool['stacks_per_s']:.2f} | {pool['projected_hours_500k']:.1f} h | {ms['decode']:.0f} | "
                     f"{ms['calibrate']:.0f} | {ms['merge']:.0f} | – | {ms['write'] + ms.get('tonemap', 0):.0f} |")
    lines += ["", "What each limit allows (stacks/s), measured in the same call:", "",
              "| limit | stacks/s |", "|---|---|"]
    for k, v in b["floors_stacks_per_s"].items():
        lines.append(f"| {k.replace('_stacks_per_s', '').replace('_', ' ')} | {v:.1f} |")
    return lines + [""]


def batch_goals(d):
    """The issue's goals, each from the call that measured it."""
    runs = {sub: batch_runs(os.path.join(d, sub)) for sub in BATCH_LABELS}
    if any(v is None for v in runs.values()):
        return []
    final, full = runs["batch-h100-final"], runs["batch-h100"]
    one, two = runs["batch-h200x2-one-gpu"], runs["batch-h200x2-two-gpus"]
    jpg = final["lumen"]["cuda-jpg-nvjpeg"]["stacks_per_s"]
    pool_jpg, pool_hdr = final["opencv_jpg_pool"]["stacks_per_s"], final["opencv_pool"]["stacks_per_s"]
    hdr = full["lumen"]["cuda-hdr-nvjpeg"]["stacks_per_s"]
    disk = full["floors_stacks_per_s"]["disk_write_stacks_per_s"]
    scale = two["lumen"]["cuda-jpg-nvjpeg"]["stacks_per_s"] / one["lumen"]["cuda-jpg-nvjpeg"]["stacks_per_s"]
    cpu = final["lumen"]["cpu-hdr"]["stacks_per_s"]
    met = lambda ok: "met" if ok else "**not met**"
    rows = [f"| JPEG output (Reinhard) on one H100 ≥ 100 stacks/s | {jpg:.1f} stacks/s ({500000 / jpg / 3600:.1f} h for 500,000) | {met(jpg >= 100)} |",
            f"| … ≥ 50× the OpenCV pool | {jpg / pool_jpg:.0f}× its JPEG pool ({pool_jpg:.2f}/s), {jpg / pool_hdr:.0f}× its Radiance pool ({pool_hdr:.2f}/s) | {met(jpg >= 50 * pool_jpg)} |",
            f"| Radiance output limited only by the disk's write rate | {hdr:.1f} stacks/s, {hdr / disk:.0%} of the {disk:.1f} the disk's sequential rate allows (one file written and synced); the batch's writers each write, fsync and rename their own file, 16 at a time, and the GPU and the encoders wait on them | {met(hdr >= 0.95 * disk)} |",
            f"| two GPUs ≥ 1.8× one (2 × H200) | {scale:.2f}× ({two['lumen']['cuda-jpg-nvjpeg']['stacks_per_s']:.1f} against {one['lumen']['cuda-jpg-nvjpeg']['stacks_per_s']:.1f} stacks/s, JPEG output) | {met(scale >= 1.8)} |",
            f"| the CPU backend on 16 cores ≥ 10× the OpenCV pool | {cpu:.1f} stacks/s, {cpu / pool_hdr:.1f}× (Radiance output) | {met(cpu >= 10 * pool_hdr)} |"]
    # A goal last measured in a call kept only as text (BATCH_TEXT) takes its row from there.
    later = {row.split(" | ")[0]: row for row in text(d, "batch-goals.md") if row}
    return ["| goal | measured | |", "|---|---|---|"] + [later.get(r.split(" | ")[0], r) for r in rows] + [""]


def batch_part(d):
    subs = sorted(f for f in os.listdir(d) if f.startswith("batch-"))
    if not subs:
        return []
    out = ["## Batch HDR (`lumen-cli batch`, `bench/bench-batch.sh`)", "",
           "200 distinct stacks of 3 JPEG exposures (4096×2880, 11.8 MP, ×0.25, ×1, ×4 in linear light, "
           "quality 93) cut from ../shared/data/photos/beach-aerial-15mp.jpg, repeated in a manifest "
           "under distinct ids so that each run lasts ≥ 30 s; Debevec, each stack calibrated on its "
           "own (`-response`: one curve given, `--response-in`). `-nvjpeg` runs decode with nvJPEG "
           "(the JPEG runs also encode with it): the stack stays on the GPU from the decoder to the "
           "encoder. Stage times in ms per stack, summed over stacks (stages overlap). The OpenCV "
           "pool is the user's code: per stack CalibrateDebevec, MergeDebevec (and TonemapReinhard), "
           "imwrite, one process per core.", ""]
    out += batch_goals(d)
    for sub in subs:
        for name in BATCH_TEXT.get(sub, []):
            out += text(d, name)
        out += batch_section(os.path.join(d, sub))
    return out


def text(d, name):
    """A part written by hand (prose, or figures whose measurement left no data file), kept in
    RESULTS_DIR/text/ and copied as it is."""
    with open(os.path.join(d, "text", name)) as f:
        return f.read().rstrip("\n").split("\n") + [""]


def rounds_table(path):
    """bench/cpu-vs-opencv.py's rounds: each case measured on both sides in turn, the median
    with the spread of the rounds' ratios (bold where Lumen is slower), and OpenCV on BGRA."""
    d = json.load(open(path))
    lines = ["| operation | Lumen ms | OpenCV ms (BGR) | Lumen / OpenCV (rounds) | OpenCV ms on BGRA | Lumen / OpenCV on BGRA |",
             "|---|---|---|---|---|---|"]
    for r in d["rows"]:
        ratio = f"{r['ratio']:.2f} ({r['ratio_min']:.2f}–{r['ratio_max']:.2f})"
        if r["ratio"] > 1:
            ratio = f"**{ratio}**"
        bgra = f"{r['opencv_bgra_ms']:.2f}" if "opencv_bgra_ms" in r else ""
        ratio_bgra = f"{r['ratio_bgra']:.2f}" if "ratio_bgra" in r else ""
        lines.append(f"| {r['case']} | {r['lumen_ms']:.2f} | {r['opencv_ms']:.2f} | {ratio} | {bgra} | {ratio_bgra} |")
    return lines + [""]


def cpu_part(d, date, commit):
    out = ["## CPU against OpenCV, same image, same thread count", "",
           "Lumen works on RGBA as decoded (4 bytes a pixel), OpenCV on BGR (3): the colour cases "
           "move a third more bytes in Lumen.", ""]
    out += text(d, "cpu-both-2026-11-25.md")
    out += rounds_table(os.path.join(d, "cpu-vs-opencv-h100-host.json"))
    out += text(d, "cpu-both-2026-11-25-dev.md")
    out += rounds_table(os.path.join(d, "cpu-vs-opencv-dev-2core.json"))
    out += text(d, "cpu-both-2026-11-25-changes.md")
    out += text(d, "cpu-h100-e63822f.md")
    out += cpu_section(os.path.join(d, "cpu-vs-opencv-h100-host-e6550a6.json"),
                       "GPU machine's CPU (16 cores)", date, commit)
    out += cpu_section(os.path.join(d, "cpu-vs-opencv-dev-2core-e45df9f.json"),
                       "development machine (2 cores)", date, commit)
    out += text(d, "cpu-dev-2core-e45df9f.md")
    out += text(d, "cpu-geometry-gray-2026-11-24.md")
    out += text(d, "cpu-first-run-radiance-batch.md")
    return out


def latency_section(d, commit):
    def slider_name(r):
        # "curve points", "wb temperature": the parameter where it is not the usual one.
        param = r.get("param")
        return r["op"] if param in (None, "sigma", "amount") else f"{r['op']} {param}"

    latency = sorted(f for f in os.listdir(d) if f.startswith("latency-") and f.endswith(".json"))
    if not latency:
        return []
    out = ["## Slider to paint (the window, `bench/ui-latency`)", "",
           "Each change waits for its paint before the next; 50th / 95th percentile in ms. "
           "First paint: the first pixels of a change on screen (the CPU paints the view "
           "rendered from the photo shrunk to the view's scale first); full: the "
           "full-resolution render's.", "",
           "Goals: GPU machine, 50 MP, any slider: p95 ≤ 16 ms; development machine, CPU, "
           "24 MP: first paint p95 ≤ 100 ms. On the GPU the result is on the main thread "
           "within 7 ms (p95); the paint then waits for GTK's frame clock, which paints at "
           "most once a frame (60 Hz; Xvfb here), so change→paint sits near one frame.", "",
           "| machine | commit | photo | backend | slider | changes | first paint p50 / p95 | full result p50 / p95 | full paint p50 / p95 |",
           "|---|---|---|---|---|---|---|---|---|"]
    for f in latency:
        r = json.load(open(os.path.join(d, f)))
        out.append(f"| {r.get('machine', '')} | {r.get('commit', commit)} | {os.path.basename(r['photo'])} | {r['backend']} | {slider_name(r)} | "
                   f"{r['measured']} | {r['first_paint_p50']:.1f} / {r['first_paint_p95']:.1f} | "
                   f"{r['full_result_p50']:.1f} / {r['full_result_p95']:.1f} | "
                   f"{r['full_paint_p50']:.1f} / {r['full_paint_p95']:.1f} |")
    return out + [""]


def io_table(path):
    """bench/bench-io.py's records: Lumen's codec against OpenCV's, pair by pair."""
    d = json.load(open(path))
    lines = ["| size | case | Lumen ms | OpenCV ms | Lumen/OpenCV (min–max) | Lumen CPU ms | OpenCV CPU ms | files |",
             "|---|---|---|---|---|---|---|---|"]
    for r in d["records"]:
        lines.append(f"| {r['mp']} MP | {r['case']} | {r['lumen_ms']:.0f} | {r['opencv_ms']:.0f} | "
                     f"{r['ratio']:.2f} ({r['ratio_min']:.2f}–{r['ratio_max']:.2f}) | "
                     f"{r['lumen_cpu_ms']:.0f} | {r['opencv_cpu_ms']:.0f} | {r['sizes']} |")
    return lines + [""]


def raw_section(d):
    """Camera raw on the GPU machine: the demosaic alone against NPP and the memory floor
    (bench-demosaic's JSON), the development through lumen-cli (bench-raw.py's JSON)."""
    lines = ["## Camera raw (H200)", ""]
    lines += text(d, "raw-h200.md")
    lines += text(d, "raw-quality.md")
    lines += text(d, "raw-dev-2core.md")
    rows = json.load(open(os.path.join(d, "raw", "demosaic-h200.json")))
    lines += ["| demosaic | size | median ms | p95 ms | ÷ device copy | ÷ NPP |", "|---|---|---|---|---|---|"]
    by = {(r["case"], r["size"]): r for r in rows}
    for r in rows:
        copy, npp = by[("copy", r["size"])], by.get(("npp", r["size"]))
        ratio_npp = f"{r['median_ms'] / npp['median_ms']:.2f}" if npp else ""
        lines.append(f"| {r['case']} | {r['width']}×{r['height']} | {r['median_ms']:.3f} | {r['p95_ms']:.3f} | "
                     f"{r['median_ms'] / copy['median_ms']:.2f} | {ratio_npp} |")
    lines += ["", "| development (lumen-cli) | backend | commit | load | raw | tonemap | save | whole command (wall) |",
              "|---|---|---|---|---|---|---|---|"]
    for name, commit in (("raw-h200.json", "3a36ba1"), ("raw-h200-refine.json", "06d61a8"),
                         ("raw-h200-82a76de.json", "82a76de")):
        for r in json.load(open(os.path.join(d, "raw", name)))["rows"]:
            s = r["steps_ms"]
            save = s.get("save", s.get("save (nvJPEG)", 0))
            lines.append(f"| {r['case']} → .{r['output']} | {r['backend']} | {commit} | {s.get('load', 0):.1f} | "
                         f"{s.get('raw', 0):.2f} | {s.get('tonemap', 0):.2f} | {save:.1f} | "
                         f"{r['wall_ms']:.0f} ms |")
    # The peers in the same call as the last development rows: file to JPEG on all 16 cores.
    peers = json.load(open(os.path.join(d, "raw", "raw-peers-h200-82a76de.json")))["rows"]
    ours = {(r["case"], r["backend"]): r["wall_ms"] for r in
            json.load(open(os.path.join(d, "raw", "raw-h200-82a76de.json")))["rows"] if r["output"] == "jpg"}
    lines += ["", "| file → JPEG, same call (82a76de) | peer | peer wall | Lumen cuda+nvjpeg | ratio | Lumen cpu | ratio |",
              "|---|---|---|---|---|---|---|"]
    for r in peers:
        gpu, cpu = ours.get((r["case"], "cuda+nvjpeg")), ours.get((r["case"], "cpu"))
        to = "" if r["output"] == "jpg" else f" (to .{r['output']}: no JPEG encode)"
        lines.append(f"| {r['case']}{to} | {r['version']} | {r['wall_ms']:.0f} ms | {gpu:.0f} ms | "
                     f"{r['wall_ms'] / gpu:.2f}× | {cpu:.0f} ms | {r['wall_ms'] / cpu:.2f}× |")
    lines += ["", "The window on camera raws (`bench/bench-raw-window.py`, 82a76de):", "", "```"]
    lines += open(os.path.join(d, "raw", "window-h200-82a76de.txt")).read().strip().split("\n")
    return lines + ["```", ""]



# Issue 32's operations, as bench-ops names them, with the bytes a pixel that must cross
# device memory at least once (RGBA in, RGBA out).
DETAIL_CASES = ["denoise, σ estimated (rgba)", "denoise, σ 10 (rgba)", "sharpen radius=1 (rgba)",
                "sharpen radius=4 (rgba)", "localcontrast amount=0.3 (rgba)", "toneeq shadows +1 (rgba)",
                "points: colormix", "vignette amount=-1 (rgba)", "lens 24 mm, all corrections (rgba)"]


def detail_section(d):
    """Noise reduction, sharpening, local contrast, the tone equalizer, the colour mixer, the
    vignette and lens correction on the GPU machine (bench-ops, 24 and 50 MP, against the memory
    floor measured in the same run), the denoise speed against OpenCV's non-local means, and
    its quality table."""
    lines = ["## Detail operations (H200)", ""]
    lines += text(d, "detail-h200.md")
    runs = [json.load(open(os.path.join(d, "issue32", f"gpu-{mp}-h200-bf31dc9.json"))) for mp in ("24mp", "50mp")]
    floors = [next(r["op_ms"] for r in rows if r["case"] == "memory floor (copy rgba)") for rows in runs]
    lines += ["| operation (CUDA, median of 30) | 24 MP ms | × floor | 50 MP ms | × floor |", "|---|---|---|---|---|"]
    for case in DETAIL_CASES:
        ms = [next((r["op_ms"] for r in rows if r["case"] == case), None) for rows in runs]
        if None in ms:
            continue
        lines.append(f"| {case} | {fmt(ms[0])} | {ms[0] / floors[0]:.0f} | {fmt(ms[1])} | {ms[1] / floors[1]:.0f} |")
    lines += ["", f"Memory floor (a copy of the RGBA image): {fmt(floors[0])} ms at 24 MP, {fmt(floors[1])} ms "
              "at 50 MP.", ""]
    lines += ["```", open(os.path.join(d, "issue32", "denoise-speed-h200-bf31dc9.txt")).read().strip(), "```", ""]
    lines += text(d, "denoise-quality.md")
    lines += text(d, "masks-h200.md")
    return lines

def document(d, date):
    commit = open(os.path.join(d, "gpu.txt")).read().split("\n")[1].replace("commit ", "").strip()
    out = ["# Benchmark results", "",
           "Written by `bench/write-results.py` from the figures in `bench/results/` (made by "
           "`tests/gpu/device-run.sh` on the GPU machine and `bench/cpu-vs-opencv.py`) and the text "
           "written by hand in `bench/results/text/`. "
           "Benchmarks are not tests; a stale table shows by its commit.", ""]
    out += gpu_section(d, date)
    out += edits_section(os.path.join(d, "edits-h100"))
    out += text(d, "geometry-h200.md")
    out += text(d, "geometry-h200-strips.md")
    out += text(d, "geometry-h200-session4.md")
    out += text(d, "geometry-h200-session5.md")
    out += text(d, "geometry-h200-session6.md")
    out += view_section(os.path.join(d, "view-h100"))
    out += cpu_part(d, date, commit)
    out += latency_section(d, commit)
    out += hdr_section(os.path.join(d, "hdr"))
    out += raw_section(d)
    out += detail_section(d)
    out += text(d, "folders-h200.md")
    out += batch_part(d)
    parity = os.path.join(d, "parity-h100.txt")
    out += ["## CPU/GPU parity", "", "```", open(parity).read().strip(), "```", ""]
    out += text(d, "parity-h100-2026-11-25.md")
    compare = os.path.join(d, "compare-h100.txt")
    out += ["## lumen-cli compare (boats-sunset.jpg, gray + equalize + blur σ=10)", "", "```",
            open(compare).read().strip(), "```", ""]
    out += text(d, "compare-h100-50mp.md")
    out += text(d, "compare-h200-50mp.md")
    # The window's soak (bench/soak.sh) and its 600 MP photo (tests/ui/test-large-view.c).
    out += text(d, "soak.md")
    out += text(d, "large-view.md")
    out += text(d, "io-dev-2core-2026-11-24.md")
    out += text(d, "io-dev-2core-2026-11-25.md")
    out += io_table(os.path.join(d, "io-dev-2core-2026-11-25.json"))
    for name in ("io-h100-host-68fb51e.md", "io-tiff-parallel.md", "tiled.md", "nvjpeg-export.md", "detect.md",
                 "objects-cpu-2core.md", "objects-h200.md"):
        out += text(d, name)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description="Writes bench/RESULTS.md from bench/results/.")
    ap.add_argument("--date", help="the GPU machine's call (default: RESULTS_DIR/date.txt)")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "RESULTS.md"))
    ap.add_argument("dir", nargs="?", default=RESULTS)
    a = ap.parse_args()
    date = a.date or open(os.path.join(a.dir, "date.txt")).read().strip()
    with open(a.output, "w") as f:
        f.write(document(a.dir, date))


if __name__ == "__main__":
    main()
