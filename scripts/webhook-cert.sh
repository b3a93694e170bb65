#!/usr/bin/env bash
# The webhook serving certificate of a kustomize install (`kubectl apply -k config/default`),
# which the chart makes by itself: a CA and a certificate for the Service
# capstan-webhook-service.<namespace>.svc in the Secret capstan-webhook-server-cert (tls.crt,
# tls.key, ca.crt) the manager mounts, and that CA in the caBundle of every Capstan webhook
# configuration. Run it after each `kubectl apply -k` (apply leaves a caBundle it did not set
# alone, and the Secret is made once: later runs reuse it, so the CA never changes under a
# running manager).
#
#   scripts/webhook-cert.sh [--namespace NS] [--ip IP]... [--days N]
#
# --ip adds an IP address to a new certificate (a manager reached by URL, outside the
# cluster). kubectl talks to the cluster $KUBECONFIG names; openssl makes the keys.
set -euo pipefail

ns=capstan-system
days=3650
ips=()
while (($#)); do
  case "$1" in
    --namespace) ns="$2"; shift 2 ;;
    --ip) ips+=("$2"); shift 2 ;;
    --days) days="$2"; shift 2 ;;
    *) echo "webhook-cert: unknown argument '$1' (see the top of $0)" >&2; exit 2 ;;
  esac
done
secret=capstan-webhook-server-cert
service=capstan-webhook-service

if ! kubectl -n "$ns" get secret "$secret" >/dev/null 2>&1; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  san="DNS:$service.$ns.svc,DNS:$service.$ns.svc.cluster.local"
  for ip in "${ips[@]}"; do san+=",IP:$ip"; done
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days "$days" -subj "/CN=capstan-webhook-ca" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$work/ca.key" -out "$work/ca.crt" 2>/dev/null
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$service.$ns.svc" \
    -keyout "$work/tls.key" -out "$work/tls.csr" 2>/dev/null
  printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n' "$san" >"$work/ext"
  openssl x509 -req -in "$work/tls.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial -days "$days" \
    -extfile "$work/ext" -out "$work/tls.crt" 2>/dev/null
  kubectl -n "$ns" create secret generic "$secret" --type=kubernetes.io/tls \
    --from-file=tls.crt="$work/tls.crt" --from-file=tls.key="$work/tls.key" --from-file=ca.crt="$work/ca.crt" >/dev/null
  echo "webhook-cert: created Secret $ns/$secret"
fi

ca="$(kubectl -n "$ns" get secret "$secret" -o 'jsonpath={.data.ca\.crt}')"
[ -n "$ca" ] || { echo "webhook-cert: Secret $ns/$secret has no ca.crt" >&2; exit 1; }
for kind in validatingwebhookconfigurations mutatingwebhookconfigurations; do
  for name in $(kubectl get "$kind" -l app.kubernetes.io/name=capstan -o 'jsonpath={.items[*].metadata.name}'); do
    count="$(kubectl get "$kind" "$name" -o 'jsonpath={range .webhooks[*]}x{end}')"
    patch=""
    for ((i = 0; i < ${#count}; i++)); do
      patch+="${patch:+,}{\"op\":\"add\",\"path\":\"/webhooks/$i/clientConfig/caBundle\",\"value\":\"$ca\"}"
    done
    [ -z "$patch" ] || kubectl patch "$kind" "$name" --type=json -p "[$patch]" >/dev/null
    echo "webhook-cert: caBundle of $kind/$name set"
  done
done
