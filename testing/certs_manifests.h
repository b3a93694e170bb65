// Manifests the certificates end-to-end tests start from (applied with kubectl).
#pragma once

#include <string>

namespace capstan::e2e::manifests {

// Namespace shop and the ClusterIssuer selfsigned.
inline const std::string kShopAndSelfSigned = R"(apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: selfsigned}
spec: {selfSigned: {}}
)";

// kShopAndSelfSigned, then a CA in shop: the Certificate shop-root (isCA, ECDSA, from
// selfsigned; its request is shop-root-1) and the Issuer shop-ca signing with it.
inline const std::string kShopCa = kShopAndSelfSigned + R"(---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: shop-root, namespace: shop}
spec: {secretName: shop-root, isCA: true, commonName: Shop Root, privateKey: {algorithm: ECDSA}, issuerRef: {name: selfsigned, kind: ClusterIssuer}}
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: shop-ca, namespace: shop}
spec: {ca: {secretName: shop-root}}
)";

}  // namespace capstan::e2e::manifests
