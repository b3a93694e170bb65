#!/usr/bin/env bash
# Installs every system package Capstan's build, tests and benchmarks need, then builds the
# pinned Go test tools (kube-apiserver, etcd, ...: scripts/tools.sh, versions in tools/go.mod).
# Idempotent: only what is missing is installed or built; a second run does nothing.
#
#   scripts/deps.sh                 everything (make build, make test)
#   scripts/deps.sh --system-only   the build's apt packages only, no test tools (the Dockerfile's
#                                   build stage)
set -euo pipefail
system_only=false
[ "${1:-}" != "--system-only" ] || system_only=true

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # libraries
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libssl-dev libsimdjson-dev libspdlog-dev libfmt-dev libyaml-cpp-dev libre2-dev
  libgit2-dev libsqlite3-dev librdkafka-dev zlib1g-dev
  # test and benchmark frameworks (CMake configures their targets too)
  googletest libgtest-dev libgmock-dev libbenchmark-dev
)
# the peers tests and benchmarks run (not with --system-only)
TEST_PACKAGES=(
  openssl curl pebble prometheus wrk hyperfine
  # the monitoring tests check generated Alertmanager configurations with amtool and run Alertmanager,
  # and probe through a real blackbox exporter
  prometheus-alertmanager prometheus-blackbox-exporter
  # the DNS-01 tests' authoritative DNS server (named, taking TSIG-signed RFC 2136 updates) and dig
  bind9 bind9-dnsutils
  # the gitops tests' SSH Git server (sshd on loopback, as the test user)
  openssh-server openssh-client
  # the Kafka tests' broker runs on Java 17 and is fetched from Maven Central by Maven; javac
  # compiles their Java client (tools/kafka/KafkaProbe.java)
  openjdk-17-jdk-headless maven
)

$system_only || PACKAGES+=("${TEST_PACKAGES[@]}")
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# Node.js and npm (benchmark peer): Debian's packages only where no node is present
# (some images ship nodesource's nodejs, which bundles npm and conflicts with Debian's npm).
if ! $system_only; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi

if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || true
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "deps: system packages present"
fi

if $system_only; then exit 0; fi

# npm peer for the informer benchmark (bench/peer), installed into the repo-local folder.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
peer="$here/bench/peer"
if [ -f "$peer/package.json" ] && [ ! -d "$peer/node_modules/@kubernetes/client-node" ]; then
  echo "deps: npm install in bench/peer"
  (cd "$peer" && npm install --no-audit --no-fund --silent) || echo "deps: npm install failed (benchmark peer unavailable)"
fi

# The real control plane and the other pinned test tools (built once, reused across runs).
"$here/scripts/tools.sh"
# The Apache Kafka broker of the Kafka tests (Maven Central).
"$here/scripts/kafka.sh"
