#!/usr/bin/env bash
# Runs every benchmark and prints its figures. Usage: bench/run.sh BUILD_DIR
set -euo pipefail
build="${1:-build}"
bin="$build/bin/capstan"
echo "== embedded API server"
"$build/bin/apiserver_bench" "$bin"
echo
echo "== informers: capstan vs @kubernetes/client-node, client-go and controller-runtime"
"$build/bin/informer_bench" "$build" "$(cd "$(dirname "$0")/.." && pwd)"
echo
echo "== the idle manager"
"$build/bin/manager_bench" "$bin"
echo
echo "== certificates: 1,000 ECDSA P-256 Certificates from a CA Issuer"
"$build/bin/certificates_bench" "$bin"
echo
echo "== admission webhooks: capstan vs controller-runtime"
"$build/bin/webhook_bench" "$build"
echo
echo "== monitoring: 1,000 ServiceMonitors, 500 PodMonitors, 2,000 PrometheusRules over 50 namespaces"
"$build/bin/monitoring_bench" "$bin"
echo
echo "== gitops: 2,000 objects in 20 Kustomizations, and flux-benchmark's 500 Kustomizations"
"$build/bin/gitops_bench" "$bin"
echo
echo "== the kustomize build: capstan vs kubectl kustomize (kustomize v5)"
"$build/bin/kustomize_bench"
