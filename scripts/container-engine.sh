#!/usr/bin/env bash
# A local container engine for the container store runtime (--runtime container), with no
# registry: installs Debian's docker.io, starts dockerd if none answers, and builds the Redis image
# from this machine's own redis-server (docker import of the binary and the libraries it links).
# Idempotent and non-interactive; re-running does only what is missing.
#
# dockerd runs with no bridge, no iptables rules and no IP forwarding: store containers use the
# host network and bind 127.0.0.1 (src/stores/container-runtime.ts), so nothing else is needed and
# the machine's network setup is left as it was.
#
# Afterwards: export LOCK_ORACLES_REDIS_IMAGE=lock-oracles/redis-server:local
set -euo pipefail

IMAGE="${LOCK_ORACLES_REDIS_IMAGE:-lock-oracles/redis-server:local}"
LOG=/var/log/lock-oracles-dockerd.log
SOCKET=/var/run/docker.sock

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

if ! command -v dockerd >/dev/null || [ ! -x /usr/bin/docker ]; then
  echo "container-engine: installing docker.io"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends docker.io >/dev/null
fi
docker=/usr/bin/docker

if $SUDO "$docker" info >/dev/null 2>&1; then
  echo "container-engine: a Docker engine already answers on $SOCKET"
else
  echo "container-engine: starting dockerd (log: $LOG)"
  $SUDO setsid dockerd --host "unix://$SOCKET" --bridge=none --iptables=false --ip-forward=false --ip-masq=false \
    >"$LOG" 2>&1 </dev/null &
  for _ in $(seq 1 150); do
    if $SUDO "$docker" info >/dev/null 2>&1; then break; fi
    sleep 0.2
  done
  if ! $SUDO "$docker" info >/dev/null 2>&1; then
    echo "container-engine: dockerd did not answer within 30 s; its log:" >&2
    tail -n 30 "$LOG" >&2
    exit 1
  fi
fi

# The image: /usr/bin/redis-server and every library it links, from this machine's Debian package.
server=/usr/bin/redis-server
if [ ! -x "$server" ]; then
  echo "container-engine: $server is missing: run bash scripts/setup-system.sh first" >&2
  exit 1
fi
version=$("$server" --version | sed -n 's/.*v=\([^ ]*\).*/\1/p')
have=$($SUDO "$docker" image inspect --format '{{ index .Config.Labels "lock-oracles.redis-version" }}' "$IMAGE" 2>/dev/null || true)
if [ "$have" = "$version" ]; then
  echo "container-engine: image $IMAGE (redis $version) is there"
  exit 0
fi
echo "container-engine: building $IMAGE from $server (redis $version), no registry"
rootfs=$(mktemp -d)
trap 'rm -rf "$rootfs" "$rootfs.tar"' EXIT
mkdir -p "$rootfs/data" "$rootfs/tmp"
libs=$(ldd "$server" | grep -oE '/[^ ]+')
# -h stores each symlink's target under the link's name (redis-server -> redis-check-rdb, libssl.so.3 -> ...).
# shellcheck disable=SC2086
tar -chf "$rootfs.tar" --absolute-names --transform 's,^/,,' "$server" $libs -C "$rootfs" data tmp
$SUDO "$docker" import \
  -c 'CMD ["redis-server"]' -c 'WORKDIR /data' \
  -c "LABEL lock-oracles.redis-version=$version" \
  "$rootfs.tar" "$IMAGE" >/dev/null
rm -f "$rootfs.tar"
echo "container-engine: built $IMAGE; use it with: export LOCK_ORACLES_REDIS_IMAGE=$IMAGE"
