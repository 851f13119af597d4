#!/bin/bash
# Digests of what lumen-cli writes for a fixed set of photos, operations, merges and bad
# inputs: every output file's SHA-256, and each run's exit status and messages. Run it with
# the lumen-cli of two commits and diff the lists: a change that claims "no change in
# behaviour" (a restructuring) must give the same list, on the CPU and on CUDA.
#
#   tests/tools/output-digests.sh LUMEN_CLI OUTDIR [BACKEND] > digests.txt
#
# BACKEND is cpu (the default) or cuda. OUTDIR is made and left for a look at what differs.
set -u
cli=$(realpath "$1")
out=$2
backend=${3:-cpu}
here=$(cd "$(dirname "$0")/../.." && pwd)
data=$here/tests/data
mkdir -p "$out"
cd "$out" || exit 1
export LC_ALL=C.UTF-8 LANG=C.UTF-8

# run NAME ARGS…: runs lumen-cli, then prints the exit status, the messages (paths of
# this machine taken out) and the digest of each file it wrote under NAME.
run () {
  local name=$1
  shift
  rm -rf "$name.d"
  mkdir -p "$name.d"
  (cd "$name.d" && "$cli" "$@" >stdout.txt 2>stderr.txt; echo "$?" >status.txt)
  sed -i -e "s|$data|DATA|g" -e "s|$out|OUT|g" "$name.d"/std*.txt
  # Timings and progress vary from run to run: never part of the digest.
  sed -i -e '/[0-9] ms/d' -e '/ s$/d' "$name.d"/stdout.txt
  (cd "$name.d" && find . -type f | LC_ALL=C sort | xargs sha256sum | sed "s|  \./|  $name/|")
}

photos="astronaut.tif camera-gray.png chelsea.png coffee-alpha.png forest-path.jpg pier-fog.jpg"
looks=(
  "rotate:--rotate=90 --rotate-flip=horizontal"
  "rotate270:--rotate=270"
  "straighten:--straighten=7.5"
  "crop:--crop=10,20,200,150"
  "crop-ratio:--crop-ratio=16:9"
  "wb:--wb=4500,10"
  "exposure:--exposure=0.7"
  "exposure-down:--exposure=-1.3"
  "contrast:--contrast=0.4 --contrast-black=10 --contrast-white=240"
  "curve:--curve=0:10,128:150,255:240"
  "curve-luma:--curve=0:0,64:90,255:255 --curve-mode=luma --curve-red=0:0,255:230"
  "saturation:--saturation=0.5 --saturation-vibrance=0.3"
  "gray:--gray=luminosity"
  "gray-mix:--gray=mix --gray-red=0.5 --gray-green=0.4 --gray-blue=0.1 --gray-amount=0.8"
  "equalize:--equalize=luma"
  "equalize-rgb:--equalize=rgb --equalize-amount=0.5"
  "blur:--blur=3"
  "blur-wide:--blur=30"
  "resize-down:--resize=100x0"
  "resize-up:--resize=0x700 --resize-mode=fit"
  "all:--rotate=180 --straighten=-3 --crop=5,5,300,200 --wb=6000,-5 --exposure=0.3 --contrast=0.2 --curve=0:0,100:120,255:255 --saturation=0.2 --gray=bt601 --gray-amount=0.5 --equalize=luma --equalize-amount=0.3 --blur=1.5 --resize=200x0"
  "to-srgb:--exposure=0.2 --to-srgb"
)
for photo in $photos; do
  base=${photo%.*}
  for look in "${looks[@]}"; do
    lname=${look%%:*}
    # shellcheck disable=SC2086
    run "$base-$lname" --backend="$backend" ${look#*:} -o out.png "$data/photos/$photo"
  done
  run "$base-tif" --backend="$backend" --exposure=0.5 -o out.tif "$data/photos/$photo"
  run "$base-jpg" --backend="$backend" --exposure=0.5 --quality=90 -o out.jpg "$data/photos/$photo"
done
all=${looks[20]#*:}
# shellcheck disable=SC2086
run params-out --params-out=look.lumen $all
run params-in --backend="$backend" --params="$out/params-out.d/look.lumen" -o out.png \
  "$data/photos/chelsea.png"

for scene in courtyard forest sunset-handheld; do
  stack=$data/hdr/$scene
  files=$(cut -d' ' -f1 "$stack/exposures.txt" | sed "s|^|$stack/|")
  for method in debevec robertson; do
    # shellcheck disable=SC2086
    run "$scene-$method" hdr --backend="$backend" --method=$method \
      --exposures="$stack/exposures.txt" --response-out=response.txt -o out.hdr $files
    for tone in gamma reinhard drago; do
      # shellcheck disable=SC2086
      run "$scene-$method-$tone" hdr --backend="$backend" --method=$method \
        --exposures="$stack/exposures.txt" --tonemap=$tone -o out.png $files
    done
  done
  # shellcheck disable=SC2086
  run "$scene-mertens" hdr --backend="$backend" --method=mertens -o out.png $files
  # shellcheck disable=SC2086
  run "$scene-exr" hdr --backend="$backend" --exposures="$stack/exposures.txt" -o out.exr $files
  # shellcheck disable=SC2086
  run "$scene-16" hdr --backend="$backend" --exposures="$stack/exposures.txt" \
    --tonemap=reinhard --intensity=1 --light-adapt=0.5 --depth=16 -o out.tif $files
done
stack=$data/hdr/sunset-handheld
# shellcheck disable=SC2086
run sunset-align hdr --backend="$backend" --align --exposures="$stack/exposures.txt" \
  --tonemap=drago --bias=0.8 -o out.png $(cut -d' ' -f1 "$stack/exposures.txt" | sed "s|^|$stack/|")

fits=$data/astro/j8bt06nyq_sci_512.fits.gz
run detect detect --backend="$backend" --labels=labels.fits --background=bg.fits -o cat.csv "$fits"
run detect-filter detect --backend="$backend" --filter=2 --connectivity=8 --mesh=32 -o cat.fits "$fits"
run fits-view --backend="$backend" -o out.png "$fits"

for bad in "$data"/bad/images/*; do
  run "bad-$(basename "$bad")" --backend="$backend" -o out.png "$bad"
done
run missing --backend="$backend" -o out.png "$data/photos/no-such-photo.jpg"
