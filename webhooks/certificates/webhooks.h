// Admission webhooks of certs.capstan.dev (cert-manager's webhook, served by the manager's
// webhook server): validation of all four kinds with apis/certs's rules (field paths in the
// message), defaults for Certificates and CertificateRequests (apis/certs apply_defaults), and
// the requester's identity (spec.username/uid/groups/extra) stamped on new CertificateRequests.
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/admission.h"

#include <memory>
#include <string>
#include <vector>

namespace capstan::webhook {
class Server;
}
namespace capstan::manager {
struct WebhookEndpoint;
}

namespace capstan::certificates {

// What each path serves.
struct WebhookPath {
  std::string path;      // "/validate-certs-capstan-dev-v1-certificate"
  std::string name;      // the webhook's name in the configuration: "vcertificate.certs.capstan.dev"
  std::string resource;  // "certificates"
  bool mutating = false;
};
const std::vector<WebhookPath>& webhook_paths();

// The handlers (exposed for tests: they take an AdmissionReview body).
webhook::Handler certificate_validating_handler();
webhook::Handler certificate_request_validating_handler();
webhook::Handler issuer_validating_handler();  // Issuer and ClusterIssuer alike
webhook::Handler certificate_mutating_handler();
webhook::Handler certificate_request_mutating_handler();

// Registers every path on the server.
void register_webhooks(webhook::Server& server);

// ValidatingWebhookConfiguration "capstan-certificates" and MutatingWebhookConfiguration
// "capstan-certificates": groups certs.capstan.dev, v1, CREATE/UPDATE, failurePolicy Fail,
// sideEffects None, admissionReviewVersions [v1], timeoutSeconds 10; clientConfig is the
// endpoint's URL (+ caBundle) or its Service.
std::vector<json::Value> webhook_configurations(const manager::WebhookEndpoint& endpoint);

}  // namespace capstan::certificates
