"""A GPU that fails in the middle of work (LUMEN_CUDA_FAULT=alloc|launch|copy:N makes the N-th
such call fail, core/backend/cuda-fault.h): lumen-cli falls back to the CPU with a note and writes the
same bytes as the CPU backend; a batch retries the stack or fails it alone. Needs a CUDA
device: skipped (exit 77) without one."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

FELL_BACK = r"(CUDA|GPU).*on the CPU instead"


def run(args, fault=None, timeout=300, trace=False):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    if fault:
        env["LUMEN_CUDA_FAULT"] = fault
    if trace:
        env["LUMEN_CUDA_FAULT_TRACE"] = "1"
    return subprocess.run([lt.lumen_cli()] + [str(a) for a in args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def work_calls(args):
    """The counted CUDA calls of a healthy run of ARGS after the last backend's start (the
    trace's "started"), by kind: {"alloc": [3, 4, …], "launch": […], "copy": […]}. The faults
    are picked from these, so that they land in the work whatever a backend's start makes."""
    proc = run(args, trace=True)
    assert proc.returncode == 0, proc.stderr
    lines = [line.split(": ", 1)[1] for line in proc.stderr.splitlines()
             if line.startswith("LUMEN_CUDA_FAULT_TRACE: ")]
    last_start = max(i for i, line in enumerate(lines) if line == "started")
    calls = {"alloc": [], "launch": [], "copy": []}
    for line in lines[last_start + 1:]:
        kind, _, number = line.split(" ", 1)[0].partition(":")
        if kind in calls:
            calls[kind].append(int(number))
    return calls


class CudaFaults(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-fault-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_process_falls_back_with_the_same_bytes(self):
        """A failed launch or copy in the work: the CPU takes over, with a note, and writes its
        bytes. A failed allocation in the work: the device renders in tiles (no note: it is
        still the GPU's render), bit-identical to its render in one piece, or the CPU takes over."""
        photo = os.path.join(lt.photos_dir(), "forest-path.jpg")
        ops = ["--gray", "bt601", "--equalize", "luma", "--blur", "3"]
        cpu = run(["--backend", "cpu"] + ops + ["-o", self.path("cpu.png"), photo])
        self.assertEqual(cpu.returncode, 0, cpu.stderr)
        gpu = run(["--backend", "cuda"] + ops + ["-o", self.path("gpu.png"), photo])
        self.assertEqual(gpu.returncode, 0, gpu.stderr)
        calls = work_calls(["--backend", "cuda"] + ops + ["-o", self.path("traced.png"), photo])
        faults = [f"{kind}:{n}" for kind in ("alloc", "launch", "copy") for n in calls[kind][:2]]
        self.assertEqual(len(faults), 6, calls)
        for fault in faults:
            with self.subTest(fault):
                out = self.path(f"gpu-{fault.replace(':', '-')}.png")
                proc = run(["--backend", "cuda"] + ops + ["-o", out, photo], fault)
                lt.say(f"{fault}: exit {proc.returncode}: {proc.stderr.strip()}")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                if fault.startswith("alloc") and not re.search(FELL_BACK, proc.stderr):
                    self.assertEqual(lt.read_bytes(out), lt.read_bytes(self.path("gpu.png")))
                    continue
                self.assertRegex(proc.stderr, FELL_BACK)
                self.assertEqual(lt.read_bytes(out), lt.read_bytes(self.path("cpu.png")))

    def test_start_fault(self):
        """A device that fails while the backend starts: --backend cuda says so and exits 1,
        writing nothing."""
        photo = os.path.join(lt.photos_dir(), "pier-fog.jpg")
        for fault in ("alloc:1", "alloc:2", "launch:1"):
            with self.subTest(fault):
                out = self.path("start.png")
                proc = run(["--backend", "cuda", "--blur", "2", "-o", out, photo], fault)
                lt.say(f"start {fault}: exit {proc.returncode}: {proc.stderr.strip()}")
                self.assertEqual(proc.returncode, 1)
                self.assertRegex(proc.stderr, r"CUDA backend unavailable: (CUDA: .* failed|GPU memory exhausted)")
                self.assertFalse(os.path.exists(out))

    def test_hdr_falls_back_with_the_same_bytes(self):
        stack = os.path.join(lt.data_dir(), "hdr", "forest", "exposures.txt")
        cpu = run(["hdr", "--backend", "cpu", "--exposures", stack, "-o", self.path("cpu.hdr")])
        self.assertEqual(cpu.returncode, 0, cpu.stderr)
        calls = work_calls(["hdr", "--backend", "cuda", "--exposures", stack, "-o", self.path("traced.hdr")])
        for fault in (f"alloc:{calls['alloc'][0]}", f"launch:{calls['launch'][0]}",
                      f"copy:{calls['copy'][0]}"):
            with self.subTest(fault):
                out = self.path(f"gpu-{fault.replace(':', '-')}.hdr")
                proc = run(["hdr", "--backend", "cuda", "--exposures", stack, "-o", out], fault)
                lt.say(f"hdr {fault}: exit {proc.returncode}: {proc.stderr.strip()}")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertRegex(proc.stderr, FELL_BACK)
                self.assertEqual(lt.read_bytes(out), lt.read_bytes(self.path("cpu.hdr")))

    def test_batch_loses_no_stack(self):
        """One failure in a batch: a failed launch or copy is merged again, an allocation that
        fails (the GPU full) fails that stack alone, in failed.tsv; every other stack is written.
        The faults are counted from a healthy run's trace, after its backends' starts."""
        stacks = os.path.join(lt.data_dir(), "hdr")
        names = sorted(n for n in os.listdir(stacks) if os.path.isdir(os.path.join(stacks, n)))
        calls = work_calls(["batch", "--backend", "cuda", "--format", "png", "-o", self.path("traced"),
                            stacks])
        for fault in (f"launch:{calls['launch'][0]}", f"launch:{calls['launch'][3]}",
                      f"copy:{calls['copy'][3]}", f"alloc:{calls['alloc'][3]}"):
            with self.subTest(fault):
                out = self.path("batch-" + fault.replace(":", "-"))
                proc = run(["batch", "--backend", "cuda", "--format", "png", "-o", out, stacks], fault)
                lt.say(f"batch {fault}: exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}")
                written = sorted(n[:-4] for n in os.listdir(out) if n.endswith(".png"))
                failed_tsv = os.path.join(out, "failed.tsv")
                failed = []
                if os.path.exists(failed_tsv):
                    with open(failed_tsv, encoding="utf-8") as f:
                        failed = [line.split("\t")[0] for line in f if line.strip() and not line.startswith("#")]
                self.assertLessEqual(len(failed), 1, f"more than the one stack failed: {failed}")
                self.assertTrue(failed or "merged again after a GPU error" in proc.stderr,
                                f"the fault did not happen in a stack's work: {proc.stderr}")
                self.assertEqual(sorted(written + failed), names)
                self.assertEqual(proc.returncode, 0 if not failed else 1, proc.stderr)


if __name__ == "__main__":
    if not lt.has_gpu():
        print("SKIP: no CUDA device")
        sys.exit(77)
    unittest.main(verbosity=2)
