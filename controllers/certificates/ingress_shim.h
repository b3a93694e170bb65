// cert-manager's ingress-shim and gateway-shim: an Ingress (or a Gateway) annotated with an issuer gets, for each `spec.tls`
// entry, a Certificate named after the entry's secretName, for its hosts, owned by the Ingress
// (so it goes with it), and kept in step as the Ingress changes; a Certificate the Ingress no
// longer asks for is deleted. Annotations as cert-manager's, under our prefix:
//   certs.capstan.dev/issuer | certs.capstan.dev/cluster-issuer   the issuer (one of them)
//   certs.capstan.dev/issuer-kind, certs.capstan.dev/issuer-group  an external issuer's kind/group
//   kubernetes.io/tls-acme: "true"                                  the default issuer (--default-issuer-*)
//   certs.capstan.dev/common-name, duration, renew-before, usages (comma-separated),
//   private-key-algorithm, private-key-size, private-key-rotation-policy, revision-history-limit
// What cannot be made is said as a Warning event (reason BadConfig) on the Ingress, naming the
// entry or annotation; the other entries are still served. A Certificate of that name that the
// Ingress does not own is never touched.
#pragma once

#include "runtime/controller/reconcile.h"
#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::cache {
class Informer;
}

namespace capstan::certificates {

struct Env;

// The issuer an Ingress with only kubernetes.io/tls-acme uses (cert-manager's
// --default-issuer-name/-kind/-group); no name: such Ingresses are left alone.
struct DefaultIssuer {
  std::string name;
  std::string kind = "Issuer";
  std::string group = "certs.capstan.dev";
};

struct ShimResult {
  std::vector<json::Value> certificates;  // as they should be (apply configurations)
  std::vector<std::string> errors;        // BadConfig messages
  bool annotated = false;                 // the Ingress asks for certificates at all
};

// The Certificates `ingress` asks for.
ShimResult certificates_for_ingress(const json::Value& ingress, const DefaultIssuer& default_issuer);
// The Certificates a Gateway (gateway.networking.k8s.io/v1) asks for, as cert-manager's
// gateway-shim: per Secret of its listeners' tls.certificateRefs, the hostnames of the listeners
// naming it; listeners without tls or in Passthrough mode are passed over; a listener without a
// hostname, or a reference to another kind or namespace, is a BadConfig event.
ShimResult certificates_for_gateway(const json::Value& gateway, const DefaultIssuer& default_issuer);

// What the shim reads, per kind.
struct ShimSource {
  std::string_view api_version, kind;
  cache::Informer* (*informer)(Env&);  // null when that shim is off
  ShimResult (*certificates)(const json::Value&, const DefaultIssuer&);
};
const ShimSource& ingress_source();
const ShimSource& gateway_source();

controller::Result reconcile_shim(Env& env, const ShimSource& source, const DefaultIssuer& default_issuer, const controller::Request& request,
                                  controller::Context& ctx);

}  // namespace capstan::certificates
