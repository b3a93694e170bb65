#!/usr/bin/env bash
# Builds Capstan's pinned test tools (tools/go.mod is the one place their versions live, but
# for Helm's in tools/helm/go.mod and SOPS's and age's in tools/sops/go.mod, modules of their
# own: see the comments there) from
# the Go module proxy into .tools/bin, reusing Go's module and build caches. A tool is rebuilt
# only when the pins (tools/go.mod, go.sum), its own sources in tools/ or the Go version changed
# since it was last built (a stamp per tool).
#
#   scripts/tools.sh            build what is missing or stale
#   scripts/tools.sh NAME...    only these (kube-apiserver, etcd, helm, sops, informer-peer-client-go, ...)
#   CAPSTAN_TOOLS_DIR=DIR       build into DIR/bin instead of .tools/bin
#
# A tool that fails to build stops the run with the Go compiler's own output and the
# command that rebuilds just that tool.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_src="$here/tools"
out="${CAPSTAN_TOOLS_DIR:-$here/.tools}"
bin="$out/bin"
mkdir -p "$bin" "$out/stamps" "$out/logs"

if ! command -v go >/dev/null 2>&1; then
  echo "tools: 'go' is not on PATH; the test tools are built with Go >= $(sed -n 's/^go //p' "$tools_src/go.mod")" >&2
  exit 1
fi
# The toolchain named in tools/go.mod, never a download of another one.
export GOTOOLCHAIN=local
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-buildvcs=false -mod=readonly"

# name | package (a path inside tools/ starting with ./, or a module package) | extra ldflags
# | the module (a folder of tools/) it is built in
module_version() { (cd "$tools_src/${2:-.}" && go list -m -f '{{.Version}}' "$1"); }
kube_version="$(module_version k8s.io/kubernetes)"
kube_minor="$(echo "$kube_version" | cut -d. -f2)"
kube_ldflags="-X k8s.io/component-base/version.gitVersion=$kube_version -X k8s.io/component-base/version.gitMajor=1"
kube_ldflags+=" -X k8s.io/component-base/version.gitMinor=$kube_minor -X k8s.io/component-base/version.gitTreeState=clean"
declare -A PKG=(
  [kube-apiserver]="k8s.io/kubernetes/cmd/kube-apiserver"
  [kube-controller-manager]="k8s.io/kubernetes/cmd/kube-controller-manager"
  [etcd]="./etcd"
  [informer-peer-client-go]="./informer-peers/clientgo"
  [informer-peer-controller-runtime]="./informer-peers/controllerruntime"
  [webhook-peer-controller-runtime]="./webhook-peer"
  [helm]="helm.sh/helm/v4/cmd/helm"
  [sops]="github.com/getsops/sops/v3/cmd/sops"
  [age]="filippo.io/age/cmd/age"
  [age-keygen]="filippo.io/age/cmd/age-keygen"
)
helm_version="$(module_version helm.sh/helm/v4 helm)"
declare -A LDFLAGS=(
  [kube-apiserver]="$kube_ldflags"
  [kube-controller-manager]="$kube_ldflags"
  [etcd]=""
  [informer-peer-client-go]=""
  [informer-peer-controller-runtime]=""
  [webhook-peer-controller-runtime]=""
  [helm]="-X helm.sh/helm/v4/internal/version.version=$helm_version -X helm.sh/helm/v4/internal/version.gitTreeState=clean"
  [sops]=""
  [age]="-X main.Version=$(module_version filippo.io/age sops)"
  [age-keygen]="-X main.Version=$(module_version filippo.io/age sops)"
)
declare -A MODULE=([helm]="helm" [sops]="sops" [age]="sops" [age-keygen]="sops")
ORDER=(etcd kube-apiserver kube-controller-manager informer-peer-client-go informer-peer-controller-runtime
       webhook-peer-controller-runtime helm sops age age-keygen)

wanted=("$@")
((${#wanted[@]})) || wanted=("${ORDER[@]}")
for name in "${wanted[@]}"; do
  [ -n "${PKG[$name]:-}" ] || { echo "tools: unknown tool '$name' (known: ${ORDER[*]})" >&2; exit 2; }
done

# What a build depends on: the pins, the Go version, the flags and, for a tool of ours
# (./DIR/...), the sources under its top folder in tools/ (so editing one tool's sources
# leaves the other tools' stamps alone).
stamp_of() {
  {
    go version
    echo "${PKG[$1]} ${LDFLAGS[$1]}"
    cat "$tools_src/${MODULE[$1]:-.}/go.mod" "$tools_src/${MODULE[$1]:-.}/go.sum"
    case "${PKG[$1]}" in
      ./*)
        local top="${PKG[$1]#./}"
        find "$tools_src/${top%%/*}" -name '*.go' -print0 | sort -z | xargs -0 cat
        ;;
    esac
  } | sha256sum | cut -d' ' -f1
}

for name in "${wanted[@]}"; do
  stamp="$(stamp_of "$name")"
  if [ -x "$bin/$name" ] && [ "$(cat "$out/stamps/$name" 2>/dev/null)" = "$stamp" ]; then
    continue
  fi
  echo "tools: building $name (${PKG[$name]})"
  start=$(date +%s)
  log="$out/logs/$name.log"
  if ! (cd "$tools_src/${MODULE[$name]:-.}" && go build -trimpath -ldflags "-s -w ${LDFLAGS[$name]}" -o "$bin/$name.new" "${PKG[$name]}") >"$log" 2>&1; then
    cat "$log" >&2
    echo "tools: building $name failed (output above, also in $log); rerun this step with: scripts/tools.sh $name" >&2
    rm -f "$bin/$name.new"
    exit 1
  fi
  mv "$bin/$name.new" "$bin/$name"
  echo "$stamp" >"$out/stamps/$name"
  echo "tools: built $name in $(($(date +%s) - start)) s"
done
