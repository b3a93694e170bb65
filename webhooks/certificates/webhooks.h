// Admission webhooks of certs.capstan.dev (cert-manager's webhook, served by the manager's
// webhook server), of approver-policy's CertificateRequestPolicy and of trust.capstan.dev's Bundle: validation of all six kinds with apis/certs's rules (field paths in the
// message), defaults for Certificates and CertificateRequests (apis/certs apply_defaults), and
// the requester's identity (spec.username/uid/groups/extra) stamped on new CertificateRequests.
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/configuration.h"

#include <functional>
#include <string>
#include <vector>

namespace capstan::webhook {
class Server;
}
namespace capstan::client {
class Client;
}

namespace capstan::webhooks::certificates {

// What each path serves (name: "vcertificate.certs.capstan.dev", path:
// "/validate-certs-capstan-dev-v1-certificate", resource "certificates", ...).
const std::vector<webhook::Hook>& hooks();

// Whether the user of an admission request (its userInfo) may approve or deny the requests of a
// signer: cert-manager's approval check, verb "approve" on resource "signers" of
// certs.capstan.dev named `signer` ("issuers.certs.capstan.dev/<ns>.<name>",
// "clusterissuers.certs.capstan.dev/<name>") or `wildcard` ("issuers.certs.capstan.dev/*").
using ApprovalCheck = std::function<bool(const json::Value& user_info, const std::string& signer, const std::string& wildcard)>;

// The check as SubjectAccessReviews through `c` (the manager's client).
ApprovalCheck subject_access_review(client::Client& c);

// The handlers (exposed for tests: they take an AdmissionReview body).
webhook::Handler certificate_validating_handler();
// Also judges certificaterequests/status: approval and denial are immutable once set, and
// setting either needs `approval` to allow the user (none: not checked).
webhook::Handler certificate_request_validating_handler(ApprovalCheck approval = {});
webhook::Handler issuer_validating_handler();  // Issuer and ClusterIssuer alike
webhook::Handler bundle_validating_handler();  // trust.capstan.dev Bundle
webhook::Handler certificate_request_policy_validating_handler();  // approver-policy's kind
webhook::Handler certificate_mutating_handler();
webhook::Handler certificate_request_mutating_handler();

// Registers every path on the server; approvals are checked through `approval`.
void register_webhooks(webhook::Server& server, ApprovalCheck approval = {});

// ValidatingWebhookConfiguration and MutatingWebhookConfiguration "capstan-certificates"
// (webhook::configurations: CREATE/UPDATE, failurePolicy Fail, sideEffects None, matchPolicy
// Equivalent, timeoutSeconds 10, the manager's namespace left out).
std::vector<json::Value> configurations(const webhook::Endpoint& endpoint);

}  // namespace capstan::webhooks::certificates
