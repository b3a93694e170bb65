// `capstan certs`: cmctl's everyday commands against any cluster (manager/certs_command.cpp reads
// the flags and the kubeconfig). Each returns what it prints; -o json|yaml output is a JSON value
// the caller renders. Errors are CliError with a message naming the object.
#pragma once

#include "runtime/json/json.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::certificates::cli {

struct CliError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Marks the Certificates for re-issuance (condition Issuing=True, reason ManuallyTriggered, as
// cmctl renew): `names` in `ns`, or all of `ns` with `all` ("" with all: every namespace).
// Returns one line per Certificate; one already issuing is said so and left alone.
std::vector<std::string> renew(client::Client& c, const std::string& ns, const std::vector<std::string>& names, bool all);

// Sets Approved=True / Denied=True on a CertificateRequest that has neither (cmctl approve|deny).
std::string decide(client::Client& c, const std::string& ns, const std::string& name, bool approve, const std::string& reason,
                   const std::string& message);

// What is known about a Certificate: its conditions and times, its issuer's readiness, its
// Secret's certificate and its current and next CertificateRequests.
json::Value certificate_status(client::Client& c, const std::string& ns, const std::string& name);
std::string format_status(const json::Value& status);

// The certificates of a Secret's tls.crt (leaf first) and whether the chain verifies against
// its ca.crt.
json::Value inspect_secret(client::Client& c, const std::string& ns, const std::string& name);
std::string format_inspection(const json::Value& inspection);

}  // namespace capstan::certificates::cli
