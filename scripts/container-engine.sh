#!/usr/bin/env bash
# A local container engine for the container store runtime (--runtime container), with no
# registry: installs Debian's docker.io, starts dockerd if none answers, and builds one image per
# store (Redis, Valkey, etcd, ZooKeeper, PostgreSQL, PgBouncer) from this machine's own Debian binaries (docker
# import of the binaries, the libraries they link and the data files they read; no pull). The
# image tags are pinned in docker/images.json. Idempotent and non-interactive: an image is rebuilt
# only when this machine's server version differs from the one recorded in its label.
#
# dockerd runs with no bridge, no iptables rules and no IP forwarding: store containers use the
# host network and bind 127.0.0.1 (src/stores/container-runtime.ts), so nothing else is needed and
# the machine's network setup is left as it was.
set -euo pipefail
cd "$(dirname "$0")/.."

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

image_tag() { node -p "require('./docker/images.json')['$1'].local"; }

# build_image <kind> <version> <rootfs> <import -c changes...>: the rootfs already holds the
# store's own files; this adds every library its ELF files link from outside it (the JVM's own
# libraries link each other inside it), then imports it.
build_image() {
  local kind=$1 version=$2 rootfs=$3
  shift 3
  local image
  image=$(image_tag "$kind")
  local libs
  libs=$(find "$rootfs" -type f \( -perm -u+x -o -name '*.so*' \) -exec sh -c 'ldd "$1" 2>/dev/null' _ {} \; | grep -oE '/[^ ]+\.so[^ ]*' | grep -vF "$rootfs/" | sort -u)
  mkdir -p "$rootfs/tmp" && chmod 1777 "$rootfs/tmp"
  # -h stores each symlink's target under the link's name (libssl.so.3 -> ...).
  # shellcheck disable=SC2086
  tar -chf "$rootfs.libs.tar" --absolute-names --transform 's,^/,,' $libs
  tar -xf "$rootfs.libs.tar" -C "$rootfs" && rm -f "$rootfs.libs.tar"
  local changes=(-c "LABEL lock-oracles.version=$version")
  for change in "$@"; do changes+=(-c "$change"); done
  tar -cf - -C "$rootfs" . | $SUDO "$docker" import "${changes[@]}" - "$image" >/dev/null
  echo "container-engine: built $image ($kind $version)"
}

have_version() { $SUDO "$docker" image inspect --format '{{ index .Config.Labels "lock-oracles.version" }}' "$(image_tag "$1")" 2>/dev/null || true; }

# copy_into <rootfs> <path...>: the files (or dirs) at the same paths inside the rootfs, symlinks followed.
copy_into() {
  local rootfs=$1
  shift
  tar -chf - --absolute-names --transform 's,^/,,' "$@" | tar -xf - -C "$rootfs"
}

# A minimal /etc/passwd and /etc/group with root and this machine's postgres user (same ids).
users_into() {
  local rootfs=$1
  mkdir -p "$rootfs/etc"
  grep -E '^(root|postgres):' /etc/passwd >"$rootfs/etc/passwd"
  grep -E '^(root|postgres):' /etc/group >"$rootfs/etc/group"
}

work=$(mktemp -d /tmp/lock-oracles-image-build-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"

for kind in redis valkey; do
  server=/usr/bin/$kind-server
  if [ ! -x "$server" ]; then
    echo "container-engine: $server is missing (no $kind image): run npm run setup first" >&2
    continue
  fi
  version=$("$server" --version | sed -n 's/.*v=\([^ ]*\).*/\1/p')
  if [ "$(have_version $kind)" = "$version" ]; then echo "container-engine: $(image_tag $kind) ($kind $version) is there"; continue; fi
  rootfs=$work/$kind && mkdir -p "$rootfs/data"
  copy_into "$rootfs" "$server"
  build_image "$kind" "$version" "$rootfs" "CMD [\"$kind-server\"]" 'WORKDIR /data' 'ENV PATH=/usr/bin:/bin'
done

if [ ! -x /usr/bin/etcd ]; then
  echo "container-engine: /usr/bin/etcd is missing (no etcd image): run npm run setup first" >&2
else
  version=$(/usr/bin/etcd --version | sed -n 's/^etcd Version: //p')
  if [ "$(have_version etcd)" = "$version" ]; then echo "container-engine: $(image_tag etcd) (etcd $version) is there"; else
    rootfs=$work/etcd && mkdir -p "$rootfs/data"
    copy_into "$rootfs" /usr/bin/etcd
    build_image etcd "$version" "$rootfs" 'CMD ["etcd"]' 'WORKDIR /data' 'ENV PATH=/usr/bin:/bin'
  fi
fi

# ZooKeeper: Debian's server jar and the jars its manifest names, and the Java runtime that runs it
# (its modules and conf, no jmods): the same java -cp command as the local process (src/families/zookeeper/recipe.ts).
zkjar=/usr/share/java/zookeeper.jar
jvm=$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent/bin/java)")")")
if [ ! -f "$zkjar" ] || [ ! -x "$jvm/bin/java" ]; then
  echo "container-engine: $zkjar or a Java runtime is missing (no zookeeper image): run npm run setup first" >&2
else
  version=$(dpkg-query -W -f='${Version}' zookeeper 2>/dev/null || echo unknown)
  if [ "$(have_version zookeeper)" = "$version" ]; then echo "container-engine: $(image_tag zookeeper) (zookeeper $version) is there"; else
    rootfs=$work/zookeeper && mkdir -p "$rootfs/data"
    jars=$(unzip -p "$zkjar" META-INF/MANIFEST.MF | tr -d '\r' | awk '/^Class-Path: /{on=1; printf "%s", substr($0, 13); next} on && /^ /{printf "%s", substr($0, 2); next} {on=0}' | tr ' ' '\n' | grep '\.jar$')
    # What is there of both (the manifest names jline.jar, not installed; lib/src.zip is a dangling link).
    present=$(for path in $jars "$jvm"/lib/*; do if [ -e "$path" ]; then echo "$path"; fi; done)
    # shellcheck disable=SC2086
    copy_into "$rootfs" "$zkjar" $present "$jvm/bin/java" "$jvm/conf" "$jvm/release"
    mkdir -p "$rootfs/usr/bin" && ln -s "$jvm/bin/java" "$rootfs/usr/bin/java"
    build_image zookeeper "$version" "$rootfs" 'CMD ["java", "-version"]' 'WORKDIR /data' 'ENV PATH=/usr/bin:/bin'
  fi
fi

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pgbin" ] || ! id postgres >/dev/null 2>&1; then
  echo "container-engine: Debian's postgresql is missing (no postgres/pgbouncer images): run npm run setup first" >&2
else
  major=$(basename "$(dirname "$pgbin")")
  version=$("$pgbin/postgres" --version | awk '{print $3}')
  if [ "$(have_version postgres)" = "$version" ]; then echo "container-engine: $(image_tag postgres) (postgres $version) is there"; else
    # The server, its modules (no JIT), its share files, the system time zones, and a data dir
    # initialised here (trust auth, C locale) so a container starts without running initdb.
    rootfs=$work/postgres && mkdir -p "$rootfs"
    copy_into "$rootfs" "$pgbin/postgres" /usr/share/postgresql/"$major" /usr/share/zoneinfo \
      $(ls /usr/lib/postgresql/"$major"/lib/*.so | grep -v llvmjit)
    users_into "$rootfs"
    data=$rootfs/var/lib/postgresql/data
    mkdir -p "$data" && chown postgres:postgres "$data" "$(dirname "$data")"
    runuser -u postgres -- "$pgbin/initdb" -D "$data" -U postgres --auth=trust --locale=C --encoding=UTF8 --no-sync >/dev/null
    build_image postgres "$version" "$rootfs" 'USER postgres' "ENV PATH=$pgbin:/usr/bin:/bin" 'ENV PGDATA=/var/lib/postgresql/data' 'CMD ["postgres"]'
  fi
  if [ ! -x /usr/sbin/pgbouncer ]; then
    echo "container-engine: /usr/sbin/pgbouncer is missing (no pgbouncer image): run npm run setup first" >&2
  else
    version=$(/usr/sbin/pgbouncer --version | head -n 1 | awk '{print $2}')
    if [ "$(have_version pgbouncer)" = "$version" ]; then echo "container-engine: $(image_tag pgbouncer) (pgbouncer $version) is there"; else
      rootfs=$work/pgbouncer && mkdir -p "$rootfs"
      copy_into "$rootfs" /usr/sbin/pgbouncer
      users_into "$rootfs"
      build_image pgbouncer "$version" "$rootfs" 'USER postgres' 'ENV PATH=/usr/sbin:/usr/bin:/bin' 'CMD ["pgbouncer"]'
    fi
  fi
fi
