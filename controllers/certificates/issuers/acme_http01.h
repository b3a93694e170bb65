// HTTP-01 challenges for the ACME issuer. The manager's own solver endpoint
// (acme::Http01Solver, --acme-http01-solver-port) answers the challenge; for a real cluster
// each challenge also gets a Service and an Ingress routing
// http://<domain>/.well-known/acme-challenge/<token> there (generateName
// cm-acme-http-solver-, owned by the CertificateRequest, deleted once the order is done). The
// Service is an ExternalName alias of the manager's solver Service in the cluster resource
// namespace, since an Ingress can only reach Services of its own namespace.
//
// The tokens are also published in the request's annotation, so that every replica of the
// manager (each runs the solver; only the leader orders) answers them, and a challenge is
// accepted only once the self check fetched the key authorization the way the CA will.
#pragma once

#include "apis/certs/v1/issuer.h"
#include "controllers/certificates/acme/solver.h"
#include "runtime/json/json.h"

#include <set>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

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
// cert-manager's edit-in-place (http01.ingress.name): `ingress` with the challenge path of
// `in.token` for `in.domain` routed to `service_name`, in the rule of that host (a new rule when
// it has none). Unchanged when the path is there.
json::Value with_challenge_path(json::Value ingress, const SolverObjectsInput& in, std::string_view service_name);
// Takes out of `ingress` the challenge paths routed to any of `services` (and a rule left
// empty by that); whether anything changed.
bool remove_solver_paths(json::Value& ingress, const std::set<std::string, std::less<>>& services);

// The tokens a CertificateRequest publishes in its kAcmeHttp01Tokens annotation (at most 100,
// each field at most 1 KiB; a malformed annotation publishes nothing).
std::vector<acme::Http01Solver::Published> published_tokens(const json::Value& request);
// Of `tokens`, those whose key authorization is "<token>.<thumbprint>" for the ACME account with
// `thumbprint` (the request's issuer's status.acme.lastPrivateKeyHash): whoever can annotate a
// CertificateRequest cannot make the solvers answer for another ACME account.
std::vector<acme::Http01Solver::Published> tokens_of_account(std::vector<acme::Http01Solver::Published> tokens,
                                                             std::string_view thumbprint);
// What a replica's solver serves for a CertificateRequest: its published tokens of its issuer's
// account (none when the issuer is unknown, not ACME or has no account yet).
std::vector<acme::Http01Solver::Published> trusted_published_tokens(const Env& env, const json::Value& request);

// Writes `tokens` into that annotation (merge patch) unless it holds exactly them; `cr_obj`
// gets the new metadata. Empty `tokens` removes the annotation.
void publish_tokens(Env& env, json::Value& cr_obj, const std::vector<acme::Http01Solver::Published>& tokens);

// cert-manager's HTTP-01 self check: nullopt when http://<domain>/.well-known/acme-challenge/<token>
// answers `key_authorization`, else why not. `address` ("host:port", "" = <domain>:80) is where
// to connect; the Host header is the domain either way.
std::optional<std::string> http01_self_check(std::string_view address, std::string_view domain, std::string_view token,
                                             std::string_view key_authorization);

// Creates the Service and Ingress for one challenge unless they exist (found by labels).
void ensure_solver_objects(Env& env, const SolverObjectsInput& in);
// Deletes every solver Service and Ingress of the request; with `edited_in_place` (a solver of
// the order named its Ingress, http01.ingress.name), first the challenge paths routed to those
// Services in the namespace's other Ingresses.
void delete_solver_objects(Env& env, std::string_view ns, std::string_view request_uid, bool edited_in_place);

}  // namespace capstan::certificates
