# Capstan's image: `make image IMG=...` (docker or podman).
#
# The build stage is Debian 12 with the system packages of scripts/deps.sh and the CMake
# build of the one binary. The runtime stage is Debian 12 slim with only the shared libraries
# that binary loads (e2e/image_test.cpp checks the list below against `ldd` and starts the
# binary from exactly these packages' libraries), a non-root user, and nothing written to the
# root filesystem (the chart and config/default mount the webhook certificate and an emptyDir
# for the gitops mirrors, and set readOnlyRootFilesystem).

FROM debian:12 AS build
WORKDIR /src
COPY scripts/deps.sh scripts/deps.sh
RUN scripts/deps.sh --system-only && rm -rf /var/lib/apt/lists/*
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release \
 && cmake --build /build --target capstan -j "$(nproc)" \
 && strip /build/bin/capstan

FROM debian:12-slim AS runtime
# runtime packages: every library `ldd capstan` lists, libgit2 (the gitops controller loads
# it with dlopen on first use), librdkafka (the Kafka Admin API) and the CA bundle for https Git
# remotes and ACME servers.
RUN apt-get update && apt-get install -y --no-install-recommends \
      ca-certificates libc6 libgcc-s1 libstdc++6 zlib1g libssl3 libsqlite3-0 libre2-9 \
      libboost-json1.81.0 libboost-url1.81.0 libspdlog1.10 libfmt9 libsimdjson14 libyaml-cpp0.7 \
      libgit2-1.5 librdkafka1 liblz4-1 libsasl2-2 libzstd1 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /build/bin/capstan /capstan
# 65532: the "nonroot" UID distroless images use; the chart runs as it too.
USER 65532:65532
ENTRYPOINT ["/capstan"]
CMD ["manager"]
