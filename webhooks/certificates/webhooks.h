// Admission webhooks of certs.capstan.dev (cert-manager's webhook, served by the manager's
// webhook server) and of trust.capstan.dev's Bundle: validation of all five kinds with apis/certs's rules (field paths in the
// message), defaults for Certificates and CertificateRequests (apis/certs apply_defaults), and
// the requester's identity (spec.username/uid/groups/extra) stamped on new CertificateRequests.
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/configuration.h"

#include <string>
#include <vector>

namespace capstan::webhook {
class Server;
}

namespace capstan::webhooks::certificates {

// What each path serves (name: "vcertificate.certs.capstan.dev", path:
// "/validate-certs-capstan-dev-v1-certificate", resource "certificates", ...).
const std::vector<webhook::Hook>& hooks();

// The handlers (exposed for tests: they take an AdmissionReview body).
webhook::Handler certificate_validating_handler();
webhook::Handler certificate_request_validating_handler();
webhook::Handler issuer_validating_handler();  // Issuer and ClusterIssuer alike
webhook::Handler bundle_validating_handler();  // trust.capstan.dev Bundle
webhook::Handler certificate_mutating_handler();
webhook::Handler certificate_request_mutating_handler();

// Registers every path on the server.
void register_webhooks(webhook::Server& server);

// ValidatingWebhookConfiguration and MutatingWebhookConfiguration "capstan-certificates"
// (webhook::configurations: CREATE/UPDATE, failurePolicy Fail, sideEffects None, matchPolicy
// Equivalent, timeoutSeconds 10, the manager's namespace left out).
std::vector<json::Value> configurations(const webhook::Endpoint& endpoint);

}  // namespace capstan::webhooks::certificates
