// What nvJPEG itself allows the batch on one GPU: the hardware decoder's rate on the batch's
// own files, and the encoder's on images of their size, with nothing of Lumen around them.
// The batch (lumen-cli batch --decoder nvjpeg --encoder nvjpeg) cannot pass these, so they
// are its limits in bench/RESULTS.md ("Batch HDR").
//
//   nvjpeg-rate SECONDS FILE...   (built on the GPU machine:
//     nvcc -O2 -o nvjpeg-rate bench/nvjpeg-rate.cu -lnvjpeg -lpthread)
//
// Decoding: THREADS host threads, each with its own state and stream on one hardware handle
// (as the batch's decode threads), each call a batch of BATCH files (3: a stack, as the
// batch decodes), for SECONDS each; files a second and megapixels a second. Encoding: RGB
// images of the first file's size, quality 92 (the batch's default), 4:4:4 as the batch asks
// at that quality, Huffman tables optimized or not, and 4:2:0; one encoder state a thread.
#include <cuda_runtime.h>
#include <nvjpeg.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#define PEER_NAME "nvjpeg-rate"
#include "peer-check.h"

#define NJ(x)                                                                                      \
  do                                                                                               \
    {                                                                                              \
      nvjpegStatus_t s_ = (x);                                                                     \
      if (s_ != NVJPEG_STATUS_SUCCESS)                                                             \
        PEER_FAIL ("an nvJPEG error", 1);                                                          \
    }                                                                                              \
  while (0)

using Clock = std::chrono::steady_clock;

struct File {
  std::vector<unsigned char> bytes;
  int width, height;
};

static double
seconds_since (Clock::time_point t)
{
  return std::chrono::duration<double> (Clock::now () - t).count ();
}

// THREADS threads run WORK (DONE: what they finished; STOP: the end) for SECONDS, after a
// second that fills the pipeline: what they finish a second.
template <class Work>
static double
rate_of (int threads, double seconds, Work work)
{
  std::atomic<long> done (0);
  std::atomic<bool> stop (false);
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; i++)
    pool.emplace_back ([&] () { work (done, stop); });
  std::this_thread::sleep_for (std::chrono::seconds (1));
  long start = done.load ();
  Clock::time_point t = Clock::now ();
  std::this_thread::sleep_for (std::chrono::duration<double> (seconds));
  double rate = (double) (done.load () - start) / seconds_since (t);
  stop = true;
  for (auto &p : pool)
    p.join ();
  return rate;
}

// THREADS threads decode batches of BATCH files for SECONDS: files a second.
static double
decode_rate (nvjpegHandle_t handle, const std::vector<File> &files, int threads, int batch, double seconds)
{
  std::atomic<long> next (0);
  return rate_of (threads, seconds, [&] (std::atomic<long> &done, std::atomic<bool> &stop) {
    nvjpegJpegState_t state;
    cudaStream_t stream;
    NJ (nvjpegJpegStateCreate (handle, &state));
    CK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
    NJ (nvjpegDecodeBatchedInitialize (handle, state, batch, 1, NVJPEG_OUTPUT_RGBI));
    std::vector<nvjpegImage_t> out (batch);
    for (auto &o : out)
      {
        o = nvjpegImage_t {};
        CK (cudaMalloc (&o.channel[0], (size_t) files[0].width * 3 * files[0].height));
        o.pitch[0] = (size_t) files[0].width * 3;
      }
    std::vector<const unsigned char *> bits (batch);
    std::vector<size_t> sizes (batch);
    while (!stop.load ())
      {
        long k = next.fetch_add (batch);
        for (int j = 0; j < batch; j++)
          {
            const File &f = files[(size_t) (k + j) % files.size ()];
            bits[j] = f.bytes.data ();
            sizes[j] = f.bytes.size ();
          }
        NJ (nvjpegDecodeBatched (handle, state, bits.data (), sizes.data (), out.data (), stream));
        CK (cudaStreamSynchronize (stream));
        if (!stop.load ())
          done += batch;
      }
    for (auto &o : out)
      CK (cudaFree (o.channel[0]));
    CK (cudaStreamDestroy (stream));
    NJ (nvjpegJpegStateDestroy (state));
  });
}

// THREADS threads encode a W × H RGB image for SECONDS: images a second.
static double
encode_rate (nvjpegHandle_t handle, int w, int h, nvjpegChromaSubsampling_t css, int optimized, int threads,
             double seconds)
{
  return rate_of (threads, seconds, [&] (std::atomic<long> &done, std::atomic<bool> &stop) {
    cudaStream_t stream;
    nvjpegEncoderState_t state;
    nvjpegEncoderParams_t params;
    CK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
    NJ (nvjpegEncoderStateCreate (handle, &state, stream));
    NJ (nvjpegEncoderParamsCreate (handle, &params, stream));
    NJ (nvjpegEncoderParamsSetQuality (params, 92, stream));
    NJ (nvjpegEncoderParamsSetOptimizedHuffman (params, optimized, stream));
    NJ (nvjpegEncoderParamsSetSamplingFactors (params, css, stream));
    unsigned char *rgb;
    size_t pitch = (size_t) w * 3;
    CK (cudaMalloc (&rgb, pitch * h));
    // A gradient with noise: a photo's entropy, not a flat field's.
    std::vector<unsigned char> host (pitch * h);
    unsigned seed = 12345;
    for (size_t i = 0; i < host.size (); i++)
      {
        seed = seed * 1664525u + 1013904223u;
        host[i] = (unsigned char) ((i / 3 % (size_t) w) * 200 / (size_t) w + (seed >> 28));
      }
    CK (cudaMemcpy (rgb, host.data (), host.size (), cudaMemcpyHostToDevice));
    nvjpegImage_t src = {};
    src.channel[0] = rgb;
    src.pitch[0] = pitch;
    std::vector<unsigned char> jpeg;
    while (!stop.load ())
      {
        size_t len = 0;
        NJ (nvjpegEncodeImage (handle, state, params, &src, NVJPEG_INPUT_RGBI, w, h, stream));
        NJ (nvjpegEncodeRetrieveBitstream (handle, state, NULL, &len, stream));
        CK (cudaStreamSynchronize (stream));
        jpeg.resize (len);
        NJ (nvjpegEncodeRetrieveBitstream (handle, state, jpeg.data (), &len, stream));
        CK (cudaStreamSynchronize (stream));
        if (!stop.load ())
          done++;
      }
    CK (cudaFree (rgb));
    NJ (nvjpegEncoderParamsDestroy (params));
    NJ (nvjpegEncoderStateDestroy (state));
    CK (cudaStreamDestroy (stream));
  });
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      std::fprintf (stderr, "usage: nvjpeg-rate SECONDS FILE...\n");
      return 2;
    }
  double seconds = std::atof (argv[1]);
  nvjpegHandle_t hw, dflt;
  if (nvjpegCreateEx (NVJPEG_BACKEND_HARDWARE, NULL, NULL, 0, &hw) != NVJPEG_STATUS_SUCCESS)
    {
      std::printf ("nvjpeg-rate: no hardware decoder on this GPU\n");
      return 1;
    }
  NJ (nvjpegCreateEx (NVJPEG_BACKEND_DEFAULT, NULL, NULL, 0, &dflt));
  std::vector<File> files;
  for (int i = 2; i < argc; i++)
    {
      std::ifstream in (argv[i], std::ios::binary);
      File f { std::vector<unsigned char> (std::istreambuf_iterator<char> (in), {}), 0, 0 };
      int n = 0, widths[NVJPEG_MAX_COMPONENT], heights[NVJPEG_MAX_COMPONENT];
      nvjpegChromaSubsampling_t css;
      NJ (nvjpegGetImageInfo (hw, f.bytes.data (), f.bytes.size (), &n, &css, widths, heights));
      f.width = widths[0], f.height = heights[0];
      files.push_back (std::move (f));
    }
  double mp = (double) files[0].width * files[0].height / 1e6;
  cudaDeviceProp prop;
  CK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("nvjpeg-rate: %s, %zu files of %d×%d (%.1f MP), %.0f s a case\n", prop.name, files.size (),
               files[0].width, files[0].height, mp, seconds);
  std::printf ("decode (hardware)  threads  batch  files/s  MP/s  stacks of 3/s\n");
  const int cases[][2] = { { 1, 3 }, { 4, 3 }, { 8, 3 }, { 16, 3 }, { 2, 12 }, { 4, 12 }, { 6, 12 }, { 8, 12 }, { 16, 12 }, { 4, 24 }, { 8, 24 } };
  for (auto &c : cases)
    {
      double r = decode_rate (hw, files, c[0], c[1], seconds);
      std::printf ("decode             %7d  %5d  %7.1f  %4.0f  %6.1f\n", c[0], c[1], r, r * mp, r / 3);
      std::fflush (stdout);
    }
  std::printf ("encode (CUDA) q92   threads  sampling  huffman     images/s\n");
  const struct {
    nvjpegChromaSubsampling_t css;
    int optimized;
    const char *name;
  } enc[] = { { NVJPEG_CSS_444, 1, "4:4:4  optimized" }, { NVJPEG_CSS_444, 0, "4:4:4  standard " },
              { NVJPEG_CSS_420, 1, "4:2:0  optimized" } };
  for (auto &e : enc)
    for (int threads : { 4, 8 })
      {
        double r = encode_rate (dflt, files[0].width, files[0].height, e.css, e.optimized, threads, seconds);
        std::printf ("encode              %7d  %s  %7.1f\n", threads, e.name, r);
        std::fflush (stdout);
      }
  NJ (nvjpegDestroy (hw));
  NJ (nvjpegDestroy (dflt));
  return 0;
}
