#!/usr/bin/env bash
# System packages the harness needs on Debian 12: the real stores it starts, gcc to build the
# clock-offset library (store clock skew), and Python with redis-py, psycopg, filelock and kazoo for the Python references. Idempotent and non-interactive: installs only what is
# missing, and does nothing when everything is there. Where it cannot install (no apt-get, no root
# or sudo) it says what is missing and exits 0, so the README's first command goes on to the oracle,
# which names the store it needs.
#
# valkey-server is not in Debian 12's main suite; bookworm-backports has 8.0.1. When the package is
# missing and no apt source lists bookworm-backports, this adds one
# (/etc/apt/sources.list.d/lock-oracles-backports.sources, the same mirror and key as Debian's own).
set -euo pipefail

packages=(
  redis-server       # Redis 7.0 (V310-V313, V315, V316, V318, V319)
  valkey-server      # Valkey 8.0 from bookworm-backports (the same oracles as Redis, --store valkey)
  postgresql         # Postgres 15 (V312-V315, V317)
  pgbouncer          # PgBouncer 1.18 (V314)
  etcd-server        # etcd 3.4.23 (--store etcd: V310, V311, V313, V315)
  etcd-client        # etcdctl, to look at a run's etcd by hand
  zookeeper          # ZooKeeper 3.8 and a Java runtime (--store zookeeper: V310-V313, V315)
  gcc                # builds docker/clock-offset/clock-offset.c
  libc6-dev          # its headers
  python3            # Python holders (sdk/python/lock_oracles.py; the targets/python references)
  python3-redis      # redis-py 4.3.4, the targets/python references' library
  python3-psycopg    # psycopg 3.1 (targets/python's V314 references)
  python3-psycopg-pool # psycopg_pool 3.1, their ConnectionPool
  python3-filelock   # filelock 3.9 (targets/python's V311 reference on --store fs)
  python3-kazoo      # kazoo 2.8 (targets/python's V313 references on --store zookeeper)
  openjdk-17-jdk-headless  # javac/java for Java holders (sdk/java/LockOracles.java; targets/java/)
  libpostgresql-jdbc-java  # pgjdbc (targets/java's V314 references)
  libcurator-recipes-java  # Apache Curator 5.4 (targets/java/curator/ on --store zookeeper)
  libzookeeper-java        # the ZooKeeper client Curator runs on
  libslf4j-java            # the logging API both load
  golang-go                # go 1.19 for Go holders (sdk/go/lockoracles.go; targets/go/)
  golang-github-gomodule-redigo-dev # redigo (targets/go/)
)
BACKPORTS_LIST=/etc/apt/sources.list.d/lock-oracles-backports.sources

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

# Where the install cannot run (no apt-get; not root and no sudo that can ask or needs no password),
# say what is missing and leave it to the user: the harness then names, before it starts anything,
# the store a run needs and how to install it.
cannot_install() {
  echo "setup-system: cannot install ${missing[*]} here ($1). Install them yourself, e.g. as root: apt-get install -y ${missing[*]}" >&2
  exit 0
}
command -v apt-get >/dev/null 2>&1 || cannot_install "no apt-get: not Debian or Ubuntu"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || cannot_install "not root, and no sudo"
  if ! sudo -n true 2>/dev/null && [ ! -t 0 ]; then cannot_install "not root, and sudo needs a password but there is no terminal to ask on"; fi
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
if [[ " ${missing[*]} " == *" valkey-server "* ]] && [ "$codename" = bookworm ] \
  && ! grep -rqsE '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "setup-system: adding Debian's bookworm-backports suite for valkey-server ($BACKPORTS_LIST)"
  printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' 'Components: main' \
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' | $SUDO tee "$BACKPORTS_LIST" >/dev/null
fi

echo "setup-system: installing ${missing[*]}"
$SUDO apt-get update -qq
# valkey-server exists only in bookworm-backports, so apt takes it from there (priority 100 is
# enough when no other suite has the package); every other package stays on the main suite.
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
