"""lumen-cli --jpeg-encoder cpu|nvjpeg: a value other than those two, or nvjpeg asked for a
file that is not a JPEG, is a usage error (exit 2); where nvJPEG cannot encode (a render on
the CPU, or no device here) the CPU's encoder writes the file, its bytes those of
--jpeg-encoder cpu, with one note on stderr saying why. What nvJPEG writes on a GPU is
tests/gpu/test_nvjpeg_export.py's."""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

NOTE = "not encoded with nvJPEG"


class JpegEncoderTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-jpeg-encoder-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.photo = os.path.join(lt.photos_dir(), "pier-fog.jpg")

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_usage_errors(self):
        for args, says in ((["--jpeg-encoder", "gpu"], "--jpeg-encoder must be cpu or nvjpeg"),
                           (["--jpeg-encoder", ""], "--jpeg-encoder must be cpu or nvjpeg"),
                           (["--jpeg-encoder", "nvjpeg", "-o", self.path("out.png")], "writes JPEG files"),
                           (["--jpeg-encoder", "nvjpeg", "-o", self.path("out.tif")], "writes JPEG files")):
            with self.subTest(args):
                if "-o" not in args:
                    args = args + ["-o", self.path("out.jpg")]
                proc = lt.run(args + [self.photo])
                self.assertEqual(proc.returncode, 2, lt.describe(proc))
                self.assertIn(says, proc.stderr)
                self.assertEqual(os.listdir(self.dir), [], "a usage error wrote a file")

    def check_falls_back(self, backend, why):
        ops = ["--exposure", "0.3", "--quality", "90"]
        cpu, gpu = self.path("cpu.jpg"), self.path("gpu.jpg")
        lt.run_ok(self, ops + ["--backend", backend, "--jpeg-encoder", "cpu", "-o", cpu, self.photo])
        proc = lt.run(ops + ["--backend", backend, "--jpeg-encoder", "nvjpeg", "-o", gpu, self.photo])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, f"one note expected: {proc.stderr!r}")
        self.assertRegex(lines[0], r"^lumen-cli: note: .*gpu\.jpg: " + NOTE + r" \(.*" + why + r".*\); the CPU's JPEG "
                         r"encoder wrote it instead$")
        self.assertEqual(lt.read_bytes(gpu), lt.read_bytes(cpu), "the fall-back is not the CPU writer's file")
        self.assertEqual(lt.imread(gpu).shape[:2], (1600, 2560))
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_cpu_backend_falls_back_to_the_cpu_writer(self):
        self.check_falls_back("cpu", "rendered on the CPU")

    def test_no_device_falls_back_to_the_cpu_writer(self):
        if lt.has_gpu():
            self.skipTest("a GPU is here: tests/gpu/test_nvjpeg_export.py covers nvJPEG")
        self.check_falls_back("auto", "rendered on the CPU")

    def test_default_is_the_cpu_writer(self):
        default, cpu = self.path("default.jpg"), self.path("cpu.jpg")
        lt.run_ok(self, ["--backend", "cpu", "-o", default, self.photo])
        lt.run_ok(self, ["--backend", "cpu", "--jpeg-encoder", "cpu", "-o", cpu, self.photo])
        self.assertEqual(lt.read_bytes(default), lt.read_bytes(cpu))

    def test_cpu_encoder_with_png_output_is_accepted(self):
        lt.run_ok(self, ["--backend", "cpu", "--jpeg-encoder", "cpu", "-o", self.path("o.png"),
                         os.path.join(lt.photos_dir(), "chelsea.png")])


if __name__ == "__main__":
    unittest.main(verbosity=2)
