"""lumen-cli batch with nvJPEG decoding (core/batch/pipeline.c, decode_waiting): the stacks
waiting for a decoder are decoded several in one batch of the hardware decoder. Their outputs
must be those of the same stacks decoded one at a time (--in-flight 1: a batch is then one
stack), byte for byte; a stack that nvJPEG does not take whole (gray files, an EXIF
orientation to turn) must still be decoded, on the host, turned upright; a bad stack (sizes
that differ) must fail alone, with the same message, and leave its neighbours in the batch
merged; a GPU that fails in the middle of a batch of stacks loses none of them (each is tried
again alone, test_cuda_fault.py's promise for the batch). Skipped (exit 77) without a device; without libnvjpeg too, unless
LUMEN_REQUIRE_NVJPEG=1 (the GPU machine's run) makes that a failure."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402
from test_cuda_fault import work_calls  # noqa: E402

TIMES = (0.25, 1.0, 4.0)
W, H = 768, 512
NORMAL = 9


def run(args, fault=None):
    environ = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    if fault:
        environ["LUMEN_CUDA_FAULT"] = fault
    return subprocess.run([lt.lumen_cli()] + [str(a) for a in args], capture_output=True, text=True,
                          errors="replace", env=environ, timeout=600)


def exposures(window):
    """The window's linear light seen at TIMES, 8-bit sRGB-ish (gamma 2.2), with noise."""
    v = np.arange(256, dtype=np.float32) / 255
    rng = np.random.default_rng(window.shape[1])
    out = []
    for t in TIMES:
        table = 255 * np.clip(v ** 2.2 * t, 0, 1) ** (1 / 2.2)
        z = table[window] + rng.standard_normal(window.shape, dtype=np.float32)
        out.append(np.clip(np.rint(z), 0, 255).astype(np.uint8))
    return out


class BatchNvjpeg(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="lumen-batch-nvjpeg-")
        photo = cv2.imread(os.path.join(lt.photos_dir(), "forest-path.jpg"))
        lines = []

        def stack(name, images, tweak=None):
            d = os.path.join(cls.dir, "stacks", name)
            os.makedirs(d)
            for i, (img, t) in enumerate(zip(images, TIMES)):
                path = os.path.join(d, f"e{i}.jpg")
                ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 93])
                assert ok
                data = tweak(bytes(data)) if tweak else bytes(data)
                with open(path, "wb") as f:
                    f.write(data)
                lines.append(f"{name}\t{path}\t{t!r}\n")

        for k in range(NORMAL):
            x, y = 97 * k % (photo.shape[1] - W), 61 * k % (photo.shape[0] - H)
            stack(f"s{k}", exposures(photo[y:y + H, x:x + W]))
        # Turned upright on the host: EXIF orientation 6 (90° clockwise).
        turned = lambda data: lt.jpeg_with_exif(data, lt.make_exif("Lumen", "Test", 6))  # noqa: E731
        stack("turned", exposures(photo[:H, :W]), turned)
        # Gray files: not nvJPEG's (one component), decoded by the CPU.
        stack("gray", [cv2.cvtColor(e, cv2.COLOR_BGR2GRAY) for e in exposures(photo[H:2 * H, :W])])
        # Sizes that differ: the stack fails, alone.
        bad = exposures(photo[:H, W:2 * W])
        bad[1] = bad[1][:H - 16]
        stack("mismatched", bad)
        cls.manifest = os.path.join(cls.dir, "stacks.tsv")
        with open(cls.manifest, "w") as f:
            f.writelines(lines)

        cls.runs = {}
        for name, extra in (("batched", []), ("alone", ["--in-flight", "1"])):
            out = os.path.join(cls.dir, name)
            proc = run(cls.batch(out) + extra + [cls.manifest])
            cls.runs[name] = (out, proc)
        proc = cls.runs["batched"][1]
        if "hardware decoder" not in proc.stdout and "nvJPEG" not in proc.stdout:
            shutil.rmtree(cls.dir, True)
            if os.environ.get("LUMEN_REQUIRE_NVJPEG") == "1":
                raise AssertionError(f"nvJPEG does not decode here: {lt.describe(proc)}")
            raise unittest.SkipTest(f"nvJPEG does not decode here: {proc.stdout.strip()} {proc.stderr.strip()}")

    @classmethod
    def batch(cls, out):
        return ["batch", "--backend", "cuda", "--decoder", "nvjpeg", "--format", "hdr", "--timings", "--progress",
                "none", "-o", out]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, True)

    def outputs(self, name):
        out = self.runs[name][0]
        return sorted(f for f in os.listdir(out) if f.endswith(".hdr"))

    def test_batched_equals_alone(self):
        for name, (out, proc) in self.runs.items():
            # The mismatched stack fails: the run says so by its status.
            self.assertNotEqual(proc.returncode, 0, f"{name}: {lt.describe(proc)}")
        names = self.outputs("batched")
        self.assertEqual(names, sorted([f"s{k}.hdr" for k in range(NORMAL)] + ["turned.hdr", "gray.hdr"]))
        self.assertEqual(names, self.outputs("alone"))
        for f in names:
            a = lt.read_bytes(os.path.join(self.runs["batched"][0], f))
            b = lt.read_bytes(os.path.join(self.runs["alone"][0], f))
            self.assertEqual(a, b, f"{f}: batched and alone differ")

    def test_stacks_share_batches(self):
        """The batched run decoded its stacks in fewer calls of nvJPEG than one a stack."""
        calls = {}
        for name, (out, proc) in self.runs.items():
            m = re.search(r"decoded into the GPU's memory in (\d+) batches of nvJPEG", proc.stdout)
            self.assertIsNotNone(m, f"{name}: {proc.stdout}")
            calls[name] = int(m.group(1))
        self.assertEqual(calls["alone"], NORMAL + 3)  # every stack but none is tried on the GPU
        self.assertLess(calls["batched"], calls["alone"])

    def test_where_each_stack_went(self):
        out, proc = self.runs["batched"]
        # The whole, upright colour stacks stayed on the GPU; the gray and turned ones did not.
        self.assertIn(f"stacks kept on the GPU from decoding to output: {NORMAL} of {NORMAL + 2}", proc.stdout)
        turned = cv2.imread(os.path.join(out, "turned.hdr"), cv2.IMREAD_UNCHANGED)
        plain = cv2.imread(os.path.join(out, "s0.hdr"), cv2.IMREAD_UNCHANGED)
        self.assertEqual(turned.shape[:2], (W, H))
        self.assertEqual(plain.shape[:2], (H, W))
        self.assertTrue(np.all(np.isfinite(turned)) and float(turned.max()) > 0)

    def test_bad_stack_fails_alone(self):
        messages = []
        for name, (out, proc) in self.runs.items():
            with open(os.path.join(out, "failed.tsv")) as f:
                rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
            self.assertEqual([r[0] for r in rows], ["mismatched"], f"{name}: {rows}")
            messages.append(rows[0][1:])
        self.assertEqual(messages[0], messages[1])
        self.assertIn("e1.jpg", " ".join(messages[0]))

    def test_failing_gpu_loses_no_stack(self):
        """A failed launch (the decoder's conversion of a batch, a sample's gather, a merge) in
        the middle of the batches: the stack is tried again and every stack is written. A failed
        allocation (the GPU full) may fail its stack alone, in failed.tsv."""
        manifest = os.path.join(self.dir, "good.tsv")
        with open(self.manifest) as f, open(manifest, "w") as g:
            g.writelines(line for line in f if not line.startswith("mismatched\t"))
        names = sorted([f"s{k}" for k in range(NORMAL)] + ["turned", "gray"])
        calls = work_calls(self.batch(os.path.join(self.dir, "traced")) + [manifest])
        for fault in (f"launch:{calls['launch'][0]}", f"launch:{calls['launch'][len(calls['launch']) // 2]}",
                      f"alloc:{calls['alloc'][1]}"):
            with self.subTest(fault):
                out = os.path.join(self.dir, "fault-" + fault.replace(":", "-"))
                proc = run(self.batch(out) + [manifest], fault)
                written = sorted(n[:-4] for n in os.listdir(out) if n.endswith(".hdr"))
                failed = []
                if os.path.exists(os.path.join(out, "failed.tsv")):
                    with open(os.path.join(out, "failed.tsv")) as f:
                        failed = [line.split("\t")[0] for line in f if line.strip() and not line.startswith("#")]
                self.assertLessEqual(len(failed), 1 if fault.startswith("alloc") else 0,
                                     f"{fault}: stacks failed: {failed}: {lt.describe(proc)}")
                self.assertEqual(sorted(written + failed), names, f"{fault}: {lt.describe(proc)}")
                self.assertEqual(proc.returncode, 0 if not failed else 1, f"{fault}: {lt.describe(proc)}")


if __name__ == "__main__":
    if not lt.has_gpu():
        print("SKIP: no CUDA device")
        sys.exit(77)
    unittest.main(verbosity=2)
