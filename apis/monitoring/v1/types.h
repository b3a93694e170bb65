// monitoring.capstan.dev/v1 Prometheus, ServiceMonitor, PodMonitor, Probe, ScrapeConfig, PrometheusRule, Alertmanager
// and AlertmanagerConfig as C++ types. Each struct's fields are listed once, in prometheus.cpp,
// monitors.cpp, prometheus_rule.cpp and alertmanager.cpp, and give its decoder, encoder and CRD
// schema (apis/common/codec.h).
//
// Implemented from prometheus-operator (the rest of its spec is not in the CRD schema, so
// `kubectl apply`, which asks for strict field validation, refuses a manifest using it):
//   Prometheus      version, image, replicas (1), shards (1), paused, serviceAccountName, resources,
//                   nodeSelector, tolerations, affinity, topologySpreadConstraints,
//                   securityContext, priorityClassName, imagePullSecrets, containers,
//                   initContainers, volumes, volumeMounts, storage{emptyDir, ephemeral,
//                   volumeClaimTemplate, disableMountSubPath},
//                   persistentVolumeClaimRetentionPolicy, podMetadata, retention (24h), retentionSize,
//                   scrapeInterval (30s), scrapeTimeout, evaluationInterval (30s), externalLabels,
//                   replicaExternalLabelName (prometheus_replica), prometheusExternalLabelName
//                   (prometheus), {serviceMonitor,podMonitor,probe,scrapeConfig,rule}{,Namespace}Selector,
//                   remoteWrite[{url, name, remoteTimeout}], alerting{alertmanagers[{namespace, name,
//                   port, scheme, pathPrefix, apiVersion, timeout}]}, additionalScrapeConfigs, logLevel, logFormat, enableFeatures,
//                   externalUrl, routePrefix, portName (web), serviceDiscoveryRole,
//                   scrapeClasses[{name, default, tlsConfig{caFile, certFile, keyFile, serverName,
//                   insecureSkipVerify}, authorization{type, credentialsFile}, relabelings,
//                   metricRelabelings, attachMetadata}]
//   PrometheusAgent the Prometheus fields but retention, retentionSize, evaluationInterval,
//                   rule{,Namespace}Selector and alerting
//   ServiceMonitor  selector, namespaceSelector{any, matchNames}, jobLabel, targetLabels,
//                   podTargetLabels, sampleLimit, targetLimit, attachMetadata{node}, scrapeClass,
//                   serviceDiscoveryRole (Endpoints|EndpointSlice), endpoints[{port, targetPort, path,
//                   scheme, params, interval, scrapeTimeout, honorLabels, honorTimestamps,
//                   relabelings, metricRelabelings, filterRunning, followRedirects,
//                   enableHttp2, and the credentials below}]
//   PodMonitor      the same (but targetLabels, serviceDiscoveryRole) with podMetricsEndpoints[{port,
//                   portNumber, ...}]
//   credentials     (endpoints, Probe, ScrapeConfig, httpSDConfigs) basicAuth{username, password},
//                   authorization{type, credentials}, bearerTokenSecret (not ScrapeConfig),
//                   oauth2{clientId, clientSecret, tokenUrl, scopes, endpointParams}, tlsConfig{ca,
//                   cert, keySecret, serverName, insecureSkipVerify, minVersion, maxVersion}
//   Probe           jobName, prober{url, scheme, path (/probe)}, module, targets{staticConfig{static,
//                   labels, relabelingConfigs} | ingress{selector, namespaceSelector,
//                   relabelingConfigs}}, interval, scrapeTimeout, params[{name, values}],
//                   metricRelabelings, tlsConfig, sampleLimit, targetLimit, scrapeClass
//   ScrapeConfig    jobName, staticConfigs[{targets, labels}], fileSDConfigs[{files,
//                   refreshInterval}], httpSDConfigs[{url, refreshInterval, tlsConfig}],
//                   kubernetesSDConfigs[{role, namespaces{ownNamespace, names}, selectors[{role,
//                   label, field}], attachMetadata{node}}], relabelings, metricRelabelings,
//                   metricsPath, scrapeInterval, scrapeTimeout, scheme, honorLabels,
//                   honorTimestamps, params, tlsConfig, sampleLimit, targetLimit, scrapeClass
//   PrometheusRule  groups[{name, interval, labels, limit, query_offset, rules[{record | alert,
//                   expr, for, keep_firing_for, labels, annotations}]}]
//   Alertmanager    version, image, replicas (1), paused, the pod settings above, storage,
//                   persistentVolumeClaimRetentionPolicy, podMetadata, retention (120h), externalUrl, routePrefix, logLevel, logFormat,
//                   configSecret, alertmanagerConfig{,Namespace}Selector,
//                   alertmanagerConfigMatcherStrategy{type: OnNamespace|None}, portName
//   AlertmanagerConfig (v1alpha1's fields) route{receiver, groupBy, groupWait, groupInterval,
//                   repeatInterval, matchers[{name, value, matchType}], continue, routes,
//                   muteTimeIntervals, activeTimeIntervals}, receivers[{name,
//                   webhookConfigs[{url, urlSecret, sendResolved, maxAlerts}], slackConfigs[{apiURL,
//                   channel, username, color, title, titleLink, pretext, text, footer, fallback,
//                   iconEmoji, iconURL, linkNames}], pagerdutyConfigs[{routingKey, serviceKey, url,
//                   client, clientURL, description, severity, class, group, component, details}],
//                   opsgenieConfigs[{apiKey, apiURL, message, description, source, tags, note,
//                   priority, entity, actions, details, responders}], emailConfigs[{to, from, hello,
//                   smarthost, authUsername, authPassword, authSecret, authIdentity, headers, html,
//                   text, requireTLS}], each with sendResolved}], inhibitRules[{sourceMatch,
//                   targetMatch, equal}], muteTimeIntervals[{name, timeIntervals[{times[{startTime,
//                   endTime}], weekdays, daysOfMonth[{start, end}], months, years}]}]
//   status          monitors and rules: bindings[{group, resource, name, namespace, conditions
//                   [Accepted]}] (written by controllers/monitoring/bindings_controller.h)
// Label selectors stay as written (metav1.LabelSelector JSON, which runtime/meta/selector.h
// reads); durations are Prometheus's own strings ("30s", "1d"), passed on as written.
#pragma once

#include "apis/common/codec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::monitoring::v1 {

// prometheus-operator's defaults (pkg/operator/defaults.go, the CRD's kubebuilder defaults).
inline constexpr std::string_view kDefaultPrometheusVersion = "v3.13.2";
inline constexpr std::string_view kDefaultPrometheusBaseImage = "quay.io/prometheus/prometheus";
inline constexpr std::string_view kDefaultScrapeInterval = "30s";
inline constexpr std::string_view kDefaultEvaluationInterval = "30s";
inline constexpr std::string_view kDefaultRetention = "24h";
inline constexpr std::string_view kDefaultPortName = "web";
inline constexpr std::string_view kDefaultReplicaLabel = "prometheus_replica";
inline constexpr std::string_view kDefaultPrometheusLabel = "prometheus";
inline constexpr std::string_view kDefaultProbePath = "/probe";

// ---- Shared by the workloads and the objects they select ----

// A key of a Secret in the object's namespace (core/v1 SecretKeySelector).
struct SecretKeySelector {
  std::string name, key;
  bool optional = false;  // a missing Secret or key is then not an error
  CAPSTAN_CODEC(SecretKeySelector);
};


struct NamespaceSelector {
  bool any = false;
  std::vector<std::string> match_names;
  CAPSTAN_CODEC(NamespaceSelector);
};

// A Prometheus relabel_config (camelCase here, snake_case in Prometheus's configuration).
struct RelabelConfig {
  std::vector<std::string> source_labels;
  std::string separator, target_label, regex;
  std::optional<std::int64_t> modulus;
  std::optional<std::string> replacement;  // "" is a replacement
  std::string action;
  CAPSTAN_CODEC(RelabelConfig);
};

struct ConfigMapKeySelector {
  std::string name, key;
  bool optional = false;
  CAPSTAN_CODEC(ConfigMapKeySelector);
};

// A value from a key of a Secret or of a ConfigMap (exactly one), in the object's namespace.
struct SecretOrConfigMap {
  std::optional<SecretKeySelector> secret;
  std::optional<ConfigMapKeySelector> config_map;
  CAPSTAN_CODEC(SecretOrConfigMap);
};

// TLS of a scrape. The CA, certificate and key are read from the object's namespace and handed to
// Prometheus as files (the assets Secret, controllers/monitoring/assets.h).
struct SafeTLSConfig {
  std::string server_name;
  bool insecure_skip_verify = false;
  std::optional<SecretOrConfigMap> ca, cert;
  std::optional<SecretKeySelector> key_secret;
  std::string min_version, max_version;  // TLS10..TLS13
  CAPSTAN_CODEC(SafeTLSConfig);
};

struct BasicAuth {
  std::optional<SecretKeySelector> username, password;
  CAPSTAN_CODEC(BasicAuth);
};

// The Authorization header: `type` (default Bearer) and the credentials from a Secret.
struct SafeAuthorization {
  std::string type;
  std::optional<SecretKeySelector> credentials;
  CAPSTAN_CODEC(SafeAuthorization);
};

struct OAuth2 {
  SecretOrConfigMap client_id;
  SecretKeySelector client_secret;
  std::string token_url;
  std::vector<std::string> scopes;
  std::map<std::string, std::string> endpoint_params;
  CAPSTAN_CODEC(OAuth2);
};

// How a scrape authenticates (at most one of them): what monitors' endpoints, Probes and
// ScrapeConfigs share. Secret values reach Prometheus as files, never in its configuration, but
// the basic-auth username and the OAuth2 client id (which Prometheus takes only inline).
struct HttpCredentials {
  std::optional<BasicAuth> basic_auth;
  std::optional<SafeAuthorization> authorization;
  std::optional<SecretKeySelector> bearer_token_secret;  // deprecated there in favour of authorization
  std::optional<OAuth2> oauth2;
};

// Metadata Kubernetes discovery attaches to the targets: the node's labels (needs node get/list/watch).
struct AttachMetadata {
  std::optional<bool> node;
  CAPSTAN_CODEC(AttachMetadata);
};

// A scrape class's TLS: files on the Prometheus pods (mounted by the user), filling in what an
// object's tlsConfig leaves out.
struct ScrapeClassTLSConfig {
  std::string ca_file, cert_file, key_file, server_name;
  bool insecure_skip_verify = false;
  CAPSTAN_CODEC(ScrapeClassTLSConfig);
};

struct ScrapeClassAuthorization {
  std::string type;  // "" = Bearer
  std::string credentials_file;
  CAPSTAN_CODEC(ScrapeClassAuthorization);
};

// A scrape class (a Prometheus's spec.scrapeClasses): what the objects that name it (spec.scrapeClass)
// or, for the default class, that name none, get — TLS files and authorization where they set
// none, relabelings and metric relabelings before their own, attachMetadata.
struct ScrapeClass {
  std::string name;
  bool default_ = false;
  std::optional<ScrapeClassTLSConfig> tls_config;
  std::optional<ScrapeClassAuthorization> authorization;
  std::vector<RelabelConfig> relabelings, metric_relabelings;
  std::optional<AttachMetadata> attach_metadata;
  CAPSTAN_CODEC(ScrapeClass);
};

// ---- Prometheus ----

struct RemoteWriteSpec {
  std::string url, name, remote_timeout;
  CAPSTAN_CODEC(RemoteWriteSpec);
};

struct EmbeddedObjectMetadata {
  std::map<std::string, std::string> labels, annotations;
  CAPSTAN_CODEC(EmbeddedObjectMetadata);
};

// The metadata a PersistentVolumeClaim template may set (prometheus-operator's EmbeddedObjectMetadata).
struct ClaimMetadata {
  std::string name;  // "" = prometheus-<name>-db
  std::map<std::string, std::string> labels, annotations;
  CAPSTAN_CODEC(ClaimMetadata);
};

// A PersistentVolumeClaim template of the StatefulSet: one claim per pod, kept across restarts.
struct ClaimTemplate {
  std::optional<ClaimMetadata> metadata;
  json::Value spec;  // a PersistentVolumeClaimSpec, passed through as it is
  CAPSTAN_CODEC(ClaimTemplate);
};

// Where the TSDB lives (prometheus-operator's StorageSpec): an emptyDir by default; at most one of
// emptyDir, ephemeral and volumeClaimTemplate.
struct StorageSpec {
  bool disable_mount_sub_path = false;
  std::optional<json::Value> empty_dir;  // an EmptyDirVolumeSource
  std::optional<json::Value> ephemeral;  // an EphemeralVolumeSource
  std::optional<ClaimTemplate> volume_claim_template;
  CAPSTAN_CODEC(StorageSpec);
};

// An Alertmanager Service the Prometheus sends its alerts to (prometheus-operator's
// AlertmanagerEndpoints): the pods behind it, found through their endpoints.
struct AlertmanagerEndpoints {
  std::string namespace_;  // "" = the Prometheus's
  std::string name;        // the Service, e.g. alertmanager-operated
  json::Value port;        // its port's name or number
  std::string scheme, path_prefix, api_version, timeout;
  CAPSTAN_CODEC(AlertmanagerEndpoints);
};

struct AlertingSpec {
  std::vector<AlertmanagerEndpoints> alertmanagers;
  CAPSTAN_CODEC(AlertingSpec);
};

struct PrometheusSpec {
  std::string version;  // "" = kDefaultPrometheusVersion
  std::string image;    // "" = base image : version
  std::int32_t replicas = 1;
  // Shards (hashmod of each target's address): one StatefulSet per shard, each scraping its part.
  std::int32_t shards = 1;
  bool paused = false;
  std::string service_account_name;
  std::optional<json::Value> resources;  // passed through to the container as it is
  std::map<std::string, std::string> node_selector;
  std::vector<json::Value> tolerations;  // passed through to the pod as they are
  // The pod settings passed through as they are: affinity, topology spread, security context,
  // priority class, image pull secrets.
  std::optional<json::Value> affinity, security_context;
  std::vector<json::Value> topology_spread_constraints, image_pull_secrets;
  std::string priority_class_name;
  // Merged into the generated pod by name: a container named prometheus or config-reloader
  // changes the generated one (volumeMounts by mountPath and env by name are merged, any other
  // field replaced); other names are added. volumeMounts are added to the prometheus container.
  std::vector<json::Value> containers, init_containers, volumes, volume_mounts;
  std::optional<StorageSpec> storage;
  std::optional<json::Value> persistent_volume_claim_retention_policy;
  std::optional<EmbeddedObjectMetadata> pod_metadata;
  std::string retention, retention_size;
  std::string scrape_interval{kDefaultScrapeInterval}, scrape_timeout, evaluation_interval{kDefaultEvaluationInterval};
  std::map<std::string, std::string> external_labels;
  std::string replica_external_label_name{kDefaultReplicaLabel};
  std::string prometheus_external_label_name{kDefaultPrometheusLabel};
  // Selectors as written (nullopt = the member is absent: selects nothing; for namespace
  // selectors, only the Prometheus's own namespace).
  std::optional<json::Value> service_monitor_selector, service_monitor_namespace_selector;
  std::optional<json::Value> pod_monitor_selector, pod_monitor_namespace_selector;
  std::optional<json::Value> rule_selector, rule_namespace_selector;
  std::optional<json::Value> probe_selector, probe_namespace_selector;
  std::optional<json::Value> scrape_config_selector, scrape_config_namespace_selector;
  // How ServiceMonitors' targets are discovered: Endpoints (default) or EndpointSlice.
  std::string service_discovery_role;
  std::vector<ScrapeClass> scrape_classes;
  std::vector<RemoteWriteSpec> remote_write;
  std::optional<AlertingSpec> alerting;
  // Scrape configurations written by hand (a YAML list of scrape_config), appended to the
  // generated jobs.
  std::optional<SecretKeySelector> additional_scrape_configs;
  std::string log_level, log_format;
  std::vector<std::string> enable_features;
  std::string external_url, route_prefix;
  std::string port_name{kDefaultPortName};

  std::string effective_image() const;
  std::string effective_version() const { return version.empty() ? std::string(kDefaultPrometheusVersion) : version; }
  // retention, defaulting to 24h only when neither retention nor retentionSize is set.
  std::string effective_retention() const;
  CAPSTAN_CODEC(PrometheusSpec);
};

// A Prometheus agent (prometheus-operator's PrometheusAgent, v1alpha1 there): the fields a
// Prometheus server and an agent share. Scrapes and remote-writes; no rules, alerting, retention
// or local queries (the members of PrometheusSpec it has not keep their defaults and are unused).
struct PrometheusAgentSpec : PrometheusSpec {
  CAPSTAN_CODEC(PrometheusAgentSpec);
};

struct PrometheusStatus {
  bool paused = false;
  std::int32_t replicas = 0, updated_replicas = 0, available_replicas = 0, unavailable_replicas = 0;
  std::int32_t shards = 0;
  std::string selector;
  std::vector<meta::Condition> conditions;  // Available, Reconciled
  CAPSTAN_CODEC(PrometheusStatus);
};

// ---- ServiceMonitor and PodMonitor ----

// What a ServiceMonitor's endpoint and a PodMonitor's podMetricsEndpoint share.
struct ScrapeEndpoint : HttpCredentials {
  std::string port;
  std::optional<json::Value> target_port;  // a name or a number
  std::string path, scheme;
  std::map<std::string, std::vector<std::string>> params;
  std::string interval, scrape_timeout;
  bool honor_labels = false;
  std::optional<bool> honor_timestamps;
  std::vector<RelabelConfig> relabelings, metric_relabelings;
  std::optional<bool> filter_running;  // absent = true
  std::optional<bool> follow_redirects, enable_http2;
  std::optional<SafeTLSConfig> tls_config;
};

struct Endpoint : ScrapeEndpoint {
  CAPSTAN_CODEC(Endpoint);
};

struct PodMetricsEndpoint : ScrapeEndpoint {
  std::optional<std::int32_t> port_number;
  CAPSTAN_CODEC(PodMetricsEndpoint);
};

// What a ServiceMonitor's and a PodMonitor's spec share.
struct MonitorSpec {
  json::Value selector;  // metav1.LabelSelector as written; null = every object
  NamespaceSelector namespace_selector;
  std::string job_label;
  std::vector<std::string> pod_target_labels;
  std::int64_t sample_limit = 0, target_limit = 0;  // 0 = no limit
  std::optional<AttachMetadata> attach_metadata;
  std::string scrape_class;  // "" = the Prometheus's default class, if it has one
};

struct ServiceMonitorSpec : MonitorSpec {
  std::vector<std::string> target_labels;
  std::string service_discovery_role;  // Endpoints | EndpointSlice; "" = the Prometheus's
  std::vector<Endpoint> endpoints;
  CAPSTAN_CODEC(ServiceMonitorSpec);
};

struct PodMonitorSpec : MonitorSpec {
  std::vector<PodMetricsEndpoint> pod_metrics_endpoints;
  CAPSTAN_CODEC(PodMonitorSpec);
};

// One workload that selects a monitor or rule (prometheus-operator's WorkloadBinding): which
// Prometheus, and whether it took the object (condition Accepted, with the reason when not).
struct WorkloadBinding {
  std::string group, resource, name, namespace_;
  std::vector<meta::Condition> conditions;  // Accepted
  CAPSTAN_CODEC(WorkloadBinding);
};

// The status of monitors and rules (prometheus-operator's ConfigResourceStatus).
struct ConfigResourceStatus {
  std::vector<WorkloadBinding> bindings;  // sorted by namespace, then name
  CAPSTAN_CODEC(ConfigResourceStatus);
};

// ---- PrometheusRule (Prometheus's own rule file format, snake_case included) ----

struct Rule {
  std::string record, alert;
  std::optional<json::Value> expr;  // a PromQL string (or a number)
  std::string for_, keep_firing_for;
  std::map<std::string, std::string> labels, annotations;
  CAPSTAN_CODEC(Rule);
};

struct RuleGroup {
  std::string name, interval, query_offset;
  std::int64_t limit = 0;
  std::map<std::string, std::string> labels;
  std::vector<Rule> rules;
  CAPSTAN_CODEC(RuleGroup);
};

struct PrometheusRuleSpec {
  std::vector<RuleGroup> groups;
  CAPSTAN_CODEC(PrometheusRuleSpec);
};

// ---- Alertmanager ----

inline constexpr std::string_view kDefaultAlertmanagerVersion = "v0.28.1";
inline constexpr std::string_view kDefaultAlertmanagerBaseImage = "quay.io/prometheus/alertmanager";
inline constexpr std::string_view kDefaultAlertmanagerRetention = "120h";

// How the AlertmanagerConfigs' routes and inhibit rules are confined (prometheus-operator's
// alertmanagerConfigMatcherStrategy): OnNamespace adds namespace="<its namespace>" to each; None
// adds nothing.
struct MatcherStrategy {
  std::string type = "OnNamespace";
  CAPSTAN_CODEC(MatcherStrategy);
};

struct AlertmanagerSpec {
  std::string version;  // "" = kDefaultAlertmanagerVersion
  std::string image;    // "" = base image : version
  std::int32_t replicas = 1;
  bool paused = false;
  std::string service_account_name;
  std::optional<json::Value> resources;
  std::map<std::string, std::string> node_selector;
  std::vector<json::Value> tolerations;
  std::optional<json::Value> affinity, security_context;
  std::string priority_class_name;
  std::vector<json::Value> topology_spread_constraints, image_pull_secrets, containers, init_containers, volumes;
  std::optional<EmbeddedObjectMetadata> pod_metadata;
  // Silences and the notification log: an emptyDir unless set (a claim per pod, kept across
  // restarts, or an ephemeral volume).
  std::optional<StorageSpec> storage;
  std::optional<json::Value> persistent_volume_claim_retention_policy;
  std::string retention{kDefaultAlertmanagerRetention};
  std::string external_url, route_prefix, log_level, log_format;
  // The Secret holding the base configuration (key alertmanager.yaml); "" = alertmanager-<name>.
  // Missing: a configuration whose route sends everything to the receiver "null".
  std::string config_secret;
  std::optional<json::Value> alertmanager_config_selector, alertmanager_config_namespace_selector;
  MatcherStrategy alertmanager_config_matcher_strategy;
  std::string port_name{kDefaultPortName};

  std::string effective_image() const;
  CAPSTAN_CODEC(AlertmanagerSpec);
};

struct AlertmanagerStatus {
  bool paused = false;
  std::int32_t replicas = 0, updated_replicas = 0, available_replicas = 0, unavailable_replicas = 0;
  std::vector<meta::Condition> conditions;  // Available, Reconciled
  CAPSTAN_CODEC(AlertmanagerStatus);
};

// ---- AlertmanagerConfig (prometheus-operator's monitoring.coreos.com/v1alpha1 fields) ----

// A label matcher: name, value, matchType (=, !=, =~, !~; default =).
struct Matcher {
  std::string name, value, match_type;
  CAPSTAN_CODEC(Matcher);
};

struct WebhookConfig {
  std::string url;
  std::optional<SecretKeySelector> url_secret;  // wins over url; read from the config's namespace
  std::optional<bool> send_resolved;
  std::int32_t max_alerts = 0;
  CAPSTAN_CODEC(WebhookConfig);
};

struct KeyValue {
  std::string key, value;
  CAPSTAN_CODEC(KeyValue);
};

// Slack: the incoming-webhook URL from a Secret (or the base configuration's global
// slack_api_url).
struct SlackConfig {
  std::optional<bool> send_resolved;
  std::optional<SecretKeySelector> api_url;
  std::string channel, username, color, title, title_link, pretext, text, footer, fallback, icon_emoji, icon_url;
  std::optional<bool> link_names;
  CAPSTAN_CODEC(SlackConfig);
};

// PagerDuty: an Events API v2 routing key or a v1 service key, from a Secret.
struct PagerDutyConfig {
  std::optional<bool> send_resolved;
  std::optional<SecretKeySelector> routing_key, service_key;
  std::string url, client, client_url, description, severity, class_, group, component;
  std::vector<KeyValue> details;
  CAPSTAN_CODEC(PagerDutyConfig);
};

struct OpsGenieConfigResponder {
  std::string id, name, username, type;
  CAPSTAN_CODEC(OpsGenieConfigResponder);
};

// Opsgenie: the API key from a Secret (or the base configuration's global opsgenie_api_key).
struct OpsGenieConfig {
  std::optional<bool> send_resolved;
  std::optional<SecretKeySelector> api_key;
  std::string api_url, message, description, source, tags, note, priority, entity, actions;
  std::vector<KeyValue> details;
  std::vector<OpsGenieConfigResponder> responders;
  CAPSTAN_CODEC(OpsGenieConfig);
};

// E-mail through an SMTP smarthost (or the base configuration's global smtp_*).
struct EmailConfig {
  std::optional<bool> send_resolved;
  std::string to, from, hello, smarthost, auth_username, auth_identity, html, text;
  std::optional<SecretKeySelector> auth_password, auth_secret;
  std::vector<KeyValue> headers;
  std::optional<bool> require_tls;
  CAPSTAN_CODEC(EmailConfig);
};

struct Receiver {
  std::string name;
  std::vector<WebhookConfig> webhook_configs;
  std::vector<SlackConfig> slack_configs;
  std::vector<PagerDutyConfig> pagerduty_configs;
  std::vector<OpsGenieConfig> opsgenie_configs;
  std::vector<EmailConfig> email_configs;
  CAPSTAN_CODEC(Receiver);
};

// When a route is muted (muteTimeIntervals) or active (activeTimeIntervals): Alertmanager's
// time_interval, each member a set of ranges ("09:00"-"17:00", "monday:friday", "1:7", "2024:2025").
struct TimeRange {
  std::string start_time, end_time;  // HH:MM
  CAPSTAN_CODEC(TimeRange);
};

struct DayOfMonthRange {
  std::int32_t start = 0, end = 0;  // 1..31, or -31..-1 from the month's end
  CAPSTAN_CODEC(DayOfMonthRange);
};

struct TimeInterval {
  std::vector<TimeRange> times;
  std::vector<std::string> weekdays, months, years;
  std::vector<DayOfMonthRange> days_of_month;
  CAPSTAN_CODEC(TimeInterval);
};

struct MuteTimeInterval {
  std::string name;
  std::vector<TimeInterval> time_intervals;
  CAPSTAN_CODEC(MuteTimeInterval);
};

struct InhibitRule {
  std::vector<Matcher> source_match, target_match;
  std::vector<std::string> equal;
  CAPSTAN_CODEC(InhibitRule);
};

// The route of an AlertmanagerConfig; child routes are routes of the same shape (kept as written,
// read by the controller, which bounds their depth).
struct Route {
  std::string receiver;
  std::vector<std::string> group_by;
  std::string group_wait, group_interval, repeat_interval;
  std::vector<Matcher> matchers;
  bool continue_ = false;
  std::vector<json::Value> routes;
  std::vector<std::string> mute_time_intervals, active_time_intervals;  // names of the object's muteTimeIntervals
  CAPSTAN_CODEC(Route);
};

struct AlertmanagerConfigSpec {
  std::optional<Route> route;
  std::vector<Receiver> receivers;
  std::vector<InhibitRule> inhibit_rules;
  std::vector<MuteTimeInterval> mute_time_intervals;
  CAPSTAN_CODEC(AlertmanagerConfigSpec);
};

// ---- Probe (blackbox exporter targets) ----

// The prober (a blackbox exporter): where it listens ("host:port", no scheme), how it is asked.
struct ProberSpec {
  std::string url;
  std::string scheme;                 // "" = http
  std::string path{kDefaultProbePath};
  CAPSTAN_CODEC(ProberSpec);
};

struct ProbeParam {
  std::string name;
  std::vector<std::string> values;
  CAPSTAN_CODEC(ProbeParam);
};

// Targets written out (URLs or host:port, as the module expects), with labels of their own.
struct ProbeTargetStaticConfig {
  std::vector<std::string> static_;
  std::map<std::string, std::string> labels;
  std::vector<RelabelConfig> relabeling_configs;
  CAPSTAN_CODEC(ProbeTargetStaticConfig);
};

// Targets discovered from Ingresses: each host and path becomes <scheme>://<host><path>.
struct ProbeTargetIngress {
  json::Value selector;  // metav1.LabelSelector as written; null = every Ingress
  NamespaceSelector namespace_selector;
  std::vector<RelabelConfig> relabeling_configs;
  CAPSTAN_CODEC(ProbeTargetIngress);
};

// staticConfig wins when both are set (as prometheus-operator documents).
struct ProbeTargets {
  std::optional<ProbeTargetStaticConfig> static_config;
  std::optional<ProbeTargetIngress> ingress;
  CAPSTAN_CODEC(ProbeTargets);
};

struct ProbeSpec : HttpCredentials {
  std::string job_name;  // "" = the generated job name
  ProberSpec prober;
  std::string module;
  ProbeTargets targets;
  std::string interval, scrape_timeout;
  std::vector<ProbeParam> params;
  std::vector<RelabelConfig> metric_relabelings;
  std::optional<SafeTLSConfig> tls_config;
  std::int64_t sample_limit = 0, target_limit = 0;  // 0 = no limit
  std::string scrape_class;
  CAPSTAN_CODEC(ProbeSpec);
};

// ---- ScrapeConfig (a scrape job written out, with the discovery mechanisms below) ----

struct StaticConfig {
  std::vector<std::string> targets;
  std::map<std::string, std::string> labels;
  CAPSTAN_CODEC(StaticConfig);
};

struct FileSDConfig {
  std::vector<std::string> files;  // on the Prometheus pod; *.json, *.yml or *.yaml, a * in the file name only
  std::string refresh_interval;
  CAPSTAN_CODEC(FileSDConfig);
};

struct HTTPSDConfig : HttpCredentials {
  std::string url;
  std::string refresh_interval;
  std::optional<SafeTLSConfig> tls_config;
  CAPSTAN_CODEC(HTTPSDConfig);
};

struct K8SNamespaceDiscovery {
  std::optional<bool> own_namespace;
  std::vector<std::string> names;
  CAPSTAN_CODEC(K8SNamespaceDiscovery);
};

struct K8SSelectorConfig {
  std::string role, label, field;
  CAPSTAN_CODEC(K8SSelectorConfig);
};

struct KubernetesSDConfig {
  std::string role;  // Pod, Service, Endpoints, EndpointSlice, Ingress, Node (any case)
  std::optional<K8SNamespaceDiscovery> namespaces;
  std::vector<K8SSelectorConfig> selectors;
  std::optional<AttachMetadata> attach_metadata;
  CAPSTAN_CODEC(KubernetesSDConfig);
};

struct ScrapeConfigSpec : HttpCredentials {
  std::string job_name;  // "" = the generated job name
  std::vector<StaticConfig> static_configs;
  std::vector<FileSDConfig> file_sd_configs;
  std::vector<HTTPSDConfig> http_sd_configs;
  std::vector<KubernetesSDConfig> kubernetes_sd_configs;
  std::vector<RelabelConfig> relabelings, metric_relabelings;
  std::string metrics_path, scrape_interval, scrape_timeout, scheme;
  std::optional<bool> honor_labels, honor_timestamps;
  std::map<std::string, std::vector<std::string>> params;
  std::optional<SafeTLSConfig> tls_config;
  std::int64_t sample_limit = 0, target_limit = 0;  // 0 = no limit
  std::string scrape_class;
  CAPSTAN_CODEC(ScrapeConfigSpec);
};

using Prometheus = codec::Resource<PrometheusSpec, PrometheusStatus>;
using PrometheusAgent = codec::Resource<PrometheusAgentSpec, PrometheusStatus>;
using Alertmanager = codec::Resource<AlertmanagerSpec, AlertmanagerStatus>;
using AlertmanagerConfig = codec::Resource<AlertmanagerConfigSpec, ConfigResourceStatus>;
using ServiceMonitor = codec::Resource<ServiceMonitorSpec, ConfigResourceStatus>;
using PodMonitor = codec::Resource<PodMonitorSpec, ConfigResourceStatus>;
using PrometheusRule = codec::Resource<PrometheusRuleSpec, ConfigResourceStatus>;
using Probe = codec::Resource<ProbeSpec, ConfigResourceStatus>;
using ScrapeConfig = codec::Resource<ScrapeConfigSpec, ConfigResourceStatus>;

}  // namespace capstan::apis::monitoring::v1
