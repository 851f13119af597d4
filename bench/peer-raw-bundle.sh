#!/usr/bin/env bash
# Packs the raw developers Lumen is measured against (darktable-cli, rawtherapee-cli and LibRaw's
# dcraw_emu, Debian 12's packages on this machine) so that they run on the GPU machine (Ubuntu,
# no GTK, no X, no package registry): each program, the shared libraries it loads (glibc,
# libstdc++ and libgcc_s excluded: the GPU machine's are newer) and the data a raw → JPEG
# development reads, into OUTDIR and OUTDIR.tar.xz (xz -9e).
#
#   usage: peer-raw-bundle.sh OUTDIR            (here; needs gcc, readelf and GLib's headers)
#   there: tar xJf OUTDIR.tar.xz && source OUTDIR/env.sh   # exports LUMEN_PEERS_RAW=OUTDIR
#          $LUMEN_PEERS_RAW/bin/darktable-cli in.dng out.jpg --core --disable-opencl --configdir EMPTY
#          $LUMEN_PEERS_RAW/bin/rawtherapee-cli -o out.jpg -j92 -p profile.pp3 -c in.dng
#          $LUMEN_PEERS_RAW/bin/dcraw_emu -w -q 3 in.dng
#   bench/bench-raw-peers.py --check proves a bundle here (identical output to the system's
#   programs, nothing read outside the bundle); bench/bench-raw-peers.py times it there.
#
# bin/ holds wrapper scripts that set LD_LIBRARY_PATH for the program alone (nothing else in the
# calling shell sees Debian's libraries). Size: the three link ~200 libraries (150 MB: GTK,
# GraphicsMagick, the HEIF/AVIF/JPEG XL codecs, ICU, curl, cups, …) and a raw → JPEG export on
# the CPU calls a few of them. The others (STUBS) are replaced by stubs: a library of the same
# soname exporting the symbols the bundle imports from it (same versions, data objects of the
# same size) whose functions abort with the symbol's name, so that a call into one fails loudly
# instead of going unnoticed. The calls darktable and RawTherapee do make into them on every
# run are in NOOP: start-up (GTK's argument parsing, GraphicsMagick's init, libtiff's handlers),
# format probes that must answer "not mine" (JPEG XL, AVIF, HEIF), and ICU's case folding for
# ASCII; GTK's *_get_type give distinct placeholder GObject types (darktable's Lua layer
# registers widget types at start-up and never instantiates them without a window).
#
# darktable keeps only the image operations of its default raw pipeline (DT_IOPS), the darkroom
# view, JPEG output to disk; its data dir only the camera list, white-balance presets, noise
# profiles and rc. rawtherapee-cli's data dir (/usr/share/rawtherapee) is compiled in; the
# bundle's copy of the binary has that one string patched to /tmp/.peer/rawtherapee (same
# length), a symlink the wrapper points at the bundle's share/rawtherapee before each run: no
# root, no mount namespace (two bundles unpacked on one machine must not run at once).
set -euo pipefail
out=${1:?usage: $0 OUTDIR}
out=$(realpath -m "$out")
dtlib=/usr/lib/x86_64-linux-gnu/darktable
dtshare=/usr/share/darktable
rtshare=/usr/share/rawtherapee
# darktable 4.2's default raw pipeline (scene-referred: filmic rgb) and the modules it always runs
DT_IOPS=${DT_IOPS:-"rawprepare temperature highlights demosaic colorin colorout exposure filmicrgb flip gamma finalscale"}
# and those of bench-batch-develop.py's history (exposure, contrast, curve, sharpen on JPEGs)
DT_IOPS="$DT_IOPS colisa tonecurve sharpen"
# libraries the three link but do not call in a raw → JPEG export on the CPU (RawTherapee's FFTs
# serve tools the benchmark's profile leaves off)
STUBS=${STUBS:-"libgtk-3.so.0 libgdk-3.so.0 libpangocairo-1.0.so.0 libpango-1.0.so.0 libcairo.so.2
  libcairo-gobject.so.2 libgdk_pixbuf-2.0.so.0 librsvg-2.so.2 libsoup-2.4.so.1 libcurl-gnutls.so.4
  libgphoto2.so.6 libgphoto2_port.so.12 libOpenEXR-3_1.so.30 libImath-3_1.so.29 libjxl.so.0.7
  libjxl_threads.so.0.7 libwebpmux.so.3 libavif.so.15 libheif.so.1 libsecret-1.so.0
  libGraphicsMagick-Q16.so.3 libicui18n.so.72 libicuuc.so.72 libcolord.so.2 libcolord-gtk.so.1
  libcups.so.2 libatk-1.0.so.0 libxml2.so.2 libtiff.so.6 libmount.so.1 libselinux.so.1
  libfftw3f.so.3 libfftw3f_omp.so.3"}
# functions of stubbed libraries called on every run: SYMBOL returns 0, SYMBOL=EXPR returns the C
# expression EXPR of the first two arguments a and b (see above)
NOOP=${NOOP:-'gtk_parse_args=1 InitializeMagickEx DestroyMagick u_foldCase_72=(a>=65&&a<=90?a+32:a)
  JxlSignatureCheck=1 avifDecoderCreate avifDecoderDestroy avifRGBImageFreePixels avifResultToString=(long)""
  heif_context_alloc=(long)"ctx" heif_context_read_from_file=((__int128)(long)"unsupported")<<64|3
  heif_context_free heif_image_handle_release heif_image_release TIFFSetWarningHandler TIFFSetErrorHandler'}

rm -rf "$out" "$out.tar.xz"
mkdir -p "$out"/{bin,libexec,lib,dt/lib/views,dt/lib/plugins/imageio/format,dt/lib/plugins/imageio/storage,dt/share/rawspeed,share}

# darktable: the CLI, its core library, the kept operations, JPEG output to disk
cp -L /usr/bin/darktable-cli "$out/libexec/"
cp -L "$dtlib/libdarktable.so" "$out/lib/"
for m in $DT_IOPS; do cp -L "$dtlib/plugins/lib$m.so" "$out/dt/lib/plugins/"; done
cp -L "$dtlib/views/libdarkroom.so" "$out/dt/lib/views/"  # dt_init wants a darkroom
cp -L "$dtlib/plugins/imageio/format/libjpeg.so" "$out/dt/lib/plugins/imageio/format/"
cp -L "$dtlib/plugins/imageio/storage/libdisk.so" "$out/dt/lib/plugins/imageio/storage/"
cp -L "$dtshare"/{darktablerc,noiseprofiles.json,wb_presets.json} "$out/dt/share/"
cp -L "$dtshare/rawspeed/cameras.xml" "$out/dt/share/rawspeed/"

# rawtherapee-cli, its data dir string moved; the data a development with a given .pp3 reads
python3 - /usr/bin/rawtherapee-cli "$out/libexec/rawtherapee-cli" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
old, new = b"/usr/share/rawtherapee\0", b"/tmp/.peer/rawtherapee\0"
assert len(old) == len(new) and data.count(old) == 1, "rawtherapee-cli: data dir string not found once"
open(sys.argv[2], "wb").write(data.replace(old, new))
PY
chmod +x "$out/libexec/rawtherapee-cli"
mkdir -p "$out/share/rawtherapee"
cp -L "$rtshare"/{camconst.json,options} "$out/share/rawtherapee/"
cp -rL "$rtshare/profiles" "$out/share/rawtherapee/"
# it loads the lens database at start-up (as installed, from /usr/share/lensfun): the same work there
cp -rL /usr/share/lensfun/version_1 "$out/share/rawtherapee/lensfun"
printf '\n[Lensfun]\nDBDirectory=/tmp/.peer/rawtherapee/lensfun\n' >> "$out/share/rawtherapee/options"

# LibRaw's processing
cp -L /usr/bin/dcraw_emu "$out/libexec/"

# every shared library the above load, glibc's excluded, stubs for STUBS
python3 - "$out" "$STUBS" "$NOOP" <<'PY'
import os, re, subprocess, sys
out, stubs = sys.argv[1], set(sys.argv[2].split())
noop = dict((w.split("=", 1) + ["0"])[:2] for w in sys.argv[3].split())  # symbol[=C expression of a, b]
skip = re.compile(r"^(ld-linux|libc\.so|libm\.so|libmvec|libdl\.so|libpthread|librt\.so|libresolv|"
                  r"libutil\.so|libanl|libstdc\+\+|libgcc_s)")
where = {}
for line in subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r"\s+(\S+) \((libc6,x86-64[^)]*)\) => (\S+)", line)
    if m and m.group(1) not in where:
        where[m.group(1)] = m.group(3)
def needed(path):
    d = subprocess.run(["readelf", "-dW", path], capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", d)
todo = [os.path.join(r, f) for r, _, fs in os.walk(out) for f in fs
        if f.endswith(".so") or r.endswith("libexec")]
done, stubbed = set(), set()
while todo:
    for name in needed(todo.pop()):
        if skip.match(name) or name in done:
            continue
        done.add(name)
        src = where.get(name) or os.path.join("/usr/lib/x86_64-linux-gnu/darktable", name)
        if name in stubs:
            stubbed.add((name, src))
            continue
        dst = os.path.join(out, "lib", name)
        if not os.path.exists(dst):
            subprocess.run(["cp", "-L", src, dst], check=True)
            todo.append(dst)

def imports(path):
    syms = subprocess.run(["readelf", "--dyn-syms", "-W", path], capture_output=True, text=True).stdout
    return {f[7].split("@")[0] for f in map(str.split, syms.splitlines()) if len(f) >= 8 and f[6] == "UND"}

# a stub exports only what the bundle's programs and libraries import (no dlsym into these)
wanted = set()
for r, _, fs in os.walk(out):
    for f in fs:
        if f.endswith(".so") or ".so." in f or r.endswith("libexec"):
            wanted |= imports(os.path.join(r, f))

def make_stub(name, src):
    syms = subprocess.run(["readelf", "--dyn-syms", "-W", src], capture_output=True, text=True).stdout
    c = ['#include <stdio.h>', '#include <stdlib.h>',
         '__attribute__((visibility("hidden"), noreturn)) static void die(const char *s)',
         '{ fprintf(stderr, "peer bundle: %s called, but ' + name + ' is a stub\\n", s); abort(); }']
    versions, gobject, gtypes = {}, False, "libgobject-2.0.so.0" in needed(src)
    c += ['#ifndef NO_GOBJECT', '#include <glib-object.h>', '__attribute__((visibility("hidden"))) unsigned long stub_type(const char *name)',
          '{ GType t = g_type_from_name(name); return t ? t : g_type_register_static_simple(G_TYPE_OBJECT,',
          '    g_intern_string(name), sizeof(GObjectClass), NULL, sizeof(GObject), NULL, 0); }', '#endif']
    for i, line in enumerate(syms.splitlines()):
        f = line.split()
        if len(f) < 8 or not f[0].rstrip(":").isdigit() or f[6] == "UND" or f[4] not in ("GLOBAL", "WEAK"):
            continue
        size, typ, full = int(f[2], 0), f[3], f[7]
        sym, _, ver = full.partition("@")
        default = ver.startswith("@")
        ver = ver.lstrip("@")
        if f[6] == "ABS":  # a version's own definition
            versions.setdefault(sym, [])
            continue
        if (ver and not default) or sym not in wanted:
            continue  # not asked for (an old, non-default version, or nothing imports it)
        versions.setdefault(ver, []).append(sym)  # "": no version, kept global below
        if typ in ("FUNC", "IFUNC", "NOTYPE"):
            if sym in noop:
                body = f"return {noop[sym]};"
            elif sym.endswith("_get_type") and gtypes:  # a GObject type: a distinct placeholder
                body = f'return stub_type("LumenPeerStub_{sym}");'
                gobject = True
            else:
                body = f'die("{sym}");'
            # __int128: rax and rdx, for the few functions that return a two-word struct
            c.append(f'__int128 s{i}() __asm__("{sym}"); __int128 s{i}(long a, long b) {{ {body} }}')
        elif typ == "OBJECT":
            c.append(f'char s{i}[{max(size, 1)}] __asm__("{sym}") __attribute__((aligned(32)));')
        elif typ == "TLS":
            c.append(f'__thread char s{i}[{max(size, 1)}] __asm__("{sym}");')
    os.makedirs(os.path.join(out, "stub"), exist_ok=True)
    base = os.path.join(out, "stub", name)
    open(base + ".c", "w").write("\n".join(c) + "\n")
    cmd = ["gcc", "-shared", "-fPIC", "-O1", "-w", "-o", os.path.join(out, "lib", name),
           f"-Wl,-soname,{name}", base + ".c"]
    if gobject:
        cmd += subprocess.run(["pkg-config", "--cflags", "--libs", "gobject-2.0"], capture_output=True,
                              text=True, check=True).stdout.split()
    else:
        cmd.insert(1, "-DNO_GOBJECT")
    plain = versions.pop("", [])
    if versions:
        with open(base + ".map", "w") as m:
            for k, (v, names) in enumerate(versions.items()):
                names = names + plain if k == 0 else names
                g = "global: " + " ".join(n + ";" for n in names) if names else ""
                m.write(f"{v} {{ {g} " + ("local: *; " if k == 0 else "") + "};\n")
        cmd.append(f"-Wl,--version-script={base}.map")
    subprocess.run(cmd, check=True)

for name, src in sorted(stubbed):
    make_stub(name, src)
print(f"{len(os.listdir(os.path.join(out, 'lib')))} libraries, {len(stubbed)} of them stubs: "
      + " ".join(sorted(n for n, _ in stubbed)))
PY
rm -rf "$out/stub"

# wrappers: each program sees the bundle's libraries, nothing else does
for p in darktable-cli rawtherapee-cli dcraw_emu; do
  cat > "$out/bin/$p" <<SH
#!/bin/sh
b=\$(dirname "\$(dirname "\$(readlink -f "\$0")")")
SH
done
cat >> "$out/bin/darktable-cli" <<'SH'
# darktable-cli IN OUT [options] [--core darktable options]: the bundle's modules and data
for a in "$@"; do [ "$a" = --core ] && LD_LIBRARY_PATH="$b/lib" exec "$b/libexec/darktable-cli" "$@" \
  --datadir "$b/dt/share" --moduledir "$b/dt/lib"; done
LD_LIBRARY_PATH="$b/lib" exec "$b/libexec/darktable-cli" "$@" --core --datadir "$b/dt/share" --moduledir "$b/dt/lib"
SH
cat >> "$out/bin/rawtherapee-cli" <<'SH'
# the binary reads /tmp/.peer/rawtherapee (its patched data dir); RT_SETTINGS keeps its options
# and cache out of the home directory unless the caller chose a place
mkdir -p /tmp/.peer && ln -sfn "$b/share/rawtherapee" /tmp/.peer/rawtherapee
if [ -z "${RT_SETTINGS:-}" ]; then RT_SETTINGS=$(mktemp -d); export RT_SETTINGS RT_CACHE=$RT_SETTINGS/cache; fi
LD_LIBRARY_PATH="$b/lib" exec "$b/libexec/rawtherapee-cli" "$@"
SH
echo 'LD_LIBRARY_PATH="$b/lib" exec "$b/libexec/dcraw_emu" "$@"' >> "$out/bin/dcraw_emu"
dpkg-query -W darktable rawtherapee libraw-bin > "$out/VERSIONS"
chmod +x "$out"/bin/*
cat > "$out/env.sh" <<'SH'
# source me on the GPU machine: the bench finds the peers through LUMEN_PEERS_RAW
LUMEN_PEERS_RAW=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LUMEN_PEERS_RAW
SH
tar -C "$(dirname "$out")" -cf - "$(basename "$out")" | xz -9e -T1 > "$out.tar.xz"
du -sh "$out"; ls -l "$out.tar.xz"
