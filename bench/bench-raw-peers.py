#!/usr/bin/env python3
"""The raw developers Lumen is measured against, on the DNGs bench-raw.py develops (24 and 61 MP
Bayer, the files bench-raw.py makes in an empty folder: same photo, seed and order; pass both
scripts the same --keep DIR and they are made once): file → exported JPEG with darktable-cli
(OpenCL off) and rawtherapee-cli (RCD, a neutral profile), and LibRaw's processing (dcraw_emu,
AHD, to 8-bit PPM: it writes no JPEG), each on all the machine's cores (their default), whole
commands timed from outside: one warm-up, then the median of N runs. JPEG quality 92 everywhere
(lumen-cli's default).

    bench-raw-peers.py [--runs 3] [--sizes 24,61] [--peers darktable,rawtherapee,libraw]
                       [--json OUT.json] [--keep DIR]
    bench-raw-peers.py --check [--keep DIR]

The programs come from the bundle bench/peer-raw-bundle.sh makes (LUMEN_PEERS_RAW, its unpacked
folder; env.sh sets it), else from PATH. --check proves a bundle here: each of its programs on the
rawtran-doc CR2 and the 24 MP DNG, run where the system's darktable and RawTherapee folders are
hidden (a mount namespace with empty tmpfs over them) and traced (strace: no library outside the
bundle but glibc's, no file of those folders opened), against the system's program on the same
file: the decoded images must be identical.

darktable: a fresh --configdir and --cachedir per case (the warm-up creates its database, the timed
runs find it: a darktable that has run before), --library :memory:. RawTherapee: RT_SETTINGS a
fresh folder per case, -q (no cached profiles), the profile below (neutral: RawTherapee's CLI
starts from neutral values; camera white balance, highlights by colour propagation, the camera
matrix, Rec. 2020 working space, sRGB output)."""
import argparse
import importlib.util
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_raw", os.path.join(HERE, "bench-raw.py"))
bench_raw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_raw)

QUALITY = 92
CR2 = "/usr/share/doc/rawtran/IMG_5952.CR2"
PROFILE = """[Version]
AppVersion=5.9
Version=346

[Exposure]
Auto=false
Compensation=0

[HLRecovery]
Enabled=true
Method=Coloropp

[White Balance]
Enabled=true
Setting=Camera

[Color Management]
InputProfile=(camera)
ToneCurve=false
ApplyLookTable=false
ApplyHueSatMap=false
WorkingProfile=Rec2020
OutputProfile=RT_sRGB

[RAW Bayer]
Method=rcd

[RAW X-Trans]
Method=3-pass (best)
"""


def program(name, system=False):
    if system:
        return "/usr/bin/" + name
    root = os.environ.get("LUMEN_PEERS_RAW")
    return os.path.join(root, "bin", name) if root else shutil.which(name) or name


def commands(peer, src, out, state, system=False):
    """(argv, env) developing SRC into OUT; STATE: a folder this case's runs share."""
    env = dict(os.environ)
    if peer == "darktable":
        return [program("darktable-cli", system), src, out, "--core", "--disable-opencl",
                "--configdir", os.path.join(state, "config"), "--cachedir", os.path.join(state, "cache"),
                "--library", ":memory:", "--conf", f"plugins/imageio/format/jpeg/quality={QUALITY}"], env
    if peer == "rawtherapee":
        pp3 = os.path.join(state, "bench.pp3")
        if not os.path.exists(pp3):
            with open(pp3, "w") as f:
                f.write(PROFILE)
        env.update(RT_SETTINGS=os.path.join(state, "rt"), RT_CACHE=os.path.join(state, "rt", "cache"))
        return [program("rawtherapee-cli", system), "-q", "-o", out, f"-j{QUALITY}", "-p", pp3, "-Y",
                "-c", src], env
    if peer == "libraw":
        return [program("dcraw_emu", system), "-w", "-q", "3", "-Z", out, src], env
    raise SystemExit(f"bench-raw-peers: no peer {peer}")


def output_name(peer, work, tag):
    return os.path.join(work, f"out-{peer}-{tag}." + ("ppm" if peer == "libraw" else "jpg"))


def run_once(argv, env, out, prefix=()):
    if os.path.exists(out):
        os.remove(out)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(list(prefix) + argv, env=env, capture_output=True, text=True)
    wall = (time.perf_counter() - t) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if r.returncode != 0 or not os.path.exists(out) or os.path.getsize(out) == 0:
        tail = (r.stderr or r.stdout).strip().splitlines()[-3:]
        raise SystemExit(f"bench-raw-peers: {os.path.basename(argv[0])} made no {out} (exit {r.returncode}): {tail}")
    return wall, cpu, r


def version(peer):
    """The Debian package the program came from (the bundle's VERSIONS), else what it says."""
    package = {"darktable": "darktable", "rawtherapee": "rawtherapee", "libraw": "libraw-bin"}[peer]
    root = os.environ.get("LUMEN_PEERS_RAW")
    if root and os.path.exists(os.path.join(root, "VERSIONS")):
        for line in open(os.path.join(root, "VERSIONS")):
            if line.split()[:1] == [package]:
                return " ".join(line.split())
    r = subprocess.run(["dpkg-query", "-W", package], capture_output=True, text=True)
    return " ".join(r.stdout.split()) or package


def make_dngs(work, sizes):
    """{label: path} of bench-raw.py's Bayer DNGs whose label starts with one of SIZES ("24",
    "61"), made in WORK unless there: same photo, same seed, same order (each file's noise is the
    next draw of one generator, so a file skipped still takes its draw)."""
    labels = [s[0] for s in bench_raw.SIZES if s[1] == "RGGB" and s[0].split()[0] in sizes]
    paths = {label: os.path.join(work, label.replace(" ", "-") + ".dng") for label in labels}
    missing = [label for label, p in paths.items() if not os.path.exists(p)]
    if missing:
        data = os.environ.get("LUMEN_TEST_DATA", os.path.join(HERE, "..", "tests", "data"))
        rgb = bench_raw.photo(data)
        rng = np.random.default_rng(1)
        for label, cfa, h, w in bench_raw.SIZES:
            if not missing:
                break
            if label in missing:
                bench_raw.make_dng(paths[label], rgb, cfa, h, w, rng)
                missing.remove(label)
            else:
                rng.normal(0, 6, (h, w))
    return paths


def bench(a, work):
    dngs = make_dngs(work, a.sizes.split(","))
    rows = []
    for label, src in dngs.items():
        for peer in a.peers.split(","):
            state = tempfile.mkdtemp(prefix=f"{peer}-", dir=work)
            out = output_name(peer, work, label.split()[0])
            argv, env = commands(peer, src, out, state)
            runs = [run_once(argv, env, out)[:2] for _ in range(a.runs + 1)][1:]  # the first warms up
            walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
            row = {"case": label, "peer": peer, "version": version(peer), "output": out.rsplit(".", 1)[1],
                   "command": " ".join(os.path.basename(x) if i == 0 or x in (src, out) or x.startswith(work)
                                       else x for i, x in enumerate(argv)),
                   "wall_ms": statistics.median(walls), "wall_min_ms": min(walls), "wall_max_ms": max(walls),
                   "cpu_ms": statistics.median(cpus), "runs": a.runs}
            rows.append(row)
            print(f"{label:12} {peer:11} → .{row['output']}: {row['wall_ms']:8.0f} ms wall (min {row['wall_min_ms']:.0f},"
                  f" max {row['wall_max_ms']:.0f}), CPU {row['cpu_ms']:.0f} ms", flush=True)
            shutil.rmtree(state, ignore_errors=True)
    return rows


HIDDEN = ["/usr/share/darktable", "/usr/lib/x86_64-linux-gnu/darktable", "/usr/share/rawtherapee",
          "/usr/share/lensfun"]
ALLOWED_LIBS = ("libc.so", "libm.so", "libmvec.so", "libdl.so", "libpthread.so", "librt.so", "ld-linux",
                "libstdc++.so", "libgcc_s.so", "gconv")


def decode(path):
    import cv2
    img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"bench-raw-peers: cannot read {path}")
    return img.astype(np.int32)


def traced_opens(trace, libexec):
    """The files opened by the bundle's programs (processes that ran a binary of LIBEXEC, and
    their threads and children), from strace -f: the wrapper's own shell tools use the system's."""
    peer, opened = set(), set()
    for line in open(trace):
        pid, _, call = line.partition(" ")
        pid, call = pid.strip(), call.strip()
        if call.startswith("execve(") and call.split('"')[1].startswith(libexec):
            peer.add(pid)
        elif re.match(r"(<\.\.\. )?(clone3?|fork|vfork)\b", call) and pid in peer:  # "<... clone3 resumed>"
            child = call.rsplit("=", 1)[-1].strip()
            if child.isdigit():
                peer.add(child)
        elif call.startswith(("open(", "openat(")) and pid in peer:
            opened.add(call.split('"')[1])
    if not peer:
        raise SystemExit(f"bench-raw-peers --check: no program of {libexec} in the trace")
    return opened


def check(work):
    """Each bundled program against the system's, isolated and traced (see the docstring)."""
    root = os.environ.get("LUMEN_PEERS_RAW")
    if not root:
        raise SystemExit("bench-raw-peers --check: set LUMEN_PEERS_RAW to the unpacked bundle")
    hide = " && ".join(f"mount -t tmpfs none {d}" for d in HIDDEN if os.path.isdir(d))
    isolate = ["unshare", "-m", "sh", "-c", hide + ' && exec "$@"', "isolate"] if os.geteuid() == 0 else \
        ["unshare", "-rm", "sh", "-c", hide + ' && exec "$@"', "isolate"]
    srcs = {"CR2": CR2, "24 MP": make_dngs(work, ["24"])["24 MP Bayer"]}
    bad = 0
    for name, src in srcs.items():
        for peer in ("darktable", "rawtherapee", "libraw"):
            results = {}
            for system in (True, False):
                state = tempfile.mkdtemp(prefix=f"{peer}-", dir=work)
                out = output_name(peer, work, ("sys-" if system else "bundle-") + name.split()[0])
                argv, env = commands(peer, src, out, state, system)
                trace = os.path.join(state, "trace")
                prefix = [] if system else isolate + ["strace", "-f", "-qq", "-e", "trace=open,openat,execve,%process",
                                                      "-e", "status=successful", "-o", trace]
                wall, _, _ = run_once(argv, env, out, prefix)
                results[system] = decode(out)
                if not system:
                    opened = traced_opens(trace, os.path.join(os.path.realpath(root), "libexec"))
                    leaks = sorted(p for p in opened if p.startswith(tuple(HIDDEN)) or
                                   (p.startswith(("/usr/lib", "/lib")) and ".so" in p and
                                    not os.path.basename(p).startswith(ALLOWED_LIBS)))
                    if leaks:
                        bad += 1
                        print(f"  {peer} opened outside the bundle: {leaks[:8]}")
                shutil.rmtree(state, ignore_errors=True)
            a, b = results[True], results[False]
            same = a.shape == b.shape and int(np.abs(a - b).max()) == 0
            bad += not same
            diff = int(np.abs(a - b).max()) if a.shape == b.shape else "shape"
            print(f"{name:6} {peer:11} bundle vs system: {a.shape[1]}×{a.shape[0]}, max |Δ| {diff}"
                  f" ({'identical' if same else 'DIFFERENT'}; bundle run isolated, {wall:.0f} ms)", flush=True)
    if bad:
        raise SystemExit(f"bench-raw-peers --check: {bad} failure(s)")
    print("bench-raw-peers --check: every bundled program matches the system's, nothing read outside the bundle")


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="24,61")
    ap.add_argument("--peers", default="darktable,rawtherapee,libraw")
    ap.add_argument("--json")
    ap.add_argument("--keep")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="lumen-bench-raw-")
    os.makedirs(work, exist_ok=True)
    if a.check:
        return check(work)
    rows = bench(a, work)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": {"cpus": os.cpu_count(), "cpu": cpu_model(),
                                   "bundle": bool(os.environ.get("LUMEN_PEERS_RAW"))}, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
