#!/bin/sh
# Runs "$@" in French (LANGUAGE=fr, LC_ALL=fr_FR.UTF-8) with the locale made for the run by
# localedef in a folder of its own (LOCPATH), so that no French locale need be installed;
# exits 77 (skipped) where localedef or the locales package's sources are missing.
command -v localedef >/dev/null 2>&1 || { echo "no localedef: skipped"; exit 77; }
[ -e /usr/share/i18n/locales/fr_FR ] || { echo "no fr_FR locale source (package locales): skipped"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/lumen-locale-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
localedef -i fr_FR -f UTF-8 "$dir/fr_FR.UTF-8" >/dev/null 2>&1
[ -e "$dir/fr_FR.UTF-8/LC_CTYPE" ] || { echo "localedef made no fr_FR.UTF-8" >&2; exit 1; }
LOCPATH="$dir" LC_ALL=fr_FR.UTF-8 LANGUAGE=fr "$@"
