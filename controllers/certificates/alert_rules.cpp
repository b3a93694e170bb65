#include "controllers/certificates/alert_rules.h"

namespace capstan::certificates {

json::Value certificate_alert_rule(std::string_view ns, const meta::Labels& labels) {
  json::Object md{{"name", kAlertRuleName}, {"namespace", ns}};
  json::Object l{{"app.kubernetes.io/managed-by", "capstan-certificates"}};
  for (const auto& [k, v] : labels) l[k] = v;
  md["labels"] = std::move(l);
  json::Array rules{
      json::Object{{"alert", "CapstanCertificateExpirySoon"},
                   {"expr", "avg by (namespace, name) (capstan_certificate_expiration_timestamp_seconds - time()) < (21 * 24 * 3600)"},
                   {"for", "1h"},
                   {"labels", json::Object{{"severity", "warning"}}},
                   {"annotations",
                    json::Object{{"summary", "The certificate {{ $labels.namespace }}/{{ $labels.name }} expires in less than 21 days"},
                                 {"description", "It expires in {{ $value | humanizeDuration }}: it should have been renewed by now. "
                                                 "`kubectl describe certificate -n {{ $labels.namespace }} {{ $labels.name }}` says why not."}}}},
      json::Object{{"alert", "CapstanCertificateNotReady"},
                   {"expr", "max by (namespace, name, condition) (capstan_certificate_ready_status{condition!=\"True\"}) == 1"},
                   {"for", "10m"},
                   {"labels", json::Object{{"severity", "critical"}}},
                   {"annotations",
                    json::Object{{"summary", "The certificate {{ $labels.namespace }}/{{ $labels.name }} is not ready"},
                                 {"description", "Its Ready condition has been {{ $labels.condition }} for 10 minutes: the Secret it "
                                                 "keeps may be missing or stale."}}}}};
  return json::Object{{"apiVersion", "monitoring.capstan.dev/v1"},
                      {"kind", "PrometheusRule"},
                      {"metadata", std::move(md)},
                      {"spec", json::Object{{"groups", json::Array{json::Object{{"name", "capstan-certificates"}, {"rules", std::move(rules)}}}}}}};
}

}  // namespace capstan::certificates
