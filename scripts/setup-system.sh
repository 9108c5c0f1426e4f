#!/usr/bin/env bash
# System packages the harness needs on Debian 12: the real stores it starts, and gcc to build the
# clock-offset library (store clock skew). Idempotent and non-interactive: installs only what is
# missing, and does nothing when everything is there.
set -euo pipefail

packages=(
  redis-server       # Redis 7.0 (V310-V313, V315, V316-V319)
  postgresql         # Postgres 15 (V312, V314, V317)
  pgbouncer          # PgBouncer 1.18 (V314)
  gcc                # builds docker/clock-offset/clock-offset.c
  libc6-dev          # its headers
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-system: every package is installed (${packages[*]})"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup-system: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
