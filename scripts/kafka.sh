#!/usr/bin/env bash
# Fetches the pinned Apache Kafka broker (tools/kafka/pom.xml holds the version) and its
# runtime dependencies from Maven Central into .tools/kafka/libs, the older release of the
# upgrade test into .tools/kafka/releases/<version>/libs (Prometheus' JMX exporter
# agent into .tools/kafka/agent, tools/kafka/KafkaProbe.java compiled into .tools/kafka/probe), for the tests that run real
# brokers on the configuration the Kafka controller generates. Fetched again only when the pom
# changed since the last fetch (a stamp); Maven's own cache (~/.m2) makes a refetch cheap.
#
#   scripts/kafka.sh            fetch when missing or stale
#   CAPSTAN_TOOLS_DIR=DIR       into DIR/kafka instead of .tools/kafka
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${CAPSTAN_TOOLS_DIR:-$here/.tools}/kafka"
pom="$here/tools/kafka/pom.xml"
mkdir -p "$out"

for tool in java javac mvn; do
  command -v "$tool" >/dev/null 2>&1 || { echo "kafka: '$tool' is not on PATH (scripts/deps.sh installs it)" >&2; exit 1; }
done

probe="$here/tools/kafka/KafkaProbe.java"
# Kafka's own Java client for the tests' SCRAM checks (KafkaProbe.java says why), compiled
# against the fetched kafka-clients.
compile_probe() {
  rm -rf "$out/probe"
  mkdir -p "$out/probe"
  javac -d "$out/probe" -cp "$out/libs/*" "$probe"
}

stamp="$(cat "$pom" "$probe" | sha256sum | cut -d' ' -f1)"
if [ -d "$out/libs" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
if [ -d "$out/libs" ] && [ "$(cat "$out/pom-stamp" 2>/dev/null)" = "$(sha256sum <"$pom" | cut -d' ' -f1)" ]; then
  compile_probe
  echo "$stamp" >"$out/stamp"
  exit 0
fi

version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$pom")"
previous="$(sed -n 's:.*<kafka.previous.version>\(.*\)</kafka.previous.version>.*:\1:p' "$pom")"
log="$out/fetch.log"
# copy <version> <dir>: Kafka <version> and its runtime dependencies into <dir>.
copy() {
  rm -rf "$2"
  if ! mvn -B -q -f "$pom" -Dkafka.version="$1" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$2" >"$log" 2>&1; then
    cat "$log" >&2
    echo "kafka: fetching Apache Kafka $1 failed (Maven's output above, also in $log); rerun with: scripts/kafka.sh" >&2
    exit 1
  fi
}
echo "kafka: fetching Apache Kafka $version (and $previous, for the upgrade test) and their dependencies from Maven Central"
start=$(date +%s)
copy "$version" "$out/libs.new"
copy "$previous" "$out/releases.new/$previous/libs"
# The JMX exporter is an agent (-javaagent), not a library of the broker's classpath.
rm -rf "$out/libs" "$out/agent" "$out/releases"
mkdir -p "$out/agent"
mv "$out"/libs.new/jmx_prometheus_javaagent-*.jar "$out/agent/jmx_prometheus_javaagent.jar"
rm -f "$out/releases.new/$previous/libs"/jmx_prometheus_javaagent-*.jar
mv "$out/libs.new" "$out/libs"
mv "$out/releases.new" "$out/releases"
compile_probe
sha256sum <"$pom" | cut -d' ' -f1 >"$out/pom-stamp"
echo "$stamp" >"$out/stamp"
echo "kafka: fetched Apache Kafka $version ($(ls "$out/libs" | wc -l) jars) and $previous in $(($(date +%s) - start)) s"
