#!/bin/sh
# xvfb-run "$@" with a recent list of its own: the window tests run side by side, and each
# one's GTK writes recently-used.xbel in XDG_DATA_HOME (a test may still set its own).
home=$(mktemp -d "${TMPDIR:-/tmp}/lumen-ui-home-XXXXXX") || exit 1
trap 'rm -rf "$home"' EXIT
XDG_DATA_HOME="$home" xvfb-run "$@"
