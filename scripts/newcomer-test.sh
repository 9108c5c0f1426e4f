#!/usr/bin/env bash
# The newcomer test: a fresh clone in a temp dir, then the README's two Quick start commands,
# verbatim (read from the README's first ```sh block), as a new user would type them.
# Promised: the first command exits 1 with a FAIL verdict for V313; the second exits 0.
#
# On a machine without redis-server it proves the first command installs it. To make this machine
# such a machine it must uninstall redis-server, which other users of the machine may need: it
# does so only with LOCK_ORACLES_NEWCOMER_UNINSTALL=1 (as root, on a machine of your own) and
# reinstalls it on every exit path. Otherwise it says so and runs with redis-server installed.
#
#   npm run test:newcomer [-- --first-only]     (--first-only: skip the second command, npm test)
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
first_only=0
[ "${1:-}" = "--first-only" ] && first_only=1

work=$(mktemp -d /tmp/lock-oracles-newcomer-XXXXXX)
uninstalled=0
restore() {
  if [ "$uninstalled" = 1 ]; then
    echo "newcomer: reinstalling redis-server"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  fi
  rm -rf "$work"
}
trap restore EXIT

if dpkg-query -W -f='${Status}' redis-server 2>/dev/null | grep -q 'install ok installed'; then
  if [ "${LOCK_ORACLES_NEWCOMER_UNINSTALL:-}" = 1 ] && [ "$(id -u)" -eq 0 ]; then
    echo "newcomer: uninstalling redis-server (it is reinstalled when this test ends)"
    uninstalled=1
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq redis-server >/dev/null
  else
    echo "newcomer: SKIPPED the missing-redis-server part: redis-server is installed and this test does not uninstall it" \
      "(other sessions on this machine may be using it; set LOCK_ORACLES_NEWCOMER_UNINSTALL=1 as root on a machine of your own)." \
      "Running the two commands with it installed."
  fi
fi

git clone -q "$repo" "$work/lock-oracles"
cd "$work/lock-oracles"
mapfile -t commands < <(awk '/^## Quick start/{q=1} q&&/^```sh/{b=1;next} b&&/^```/{exit} b{print}' README.md)
[ ${#commands[@]} -eq 2 ] || { echo "newcomer: FAILED: expected 2 commands in the README's Quick start, found ${#commands[@]}"; exit 1; }

echo "newcomer: \$ ${commands[0]}"
set +e
bash -c "${commands[0]}" >"$work/first.out" 2>&1
first=$?
set -e
tail -3 "$work/first.out"
if [ "$first" -ne 1 ] || ! grep -q 'FAIL' "$work/first.out"; then
  echo "newcomer: FAILED: the first command exited $first (promised: 1, with a FAIL verdict); its output: $work/first.out"
  trap - EXIT; [ "$uninstalled" = 1 ] && restore; exit 1
fi
if [ "$uninstalled" = 1 ] && ! command -v redis-server >/dev/null; then
  echo "newcomer: FAILED: the first command did not install redis-server"; exit 1
fi
echo "newcomer: first command OK (V313 FAIL, exit 1)"
[ "$first_only" = 1 ] && { echo "newcomer: PASSED (first command only)"; exit 0; }

echo "newcomer: \$ ${commands[1]}"
if ! bash -c "${commands[1]}" >"$work/second.out" 2>&1; then
  tail -30 "$work/second.out"
  echo "newcomer: FAILED: the second command failed"; exit 1
fi
tail -5 "$work/second.out"
echo "newcomer: PASSED (both commands)"
