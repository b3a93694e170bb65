// HTTP-01 challenges for the ACME issuer. The manager's own solver endpoint
// (acme::Http01Solver, --acme-http01-solver-port) answers the challenge; for a real cluster
// each challenge also gets a Service and an Ingress routing
// http://<domain>/.well-known/acme-challenge/<token> there (generateName
// cm-acme-http-solver-, owned by the CertificateRequest, deleted once the order is done). The
// Service is an ExternalName alias of the manager's solver Service in the cluster resource
// namespace, since an Ingress can only reach Services of its own namespace.
#pragma once

#include "apis/certs/v1/issuer.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::certificates {

struct Env;
namespace v1 = apis::certs::v1;

struct SolverObjectsInput {
  std::string ns;
  std::string request_name, request_uid;
  std::string domain, token;
  v1::Http01IngressSolver ingress;
  std::string target_host;  // <solver service>.<namespace>.svc.cluster.local
  int target_port = 80;
};

std::string token_label_value(std::string_view token);
json::Value solver_service(const SolverObjectsInput& in);
json::Value solver_ingress(const SolverObjectsInput& in, std::string_view service_name);

// Creates the Service and Ingress for one challenge unless they exist (found by labels).
void ensure_solver_objects(Env& env, const SolverObjectsInput& in);
// Deletes every solver Service and Ingress of the request.
void delete_solver_objects(Env& env, std::string_view ns, std::string_view request_uid);

}  // namespace capstan::certificates
