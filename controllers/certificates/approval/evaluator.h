// approver-policy's evaluation of a CertificateRequest against CertificateRequestPolicies, as pure
// functions: which policies select the request (issuerRef, namespace), what each one does not
// allow (the `allowed` and `constraints` evaluators, their field.Error messages), and the
// decision over the policies bound to the requester (policy_approver.h does the RBAC check).
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/certificate_request_policy.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates::approval {

namespace v1 = apis::certs::v1;

// What a request asks for: names and key from its CSR, the rest from its spec.
struct RequestAttributes {
  std::vector<std::string> common_names;  // every CN of the subject (normally one)
  std::vector<std::string> dns_names, ip_addresses, uris, email_addresses;
  bool is_ca = false;
  std::vector<std::string> usages;  // spec.usages as written
  std::optional<std::chrono::nanoseconds> duration;
  std::string key_algorithm;  // RSA, ECDSA, Ed25519
  int key_size = -1;          // RSA bits, ECDSA curve bits; -1 for Ed25519 (it has no size)
};

// Throws pki::PkiError when spec.request is not a PEM CSR.
RequestAttributes attributes_of(const v1::CertificateRequest& request);

// What the policy does not allow in the request, one message per evaluator that objects
// (allowed, then constraints), each approver-policy's aggregate of field errors, e.g.
//   spec.allowed.dnsNames.values: Invalid value: []string{"evil.example"}: *.shop.example
// Empty: the policy permits the request.
std::vector<std::string> evaluate(const v1::CertificateRequestPolicySpec& policy, const RequestAttributes& request);

// Whether the policy's selector takes the request: issuerRef (`ref` already defaulted: kind
// Issuer, group certs.capstan.dev) and namespace (`namespace_labels` of the request's namespace,
// read only when matchLabels is set).
bool selects(const v1::PolicySelector& selector, const v1::IssuerReference& ref, std::string_view ns,
             const std::map<std::string, std::string>& namespace_labels);

// A policy that selects the request and is bound to its requester.
struct Applicable {
  std::string name;
  const v1::CertificateRequestPolicySpec* spec = nullptr;
  bool ready = false;       // Ready=True for its current generation
  bool reconciled = false;  // has a Ready condition at all
};

enum class Decision { kApproved, kDenied, kUnprocessed };

struct Review {
  Decision decision = Decision::kUnprocessed;
  std::string message;
};

// Longest Denied message written (a condition message, and the Event's).
inline constexpr std::size_t kMaxMessageBytes = 4096;

// approver-policy's manager: the first ready policy (in name order) permitting the request
// approves it ("Approved by CertificateRequestPolicy: \"name\""); if ready ones apply and none
// permits, it is denied ("No policy approved this request: [name: why] ...", at most
// kMaxMessageBytes) — unless some applicable policy has not been reconciled yet, which may
// still approve; with no ready policy it is left undecided.
Review review(std::vector<Applicable> policies, const RequestAttributes& request);

}  // namespace capstan::certificates::approval
