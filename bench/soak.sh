#!/usr/bin/env bash
# `make soak`: every controller under steady churn of its objects for SOAK_MINUTES (default 10),
# against `capstan apiserver --simulate-workloads`, with `capstan manager` in its own process.
# Every SOAK_SAMPLE seconds (default 15) it prints the manager's RSS, threads, open file
# descriptors and the sum of its work queues' depths; at the end it compares the last quarter
# of the samples with the first quarter after a warm-up and fails when a curve did not stay flat.
#
# Usage: bench/soak.sh BUILD_DIR    (not part of `make test`: it runs for minutes)
set -euo pipefail

build="$(cd "${1:-build}" && pwd)"
bin="$build/bin/capstan"
minutes="${SOAK_MINUTES:-10}"
sample_every="${SOAK_SAMPLE:-15}"
[ -x "$bin" ] || { echo "soak: $bin not found (make build first)" >&2; exit 2; }
[[ "$minutes" =~ ^[0-9]+$ && "$minutes" -ge 1 && "$minutes" -le 1440 ]] || { echo "soak: SOAK_MINUTES must be 1..1440" >&2; exit 2; }
[[ "$sample_every" =~ ^[0-9]+$ && "$sample_every" -ge 1 ]] || { echo "soak: SOAK_SAMPLE must be a positive number of seconds" >&2; exit 2; }

work="$(mktemp -d -t capstan-soak-XXXXXX)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
k() { kubectl --kubeconfig "$work/kubeconfig" "$@"; }

# Waits (bounded) until `file` has a line matching `regex`; prints the match.
wait_for_line() {
  local file="$1" regex="$2" what="$3"
  for _ in $(seq 1 200); do
    if grep -Eo "$regex" "$file" 2>/dev/null | head -1 | grep .; then return 0; fi
    sleep 0.1
  done
  echo "soak: $what did not start; its log:" >&2
  cat "$file" >&2
  exit 1
}

# --- the API server (with the workload simulation: pods turn Ready) ---
"$bin" apiserver --listen 127.0.0.1:0 --kubeconfig-out "$work/kubeconfig" --simulate-workloads --pod-ready-delay 200ms \
  >"$work/apiserver.log" 2>&1 &
pids+=($!)
wait_for_line "$work/apiserver.log" 'serving on https://127\.0\.0\.1:[0-9]+' "capstan apiserver" >/dev/null
"$bin" crds | k apply --server-side -f - >/dev/null

# --- a Git repository the gitops controller follows (file://, committed to during the churn) ---
repo="$work/repo"
git init -q -b main "$repo"
git -C "$repo" config user.email soak@capstan.dev
git -C "$repo" config user.name soak
mkdir -p "$repo/deploy"
commit_config() {
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: soak}\ndata: {round: "%s"}\n' "$1" >"$repo/deploy/config.yaml"
  git -C "$repo" add -A && git -C "$repo" commit -q -m "round $1"
}
commit_config 0

# --- the manager, every controller ---
mkdir -p "$work/certs"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$work/certs/tls.key" -out "$work/certs/tls.crt" 2>/dev/null
# The webhook server takes no port 0: a port the kernel just handed out and released.
webhook_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bin" manager --kubeconfig "$work/kubeconfig" --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0 \
  --webhook-port "$webhook_port" --webhook-cert-dir "$work/certs" --acme-http01-solver-port 0 --gitops-storage-path "$work/mirrors" \
  >"$work/manager.log" 2>&1 &
manager=$!
pids+=($manager)
metrics="$(wait_for_line "$work/manager.log" 'serving metrics" address=127\.0\.0\.1:[0-9]+' "capstan manager" | grep -Eo '[0-9]+$')"

k create namespace soak >/dev/null
k apply -n soak -f - >/dev/null <<EOF
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: self}
spec: {selfSigned: {}}
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main}
spec: {replicas: 1, serviceMonitorSelector: {}, ruleSelector: {}}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
---
apiVersion: gitops.capstan.dev/v1
kind: GitRepository
metadata: {name: repo}
spec: {url: "file://$repo", interval: 5s, ref: {branch: main}}
---
apiVersion: gitops.capstan.dev/v1
kind: Kustomization
metadata: {name: repo}
spec: {sourceRef: {kind: GitRepository, name: repo}, interval: 1m, path: deploy, prune: true, targetNamespace: soak}
EOF

# --- the churn: each round creates, changes and deletes objects of every controller ---
churn() {
  local round=0
  while true; do
    round=$((round + 1))
    local n=$((round % 20)) old=$(((round + 10) % 20)) replicas=$((1 + round % 3))
    k apply -n soak -f - >/dev/null <<EOF || true
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: c$n}
spec: {secretName: c$n-tls, issuerRef: {name: self}, dnsNames: [c$n.soak.example.com]}
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: m$n}
spec: {selector: {matchLabels: {app: m$n}}, endpoints: [{port: metrics}]}
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: rules}
spec: {groups: [{name: soak, rules: [{record: soak_round, expr: "vector($round)"}]}]}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: $replicas, roles: [controller, broker], storage: {type: ephemeral}}
EOF
    k delete -n soak certificate "c$old" servicemonitor "m$old" secret "c$old-tls" --ignore-not-found --wait=false >/dev/null 2>&1 || true
    if ((round % 5 == 0)); then commit_config "$round"; fi
    sleep 1
  done
}
churn >"$work/churn.log" 2>&1 &
pids+=($!)

# --- sampling ---
rss=() threads=() fds=() depth=()
samples=$((minutes * 60 / sample_every))
((samples >= 8)) || samples=8
printf '%8s %10s %8s %6s %12s\n' "seconds" "rss_MiB" "threads" "fds" "queue_depth"
start=$(date +%s)
for i in $(seq 1 "$samples"); do
  sleep "$sample_every"
  kill -0 "$manager" 2>/dev/null || { echo "soak: the manager exited; its log:" >&2; tail -50 "$work/manager.log" >&2; exit 1; }
  r=$(awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$manager/status")
  t=$(awk '/^Threads:/ {print $2}' "/proc/$manager/status")
  f=$(find "/proc/$manager/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  d=$(curl -s --max-time 5 "http://127.0.0.1:$metrics/metrics" | awk '/^workqueue_depth\{/ {s += $2} END {print s + 0}')
  rss+=("$r") threads+=("$t") fds+=("$f") depth+=("$d")
  printf '%8d %10d %8d %6d %12d\n' "$(($(date +%s) - start))" "$r" "$t" "$f" "$d"
done

# --- flat or not: the last quarter against the first quarter after a warm-up quarter ---
verdict=0
mean() { local s=0 n=0; for v in "$@"; do s=$((s + v)); n=$((n + 1)); done; echo $((s / n)); }
quarter=$((samples / 4))
check() {
  local name="$1" slack="$2"; shift 2
  local values=("$@")
  local early late
  early=$(mean "${values[@]:quarter:quarter}")
  late=$(mean "${values[@]:$((samples - quarter)):quarter}")
  local limit=$((early + slack))
  if ((late > limit)); then
    echo "soak: $name grew: $early -> $late (allowed up to $limit)"
    verdict=1
  else
    echo "soak: $name flat: $early -> $late"
  fi
}
check "RSS (MiB)" $((16)) "${rss[@]}"
check "threads" 6 "${threads[@]}"
check "open fds" 8 "${fds[@]}"
check "queue depth" 20 "${depth[@]}"
echo "soak: $minutes min, $samples samples, manager log $(wc -l <"$work/manager.log") lines, $(grep -c '"level":"error"\| error ' "$work/manager.log" || true) error lines"
exit "$verdict"
