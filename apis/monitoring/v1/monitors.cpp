// The fields of ServiceMonitor and PodMonitor: prometheus-operator's names, limited to what
// Capstan implements. What the two kinds share is listed once, in the templates below.
#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/schema_common.h"
#include "apis/monitoring/v1/types.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& namespace_selector_fields() {
  static const auto table = codec::table<NamespaceSelector>(
      "Namespaces to look in: matchNames, or any; default the monitor's own namespace.",
      field("any", &NamespaceSelector::any, Schema::boolean("Every namespace.")),
      field("matchNames", &NamespaceSelector::match_names,
            Schema::array(openapi::namespace_name("A namespace."), "Names of the namespaces.").max_items(1024)));
  return table;
}

const auto& relabel_fields() {
  using R = RelabelConfig;
  static const auto table = codec::table<R>(
      "A Prometheus relabel_config.",
      field("sourceLabels", &R::source_labels, Schema::strings("Labels whose values are concatenated.").max_items(64)),
      field("separator", &R::separator, Schema::string("Separator of the concatenation (default ;).")),
      field("targetLabel", &R::target_label, Schema::string("Label the result is written to.")),
      field("regex", &R::regex, Schema::string("Regular expression matched against the concatenation.").max_length(4096)),
      field("modulus", &R::modulus, Schema::integer("Modulus of the hash (hashmod).", "int64").minimum(1)),
      field("replacement", &R::replacement, Schema::string("Replacement value (default $1).")),
      field("action", &R::action,
            Schema::string_enum({"replace", "Replace", "keep", "Keep", "drop", "Drop", "hashmod", "HashMod", "labelmap", "LabelMap",
                                 "labeldrop", "LabelDrop", "labelkeep", "LabelKeep", "lowercase", "Lowercase", "uppercase", "Uppercase",
                                 "keepequal", "KeepEqual", "dropequal", "DropEqual"},
                                "Relabel action (default replace).")));
  return table;
}

const auto& configmap_key_fields() {
  using K = ConfigMapKeySelector;
  static const auto table = codec::table<K>(
      "A key of a ConfigMap in the object's namespace.", field("name", &K::name, openapi::object_name("Name of the ConfigMap.")).required(),
      field("key", &K::key, Schema::string("The key of the ConfigMap's data.").min_length(1).max_length(253)).required(),
      field("optional", &K::optional, Schema::boolean("Whether a missing ConfigMap or key is ignored.")));
  return table;
}

const auto& secret_or_configmap_fields() {
  static const auto table = codec::table<SecretOrConfigMap>(
      "A value from a Secret or a ConfigMap (exactly one).", field("secret", &SecretOrConfigMap::secret, SecretKeySelector::schema()),
      field("configMap", &SecretOrConfigMap::config_map, ConfigMapKeySelector::schema()));
  return table;
}

constexpr std::string_view kTlsVersions[] = {"TLS10", "TLS11", "TLS12", "TLS13"};

const auto& tls_fields() {
  using T = SafeTLSConfig;
  static const auto table = codec::table<T>(
      "TLS of the scrape.", field("ca", &T::ca, std::move(SecretOrConfigMap::schema().description("The CA certificates (PEM) the server's must chain to."))),
      field("cert", &T::cert, std::move(SecretOrConfigMap::schema().description("The client certificate (PEM)."))),
      field("keySecret", &T::key_secret, std::move(SecretKeySelector::schema().description("The client certificate's key (PEM)."))),
      field("serverName", &T::server_name, Schema::string("Server name the certificate must carry.").max_length(253)),
      field("insecureSkipVerify", &T::insecure_skip_verify, Schema::boolean("Do not verify the certificate.")),
      field("minVersion", &T::min_version, Schema::string_enum(kTlsVersions, "Lowest TLS version.")),
      field("maxVersion", &T::max_version, Schema::string_enum(kTlsVersions, "Highest TLS version.")));
  return table;
}

const auto& basic_auth_fields() {
  static const auto table = codec::table<BasicAuth>(
      "HTTP basic authentication from a Secret.",
      field("username", &BasicAuth::username, std::move(SecretKeySelector::schema().description("The user name."))),
      field("password", &BasicAuth::password, std::move(SecretKeySelector::schema().description("The password."))));
  return table;
}

const auto& authorization_fields() {
  static const auto table = codec::table<SafeAuthorization>(
      "The Authorization header.",
      field("type", &SafeAuthorization::type, Schema::string("The scheme (default Bearer; Basic is refused: use basicAuth).").max_length(64)),
      field("credentials", &SafeAuthorization::credentials, std::move(SecretKeySelector::schema().description("The credentials."))));
  return table;
}

const auto& oauth2_fields() {
  static const auto table = codec::table<OAuth2>(
      "OAuth2 client credentials: a token fetched from tokenUrl and sent as a bearer token.",
      field("clientId", &OAuth2::client_id, std::move(SecretOrConfigMap::schema().description("The client id."))).required(),
      field("clientSecret", &OAuth2::client_secret, std::move(SecretKeySelector::schema().description("The client secret."))).required(),
      field("tokenUrl", &OAuth2::token_url, Schema::string("The token endpoint.").min_length(1).max_length(2048)).required(),
      field("scopes", &OAuth2::scopes, Schema::strings("Scopes asked for.").max_items(64)),
      field("endpointParams", &OAuth2::endpoint_params, Schema::string_map("Parameters added to the token request.").max_properties(64)));
  return table;
}

// The endpoint members after the port, as both kinds of endpoint have them.
template <class E>
auto scrape_fields() {
  return std::make_tuple(
      field<E>("targetPort", &E::target_port, Schema::int_or_string("Name or number of the target port of the pod.")),
      field<E>("path", &E::path, Schema::string("HTTP path of the metrics (default /metrics).")),
      field<E>("scheme", &E::scheme, Schema::string_enum({"http", "https", "HTTP", "HTTPS"}, "HTTP scheme of the scrape.")),
      field<E>("params", &E::params, Schema::map(Schema::strings(), "URL parameters of the scrape.")),
      field<E>("interval", &E::interval, duration("Scrape interval (default: the Prometheus scrapeInterval).")),
      field<E>("scrapeTimeout", &E::scrape_timeout, duration("Scrape timeout.")),
      field<E>("honorLabels", &E::honor_labels, Schema::boolean("Keep the target's labels when they clash with the server's.")),
      field<E>("honorTimestamps", &E::honor_timestamps, Schema::boolean("Keep the timestamps the target exposes.")),
      field<E>("relabelings", &E::relabelings, relabelings("Relabelings applied to the target before scraping.")),
      field<E>("metricRelabelings", &E::metric_relabelings, relabelings("Relabelings applied to samples before ingestion.")),
      field<E>("filterRunning", &E::filter_running, Schema::boolean("Drop targets whose pods are not running (default true).")),
      field<E>("followRedirects", &E::follow_redirects, Schema::boolean("Follow HTTP 3xx redirects.")),
      field<E>("enableHttp2", &E::enable_http2, Schema::boolean("Allow HTTP/2.")),
      field<E>("tlsConfig", &E::tls_config, SafeTLSConfig::schema()), bearer_token_field<E>());
}

const auto& endpoint_fields() {
  static const auto table = codec::table<Endpoint>(
      "A Service endpoint to scrape.",
      std::tuple_cat(std::make_tuple(field<Endpoint>("port", &Endpoint::port, Schema::string("Name of the Service port."))),
                     scrape_fields<Endpoint>(), credential_fields<Endpoint>()));
  return table;
}

const auto& pod_endpoint_fields() {
  using E = PodMetricsEndpoint;
  static const auto table = codec::table<E>(
      "A pod endpoint to scrape.",
      std::tuple_cat(std::make_tuple(field<E>("port", &E::port, Schema::string("Name of the pod port.")),
                                     field("portNumber", &E::port_number,
                                           Schema::integer("Number of the pod port (when it has no name).", "int32").range(1, 65535))),
                     scrape_fields<E>(), credential_fields<E>()));
  return table;
}

// The spec members both kinds of monitor have, `pod` choosing the descriptions.
// A ServiceMonitor needs a selector; a PodMonitor without one selects every pod.
template <class S>
auto monitor_fields(bool pod) {
  auto selector =
      field<S>("selector", &S::selector, openapi::label_selector(pod ? "Label selector of the pods." : "Label selector of the Services."));
  if (!pod) std::move(selector).required();
  return std::make_tuple(
      std::move(selector),
      field<S>("namespaceSelector", &S::namespace_selector, NamespaceSelector::schema()),
      field<S>("jobLabel", &S::job_label,
               Schema::string(pod ? "Pod label whose value becomes the job label."
                                  : "Service label whose value becomes the job label (default: the Service name).")),
      field<S>("podTargetLabels", &S::pod_target_labels, Schema::strings("Pod labels copied onto the targets.")),
      field<S>("sampleLimit", &S::sample_limit, Schema::integer("Samples per scrape above which the scrape fails.", "int64").minimum(0)),
      field<S>("targetLimit", &S::target_limit, Schema::integer("Targets above which the scrape fails.", "int64").minimum(0)),
      field<S>("attachMetadata", &S::attach_metadata, AttachMetadata::schema()), scrape_class_field<S>());
}

const auto& service_monitor_fields() {
  using S = ServiceMonitorSpec;
  static const auto table =
      codec::table<S>("Which Services' endpoints to scrape, and how.",
                      std::tuple_cat(monitor_fields<S>(false),
                                     std::make_tuple(field("targetLabels", &S::target_labels, Schema::strings("Service labels copied onto the targets.")),
                                                     field("serviceDiscoveryRole", &S::service_discovery_role,
                                                           Schema::string_enum({"Endpoints", "EndpointSlice"},
                                                                               "Discover the targets through Endpoints or EndpointSlices "
                                                                               "(default: the Prometheus's serviceDiscoveryRole).")),
                                                     field("endpoints", &S::endpoints,
                                                           Schema::array(Endpoint::schema(), "The Service endpoints to scrape.").max_items(64)))));
  return table;
}

const auto& pod_monitor_fields() {
  using S = PodMonitorSpec;
  static const auto table = codec::table<S>(
      "Which pods to scrape, and how.",
      std::tuple_cat(monitor_fields<S>(true),
                     std::make_tuple(field("podMetricsEndpoints", &S::pod_metrics_endpoints,
                                           Schema::array(PodMetricsEndpoint::schema(), "The pod endpoints to scrape.").max_items(64)))));
  return table;
}

const auto& binding_fields() {
  using B = WorkloadBinding;
  static const auto table = codec::table<B>(
      "A workload that selects this resource, and whether it accepted it.",
      field("group", &B::group, Schema::string("The workload's API group.").max_length(253)).required(),
      field("resource", &B::resource, Schema::string("The workload's resource (prometheuses, prometheusagents).").max_length(63)).required(),
      field("name", &B::name, Schema::string("The workload's name.").max_length(253)).required(),
      field("namespace", &B::namespace_, Schema::string("The workload's namespace.").max_length(63)).required(),
      field("conditions", &B::conditions, openapi::conditions("Accepted: whether the workload took this resource, and why not.", "Accepted", true)));
  return table;
}

const auto& config_status_fields() {
  static const auto table = codec::table<ConfigResourceStatus>(
      "Status of the resource: the workloads that select it.",
      field("bindings", &ConfigResourceStatus::bindings,
            Schema::array(WorkloadBinding::schema(), "The workloads (Prometheus, PrometheusAgent) whose selectors choose this resource.").max_items(1024)));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(NamespaceSelector, namespace_selector_fields)
CAPSTAN_CODEC_FROM(RelabelConfig, relabel_fields)
CAPSTAN_CODEC_FROM(ConfigMapKeySelector, configmap_key_fields)
CAPSTAN_CODEC_FROM(SecretOrConfigMap, secret_or_configmap_fields)
CAPSTAN_CODEC_FROM(SafeTLSConfig, tls_fields)
CAPSTAN_CODEC_FROM(BasicAuth, basic_auth_fields)
CAPSTAN_CODEC_FROM(SafeAuthorization, authorization_fields)
CAPSTAN_CODEC_FROM(OAuth2, oauth2_fields)
CAPSTAN_CODEC_FROM(Endpoint, endpoint_fields)
CAPSTAN_CODEC_FROM(PodMetricsEndpoint, pod_endpoint_fields)
CAPSTAN_CODEC_FROM(ServiceMonitorSpec, service_monitor_fields)
CAPSTAN_CODEC_FROM(PodMonitorSpec, pod_monitor_fields)
CAPSTAN_CODEC_FROM(WorkloadBinding, binding_fields)
CAPSTAN_CODEC_FROM(ConfigResourceStatus, config_status_fields)

json::Value service_monitor_schema() {
  return openapi::root(kApiVersion, "A ServiceMonitor declares how the endpoints of Services are scraped.", ServiceMonitorSpec::schema(),
                       ConfigResourceStatus::schema())
      .json();
}

json::Value pod_monitor_schema() {
  return openapi::root(kApiVersion, "A PodMonitor declares how pods are scraped.", PodMonitorSpec::schema(), ConfigResourceStatus::schema())
      .json();
}

}  // namespace capstan::apis::monitoring::v1
