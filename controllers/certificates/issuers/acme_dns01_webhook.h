// cert-manager's webhook DNS-01 solver API, client side: a ChallengePayload
// (webhook.acme.cert-manager.io/v1alpha1) POSTed through the Kubernetes API server to
// /apis/<groupName>/v1alpha1/<solverName>, where an aggregated API server of the DNS provider
// answers it (Present publishes the TXT record, CleanUp withdraws it). The answer's
// response.success decides; its status.message is the provider's reason.
//
// RBAC: the manager's ServiceAccount needs `create` on that resource. The group is the
// provider's, unknown ahead of time: as with cert-manager, the provider's chart (or the user)
// binds a ClusterRole with {apiGroups: [<groupName>], resources: ["*"], verbs: ["create"]} to it.
#pragma once

#include "apis/certs/v1/issuer.h"
#include "runtime/json/json.h"

#include <cstddef>
#include <string>

namespace capstan::client {
class Client;
}

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

inline constexpr std::string_view kChallengePayloadApiVersion = "webhook.acme.cert-manager.io/v1alpha1";
inline constexpr std::size_t kMaxChallengeResponseBytes = 1024 * 1024;

// ChallengeRequest of cert-manager's pkg/acme/webhook/apis/acme/v1alpha1.
struct WebhookChallenge {
  std::string uid;
  std::string action;              // "Present" | "CleanUp"
  std::string dns_name;            // the identifier ("*." dropped)
  std::string key;                 // the TXT value
  std::string resource_namespace;  // where the solver's Secrets are (the Issuer's, or the cluster resource namespace)
  std::string resolved_fqdn;       // "_acme-challenge.example.com."
  std::string resolved_zone;       // "example.com."
  bool allow_ambient_credentials = false;
};

json::Value challenge_payload(const WebhookChallenge& c, const v1::WebhookProvider& p);

// "/apis/<groupName>/v1alpha1/<solverName>".
std::string webhook_solver_path(const v1::WebhookProvider& p);

// Reads the answer to `c`; throws std::runtime_error naming the solver (and the webhook's
// message) unless it is a ChallengePayload with response.success for that uid.
void check_challenge_answer(std::string_view body, const WebhookChallenge& c, const v1::WebhookProvider& p);

// POSTs `c` through the API server and checks the answer. Throws std::runtime_error naming the
// solver: the API server's refusal (403: the RBAC to add; 503: the webhook is unavailable), a
// transport failure, or the webhook's own error.
void call_webhook_solver(client::Client& client, const v1::WebhookProvider& p, const WebhookChallenge& c);

}  // namespace capstan::certificates
