#!/usr/bin/env bash
# Prepares a run on the GPU machine (which has the CUDA driver and toolkit but no GLib,
# gdk-pixbuf or GTK, and no access to ../shared): builds Lumen here with CUDA (sm_90 among
# the targets), bundles the programs with the libraries they need, and copies the test data
# and the peer benchmarks, all into OUTDIR (default .device, ignored by git). Then, through
# the device tool, carry OUTDIR and run `bash tests/gpu/device-run.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.device}
build=${LUMEN_DEVICE_BUILD:-build-device}
shared=${LUMEN_SHARED:-../shared}

[ -f "$build/build.ninja" ] || meson setup "$build" -Dcuda=enabled -Dgui=enabled
meson configure "$build" -Dgui=enabled >/dev/null
# What travels, one binary a line (its directory in the build, then its meson target).
binaries=(
  app/lumen-cli
  ui/lumen
  tests/test-parity
  tests/test-hdr-parity
  tests/test-hdr16-parity
  tests/test-view-parity
  tests/test-mask-parity
  tests/test-level-parity
  tests/test-tiled-parity
  tests/test-detect-parity
  tests/test-stretch-parity
  tests/test-memory-budget
  tests/test-window
  tests/test-navigate
  tests/test-state
  tests/test-panels
  tests/test-gpu-fault
  tests/test-large-view
  tests/test-detect-panel
  bench/bench-tiled
  bench/bench-view
  bench/bench-hdr
  bench/bench-ops
  bench/bench-io
  bench/bench-first-run
  bench/ui-latency
  bench/soak-window
  bench/bench-detect
  tests/test-demosaic-parity
  bench/bench-demosaic
)
# LUMEN_DEVICE_BINARIES="app/lumen-cli tests/test-parity …" carries those alone: the whole list
# with the larger data is over what one device call carries (64 MiB).
[ -n "${LUMEN_DEVICE_BINARIES:-}" ] && read -r -a binaries <<< "$LUMEN_DEVICE_BINARIES"
meson compile -C "$build" lumen-gmo "${binaries[@]##*/}" >/dev/null

rm -rf "$out"
mkdir -p "$out/data" "$out/peers" "$out/bin"
"$shared/device/gui-bundle.sh" "$out/bundle" "${binaries[@]/#/$build/}" >/dev/null
rm -rf "$out/bundle"                      # the .tar.xz beside it is what travels
# The bundle's schemas are the system's; the window reads its own settings too (without
# them it keeps sidecars and defaults differ from CI's), so both are compiled together.
mkdir -p "$out/schemas"
cp /usr/share/glib-2.0/schemas/*.xml data/io.github.lumen.Lumen.gschema.xml "$out/schemas/"
glib-compile-schemas "$out/schemas"
# The catalogues (po/<lang>/LC_MESSAGES/lumen.mo): the window tests run in German there too.
for mo in "$build"/po/*/LC_MESSAGES/*.mo; do
  rel=${mo#"$build"/po/}
  mkdir -p "$out/locale/$(dirname "$rel")" && cp "$mo" "$out/locale/$rel"
done
# The corpus, and the larger data over it where this checkout has it beside (unless
# LUMEN_DEVICE_EXTRA_DATA=0: the steps of faults, soak and fuzz need the corpus alone).
cp -r tests/data/photos tests/data/hdr tests/data/bad "$out/data/"
cp -r tests/data/lens "$out/data/" # the lens correction's photo with a lens in lensfun's database
# The colour tests' ICC profiles (colord-data): the GPU machine has none.
cp -r /usr/share/color/icc/colord "$out/icc"
# lensfun's database (liblensfun-data-v1), which the lens correction's lookup reads on the host
# (LUMEN_LENSFUN_DB in device-run.sh); the library itself travels in the bundle.
cp -r /usr/share/lensfun/version_1 "$out/lensfun"
if [ -d "$shared/data" ] && [ "${LUMEN_DEVICE_EXTRA_DATA:-1}" != 0 ]; then
  cp -r "$shared/data/photos" "$shared/data/hdr" "$out/data/"
fi
# The fuzz harnesses (a -Dfuzzing=true build, LUMEN_FUZZ_BUILD) and their corpus, for the
# campaign step.
if [ -n "${LUMEN_FUZZ_BUILD:-}" ]; then
  bash fuzz/run-campaign.sh pack -b "$LUMEN_FUZZ_BUILD" "$out/fuzz-pack.tar.xz" >/dev/null
fi
# The window needs what the GPU machine lacks besides libraries: the MIME database (gdk-pixbuf
# identifies even GTK's own PNG icons through it) and the icons of the Adwaita theme.
mkdir -p "$out/share/mime" "$out/share/icons/Adwaita"
find /usr/share/mime -maxdepth 1 -type f -exec cp {} "$out/share/mime/" \;
cp /usr/share/icons/Adwaita/index.theme "$out/share/icons/Adwaita/"
cp -r /usr/share/icons/Adwaita/16x16 /usr/share/icons/Adwaita/24x24 "$out/share/icons/Adwaita/"
cp "$shared/peers/peer_bench.py" "$shared/peers/npp_bench.cu" "$out/peers/"
# Source detection (the step `detect`): the FITS test data, eso-midas-testdata's thar5s.fit where
# installed, and sep's C library with the timing program built against it (the GPU machine
# has no package registry).
cp -r tests/data/astro "$out/data/"
midas=/usr/lib/eso-midas/22FEB/test/prim
mkdir -p "$out/data/astro-extra"
for f in thar5s.fit NOT.fits ISAAC.2006-04-13T06:32:38.944.fits; do
  if [ -f "$midas/$f" ]; then cp "$midas/$f" "$out/data/astro-extra/"; fi
done
sep=$(mktemp -d)
(cd "$sep" && apt-get download libsep0 libsep-dev >/dev/null 2>&1 && for deb in *.deb; do dpkg-deb -x "$deb" .; done)
if [ -f "$sep/usr/include/sep.h" ]; then
  gcc -O2 -o "$out/peers/bench-detect-sep" bench/bench-detect-sep.c -I"$sep/usr/include" \
    -L"$sep/usr/lib/x86_64-linux-gnu" -lsep -Wl,-rpath,'$ORIGIN'
  cp -P "$sep"/usr/lib/x86_64-linux-gnu/libsep.so.0* "$out/peers/"
else
  echo "libsep0/libsep-dev could not be downloaded: the detect step runs without sep" >&2
fi
rm -rf "$sep"
git rev-parse --short HEAD > "$out/commit"
git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo "+uncommitted" >> "$out/commit"
du -sh "$out"
