// OpenCV's cascade detection, as a user of Debian's OpenCV 4.6 would run it, timed for
// bench/bench-detect.py where the Python at hand has no cv2.CascadeClassifier (the GPU
// machine's opencv-python-headless). Reads raw BGR bytes (no codec libraries to carry),
// converts to gray and detects with detectMultiScale2 on all cores, REPEAT times; prints the
// best time of the two steps together and the boxes with their neighbour counts.
//
//   g++ -O2 -o peer-cascade bench/peer-cascade.cpp -I/usr/include/opencv4 \
//       -lopencv_objdetect -lopencv_imgproc -lopencv_core
//   peer-cascade MODEL.xml IMAGE.bgr WIDTH HEIGHT SCALE_FACTOR MIN_NEIGHBORS MIN_W MIN_H REPEAT
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

int
main (int argc, char **argv)
{
  if (argc != 10)
    {
      std::fprintf (stderr, "usage: %s MODEL.xml IMAGE.bgr WIDTH HEIGHT SCALE MIN_NEIGHBORS MIN_W MIN_H REPEAT\n",
                    argv[0]);
      return 2;
    }
  cv::CascadeClassifier cascade;
  if (!cascade.load (argv[1]))
    {
      std::fprintf (stderr, "%s: cannot be loaded\n", argv[1]);
      return 1;
    }
  int w = std::atoi (argv[3]), h = std::atoi (argv[4]), repeat = std::atoi (argv[9]);
  std::vector<unsigned char> bytes ((size_t) w * h * 3);
  std::ifstream in (argv[2], std::ios::binary);
  if (!in.read ((char *) bytes.data (), (std::streamsize) bytes.size ()))
    {
      std::fprintf (stderr, "%s: not %d × %d BGR bytes\n", argv[2], w, h);
      return 1;
    }
  cv::setNumThreads ((int) std::thread::hardware_concurrency ());
  cv::Mat bgr (h, w, CV_8UC3, bytes.data ());
  double best = 1e30;
  std::vector<cv::Rect> boxes;
  std::vector<int> counts;
  for (int r = 0; r < repeat; r++)
    {
      auto t0 = std::chrono::steady_clock::now ();
      cv::Mat gray;
      cv::cvtColor (bgr, gray, cv::COLOR_BGR2GRAY);
      cascade.detectMultiScale (gray, boxes, counts, std::atof (argv[5]), std::atoi (argv[6]), 0,
                                cv::Size (std::atoi (argv[7]), std::atoi (argv[8])));
      double s = std::chrono::duration<double> (std::chrono::steady_clock::now () - t0).count ();
      best = s < best ? s : best;
    }
  std::printf ("opencv %s threads %d best %.6f\n", CV_VERSION, cv::getNumThreads (), best);
  for (size_t i = 0; i < boxes.size (); i++)
    std::printf ("%d %d %d %d %d\n", boxes[i].x, boxes[i].y, boxes[i].width, boxes[i].height, counts[i]);
  return 0;
}
