#!/usr/bin/env bash
# The Chromium the browser tests drive (playwright.config.ts): Debian's, with the features
# below turned off. Chromium honours only the last --disable-features it is given, and
# Playwright passes a list of its own, so every list is merged into one here.
#
# WebUIOmniboxPopup, WebUIOmniboxAimPopup: each new window (every browser context of a test)
# loads the address bar's popup, a web page of Chromium's own, in a renderer of its own:
# about 1.3 s of CPU per context for a popup no test opens (headless has no address bar).
# Measured: the first page of a context cost about 4.6 s of CPU with it, 2.5 s without
# (docs/testing.md).
set -euo pipefail
args=()
disabled=(WebUIOmniboxPopup WebUIOmniboxAimPopup)
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) disabled+=("${arg#--disable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
IFS=,
exec "${CHROMIUM_PATH:-/usr/bin/chromium}" "${args[@]}" "--disable-features=${disabled[*]}"
