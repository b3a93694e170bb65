// cert-manager's ingress-shim: an Ingress annotated with an issuer gets, for each `spec.tls`
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

controller::Result reconcile_ingress(Env& env, const DefaultIssuer& default_issuer, const controller::Request& request,
                                     controller::Context& ctx);

}  // namespace capstan::certificates
