// The fields of Probe and ScrapeConfig: prometheus-operator's names, limited to what Capstan
// implements (types.h lists them).
#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/schema_common.h"
#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using codec::field;
using openapi::Schema;

// Targets are URLs or host:port; a label value is any string.
Schema targets(std::string_view description) {
  return std::move(Schema::array(Schema::string("A target.").min_length(1).max_length(2048), description).max_items(1024));
}

Schema labels(std::string_view description) { return std::move(Schema::string_map(description).max_properties(64)); }

const auto& prober_fields() {
  using P = ProberSpec;
  static const auto table = codec::table<P>(
      "The prober (a blackbox exporter) the targets are probed through.",
      field("url", &P::url, Schema::string("Where the prober listens: host:port, without a scheme.").min_length(1).max_length(2048)).required(),
      field("scheme", &P::scheme, Schema::string_enum({"http", "https", "HTTP", "HTTPS"}, "HTTP scheme of the prober (default http).")),
      field("path", &P::path, Schema::string("HTTP path of the prober (default /probe).").max_length(2048)));
  return table;
}

const auto& probe_param_fields() {
  static const auto table = codec::table<ProbeParam>(
      "A URL parameter of the probe request.",
      field("name", &ProbeParam::name, Schema::string("The parameter's name.").min_length(1).max_length(253)).required(),
      field("values", &ProbeParam::values, Schema::strings("Its values.").max_items(64)));
  return table;
}

const auto& static_target_fields() {
  using T = ProbeTargetStaticConfig;
  static const auto table = codec::table<T>(
      "Targets written out.", field("static", &T::static_, targets("The targets, as the prober's module expects them (URLs, host:port).")),
      field("labels", &T::labels, labels("Labels given to every target (namespace defaults to the Probe's).")),
      field("relabelingConfigs", &T::relabeling_configs, relabelings("Relabelings applied to the targets.")));
  return table;
}

const auto& ingress_target_fields() {
  using T = ProbeTargetIngress;
  static const auto table = codec::table<T>(
      "Targets discovered from Ingresses: each rule's host and path.",
      field("selector", &T::selector, openapi::label_selector("Label selector of the Ingresses.")),
      field("namespaceSelector", &T::namespace_selector, NamespaceSelector::schema()),
      field("relabelingConfigs", &T::relabeling_configs, relabelings("Relabelings applied to the targets.")));
  return table;
}

const auto& probe_targets_fields() {
  static const auto table = codec::table<ProbeTargets>(
      "What to probe: staticConfig, or ingress (staticConfig wins when both are set).",
      field("staticConfig", &ProbeTargets::static_config, ProbeTargetStaticConfig::schema()),
      field("ingress", &ProbeTargets::ingress, ProbeTargetIngress::schema()));
  return table;
}

const auto& probe_fields() {
  using S = ProbeSpec;
  static const auto table = codec::table<S>(
      "Which targets to probe, through which prober and module.",
      std::tuple_cat(std::make_tuple(
          field("jobName", &S::job_name, Schema::string("The job label of the probes (default: the generated job name).").max_length(253)),
          field("prober", &S::prober, ProberSpec::schema()).required(),
          field("module", &S::module, Schema::string("The prober's module (http_2xx, tcp_connect, ...).").max_length(253)),
          field("targets", &S::targets, ProbeTargets::schema()).required(),
          field("interval", &S::interval, duration("Probe interval (default: the Prometheus scrapeInterval).")),
          field("scrapeTimeout", &S::scrape_timeout, duration("Probe timeout.")),
          field("params", &S::params, Schema::array(ProbeParam::schema(), "URL parameters of the probe request.").max_items(64)),
          field("metricRelabelings", &S::metric_relabelings, relabelings("Relabelings applied to samples before ingestion.")),
          field("tlsConfig", &S::tls_config, SafeTLSConfig::schema()),
          field("sampleLimit", &S::sample_limit, Schema::integer("Samples per probe above which it fails.", "int64").minimum(0)),
          field("targetLimit", &S::target_limit, Schema::integer("Targets above which the probes fail.", "int64").minimum(0)),
          bearer_token_field<S>(), scrape_class_field<S>()),
      credential_fields<S>()));
  return table;
}

const auto& static_config_fields() {
  static const auto table = codec::table<StaticConfig>(
      "Targets written out.", field("targets", &StaticConfig::targets, targets("The targets (host:port).")).required(),
      field("labels", &StaticConfig::labels, labels("Labels given to every target.")));
  return table;
}

const auto& file_sd_fields() {
  static const auto table = codec::table<FileSDConfig>(
      "Targets read from files on the Prometheus pod.",
      field("files", &FileSDConfig::files,
            Schema::array(Schema::string("A path: *.json, *.yml or *.yaml, with a * in the file name only.").min_length(1).max_length(4096),
                          "The files.")
                .min_items(1)
                .max_items(64))
          .required(),
      field("refreshInterval", &FileSDConfig::refresh_interval, duration("How often the files are read again (default 5m).")));
  return table;
}

const auto& http_sd_fields() {
  using H = HTTPSDConfig;
  static const auto table = codec::table<H>(
      "Targets fetched from an HTTP endpoint (Prometheus's HTTP service discovery format).",
      std::tuple_cat(std::make_tuple(field("url", &H::url, Schema::string("The endpoint's URL (http or https).").min_length(1).max_length(2048)).required(),
                                     field("refreshInterval", &H::refresh_interval, duration("How often it is fetched again (default 60s).")),
                                     field("tlsConfig", &H::tls_config, SafeTLSConfig::schema())),
                     credential_fields<H>()));
  return table;
}

// Kubernetes service discovery roles, as prometheus-operator's CRD spells them or lowercased.
constexpr std::string_view kRoles[] = {"Pod",           "pod",     "Service", "service", "Endpoints", "endpoints",
                                       "EndpointSlice", "endpointslice", "Ingress", "ingress", "Node", "node"};

const auto& k8s_namespaces_fields() {
  using N = K8SNamespaceDiscovery;
  static const auto table = codec::table<N>(
      "The namespaces discovery looks in (default every namespace).",
      field("ownNamespace", &N::own_namespace, Schema::boolean("Also the Prometheus's own namespace.")),
      field("names", &N::names, Schema::array(openapi::namespace_name("A namespace."), "Names of the namespaces.").max_items(1024)));
  return table;
}

const auto& k8s_selector_fields() {
  using K = K8SSelectorConfig;
  static const auto table = codec::table<K>(
      "A label or field selector the API server applies to the discovered role's objects.",
      field("role", &K::role, Schema::string_enum(kRoles, "The role the selector applies to.")).required(),
      field("label", &K::label, Schema::string("A label selector (app=web,tier!=db).").max_length(1024)),
      field("field", &K::field, Schema::string("A field selector (metadata.name=web).").max_length(1024)));
  return table;
}

const auto& attach_metadata_fields() {
  static const auto table = codec::table<AttachMetadata>(
      "Metadata attached to the targets.",
      field("node", &AttachMetadata::node, Schema::boolean("The node's labels (__meta_kubernetes_node_label_*); needs node get/list/watch.")));
  return table;
}

const auto& kubernetes_sd_fields() {
  using K = KubernetesSDConfig;
  static const auto table = codec::table<K>(
      "Targets discovered from the cluster's API server (the Prometheus's own credentials).",
      field("role", &K::role, Schema::string_enum(kRoles, "The kind of object whose addresses become targets.")).required(),
      field("namespaces", &K::namespaces, K8SNamespaceDiscovery::schema()),
      field("selectors", &K::selectors, Schema::array(K8SSelectorConfig::schema(), "Selectors narrowing the discovery.").max_items(16)),
      field("attachMetadata", &K::attach_metadata, AttachMetadata::schema()));
  return table;
}

const auto& scrape_config_fields() {
  using S = ScrapeConfigSpec;
  static const auto table = codec::table<S>(
      "A scrape job: its targets' discovery and how they are scraped.",
      std::tuple_cat(std::make_tuple(
          field("jobName", &S::job_name, Schema::string("The job label of the targets (default: the generated job name).").max_length(253)),
          field("staticConfigs", &S::static_configs, Schema::array(StaticConfig::schema(), "Targets written out.").max_items(64)),
          field("fileSDConfigs", &S::file_sd_configs, Schema::array(FileSDConfig::schema(), "Targets read from files.").max_items(16)),
          field("httpSDConfigs", &S::http_sd_configs, Schema::array(HTTPSDConfig::schema(), "Targets fetched over HTTP.").max_items(16)),
          field("kubernetesSDConfigs", &S::kubernetes_sd_configs,
                Schema::array(KubernetesSDConfig::schema(), "Targets discovered in the cluster.").max_items(16)),
          field("relabelings", &S::relabelings, relabelings("Relabelings applied to the targets before scraping.")),
          field("metricRelabelings", &S::metric_relabelings, relabelings("Relabelings applied to samples before ingestion.")),
          field("metricsPath", &S::metrics_path, Schema::string("HTTP path of the metrics (default /metrics).").max_length(2048)),
          field("scrapeInterval", &S::scrape_interval, duration("Scrape interval (default: the Prometheus scrapeInterval).")),
          field("scrapeTimeout", &S::scrape_timeout, duration("Scrape timeout.")),
          field("scheme", &S::scheme, Schema::string_enum({"http", "https", "HTTP", "HTTPS"}, "HTTP scheme of the scrape.")),
          field("honorLabels", &S::honor_labels, Schema::boolean("Keep the target's labels when they clash with the server's.")),
          field("honorTimestamps", &S::honor_timestamps, Schema::boolean("Keep the timestamps the target exposes.")),
          field("params", &S::params, Schema::map(Schema::strings(), "URL parameters of the scrape.").max_properties(64)),
          field("tlsConfig", &S::tls_config, SafeTLSConfig::schema()),
          field("sampleLimit", &S::sample_limit, Schema::integer("Samples per scrape above which the scrape fails.", "int64").minimum(0)),
          field("targetLimit", &S::target_limit, Schema::integer("Targets above which the scrape fails.", "int64").minimum(0)),
          scrape_class_field<S>()),
      credential_fields<S>()));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(ProberSpec, prober_fields)
CAPSTAN_CODEC_FROM(ProbeParam, probe_param_fields)
CAPSTAN_CODEC_FROM(ProbeTargetStaticConfig, static_target_fields)
CAPSTAN_CODEC_FROM(ProbeTargetIngress, ingress_target_fields)
CAPSTAN_CODEC_FROM(ProbeTargets, probe_targets_fields)
CAPSTAN_CODEC_FROM(ProbeSpec, probe_fields)
CAPSTAN_CODEC_FROM(StaticConfig, static_config_fields)
CAPSTAN_CODEC_FROM(FileSDConfig, file_sd_fields)
CAPSTAN_CODEC_FROM(HTTPSDConfig, http_sd_fields)
CAPSTAN_CODEC_FROM(K8SNamespaceDiscovery, k8s_namespaces_fields)
CAPSTAN_CODEC_FROM(K8SSelectorConfig, k8s_selector_fields)
CAPSTAN_CODEC_FROM(AttachMetadata, attach_metadata_fields)
CAPSTAN_CODEC_FROM(KubernetesSDConfig, kubernetes_sd_fields)
CAPSTAN_CODEC_FROM(ScrapeConfigSpec, scrape_config_fields)

json::Value probe_schema() {
  return openapi::root(kApiVersion, "A Probe declares targets probed through a blackbox exporter.", ProbeSpec::schema(),
                       ConfigResourceStatus::schema())
      .json();
}

json::Value scrape_config_schema() {
  return openapi::root(kApiVersion, "A ScrapeConfig declares a scrape job: static targets, files, HTTP or Kubernetes discovery.",
                       ScrapeConfigSpec::schema(), ConfigResourceStatus::schema())
      .json();
}

}  // namespace capstan::apis::monitoring::v1
