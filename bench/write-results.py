#!/usr/bin/env python3
"""Writes bench/RESULTS.md from the JSON that tests/gpu/device-run.sh and cpu-vs-opencv.py
leave (kept in bench/results/): Lumen's GPU figures beside NPP, CuPy and OpenCV measured in
the same call, each as a ratio to the memory floor, and the CPU against OpenCV.

    write-results.py [--date YYYY-MM-DD] [RESULTS_DIR]"""
import argparse
import datetime
import json
import os

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


def cpu_section(path, machine, date, commit):
    d = json.load(open(path))
    lines = [f"### {machine}, {d['threads']} threads, OpenCV {d['opencv']}", "",
             f"{date}, commit {commit}, {d['width']}×{d['height']}, median of 7 warm runs each.", "",
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


def batch_section(d):
    """lumen-cli batch against the user's OpenCV pool, with the limits measured in the same
    call (bench/bench-batch.sh into bench/results/batch/)."""
    path = os.path.join(d, "batch-bench.json")
    if not os.path.exists(path):
        return []
    b = json.load(open(path))
    gpu = open(os.path.join(d, "gpu.txt")).read().strip().split("\n")
    pool = b["opencv_pool"]
    lines = [f"## Batch HDR (`lumen-cli batch`, `bench/bench-batch.sh`): {gpu[0].split(',')[0]}"
             + (f" × {len([g for g in gpu if g.startswith('NVIDIA')])}" if len([g for g in gpu if g.startswith('NVIDIA')]) > 1 else ""), "",
             f"{'; '.join(gpu)}. Stacks of 3 JPEG exposures of 3968×2976 (11.8 MP), Debevec, "
             f"Radiance output ({b['stack_MB']['radiance_out']:.1f} MB a stack); a manifest repeats "
             "8 scenes under distinct ids. `-response`: one camera curve given (`--response-in`), "
             "no calibration per stack. Disk measured in the same call: "
             f"write {b['disk']['write_MBps']:.0f} MB/s, read {b['disk']['read_MBps']:.0f} MB/s. "
             "Stage times are summed over stacks (stages overlap).", "",
             "| run | stacks/s | decoder | decode ms | calibrate ms | merge ms | encode + write ms |",
             "|---|---|---|---|---|---|---|"]
    for name, r in b["lumen"].items():
        st = r["stages_ms_per_stack"]
        lines.append(f"| lumen {name} | {r['stacks_per_s']:.2f} | {r['decoder'].split(',')[0]} | "
                     f"{fmt(st.get('decode'), 0)} | {fmt(st.get('calibrate'), 0)} | {fmt(st.get('merge'), 1)} | "
                     f"{fmt(st.get('encode + write'), 0)} |")
    ms = pool["ms_per_stack"]
    lines.append(f"| OpenCV, Python pool of {pool['processes']} | {pool['stacks_per_s']:.2f} | cv2.imread | "
                 f"{ms['decode']:.0f} | {ms['calibrate']:.0f} | {ms['merge']:.0f} | {ms['write']:.0f} |")
    lines += ["", "What each limit allows (stacks/s), measured in the same call:", "",
              "| limit | stacks/s |", "|---|---|"]
    for k, v in b["floors_stacks_per_s"].items():
        lines.append(f"| {k.replace('_stacks_per_s', '').replace('_', ' ')} | {v:.1f} |")
    return lines + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("dir", nargs="?", default=os.path.join(os.path.dirname(__file__), "results"))
    a = ap.parse_args()
    commit = open(os.path.join(a.dir, "gpu.txt")).read().split("\n")[1].replace("commit ", "").strip()
    out = ["# Benchmark results", "",
           "Written by `bench/write-results.py` from the figures in `bench/results/` (made by "
           "`tests/gpu/device-run.sh` on the GPU machine and `bench/cpu-vs-opencv.py`). "
           "Benchmarks are not tests; a stale table shows by its commit.", ""]
    out += gpu_section(a.dir, a.date)
    out += ["## CPU against OpenCV, same image, same thread count", "",
            "Lumen works on RGBA as decoded (4 bytes a pixel), OpenCV on BGR (3): the colour cases "
            "move a third more bytes in Lumen.", ""]
    out += cpu_section(os.path.join(a.dir, "cpu-vs-opencv-h100-host.json"),
                       "GPU machine's CPU (16 cores)", a.date, commit)
    dev = os.path.join(a.dir, "cpu-vs-opencv-dev-2core.json")
    if os.path.exists(dev):
        out += cpu_section(dev, "development machine (2 cores)", a.date, commit)
    latency = sorted(f for f in os.listdir(a.dir) if f.startswith("latency-") and f.endswith(".json"))
    if latency:
        out += ["## Slider to paint (the window, `bench/ui-latency`)", "",
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
            r = json.load(open(os.path.join(a.dir, f)))
            out.append(f"| {r.get('machine', '')} | {r.get('commit', commit)} | {os.path.basename(r['photo'])} | {r['backend']} | {r['op']} | "
                       f"{r['measured']} | {r['first_paint_p50']:.1f} / {r['first_paint_p95']:.1f} | "
                       f"{r['full_result_p50']:.1f} / {r['full_result_p95']:.1f} | "
                       f"{r['full_paint_p50']:.1f} / {r['full_paint_p95']:.1f} |")
        out.append("")
    out += hdr_section(os.path.join(a.dir, "hdr"))
    for sub in sorted(f for f in os.listdir(a.dir) if f.startswith("batch")):
        out += batch_section(os.path.join(a.dir, sub))
    parity = os.path.join(a.dir, "parity-h100.txt")
    if os.path.exists(parity):
        out += ["## CPU/GPU parity", "", "```", open(parity).read().strip(), "```", ""]
    compare = os.path.join(a.dir, "compare-h100.txt")
    if os.path.exists(compare):
        out += ["## lumen-cli compare (boats-sunset.jpg, gray + equalize + blur σ=10)", "", "```",
                open(compare).read().strip(), "```", ""]
    with open(os.path.join(os.path.dirname(__file__), "RESULTS.md"), "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
