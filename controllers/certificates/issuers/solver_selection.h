// Which of an ACME issuer's solvers answers a challenge for one DNS name (cert-manager's
// rules): among the solvers whose type the authorization offers, a dnsNames match beats the
// longest dnsZones match, which beats matchLabels-only and selector-less solvers; more
// matching labels break ties, then the order in spec.acme.solvers. A solver whose selector
// excludes the name or the labels is skipped.
#pragma once

#include "apis/certs/v1/issuer.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// `domain` is the authorization's name, "*.example.com" for a wildcard one; `offered` the
// challenge types it offers ("http-01", "dns-01", ...).
std::optional<v1::AcmeChallengeSolver> select_solver(const v1::AcmeIssuer& acme, std::string_view domain,
                                                     const std::map<std::string, std::string>& labels,
                                                     const std::vector<std::string>& offered);

// The challenge type a selected solver answers ("http-01" or "dns-01").
std::string_view solver_type(const v1::AcmeChallengeSolver& solver);

}  // namespace capstan::certificates
