#!/usr/bin/env bash
# Translations: every language in po/LINGUAS is complete against a freshly extracted
# template, and the programs really use the catalogue that the build compiled.
#
# usage: test-translations.sh SOURCE_ROOT BUILD_ROOT LUMEN_CLI
#
# The runtime part needs lumen-cli to bind its text domain to $LUMEN_LOCALEDIR when
# that variable is set (app/cli.c); the build's catalogue is not where the compiled-in
# LUMEN_LOCALEDIR (the install prefix) points.
set -u

if [ $# -ne 3 ]; then
  echo "usage: $0 SOURCE_ROOT BUILD_ROOT LUMEN_CLI" >&2
  exit 2
fi
src=$1 build=$2 cli=$3

for tool in msgfmt msgcmp xgettext gettext; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found"
    exit 77
  fi
done

# The gettext tools' own messages must be English for the statistics to be parsed.
tools_env=(env LC_ALL=C LANGUAGE= LANG=C)

domain=$(sed -n 's/^#define GETTEXT_PACKAGE "\(.*\)"$/\1/p' "$build/config.h" 2>/dev/null)
domain=${domain:-lumen}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
fail () {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# msgfmt --statistics prints "N translated messages[, N fuzzy translations][, N untranslated messages]."
stat_count () { # STATS KIND: the count of that kind, 0 when msgfmt does not mention it
  local n
  n=$(grep -oE "[0-9]+ $2 (message|translation)" <<<"$1" | head -n 1 | cut -d ' ' -f 1)
  echo "${n:-0}"
}

# A fresh template, extracted the way meson's i18n.gettext (preset 'glib') does.
template=$tmp/$domain.pot
if ! (cd "$src/po" && "${tools_env[@]}" xgettext --package-name="$domain" \
        --files-from=POTFILES.in --directory="$src" --output="$template" \
        --from-code=UTF-8 --add-comments \
        -k_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 --keyword=g_dcgettext:2 \
        --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
        --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
        --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
        --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
        --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
        --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
        --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
        --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
        2>"$tmp/xgettext.log"); then
  cat "$tmp/xgettext.log"
  echo "FAIL: xgettext could not extract a template from $src/po/POTFILES.in"
  exit 1
fi
stats=$("${tools_env[@]}" msgfmt --statistics -o /dev/null "$template" 2>&1)
expected=$(( $(stat_count "$stats" translated) + $(stat_count "$stats" fuzzy)
             + $(stat_count "$stats" untranslated) ))
if [ "$expected" -eq 0 ]; then
  echo "FAIL: the template has no messages ($stats)"
  exit 1
fi
echo "template: $expected messages"

langs=$(sed -e 's/#.*//' "$src/po/LINGUAS" | tr -s ' \t' '\n\n' | sed '/^$/d')
if [ -z "$langs" ]; then
  echo "SKIP: po/LINGUAS lists no language"
  exit 77
fi

for lang in $langs; do
  po=$src/po/$lang.po
  echo "== $lang"
  if [ ! -f "$po" ]; then
    fail "$lang: po/$lang.po is missing"
    continue
  fi

  # 1. Complete, well-formed, and in step with the sources.
  if ! stats=$("${tools_env[@]}" msgfmt -c --check-format --statistics -o /dev/null "$po" 2>&1); then
    echo "$stats"
    fail "$lang: msgfmt -c --check-format rejects po/$lang.po"
    continue
  fi
  echo "$stats"
  n_tr=$(stat_count "$stats" translated)
  n_fz=$(stat_count "$stats" fuzzy)
  n_un=$(stat_count "$stats" untranslated)
  [ "$n_fz" -eq 0 ] || fail "$lang: $n_fz fuzzy translations"
  [ "$n_un" -eq 0 ] || fail "$lang: $n_un untranslated messages"
  [ "$n_tr" -eq "$expected" ] \
    || fail "$lang: $n_tr translated messages, the template has $expected (run msgmerge)"
  if ! out=$("${tools_env[@]}" msgcmp "$po" "$template" 2>&1); then
    echo "$out"
    fail "$lang: po/$lang.po lacks messages of the template (run msgmerge)"
  fi

  # 2. The build's catalogue, laid out as a locale folder of its own.
  mo=$build/po/$lang/LC_MESSAGES/$domain.mo
  if [ ! -f "$mo" ]; then
    fail "$lang: the build has no catalogue $mo (is $lang in po/LINGUAS when meson set up?)"
    continue
  fi
  if [ "$po" -nt "$mo" ]; then
    fail "$lang: $mo is older than po/$lang.po (rebuild)"
    continue
  fi
  localedir=$tmp/locale
  mkdir -p "$localedir/$lang/LC_MESSAGES"
  ln -sf "$mo" "$localedir/$lang/LC_MESSAGES/$domain.mo"
  run_env=(env -u LC_MESSAGES LC_ALL=C.UTF-8 LANG=C.UTF-8 LANGUAGE="$lang")

  # What the catalogue says, asked through gettext(1) and the same folder.
  translate () {
    TEXTDOMAINDIR=$localedir "${run_env[@]}" gettext -d "$domain" -- "$1"
  }
  help_id="Where to compute: auto (CUDA when a device is usable), cpu or cuda"
  missing_id="no such file"
  help_tr=$(translate "$help_id")
  missing_tr=$(translate "$missing_id")
  if [ "$help_tr" = "$help_id" ] || [ "$missing_tr" = "$missing_id" ]; then
    fail "$lang: the catalogue $mo does not translate “$help_id” / “$missing_id”"
    continue
  fi

  # 3. lumen-cli --help prints the translated option description.
  help_out=$(LUMEN_LOCALEDIR=$localedir "${run_env[@]}" "$cli" --help 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "$help_out"
    fail "$lang: lumen-cli --help exited with $rc"
  elif ! grep -qF -- "$help_tr" <<<"$help_out"; then
    echo "$help_out" | sed -n '1,12p'
    fail "$lang: lumen-cli --help does not print “$help_tr”;" \
         "does lumen-cli bind its text domain to \$LUMEN_LOCALEDIR when set (app/cli.c)?"
  else
    echo "lumen-cli --help: $help_tr"
  fi

  # 4. An error names the missing file in the language.
  err_out=$(LUMEN_LOCALEDIR=$localedir "${run_env[@]}" "$cli" --backend cpu \
              -o "$tmp/out.png" "$tmp/missing.jpg" 2>&1 >/dev/null)
  rc=$?
  if [ $rc -ne 1 ]; then
    echo "$err_out"
    fail "$lang: lumen-cli on a missing file exited with $rc, not 1"
  elif ! grep -qF -- "$missing_tr" <<<"$err_out"; then
    echo "$err_out"
    fail "$lang: lumen-cli on a missing file does not say “$missing_tr”;" \
         "does lumen-cli bind its text domain to \$LUMEN_LOCALEDIR when set (app/cli.c)?"
  else
    echo "lumen-cli missing file: $err_out"
  fi
done

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all translations complete and in use"
