// The fields of Prometheus: prometheus-operator's names, limited to what Capstan implements.
#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/schema_common.h"
#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& remote_write_fields() {
  static const auto table = codec::table<RemoteWriteSpec>(
      "A remote write endpoint.",
      field("url", &RemoteWriteSpec::url, Schema::string("URL of the endpoint.").min_length(1).max_length(2048)).required(),
      field("name", &RemoteWriteSpec::name, Schema::string("Name of the queue, unique per Prometheus.")),
      field("remoteTimeout", &RemoteWriteSpec::remote_timeout, duration("Timeout of a request (default 30s).")));
  return table;
}

const auto& alertmanager_endpoints_fields() {
  using A = AlertmanagerEndpoints;
  static const auto table = codec::table<A>(
      "An Alertmanager Service the alerts go to (each pod behind it).",
      field("namespace", &A::namespace_, openapi::namespace_name("Namespace of the Service (default the Prometheus's).")),
      field("name", &A::name, openapi::object_name("Name of the Service, e.g. alertmanager-operated.")).required(),
      field("port", &A::port, Schema::int_or_string("Name or number of the Service's port, e.g. web.")).required(),
      field("scheme", &A::scheme, Schema::string_enum({"", "http", "https", "HTTP", "HTTPS"}, "Scheme (default http).")),
      field("pathPrefix", &A::path_prefix, Schema::string("Path prefix of the Alertmanager API (default /).").max_length(256)),
      field("apiVersion", &A::api_version, Schema::string_enum({"", "v2", "V2"}, "Alertmanager API version (v2).")),
      field("timeout", &A::timeout, duration("Timeout of a push of alerts (default 10s).")));
  return table;
}

const auto& alerting_fields() {
  static const auto table = codec::table<AlertingSpec>(
      "Where the Prometheus sends its alerts.",
      field("alertmanagers", &AlertingSpec::alertmanagers, Schema::array(AlertmanagerEndpoints::schema(), "Alertmanager Services.").max_items(16))
          .required());
  return table;
}

const auto& pod_metadata_fields() {
  static const auto table = codec::table<EmbeddedObjectMetadata>(
      "Labels and annotations of the pods.", field("labels", &EmbeddedObjectMetadata::labels, Schema::string_map("Labels of the pods.")),
      field("annotations", &EmbeddedObjectMetadata::annotations, Schema::string_map("Annotations of the pods.")));
  return table;
}

const auto& scrape_class_tls_fields() {
  using T = ScrapeClassTLSConfig;
  static const auto table = codec::table<T>(
      "TLS files on the Prometheus pods (mount them with volumes), filling in what an object's tlsConfig leaves out.",
      field("caFile", &T::ca_file, Schema::string("The CA certificates.").max_length(4096)),
      field("certFile", &T::cert_file, Schema::string("The client certificate.").max_length(4096)),
      field("keyFile", &T::key_file, Schema::string("The client certificate's key.").max_length(4096)),
      field("serverName", &T::server_name, Schema::string("Server name the certificate must carry.").max_length(253)),
      field("insecureSkipVerify", &T::insecure_skip_verify, Schema::boolean("Do not verify the certificate.")));
  return table;
}

const auto& scrape_class_authorization_fields() {
  using A = ScrapeClassAuthorization;
  static const auto table = codec::table<A>(
      "The Authorization header of objects that set no authentication of their own.",
      field("type", &A::type, Schema::string("The scheme (default Bearer).").max_length(64)),
      field("credentialsFile", &A::credentials_file, Schema::string("A file on the Prometheus pods holding the credentials.").min_length(1).max_length(4096))
          .required());
  return table;
}

const auto& scrape_class_fields() {
  using C = ScrapeClass;
  static const auto table = codec::table<C>(
      "Settings the objects naming this class in spec.scrapeClass get (or, for the default class, the objects naming none).",
      field("name", &C::name, Schema::string("The class's name.").min_length(1).max_length(253)).required(),
      field("default", &C::default_, Schema::boolean("The class of the objects that name none (at most one).")),
      field("tlsConfig", &C::tls_config, ScrapeClassTLSConfig::schema()),
      field("authorization", &C::authorization, ScrapeClassAuthorization::schema()),
      field("relabelings", &C::relabelings, relabelings("Relabelings applied before the object's own.")),
      field("metricRelabelings", &C::metric_relabelings, relabelings("Metric relabelings applied before the object's own.")),
      field("attachMetadata", &C::attach_metadata, AttachMetadata::schema()));
  return table;
}

const auto& secret_key_fields() {
  using K = SecretKeySelector;
  static const auto table = codec::table<K>(
      "A key of a Secret in the object's namespace.", field("name", &K::name, openapi::object_name("Name of the Secret.")).required(),
      field("key", &K::key, Schema::string("The key of the Secret's data.").min_length(1).max_length(253)).required(),
      field("optional", &K::optional, Schema::boolean("Whether a missing Secret or key is ignored.")));
  return table;
}

const auto& claim_metadata_fields() {
  static const auto table = codec::table<ClaimMetadata>(
      "Metadata of the claims.", field("name", &ClaimMetadata::name, openapi::object_name("Name of the claim template (default prometheus-<name>-db).")),
      field("labels", &ClaimMetadata::labels, Schema::string_map("Labels of the claims.").max_properties(64)),
      field("annotations", &ClaimMetadata::annotations, Schema::string_map("Annotations of the claims.").max_properties(64)));
  return table;
}

const auto& claim_template_fields() {
  static const auto table = codec::table<ClaimTemplate>(
      "A PersistentVolumeClaim per pod for the data, kept when the pod is replaced.",
      field("metadata", &ClaimTemplate::metadata, ClaimMetadata::schema()),
      field("spec", &ClaimTemplate::spec, Schema::open_object("The PersistentVolumeClaimSpec (accessModes, resources, storageClassName...).")).required());
  return table;
}

const auto& storage_fields() {
  using S = StorageSpec;
  static const auto table = codec::table<S>(
      "Where the TSDB lives (default an emptyDir): at most one of emptyDir, ephemeral and volumeClaimTemplate.",
      field("disableMountSubPath", &S::disable_mount_sub_path, Schema::boolean("Mount the volume itself, not its prometheus-db subPath.")),
      field("emptyDir", &S::empty_dir, Schema::open_object("An emptyDir volume (EmptyDirVolumeSource).")),
      field("ephemeral", &S::ephemeral, Schema::open_object("A generic ephemeral volume (EphemeralVolumeSource).")),
      field("volumeClaimTemplate", &S::volume_claim_template, ClaimTemplate::schema()));
  return table;
}

// What a Prometheus server and a Prometheus agent share (prometheus-operator's
// CommonPrometheusFields), as fields of S: the workload, then what is scraped and where it goes.
template <class S>
auto common_fields() {
  return std::tuple_cat(
      std::make_tuple(
          field<S>("version", &S::version, Schema::string("Prometheus version, e.g. v3.13.2; used for the image tag.")),
          field<S>("image", &S::image, Schema::string("Container image (overrides version).")),
          field<S>("replicas", &S::replicas, Schema::integer("Replicas of each shard's StatefulSet (default 1).", "int32").range(0, 100)).always(),
          field<S>("shards", &S::shards,
                   Schema::integer("Shards: targets are split by hashmod of their address, one StatefulSet per shard (default 1).", "int32")
                       .range(1, 64)
                       .default_value(1))
              .always(),
          field<S>("paused", &S::paused, Schema::boolean("Stop reconciling the objects of this resource."))),
      pod_fields<S>("prometheus"),
      std::make_tuple(
          field<S>("volumeMounts", &S::volume_mounts,
                   Schema::array(Schema::open_object("A volume mount of the prometheus container."), "Volume mounts added to the prometheus container.")
                       .max_items(64)),
          field<S>("storage", &S::storage, StorageSpec::schema()),
          field<S>("persistentVolumeClaimRetentionPolicy", &S::persistent_volume_claim_retention_policy,
                   Schema::open_object("When the StatefulSet's claims are deleted (whenDeleted, whenScaled: Retain or Delete).")),
          field<S>("podMetadata", &S::pod_metadata, EmbeddedObjectMetadata::schema()),
          field<S>("scrapeInterval", &S::scrape_interval, duration("Default scrape interval (default 30s).")),
          field<S>("scrapeTimeout", &S::scrape_timeout, duration("Default scrape timeout.")),
          field<S>("externalLabels", &S::external_labels,
                   Schema::string_map("Labels added to every series and alert leaving this Prometheus.").max_properties(64)),
          field<S>("replicaExternalLabelName", &S::replica_external_label_name,
                   Schema::string("External label naming the replica (default prometheus_replica).")),
          field<S>("prometheusExternalLabelName", &S::prometheus_external_label_name,
                   Schema::string("External label naming this Prometheus (default prometheus).")),
          field<S>("serviceMonitorSelector", &S::service_monitor_selector, openapi::label_selector("ServiceMonitors to use: {} all, absent none.")),
          field<S>("serviceMonitorNamespaceSelector", &S::service_monitor_namespace_selector,
                   openapi::label_selector("Namespaces of the ServiceMonitors: {} all, absent own.")),
          field<S>("podMonitorSelector", &S::pod_monitor_selector, openapi::label_selector("PodMonitors to use: {} all, absent none.")),
          field<S>("podMonitorNamespaceSelector", &S::pod_monitor_namespace_selector,
                   openapi::label_selector("Namespaces of the PodMonitors: {} all, absent own.")),
          field<S>("probeSelector", &S::probe_selector, openapi::label_selector("Probes to use: {} all, absent none.")),
          field<S>("probeNamespaceSelector", &S::probe_namespace_selector, openapi::label_selector("Namespaces of the Probes: {} all, absent own.")),
          field<S>("scrapeConfigSelector", &S::scrape_config_selector, openapi::label_selector("ScrapeConfigs to use: {} all, absent none.")),
          field<S>("scrapeConfigNamespaceSelector", &S::scrape_config_namespace_selector,
                   openapi::label_selector("Namespaces of the ScrapeConfigs: {} all, absent own.")),
          field<S>("serviceDiscoveryRole", &S::service_discovery_role,
                   Schema::string_enum({"Endpoints", "EndpointSlice"}, "How ServiceMonitors' targets are discovered (default Endpoints).")),
          field<S>("scrapeClasses", &S::scrape_classes,
                   Schema::array(ScrapeClass::schema(), "Scrape classes the selected objects choose from.").max_items(32)),
          field<S>("remoteWrite", &S::remote_write, Schema::array(RemoteWriteSpec::schema(), "Remote write endpoints.").max_items(32)),
          field<S>("additionalScrapeConfigs", &S::additional_scrape_configs, SecretKeySelector::schema()),
          field<S>("logLevel", &S::log_level, Schema::string_enum({"", "debug", "info", "warn", "error"}, "Log level of Prometheus.")),
          field<S>("logFormat", &S::log_format, Schema::string_enum({"", "logfmt", "json"}, "Log format of Prometheus.")),
          field<S>("enableFeatures", &S::enable_features,
                   Schema::strings("Prometheus feature flags (--enable-feature).").max_items(64).list_type("set")),
          field<S>("externalUrl", &S::external_url, Schema::string("URL Prometheus is reachable at from outside.")),
          field<S>("routePrefix", &S::route_prefix, Schema::string("Prefix of the web routes.")),
          field<S>("portName", &S::port_name, Schema::string("Name of the web port (default web)."))));
}

const auto& spec_fields() {
  using S = PrometheusSpec;
  static const auto table = codec::table<S>(
      "The desired Prometheus deployment and what it selects.",
      std::tuple_cat(
          common_fields<S>(),
          std::make_tuple(
              field("retention", &S::retention, duration("How long to keep data (default 24h when retentionSize is unset too).")),
              field("retentionSize", &S::retention_size, Schema::string("Maximum size of the data, e.g. 10GB.")),
              field("evaluationInterval", &S::evaluation_interval, duration("Rule evaluation interval (default 30s).")),
              field("ruleSelector", &S::rule_selector, openapi::label_selector("PrometheusRules to load: {} all, absent none.")),
              field("ruleNamespaceSelector", &S::rule_namespace_selector,
                    openapi::label_selector("Namespaces of the PrometheusRules: {} all, absent own.")),
              field("alerting", &S::alerting, AlertingSpec::schema()))));
  return table;
}

// An agent scrapes and remote-writes: no rules, alerting, retention or local queries.
const auto& agent_spec_fields() {
  static const auto table = codec::table<PrometheusAgentSpec>("The desired Prometheus agent deployment and what it selects.",
                                                              common_fields<PrometheusAgentSpec>());
  return table;
}

const auto& status_fields() {
  using S = PrometheusStatus;
  static const auto table = codec::table<S>(
      "The observed state of the Prometheus deployment.",
      field("paused", &S::paused, Schema::boolean("Whether reconciliation is paused.")).always(),
      field("replicas", &S::replicas, Schema::integer("Pods of the StatefulSet.", "int32")).always(),
      field("updatedReplicas", &S::updated_replicas, Schema::integer("Pods at the current revision.", "int32")).always(),
      field("availableReplicas", &S::available_replicas, Schema::integer("Ready pods.", "int32")).always(),
      field("unavailableReplicas", &S::unavailable_replicas, Schema::integer("Pods not ready.", "int32")).always(),
      field("shards", &S::shards, Schema::integer("Shards (spec.shards; the scale subresource's replicas).", "int32")),
      field("selector", &S::selector, Schema::string("Label selector of the pods (for the scale subresource).")),
      field("conditions", &S::conditions, openapi::conditions("Conditions: Available (Degraded while some pods are not ready), Reconciled.", "Available, Reconciled", true,
                                                              /*degraded=*/true)));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(RemoteWriteSpec, remote_write_fields)
CAPSTAN_CODEC_FROM(AlertmanagerEndpoints, alertmanager_endpoints_fields)
CAPSTAN_CODEC_FROM(AlertingSpec, alerting_fields)
CAPSTAN_CODEC_FROM(EmbeddedObjectMetadata, pod_metadata_fields)
CAPSTAN_CODEC_FROM(SecretKeySelector, secret_key_fields)
CAPSTAN_CODEC_FROM(ScrapeClassTLSConfig, scrape_class_tls_fields)
CAPSTAN_CODEC_FROM(ScrapeClassAuthorization, scrape_class_authorization_fields)
CAPSTAN_CODEC_FROM(ScrapeClass, scrape_class_fields)
CAPSTAN_CODEC_FROM(ClaimMetadata, claim_metadata_fields)
CAPSTAN_CODEC_FROM(ClaimTemplate, claim_template_fields)
CAPSTAN_CODEC_FROM(StorageSpec, storage_fields)
CAPSTAN_CODEC_FROM(PrometheusSpec, spec_fields)
CAPSTAN_CODEC_FROM(PrometheusAgentSpec, agent_spec_fields)
CAPSTAN_CODEC_FROM(PrometheusStatus, status_fields)

std::string PrometheusSpec::effective_image() const {
  if (!image.empty()) return image;
  return std::string(kDefaultPrometheusBaseImage) + ":" + effective_version();
}

std::string PrometheusSpec::effective_retention() const {
  if (retention.empty() && retention_size.empty()) return std::string(kDefaultRetention);
  return retention;
}

json::Value prometheus_schema() {
  return openapi::root(kApiVersion, "A Prometheus runs a Prometheus server with the configuration generated from the monitors and rules it selects.",
                       PrometheusSpec::schema(), PrometheusStatus::schema())
      .json();
}

json::Value prometheus_agent_schema() {
  return openapi::root(kApiVersion, "A PrometheusAgent runs Prometheus in agent mode: it scrapes what it selects and remote-writes it.",
                       PrometheusAgentSpec::schema(), PrometheusStatus::schema())
      .json();
}

}  // namespace capstan::apis::monitoring::v1
