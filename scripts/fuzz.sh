#!/usr/bin/env bash
# Installs what `make fuzz` and `make sanitize` need beyond scripts/deps.sh: clang 14 with its
# libFuzzer and sanitizer runtimes, and llvm-symbolizer for readable ASan/UBSan stacks.
# Kept apart from deps.sh so `make test` stays lean. Idempotent: a second run does nothing.
set -euo pipefail

PACKAGES=(clang-14 libclang-rt-14-dev llvm-14)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "fuzz deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || true
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "fuzz deps: clang-14 and its runtimes present"
fi
