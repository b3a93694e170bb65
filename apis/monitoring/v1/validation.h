// Admission validation of monitoring.capstan.dev/v1 objects, for the monitoring webhook and for
// the controller, which never hands Prometheus a rule file that would stop its reload.
// Causes carry Kubernetes field paths and render as field.Error does, e.g.
//   spec.groups[0].rules[1].expr: Invalid value: "rate(x)": 1:6: parse error: expected type range vector in call to function "rate", got instant vector
//   spec.endpoints[0].relabelings[2].regex: Invalid value: "(": error parsing regexp: missing closing ): `^(?:()$`
// Every error of the object is reported at once. Objects are read leniently (members of an
// unexpected type count as absent: the CRD schema has already checked types).
#pragma once

#include "runtime/json/json.h"
#include "runtime/validation/field.h"

#include <vector>

namespace capstan::apis::monitoring::v1 {

// What Prometheus's rulefmt.Parse refuses in a PrometheusRule's groups (promtool check rules):
// PromQL expressions (our parser, differential-tested against promtool 2.42), record/alert,
// rule names, `for`/`keep_firing_for` and group `interval` durations, label and annotation names,
// duplicate group names. Alert templates are not parsed.
std::vector<validation::Cause> validate_prometheus_rule(const json::Value& obj);

// Relabel regexes of every endpoint (relabelings and metricRelabelings), compiled as Prometheus
// does (Go regexp, RE2 syntax, anchored). Credentials (here and on Probes and ScrapeConfigs): at
// most one of basicAuth, authorization, oauth2 and bearerTokenSecret; basicAuth with both keys;
// authorization with credentials and not of type Basic; one of secret and configMap for a CA,
// certificate and OAuth2 client id; a certificate with its key.
// Each endpoint's interval and scrapeTimeout (non-zero, timeout not above the interval) and its
// relabel configurations (what Prometheus's relabel.Config.Validate requires per action).
std::vector<validation::Cause> validate_service_monitor(const json::Value& obj);
std::vector<validation::Cause> validate_pod_monitor(const json::Value& obj);

// Probe: the prober's url (host:port, no scheme) and path, targets (staticConfig with targets, or
// ingress, whose selector's operators are checked), static label names, interval and
// scrapeTimeout, relabel configurations and their regexes.
std::vector<validation::Cause> validate_probe(const json::Value& obj);

// ScrapeConfig: static targets and label names, file_sd paths (what Prometheus accepts:
// *.json/*.yml/*.yaml, a * in the file name only), http_sd URLs, Kubernetes discovery selectors
// (roles the discovery role allows, each once; label and field selectors that parse), metricsPath,
// scrapeInterval/scrapeTimeout, relabel configurations and their regexes.
std::vector<validation::Cause> validate_scrape_config(const json::Value& obj);

// Prometheus: durations (non-zero intervals, scrapeTimeout not above scrapeInterval),
// retentionSize, external label names, label selectors' operators, remoteWrite URLs and unique
// names, scrape classes (unique names, one default, relabelings), externalUrl and routePrefix — what Prometheus or the operator would refuse later.
std::vector<validation::Cause> validate_prometheus(const json::Value& obj);

// AlertmanagerConfig: receiver names unique, every route's receiver one of them (and the top
// route's set), child routes of the same fields at most kMaxRouteDepth deep, matcher label names
// and regexes (Go regexp), webhooks with exactly one of url and urlSecret, PagerDuty with a
// routing or service key, Opsgenie responders named, muteTimeIntervals (unique names, weekdays,
// months, years, days of the month and times Alertmanager parses) and the routes' references to
// them — what would make
// Alertmanager refuse the merged configuration.
inline constexpr int kMaxRouteDepth = 8;
std::vector<validation::Cause> validate_alertmanager_config(const json::Value& obj);

// Alertmanager: retention, externalUrl, the AlertmanagerConfig selectors' operators, storage.
std::vector<validation::Cause> validate_alertmanager(const json::Value& obj);

// metav1validation.ValidateLabelSelector's operator rules on spec.<key>.
void validate_label_selector(const json::Value& spec, std::string_view key, const validation::FieldPath& spec_path,
                             std::vector<validation::Cause>& out);

// model.LabelName.IsValid (the legacy character set).
bool valid_label_name(std::string_view s);
// An absolute http(s) URL of at most 2048 bytes.
bool http_url(std::string_view url);

// Pieces shared by the monitors (validation_monitors.cpp).
// spec.storage: at most one of emptyDir, ephemeral and volumeClaimTemplate (the data has one home).
void validate_storage(const json::Value& spec, const validation::FieldPath& spec_path, std::vector<validation::Cause>& out);
// interval_key: "interval" (monitors, probes) or "scrapeInterval" (ScrapeConfig).
void validate_endpoint_timing(const json::Value& endpoint, const validation::FieldPath& path, std::vector<validation::Cause>& out,
                              std::string_view interval_key = "interval");
void validate_relabel_config(const json::Value& config, const validation::FieldPath& path, std::vector<validation::Cause>& out);
// Each relabel configuration of parent[key] and its regex (compiled as Prometheus does).
void validate_relabelings(const json::Value& parent, std::string_view key, const validation::FieldPath& path,
                          std::vector<validation::Cause>& out);

}  // namespace capstan::apis::monitoring::v1
