#!/usr/bin/env python3
"""The window's figures for camera raws (issue 31's goals): open → first full-resolution paint at
24 and 61 MP, and slider → result at 61 MP for the raw panel's exposure and white balance, tone
mapping's contrast and every operation with a slider or a curve, all through bench/ui-latency in
the real window. The DNGs are bench/bench-raw.py's (Bayer, made from a real photo with its noise).

    bench-raw-window.py [--ui-latency BIN] [--pack DIR] [--backends cuda,cpu] [--count 30]
                        [--opens 10] [--quick] OUTDIR

One JSON per run (ui-latency's --json) and its log go to OUTDIR, with summary.txt (also printed)
and summary.json. --backends: the first is measured everywhere; cpu, where asked, opens the
24 MP raw and moves the raw panel's exposure there as a reference. --pack: the GPU machine's
pack (tests/gpu/device-pack.sh: schemas, icons, ICC profiles) for the window's environment, as
tests/gpu/device-run.sh's window step sets it; the display is the one env.sh started. --quick:
small raws and few changes, to see that it runs (the development machine's CPU).
Needs numpy, OpenCV and tifffile; LUMEN_TEST_DATA names the data folder (its photos/)."""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_raw", os.path.join(HERE, "bench-raw.py"))
bench_raw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_raw)

SIZES = {"24mp": (4000, 6000), "61mp": (6336, 9504)}
QUICK_SIZES = {"24mp": (400, 600), "61mp": (634, 950)}
# The raw panel's exposure and white balance (temperature, under wb=temperature, and tint),
# tone mapping's contrast, then every operation whose panel has a slider or a curve (crop's
# are positions in pixels, rotate's choices: neither is a slider to drag).
SLIDERS = [("raw", "exposure"), ("raw", "temperature"), ("raw", "tint"), ("tonemap", "contrast"),
           ("wb", None), ("exposure", None), ("contrast", None), ("curve", None), ("saturation", None),
           ("gray", None), ("equalize", None), ("blur", None), ("straighten", None)]
GOAL_OPEN_MS = 500.0   # open → first full-quality paint at 24 MP
GOAL_SLIDER_MS = 16.0  # slider → result p95 at 61 MP


def window_env(pack):
    env = dict(os.environ, GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1", LC_ALL="C.UTF-8",
               DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent-bus")
    if pack:
        pack = os.path.abspath(pack)
        env["GSETTINGS_SCHEMA_DIR"] = os.path.join(pack, "schemas")
        env["XDG_DATA_DIRS"] = os.path.join(pack, "share") + ":" + os.environ.get("XDG_DATA_DIRS", "/usr/share")
        env["LUMEN_ICC_DIR"] = os.path.join(pack, "icc")
    return env


def run(ui_latency, args, name, out, env, timeout=90):
    """ui-latency ARGS, its JSON into OUT/NAME.json and its log beside: the figures, or None."""
    path = os.path.join(out, name + ".json")
    log = os.path.join(out, name + ".log")
    t = time.perf_counter()
    try:
        with open(log, "w") as f:
            r = subprocess.run([ui_latency, "--json", path] + args, stdout=f, stderr=subprocess.STDOUT,
                               env=env, timeout=timeout)
        status = r.returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
    except OSError as e:  # no such program: each run says so, the others go on
        status = str(e)
    wall = time.perf_counter() - t
    figures = None
    if os.path.exists(path):
        with open(path) as f:
            figures = json.load(f)
        figures["exit"] = status
    print(f"  {name}: exit {status}, {wall:.1f} s", flush=True)
    if figures is None:
        lines = [l for l in open(log).read().splitlines() if "Gtk-WARNING" not in l and l.strip()]
        print("    " + "\n    ".join(lines[-4:]), flush=True)
    return figures


def make_raws(sizes, rgb, work):
    """The Bayer DNGs of SIZES in WORK, as bench-raw.py makes them: label → path."""
    rng = np.random.default_rng(1)
    raws = {}
    for label, (h, w) in sizes.items():
        raws[label] = os.path.join(work, f"bayer-{label}.dng")
        t = time.perf_counter()
        bench_raw.make_dng(raws[label], rgb, "RGGB", h, w, rng)
        print(f"{label}: {w}×{h} Bayer DNG made in {time.perf_counter() - t:.1f} s", flush=True)
    return raws


def measure(a, env, raws):
    """Every run, in order of importance (a budget spent skips the rest): one row each."""
    backends = a.backends.split(",")
    first = backends[0]
    rows = []
    started = time.perf_counter()

    def measure_run(args, name, screenshot):
        if time.perf_counter() - started > a.budget:
            print(f"  {name}: skipped (over the budget of {a.budget:.0f} s)", flush=True)
            return None
        extra = {"LUMEN_SCREENSHOT": os.path.join(a.out, name + ".png")} if screenshot else {}
        return run(a.ui_latency, args, name, a.out, dict(env, **extra))

    # Open → first full-resolution paint, both sizes on the first backend, 24 MP on the others.
    for backend in backends:
        for label in raws if backend == first else ["24mp"]:
            opens = a.opens if backend == first else max(2, a.opens // 4)
            name = f"open-{label}-{backend}"
            r = measure_run(["--backend", backend, "--open", str(opens), raws[label]], name, label == "61mp")
            rows.append({"run": name, "kind": "open", "size": label, "backend": backend, "figures": r})
    # Slider → result at 61 MP on the first backend; the raw panel's exposure at 24 MP on the others.
    cases = [(first, "61mp", op, param) for op, param in SLIDERS]
    cases += [(b, "24mp", "raw", "exposure") for b in backends[1:]]
    for backend, label, op, param in cases:
        name = f"slider-{label}-{backend}-{op}" + (f"-{param}" if param else "")
        args = ["--backend", backend, "--op", op, "--count", str(a.count if backend == first else 10)]
        args += ["--param", param] if param else []
        r = measure_run(args + [raws[label]], name, (op, param) == ("raw", "exposure"))
        rows.append({"run": name, "kind": "slider", "size": label, "backend": backend, "op": op,
                     "param": (r or {}).get("param", param), "figures": r})
    return rows, time.perf_counter() - started


def summary(rows, elapsed, first, quick):
    """The text of summary.txt: the two tables, then the issue's goals on the FIRST backend."""
    lines = [f"# the window on camera raws (bench/bench-raw-window.py{' --quick' if quick else ''}), "
             f"{elapsed:.0f} s of runs", "",
             "open → first full-resolution paint (ms; cold: the process's first open; load: the file read and "
             "unpacked; render: to the worker's result; paint: to the screen)",
             f"{'size':6} {'backend':7} {'cold':>8} {'p50':>8} {'p95':>8} {'min':>8} {'load':>7} {'render':>7} "
             f"{'paint':>6}  the worker's steps (p50)"]
    for row in (r for r in rows if r["kind"] == "open"):
        f = row["figures"]
        if f is None:
            lines.append(f"{row['size']:6} {row['backend']:7} no figures ({row['run']}: skipped or failed)")
            continue
        steps = ", ".join(f"{k} {v:.1f}" for k, v in f["steps_p50"].items())
        lines.append(f"{row['size']:6} {row['backend']:7} {f['cold_total_ms']:8.1f} {f['total_p50']:8.1f} "
                     f"{f['total_p95']:8.1f} {f['total_min']:8.1f} {f['load_p50']:7.1f} {f['render_p50']:7.1f} "
                     f"{f['paint_p50']:6.1f}  {steps}")
    lines += ["", "slider → result and → paint at full resolution (ms)",
              f"{'size':6} {'backend':7} {'control':26} {'result p50':>10} {'p95':>8} {'paint p50':>10} {'p95':>8}"]
    for row in (r for r in rows if r["kind"] == "slider"):
        f = row["figures"]
        control = f"{row['op']} {row['param'] or ''}".strip()
        if f is None or f["measured"] == 0:
            lines.append(f"{row['size']:6} {row['backend']:7} {control:26} no figures ({row['run']}: skipped or failed)")
            continue
        lines.append(f"{row['size']:6} {row['backend']:7} {control:26} {f['full_result_p50']:10.2f} "
                     f"{f['full_result_p95']:8.2f} {f['full_paint_p50']:10.2f} {f['full_paint_p95']:8.2f}"
                     + ("" if f["measured"] == f["count"] else f"  ({f['measured']} of {f['count']} painted)"))
    open24 = next((r["figures"] for r in rows if r["run"] == f"open-24mp-{first}" and r["figures"]), None)
    sliders = [r["figures"] for r in rows if r["kind"] == "slider" and r["size"] == "61mp" and r["figures"]
               and r["figures"]["measured"]]
    lines.append("")
    if quick:  # small raws: the goals are of 24 and 61 MP
        return "\n".join(lines) + "\n"
    if open24:
        met = "met" if open24["total_p50"] <= GOAL_OPEN_MS else "NOT met"
        lines.append(f"goal open → paint ≤ {GOAL_OPEN_MS:.0f} ms at 24 MP ({first}): p50 {open24['total_p50']:.1f} ms, "
                     f"{met} (the process's first open: {open24['cold_total_ms']:.1f} ms)")
    if sliders:
        worst = max(sliders, key=lambda f: f["full_result_p95"])
        over = [f"{f['op']} {f['param']}" for f in sliders if f["full_result_p95"] > GOAL_SLIDER_MS]
        lines.append(f"goal slider → result p95 ≤ {GOAL_SLIDER_MS:.0f} ms at 61 MP ({first}): worst "
                     f"{worst['op']} {worst['param']} {worst['full_result_p95']:.2f} ms; "
                     + (f"over: {', '.join(over)}" if over else "met by every control"))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--ui-latency", default=os.environ.get("LUMEN_UI_LATENCY", "build/bench/ui-latency"))
    ap.add_argument("--pack", help="the GPU machine's pack folder (.device)")
    ap.add_argument("--backends", default="cuda,cpu")
    ap.add_argument("--count", type=int, default=30, help="changes per slider")
    ap.add_argument("--opens", type=int, default=10, help="opens after the first, per size")
    ap.add_argument("--quick", action="store_true", help="small raws: that it runs")
    ap.add_argument("--budget", type=float, default=420, help="seconds of runs, after which the rest are skipped")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    data = os.environ.get("LUMEN_TEST_DATA", os.path.join(HERE, "..", "tests", "data"))
    work = tempfile.mkdtemp(prefix="lumen-raw-window-")  # 120 MB a raw: not what comes back
    try:
        raws = make_raws(QUICK_SIZES if a.quick else SIZES, bench_raw.photo(data), work)
        rows, elapsed = measure(a, window_env(a.pack), raws)
    finally:
        shutil.rmtree(work)
    text = summary(rows, elapsed, a.backends.split(",")[0], a.quick)
    print(text)
    with open(os.path.join(a.out, "summary.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"elapsed_s": elapsed, "rows": rows}, f, indent=1)
    failed = [r["run"] for r in rows if r["figures"] is None or r["figures"].get("exit") != 0]
    if failed:
        print("runs that failed, were skipped or left changes unpainted: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
