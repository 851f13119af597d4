#!/bin/sh
# xvfb-run "$@" with a recent list of its own: the window tests run side by side, and each
# one's GTK writes recently-used.xbel in XDG_DATA_HOME (a test may still set its own), and
# thumbnails go to XDG_CACHE_HOME, never the person's ~/.cache/thumbnails.
home=$(mktemp -d "${TMPDIR:-/tmp}/lumen-ui-home-XXXXXX") || exit 1
trap 'rm -rf "$home"' EXIT
mkdir -m 700 "$home/cache" || exit 1
XDG_DATA_HOME="$home" XDG_CACHE_HOME="$home/cache" xvfb-run "$@"
