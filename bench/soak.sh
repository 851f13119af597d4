#!/usr/bin/env bash
# The window's memory over many edits (bench/soak-window.c): 10,000 edits made through the X
# server on a photo, then 3,000 on radiance (the tone mapping's controls too), each run with
# its table and verdict: resident memory may grow by 5 % at most after the first 1,000
# edits, GPU memory not at all. Not part of `meson test`: it takes about a quarter of an
# hour on 2 cores. Exit status 1 when a run fails its verdict.
#
# Here, on the CPU (a build with the GUI; xvfb-run installed):
#   bench/soak.sh run [BUILDDIR]              BUILDDIR: build-soak by default
# On the GPU machine, on CUDA. Here first, with a build configured -Dcuda=enabled -Dgui=enabled
# (-Dgpu_archs must include 90):
#   bench/soak.sh pack BUILDDIR [PACKDIR]     PACKDIR: .soak by default; git must ignore it
#   (SOAK_LIBS_FROM=.device: the libraries and data of tests/gpu/device-pack.sh's pack, not a
#   bundle of its own: 1 MB instead of 15, where both must travel within the 64 MiB)
# then through the device tool, carrying PACKDIR (the photo's run and the radiance's each fit
# one call of 10 minutes):
#   SOAK_RUNS=photo bash bench/soak.sh device [PACKDIR]
#   SOAK_RUNS=radiance bash bench/soak.sh device [PACKDIR]
# Figures and logs go to $OUT (default: run: BUILDDIR/soak; device: a temporary folder).
#
# Variables: SOAK_RUNS ("photo radiance"), SOAK_BACKEND (run: cpu; device: cuda),
# SOAK_CHANGES (10000), SOAK_HDR_CHANGES (3000), SOAK_WARMUP (1000), SOAK_PHOTO (a photo file;
# tests/data/photos/forest-path.jpg), SOAK_ARGS (more soak-window options, e.g. --verbose).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
mode=${1:-run}
runs=${SOAK_RUNS:-photo radiance}
changes=${SOAK_CHANGES:-10000}
hdr_changes=${SOAK_HDR_CHANGES:-3000}
warmup=${SOAK_WARMUP:-1000}

usage() {
  sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# Radiance to edit: the forest bracket of DATA (a test corpus) merged by lumen-cli, as a .hdr.
make_radiance() { # LUMEN_CLI DATA OUTFILE
  (cd "$2/hdr/forest" && "$1" hdr --exposures exposures.txt -o "$3")
}

# One run of soak-window (PROGRAM) on FILE with N edits; its table in $OUT/soak-NAME.txt.
soak() { # PROGRAM NAME FILE N
  local program=$1 name=$2 file=$3 n=$4 w=$warmup
  [ "$w" -lt "$n" ] || w=$((n / 10))
  echo "== soak $name: $file, $n edits on $backend"
  # gtk_test_init's TAP comments (the random seed, GLib's debug messages) left out.
  "${launch[@]}" "$program" --backend "$backend" --changes "$n" --warmup "$w" --tsv "$OUT/soak-$name.tsv" \
    ${SOAK_ARGS:-} "$file" 2> "$OUT/soak-$name.log" | grep --line-buffered -v -E '^# (random seed|[A-Za-z-]+-DEBUG)' > "$OUT/soak-$name.txt"
  local rc=${PIPESTATUS[0]}
  cat "$OUT/soak-$name.txt"
  # What went wrong, without GTK's warnings about theme assets it cannot draw.
  [ "$rc" -eq 0 ] || grep -v -e Gtk-WARNING -e '^$' -e '^# ' "$OUT/soak-$name.log" | tail -n 5
  return "$rc"
}

soak_all() { # PROGRAM PHOTO RADIANCE
  local status=0
  for r in $runs; do
    case $r in
      photo) soak "$1" "photo-$backend" "$2" "$changes" || status=1 ;;
      radiance) soak "$1" "radiance-$backend" "$3" "$hdr_changes" || status=1 ;;
      *) echo "soak.sh: unknown run '$r' in SOAK_RUNS (photo, radiance)" >&2; return 2 ;;
    esac
  done
  echo "== soak: $([ $status -eq 0 ] && echo PASS || echo FAIL); tables and logs in $OUT"
  return $status
}

case $mode in
  run)
    build=${2:-build-soak}
    [ -f "$build/build.ninja" ] || { echo "soak.sh: $build is not a meson build folder" >&2; exit 2; }
    ninja -C "$build" bench/soak-window app/lumen-cli > /dev/null || exit 1
    command -v xvfb-run > /dev/null || { echo "soak.sh: xvfb-run is not installed" >&2; exit 2; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    OUT=${OUT:-$build/soak}
    mkdir -p "$OUT"
    # The program runs from a copy: a rebuild during the run must not change it.
    cp "$build/bench/soak-window" "$tmp/soak-window"
    make_radiance "$PWD/$build/app/lumen-cli" tests/data "$tmp/forest.hdr" > /dev/null || exit 1
    export GSETTINGS_SCHEMA_DIR="$PWD/$build/data" GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
    export XDG_DATA_HOME="$tmp/data-home" LUMEN_TEST_DATA="$PWD/tests/data"
    backend=${SOAK_BACKEND:-cpu}
    launch=(xvfb-run -a -s "-screen 0 1280x900x24")
    soak_all "$tmp/soak-window" "${SOAK_PHOTO:-$PWD/tests/data/photos/forest-path.jpg}" "$tmp/forest.hdr"
    exit $?
    ;;
  pack)
    build=${2:-}
    pack=${3:-.soak}
    [ -n "$build" ] && [ -f "$build/build.ninja" ] || usage
    shared=${LUMEN_SHARED:-../shared}
    ninja -C "$build" bench/soak-window app/lumen-cli > /dev/null || exit 1
    rm -rf "$pack"
    mkdir -p "$pack"
    xz -T1 -c "$build/bench/soak-window" > "$pack/soak-window.xz" # 4 MB with CUDA's runtime; 1 MB so
    if [ -n "${SOAK_LIBS_FROM:-}" ]; then
      # The libraries, Xvfb, lumen-cli, the MIME and icon data and the test data of a pack made
      # by tests/gpu/device-pack.sh (it bundles the same GTK programs): this one is the program.
      [ -f "$SOAK_LIBS_FROM/bundle.tar.xz" ] && [ -d "$SOAK_LIBS_FROM/share" ] && [ -d "$SOAK_LIBS_FROM/data" ] \
        || { echo "soak.sh: $SOAK_LIBS_FROM has no bundle.tar.xz, share/ and data/" >&2; exit 1; }
      # Libraries Lumen needs now that the bundle lacks (made before they were needed), as
      # gui-bundle.sh picks them: glibc's, the C++ runtime's and the driver's stay behind.
      bundled=$(tar tJf "$SOAK_LIBS_FROM/bundle.tar.xz" | sed -n 's|^bundle/lib/\([^/]*\)$|\1|p')
      skip='^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|ld-linux|libcuda\.so|libnvidia|libstdc\+\+|libgcc_s)'
      ldd "$build/bench/soak-window" | awk '/=>/ {print $1, $3}' | while read -r name path; do
        [[ $name =~ $skip ]] || grep -qxF "$name" <<< "$bundled" || { mkdir -p "$pack/lib" && cp -L "$path" "$pack/lib/"; }
      done
    else
      "$shared/device/gui-bundle.sh" "$pack/bundle" "$build/bench/soak-window" "$build/app/lumen-cli" > /dev/null || exit 1
      rm -rf "$pack/bundle" # the .tar.xz beside it is what travels
      # What the GPU machine lacks besides libraries (as tests/gpu/device-pack.sh packs it):
      # the MIME database, through which gdk-pixbuf identifies even GTK's icons, and Adwaita's.
      mkdir -p "$pack/share/mime" "$pack/share/icons/Adwaita" "$pack/data/photos" "$pack/data/hdr"
      find /usr/share/mime -maxdepth 1 -type f -exec cp {} "$pack/share/mime/" \;
      cp /usr/share/icons/Adwaita/index.theme "$pack/share/icons/Adwaita/"
      cp -r /usr/share/icons/Adwaita/16x16 /usr/share/icons/Adwaita/24x24 "$pack/share/icons/Adwaita/"
      cp "${SOAK_PHOTO:-tests/data/photos/forest-path.jpg}" "$pack/data/photos/"
      cp -r tests/data/hdr/forest "$pack/data/hdr/"
    fi
    git rev-parse --short HEAD > "$pack/commit"
    git diff --quiet HEAD -- . || echo "+uncommitted" >> "$pack/commit"
    du -sh "$pack"
    echo "now, through the device tool, carrying $pack: SOAK_RUNS=photo bash bench/soak.sh device $pack"
    ;;
  device)
    absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
    pack=$(absolute "${2:-.soak}")
    # The program: PACKDIR/bin/soak-window (as tests/gpu/device-run.sh lays it out), or the
    # compressed one of 'soak.sh pack'.
    [ -x "$pack/bin/soak-window" ] || [ -f "$pack/soak-window.xz" ] \
      || { echo "soak.sh: no $pack/bin/soak-window or $pack/soak-window.xz: run 'bench/soak.sh pack' first" >&2; exit 2; }
    libs=$pack
    [ -f "$libs/bundle.tar.xz" ] || libs=$(absolute "${SOAK_LIBS_FROM:-.device}")
    data=$pack/data
    [ -d "$data" ] || data=$libs/data
    OUT=${OUT:-$(mktemp -d)}
    mkdir -p "$OUT"
    # env.sh starts Xvfb unless its socket is there: one left by an earlier call's server,
    # ended with that call on a machine still held, is not a server.
    d=${DISPLAY:-:99}
    pgrep -x Xvfb > /dev/null || rm -f "/tmp/.X11-unix/X${d#:}" "/tmp/.X${d#:}-lock"
    { [ -d "$libs/bundle" ] || tar -C "$libs" -xJf "$libs/bundle.tar.xz"; } && source "$libs/bundle/env.sh" || exit 1
    [ -d "$pack/lib" ] && export LD_LIBRARY_PATH="$pack/lib:$LD_LIBRARY_PATH"
    export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 XDG_DATA_DIRS="$libs/share:${XDG_DATA_DIRS:-/usr/share}"
    export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent-bus # none there: say so, rather than let GLib start one
    export XDG_DATA_HOME=/tmp/soak-data-home LUMEN_TEST_DATA="$data"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
    echo "commit $(tr '\n' ' ' < "$pack/commit")" | tee -a "$OUT/gpu.txt"
    program=$pack/bin/soak-window
    if ! [ -x "$program" ]; then
      program=/tmp/soak-window
      xz -dc "$pack/soak-window.xz" > "$program" && chmod +x "$program" || exit 1
    fi
    # The radiance: PACKDIR/data/forest.hdr where it was made already, else made here.
    radiance=$pack/data/forest.hdr
    if [[ " $runs " == *" radiance "* ]] && ! [ -f "$radiance" ]; then
      radiance=/tmp/soak-forest.hdr
      make_radiance "$libs/bundle/bin/lumen-cli" "$data" "$radiance" > /dev/null || exit 1
    fi
    backend=${SOAK_BACKEND:-cuda}
    launch=()
    soak_all "$program" "${SOAK_PHOTO:-$data/photos/forest-path.jpg}" "$radiance"
    ;;
  *)
    usage
    ;;
esac
