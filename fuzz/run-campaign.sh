#!/usr/bin/env bash
# A fuzzing campaign over Lumen's parsers (fuzz/README.md): runs each libFuzzer harness of a
# build made with -Dfuzzing=true for a chosen time or number of executions on N cores, merges
# what it found into fuzz/corpus/<harness>/, collects crashes, timeouts and OOMs, and prints
# one table row per harness.
#
#   fuzz/run-campaign.sh [run] [-b BUILDDIR] [-t SECONDS] [-n RUNS] [-j JOBS] [-p PARALLEL]
#                        [-w WORKDIR] [-a ARCHIVE] [--no-merge] [HARNESS...]
#   fuzz/run-campaign.sh pack [-b BUILDDIR] ARCHIVE.tar.xz
#   fuzz/run-campaign.sh import ARCHIVE.tar.xz
#   fuzz/run-campaign.sh minimize [-b BUILDDIR] [HARNESS...]
#
# run       -b  the build folder (default build-fuzz; a packed bundle's folder works too);
#               when it has no harnesses and clang is here, it is set up and built first
#           -t  seconds per harness (default 300); -n: stop a harness after RUNS executions
#           -j  fuzzing processes per harness (libFuzzer's -fork; default: every core / -p)
#           -p  harnesses run at once (default 1)
#           -w  the campaign's folder: logs, crashes/<harness>/, summary.txt
#               (default $TMPDIR/lumen-fuzz-campaign-DATE)
#           -a  also write ARCHIVE (.tar.xz): the summary, the crashes and the corpus entries
#               merged in, for a machine whose folders do not outlive the run
#           --lenient  broken promises of messages are warnings, not crashes (a campaign
#               that must look past a message bug still open); --no-merge: corpus untouched
#           HARNESS… a subset (names as in fuzz/corpus: jpeg, png, …); default all built.
#               HARNESS:JOBS gives that one its own number of processes (the slow ones more)
# pack      the harnesses, the shared libraries they need that a bare machine lacks, the
#           gdk-pixbuf loaders, this script, the corpus and the dictionaries, in one archive.
#           On that machine: tar xJf ARCHIVE && bash fuzz-pack/fuzz/run-campaign.sh -b fuzz-pack …
# import    brings an archive written by -a back: corpus entries into fuzz/corpus, crashes
#           listed (and kept in $TMPDIR/lumen-fuzz-import-DATE/) for triage
# minimize  rewrites fuzz/corpus/<harness>/ as the smallest set of its files with the same
#           coverage (libFuzzer's -merge=1); the seeds (seed-*) are always kept
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
corpus_root=$here/corpus
dict_root=$here/dicts
# libFuzzer's limits for every run: a 10 s input is a hang, 2 GB of memory an OOM.
fuzz_limits=(-rss_limit_mb=2048 -timeout=10)

die() { echo "run-campaign.sh: $*" >&2; exit 2; }

build=""
find_build() {
  if [ -z "$build" ]; then
    if [ -d "$root/build-fuzz" ]; then build=$root/build-fuzz; else build=$root; fi
  fi
  build=$(cd "$build" 2>/dev/null && pwd) || die "no build folder $build"
  # A build folder has them in fuzz/, a packed bundle in bin/.
  bindir=$build/fuzz
  [ -x "$build/bin/fuzz-jpeg" ] && bindir=$build/bin
  if ! [ -x "$bindir/fuzz-jpeg" ]; then
    command -v clang >/dev/null || die "no harnesses in $build and no clang here to build them"
    echo "Building the harnesses in $build"
    [ -f "$build/build.ninja" ] || CC=clang CXX=clang++ meson setup "$build" "$root" -Dcuda=disabled \
      -Dgui=disabled -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized
    bindir=$build/fuzz
    # shellcheck disable=SC2046 # one target per harness
    ninja -C "$build" $(cd "$corpus_root" && for h in *; do echo "fuzz/fuzz-$h"; done) >/dev/null
  fi
  # A packed bundle brings its own libraries and gdk-pixbuf loaders.
  if [ -f "$build/env.sh" ]; then
    # shellcheck source=/dev/null
    source "$build/env.sh"
  fi
}

harness_list() { # HARNESS or HARNESS:JOBS each
  if [ $# -gt 0 ]; then
    for h in "$@"; do [ -x "$bindir/fuzz-${h%%:*}" ] || die "no harness fuzz-${h%%:*} in $bindir"; echo "$h"; done
  else
    for f in "$bindir"/fuzz-*; do [ -x "$f" ] && [ -f "$f" ] && basename "$f" | sed 's/^fuzz-//'; done
  fi
}

# --- run -----------------------------------------------------------------------------------------

fuzz_one() { # HARNESS[:JOBS]: fuzzes, merges, counts; writes $work/rows/HARNESS
  local h=${1%%:*} jobs=$jobs
  [[ $1 == *:* ]] && jobs=${1#*:}
  local bin=$bindir/fuzz-$h
  local log=$work/logs/$h.log new=$work/new/$h arts=$work/crashes/$h tmp=$scratch/$h
  mkdir -p "$new" "$arts" "$tmp" "$corpus_root/$h"
  local dict=()
  [ -f "$dict_root/$h.dict" ] && dict=(-dict="$dict_root/$h.dict")
  local runs=()
  [ -n "$max_runs" ] && runs=(-runs="$max_runs")
  local start end
  start=$(date +%s)
  # New inputs land in the first folder; the saved corpus is read from the second.
  TMPDIR=$tmp "$bin" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 "${fuzz_limits[@]}" \
    -max_total_time="$seconds" "${runs[@]}" "${dict[@]}" -artifact_prefix="$arts/" -print_final_stats=1 \
    "$new" "$corpus_root/$h" >"$log" 2>&1 || true
  end=$(date +%s)

  # The last status line of the fork's parent: "#EXECS: cov: C ft: F corp: N exec/s E
  # oom/timeout/crash: O/T/C time: Ss job: J …".
  local line execs=0 cov=0 corp=0 otc="0/0/0"
  line=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
  if [ -n "$line" ]; then
    execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$line")
    cov=$(sed -E 's/.* cov: ([0-9]+) .*/\1/' <<<"$line")
    corp=$(sed -E 's/.* corp: ([0-9]+) .*/\1/' <<<"$line")
    otc=$(sed -E 's#.*oom/timeout/crash: ([0-9]+/[0-9]+/[0-9]+).*#\1#' <<<"$line")
  fi
  local elapsed=$((end - start))
  [ "$elapsed" -gt 0 ] || elapsed=1

  local added=0
  if [ "$merge" = 1 ] && [ -n "$(ls -A "$new")" ]; then
    # Only what adds coverage to the saved corpus joins it (libFuzzer names it by its SHA-1).
    ls "$corpus_root/$h" | sort >"$tmp/before"
    TMPDIR=$tmp "$bin" -merge=1 "${fuzz_limits[@]}" -artifact_prefix="$arts/" "$corpus_root/$h" "$new" \
      >>"$log" 2>&1 || true
    ls "$corpus_root/$h" | sort >"$tmp/after"
    comm -13 "$tmp/before" "$tmp/after" >"$work/added-$h.txt"
    added=$(wc -l <"$work/added-$h.txt")
  fi
  local found
  # shellcheck disable=SC2010 # libFuzzer's names: KIND-SHA1
  found=$(ls "$arts" | grep -cE '^(crash|timeout|oom|leak|slow-unit)-' || true)
  printf '%-13s %4s %6ss %12s %9s %6s %6s %7s %6s  %s\n' "$h" "$jobs" "$elapsed" "$execs" "$((execs / elapsed))" \
    "$cov" "$corp" "+$added" "$otc" "$found" >"$work/rows/$h"
  rm -rf "$tmp"
}

cmd_run() {
  seconds=300 max_runs="" jobs="" parallel=1 work="" archive="" merge=1
  while [ $# -gt 0 ]; do
    case $1 in
      -b) build=$2; shift 2 ;;
      -t) seconds=$2; shift 2 ;;
      -n) max_runs=$2; shift 2 ;;
      -j) jobs=$2; shift 2 ;;
      -p) parallel=$2; shift 2 ;;
      -w) work=$2; shift 2 ;;
      -a) archive=$2; shift 2 ;;
      --no-merge) merge=0; shift ;;
      --lenient) export LUMEN_FUZZ_LENIENT=1; shift ;;
      -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
      -*) die "unknown option $1 (see --help)" ;;
      *) break ;;
    esac
  done
  find_build
  mapfile -t harnesses < <(harness_list "$@")
  [ ${#harnesses[@]} -gt 0 ] || die "no harnesses to run"
  local cores
  cores=$(nproc)
  [ -n "$jobs" ] || jobs=$(( cores / parallel > 0 ? cores / parallel : 1 ))
  [ -n "$work" ] || work=${TMPDIR:-/tmp}/lumen-fuzz-campaign-$(date +%Y%m%d-%H%M%S)
  mkdir -p "$work/logs" "$work/rows" "$work/new" "$work/crashes"
  work=$(cd "$work" && pwd)
  # The harnesses' own files (Lumen fsyncs what it writes: free on tmpfs) and libFuzzer's.
  scratch=$work/tmp
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then scratch=/dev/shm/lumen-fuzz-$$; fi
  mkdir -p "$scratch"
  trap 'rm -rf "$scratch"' EXIT

  echo "Fuzzing ${harnesses[*]}: ${seconds}s${max_runs:+ or $max_runs executions} each, $jobs processes" \
       "each (or as named), $parallel at once, on $(nproc) cores; logs in $work/logs"
  local running=0
  for h in "${harnesses[@]}"; do
    fuzz_one "$h" &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$((running - 1)); fi
  done
  wait || true

  {
    local commit
    commit=$(cat "$build/commit" 2>/dev/null || git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')
    echo "Lumen fuzzing campaign, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit"
    echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $parallel harness(es) at once, -rss_limit_mb=2048 -timeout=10"
    echo
    printf '%-13s %4s %7s %12s %9s %6s %6s %7s %6s  %s\n' harness jobs time executions exec/s cov corpus merged 'o/t/c' saved
    cat "$work/rows/"*
    echo
    echo "o/t/c: OOMs, timeouts and crashes libFuzzer met (one input may be met many times);"
    echo "saved: the distinct inputs kept, in $work/crashes/<harness>/."
  } | tee "$work/summary.txt"
  for h in "${harnesses[@]%%:*}"; do
    if [ -n "$(ls -A "$work/crashes/$h")" ]; then
      echo "  $h: $(ls "$work/crashes/$h" | sed 's/-.*//' | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')in $work/crashes/$h"
    fi
  done

  if [ -n "$archive" ]; then
    local stage=$work/archive
    rm -rf "$stage"; mkdir -p "$stage/corpus"
    cp "$work/summary.txt" "$stage/"
    cp -r "$work/crashes" "$stage/crashes"
    for h in "${harnesses[@]%%:*}"; do
      mkdir -p "$stage/corpus/$h"
      if [ -f "$work/added-$h.txt" ]; then
        while read -r f; do cp "$corpus_root/$h/$f" "$stage/corpus/$h/"; done <"$work/added-$h.txt"
      fi
      tail -n 60 "$work/logs/$h.log" >"$stage/log-tail-$h.txt"
    done
    tar -C "$work" -cJf "$archive" archive
    echo "Archive: $archive ($(du -h "$archive" | cut -f1))"
  fi
  rm -rf "$scratch" "$work/new"
}

# --- pack ----------------------------------------------------------------------------------------

cmd_pack() {
  while [ $# -gt 0 ]; do
    case $1 in
      -b) build=$2; shift 2 ;;
      *) break ;;
    esac
  done
  [ $# -eq 1 ] || die "usage: run-campaign.sh pack [-b BUILDDIR] ARCHIVE.tar.xz"
  local archive
  archive=$(realpath -m "$1")
  mkdir -p "$(dirname "$archive")"
  find_build
  local stage
  stage=$(mktemp -d)
  local out=$stage/fuzz-pack
  mkdir -p "$out/bin" "$out/lib/gdk-pixbuf/loaders" "$out/fuzz"
  # What every Linux machine has (and must not be replaced): the C library and the
  # compiler's runtimes.
  local skip='^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|ld-linux|libstdc\+\+|libgcc_s)'
  copy_libs() {
    ldd "$1" | awk '/=>/ {print $3}' | while read -r so; do
      [ -n "$so" ] || continue
      local base
      base=$(basename "$so")
      [[ $base =~ $skip ]] && continue
      [ -e "$out/lib/$base" ] || cp -L "$so" "$out/lib/$base"
    done
  }
  local n=0
  for f in "$bindir"/fuzz-*; do
    [ -f "$f" ] && [ -x "$f" ] || continue
    # Debug sections stay here: a crash's addresses are symbolized with the build's own copy.
    objcopy --strip-debug "$f" "$out/bin/$(basename "$f")"
    copy_libs "$f"
    n=$((n + 1))
  done
  local pbdir
  pbdir=$(pkg-config --variable=gdk_pixbuf_moduledir gdk-pixbuf-2.0 2>/dev/null || true)
  for l in "$pbdir"/libpixbufloader-{bmp,gif,jpeg,png,tiff,webp}.so; do
    [ -f "$l" ] && { cp -L "$l" "$out/lib/gdk-pixbuf/loaders/"; copy_libs "$l"; }
  done
  local q
  q=$(command -v gdk-pixbuf-query-loaders || ls /usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/gdk-pixbuf-query-loaders 2>/dev/null || true)
  [ -n "$q" ] && { cp -L "$q" "$out/bin/gdk-pixbuf-query-loaders"; copy_libs "$q"; }
  cat >"$out/env.sh" <<'SH'
# Sourced by run-campaign.sh when run from a packed bundle (-b BUNDLE).
_b=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH="$_b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GDK_PIXBUF_MODULEDIR="$_b/lib/gdk-pixbuf/loaders" GDK_PIXBUF_MODULE_FILE=$_b/loaders.cache
[ -s "$GDK_PIXBUF_MODULE_FILE" ] || "$_b/bin/gdk-pixbuf-query-loaders" >"$GDK_PIXBUF_MODULE_FILE" 2>/dev/null || true
SH
  cp "$here/run-campaign.sh" "$here/README.md" "$out/fuzz/"
  { git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'
    git -C "$root" diff --quiet HEAD -- core fuzz 2>/dev/null || echo '+uncommitted'; } | paste -sd ' ' >"$out/commit"
  cp -r "$corpus_root" "$out/fuzz/corpus"
  [ -d "$dict_root" ] && cp -r "$dict_root" "$out/fuzz/dicts"
  # The bundle's harnesses live in bin/ (find_build looks there) and its corpus is its own.
  tar -C "$stage" -cJf "$archive" fuzz-pack
  rm -rf "$stage"
  echo "Packed $n harnesses and their libraries: $archive ($(du -h "$archive" | cut -f1))"
  echo "There: tar xJf $(basename "$archive") && bash fuzz-pack/fuzz/run-campaign.sh -b fuzz-pack -t SECONDS -a OUT.tar.xz"
}

# --- import --------------------------------------------------------------------------------------

cmd_import() {
  [ $# -eq 1 ] || die "usage: run-campaign.sh import ARCHIVE.tar.xz"
  local dest
  dest=${TMPDIR:-/tmp}/lumen-fuzz-import-$(date +%Y%m%d-%H%M%S)
  mkdir -p "$dest"
  tar -C "$dest" -xJf "$1"
  cat "$dest/archive/summary.txt"
  local n=0
  for d in "$dest/archive/corpus"/*/; do
    local h
    h=$(basename "$d")
    mkdir -p "$corpus_root/$h"
    for f in "$d"*; do [ -f "$f" ] && cp -n "$f" "$corpus_root/$h/" && n=$((n + 1)); done
  done
  echo "$n corpus entries added to fuzz/corpus (run-campaign.sh minimize keeps it small)."
  local crashes
  crashes=$(find "$dest/archive/crashes" -type f | sort)
  if [ -n "$crashes" ]; then
    echo "Crashes, timeouts and OOMs to triage (fuzz/README.md, \"A new crash\"):"
    echo "$crashes" | sed 's/^/  /'
  else
    echo "No crash, timeout or OOM."
  fi
}

# --- minimize ------------------------------------------------------------------------------------

cmd_minimize() {
  while [ $# -gt 0 ]; do
    case $1 in
      -b) build=$2; shift 2 ;;
      *) break ;;
    esac
  done
  find_build
  mapfile -t harnesses < <(harness_list "$@")
  for h in "${harnesses[@]%%:*}"; do
    local dir=$corpus_root/$h fresh
    fresh=$(mktemp -d)
    mkdir -p "$fresh/seeds" "$fresh/min"
    # Seeds first, so that they are kept whatever they add; then the rest as far as it adds.
    cp "$dir"/seed-* "$fresh/seeds/" 2>/dev/null || true
    cp "$dir"/seed-* "$fresh/min/" 2>/dev/null || true
    # An input that crashes is left out (its crash file is dropped with the folder): it
    # belongs in fuzz/crashes/, and the replay says so.
    TMPDIR=$fresh "$bindir/fuzz-$h" -merge=1 "${fuzz_limits[@]}" -artifact_prefix="$fresh/" "$fresh/min" "$dir" \
      >"$fresh/log" 2>&1 \
      || { tail -20 "$fresh/log"; die "merging $h failed"; }
    local before after
    before=$(ls "$dir" | wc -l)
    rm -f "$dir"/*
    cp "$fresh/min"/* "$dir/"
    after=$(ls "$dir" | wc -l)
    echo "$h: $before → $after files, $(du -sh "$dir" | cut -f1)"
    rm -rf "$fresh"
  done
}

main() {
  case ${1:-run} in
    run) [ $# -gt 0 ] && shift; cmd_run "$@" ;;
    pack) shift; cmd_pack "$@" ;;
    import) shift; cmd_import "$@" ;;
    minimize) shift; cmd_minimize "$@" ;;
    *) cmd_run "$@" ;;
  esac
}
# One line, read whole before it runs: a campaign goes on even if this file changes meanwhile.
main "$@"; exit
