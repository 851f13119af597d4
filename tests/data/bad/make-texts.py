#!/usr/bin/python3
"""Writes tests/data/bad/{sidecars,exposures,responses,manifests,stacks}/: hostile text inputs
(sidecars, exposure lists, camera responses, batch manifests) and stacks that cannot be
merged. The files are committed; this documents how they were made and remakes them. Every
file's expected cause is in ../EXPECTED.tsv."""
import os
import random

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write(folder, name, data):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, name), "wb") as f:
        f.write(data)


def main():
    rng = random.Random(29)
    garbage = bytes(rng.randrange(1, 256) for _ in range(2000))
    write("sidecars", "value-not-utf8.ini", b"[gray]\nenabled=true\nmode=\xff\xfe\n")
    write("sidecars", "nul-byte.ini", b"[gray]\nenabled=true\0\nmode=bt601\n")
    write("sidecars", "amount-nan.ini", b"[gray]\nenabled=true\nmode=bt601\namount=nan\n")
    write("sidecars", "sigma-1e6.ini", b"[blur]\nenabled=true\nsigma=1e6\n")
    write("sidecars", "enabled-maybe.ini", b"[equalize]\nenabled=maybe\n")
    write("sidecars", "backslash-at-end.ini", b"[gray]\nenabled=true\nmode=bt601\\\n")
    write("sidecars", "line-of-200k.ini", b"[gray]\n" + b"x" * 200_000 + b"\n")
    write("sidecars", "binary-garbage.ini", garbage)
    # Version 2: instances and masks.
    v2 = b"[lumen]\nversion=2\norder=rotate,straighten,crop,wb,exposure,exposure#64,contrast,curve,saturation,gray,equalize,blur,resize\n"
    write("sidecars", "v2-not-in-order.ini", v2 + b"[blur#65]\nenabled=true\n")
    write("sidecars", "v2-id-twice.ini", v2.replace(b"gray,", b"gray,exposure#64,") + b"[exposure#64]\nenabled=true\n")
    write("sidecars", "v2-crop-instance.ini", v2.replace(b"crop,", b"crop,crop#66,"))
    write("sidecars", "v2-mask-orphan.ini", v2 + b"[blur#70 mask]\nopacity=1\n")
    write("sidecars", "v2-stroke-4097-points.ini",
          v2 + b"[exposure#64 mask]\nshape1=brush add\nstroke1.1=paint size=0.1 hardness=0.5 opacity=1 points="
          + b" ".join([b"0.5,0.5"] * 4097) + b"\n")
    write("exposures", "time-nan.txt", b"exposure01.jpg nan\nexposure02.jpg 0.008\n")
    write("exposures", "time-negative.txt", b"exposure01.jpg -0.002\nexposure02.jpg 0.008\n")
    write("exposures", "time-1e-320.txt", b"exposure01.jpg 1e-320\nexposure02.jpg 0.008\n")
    write("exposures", "not-utf8.txt", b"exposure01.jpg 0.002\nexpos\xe9ure02.jpg 0.008\n")
    write("exposures", "binary-garbage.txt", garbage)
    write("responses", "two-numbers.txt", b"".join(b"%d %d\n" % (z + 1, z + 1) for z in range(256)))
    write("responses", "nan.txt", b"nan nan nan\n" * 256)
    write("responses", "negative.txt", b"".join(b"-1 -1 -1\n" for _ in range(256)))
    write("responses", "binary-garbage.txt", garbage)
    write("manifests", "nul-byte.tsv", b"a\tx1.jpg\t0.01\na\tx2.jpg\t0.1\0\nb\tx3.jpg\t0.01\n")
    write("manifests", "id-apart.tsv", b"a\tx1.jpg\t0.01\na\tx2.jpg\t0.1\nb\tx3.jpg\t0.01\nb\tx4.jpg\t0.1\na\tx5.jpg\t1\n")
    write("manifests", "binary-garbage.tsv", garbage)
    # XMP sidecars of lumen-cli tags (photo.ext.xmp beside a photo): refused, left as they are.
    head = (b"<?xpacket begin='\xef\xbb\xbf' id='W5M0MpCehiHzreSzNTczkc9d'?>\n<x:xmpmeta xmlns:x='adobe:ns:meta/'>\n"
            b"<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n")
    write("xmp-sidecars", "unclosed.jpg.xmp", head + b"<rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='2'>\n")
    write("xmp-sidecars", "nul-byte.jpg.xmp", head + b"<rdf:Description xmp:Rating='2\0'/>\n</rdf:RDF>\n</x:xmpmeta>\n")
    write("xmp-sidecars", "binary-garbage.jpg.xmp", garbage)
    write("xmp-sidecars", "entity-bomb.jpg.xmp",
          b"<!DOCTYPE x [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'>]>\n" + head
          + b"<rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Label='&b;'/>\n</rdf:RDF>\n</x:xmpmeta>\n")
    write("xmp-sidecars", "no-description.jpg.xmp", head + b"</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end='w'?>\n")
    base = cv2.imread(os.path.join(HERE, "..", "photos", "chelsea.png"), cv2.IMREAD_COLOR)[:48, :64]
    sizes = os.path.join(HERE, "stacks", "two-sizes")
    os.makedirs(sizes, exist_ok=True)
    cv2.imwrite(os.path.join(sizes, "a.png"), base)
    cv2.imwrite(os.path.join(sizes, "b.png"), base[:40, :60])
    mixed = os.path.join(HERE, "stacks", "gray-and-colour")
    os.makedirs(mixed, exist_ok=True)
    cv2.imwrite(os.path.join(mixed, "a.png"), base)
    cv2.imwrite(os.path.join(mixed, "b.png"), cv2.cvtColor(base, cv2.COLOR_BGR2GRAY))
    cut = os.path.join(HERE, "stacks", "one-cut")
    os.makedirs(cut, exist_ok=True)
    ok, enc = cv2.imencode(".jpg", base)
    with open(os.path.join(cut, "a.jpg"), "wb") as f:
        f.write(enc.tobytes())
    with open(os.path.join(cut, "b.jpg"), "wb") as f:
        f.write(enc.tobytes()[:300])
    print("written under", HERE)


if __name__ == "__main__":
    main()
