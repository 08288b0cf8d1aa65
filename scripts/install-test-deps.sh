#!/usr/bin/env bash
# Installs what the test suites need beyond npm packages, and nothing twice:
#   - Debian: chromium (Playwright drives it), espeak-ng + sox (speech for the fake microphone),
#     pocketsphinx + its US English model (the gateway's offline speech recognition);
#   - PyPI: a11-kit, the reference implementation, pinned to the release that matches the
#     conformance data in ../shared/reference, in its own virtualenv under .tools/.
set -euo pipefail
cd "$(dirname "$0")/.."

A11_KIT_VERSION=0.4.4
APT_PACKAGES=(chromium espeak-ng sox pocketsphinx pocketsphinx-en-us)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "install-test-deps: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

venv=.tools/a11-kit
if ! "$venv/bin/a11" --help >/dev/null 2>&1 || ! "$venv/bin/pip" show a11-kit 2>/dev/null | grep -qx "Version: $A11_KIT_VERSION"; then
  echo "install-test-deps: installing a11-kit==$A11_KIT_VERSION into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "a11-kit==$A11_KIT_VERSION"
fi
echo "install-test-deps: ready (chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}'), a11-kit $A11_KIT_VERSION)"
