// The PrometheusRule the certificates controller keeps for the monitoring controller when both run
// (cert-manager-mixin's alerts, on Capstan's certificate metrics): capstan-certificates in the
// manager's namespace, kept by the leader (runtime/plugin/kept_objects.h).
//   CapstanCertificateExpirySoon  a certificate expires within 21 days (renewal should have happened)
//   CapstanCertificateNotReady    a certificate has not been Ready for 10 minutes
// The metrics carry the certificate's own `namespace` label: the manager's PodMonitor keeps it
// (honorLabels), which the alerts group by.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/selector.h"

#include <map>
#include <string>
#include <string_view>

namespace capstan::certificates {

inline constexpr std::string_view kAlertRuleName = "capstan-certificates";

// `labels`: the PrometheusRule's, for a Prometheus's ruleSelector.
json::Value certificate_alert_rule(std::string_view ns, const meta::Labels& labels);

}  // namespace capstan::certificates
