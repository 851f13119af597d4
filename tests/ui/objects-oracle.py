"""The window's object detection test's oracle (tests/ui/test-objects.c): prints the faces
cv2.CascadeClassifier.detectMultiScale (OpenCV 4.6) finds in a photo with opencv-data's frontal
faces, scale factor 1.1 and the given minimum neighbours and size: a line "x y width height"
each. With "mosaic", the photo is first written as OUT.png: the detection test's mosaic of the
astronaut (tests/detect/test_cascade_opencv.py; faces at three sizes, one mirrored).

usage: objects-oracle.py mosaic OUT.png MIN_NEIGHBORS MIN_SIZE
       objects-oracle.py detect PHOTO MIN_NEIGHBORS MIN_SIZE
"""
import os
import sys

import cv2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "detect"))
from test_cascade_opencv import CASCADES, mosaic  # noqa: E402

mode, path, neighbors, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if mode == "mosaic":
    mosaic(path)
gray = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
model = cv2.CascadeClassifier(os.path.join(CASCADES, "haarcascades/haarcascade_frontalface_default.xml"))
for x, y, w, h in model.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=neighbors, minSize=(size, size)):
    print(x, y, w, h)
