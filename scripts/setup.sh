#!/usr/bin/env bash
# Installs what a fresh Debian 12 needs to build, test and serve weft. Idempotent: it only installs
# what is missing, so `make` can call it every time.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each part of the project lists its Debian packages in scripts/apt-packages/<part>.txt.
mapfile -t APT_PACKAGES < <(cat scripts/apt-packages/*.txt | sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$' | sort -u)
missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
command -v npm >/dev/null || { echo "setup: npm is missing (install nodejs with npm)" >&2; exit 1; }

# npm packages of the web app and the test tools (lockfile installs only when it changed).
if [ -f web/package.json ]; then
  stamp=web/node_modules/.weft-setup-stamp
  if [ ! -f "$stamp" ] || [ web/package-lock.json -nt "$stamp" ] || [ web/package.json -nt "$stamp" ]; then
    echo "setup: npm install in web/" >&2
    (cd web && { [ -f package-lock.json ] && npm ci --no-audit --no-fund || npm install --no-audit --no-fund; }) >&2
    touch "$stamp"
  fi
fi
