// The OpenAPI v3 schemas of Prometheus, ServiceMonitor, PodMonitor and PrometheusRule:
// prometheus-operator's field names, limited to what Capstan implements (types.h).
#include "apis/common/openapi.h"
#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using openapi::Schema;

// Prometheus durations (model.Duration), as prometheus-operator's CRDs check them.
constexpr std::string_view kDurationPattern = R"(^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$)";

Schema duration(std::string_view description) { return std::move(Schema::string(description).pattern(kDurationPattern).max_length(64)); }

Schema label_selector(std::string_view description) {
  auto requirement = Schema::object("A label selector requirement.")
                         .property("key", Schema::string("The label key.").max_length(317))
                         .property("operator", Schema::string_enum({"In", "NotIn", "Exists", "DoesNotExist"}, "In, NotIn, Exists or DoesNotExist."))
                         .property("values", Schema::strings("Values for In and NotIn.").max_items(256))
                         .required({"key", "operator"});
  return std::move(Schema::object(description)
                       .property("matchLabels", Schema::string_map("Labels that must all match.").max_properties(64))
                       .property("matchExpressions", Schema::array(requirement, "Requirements that must all hold.").max_items(64)));
}

Schema namespace_selector() {
  return std::move(Schema::object("Namespaces to look in: matchNames, or any; default the monitor's own namespace.")
                       .property("any", Schema::boolean("Every namespace."))
                       .property("matchNames", Schema::array(openapi::namespace_name("A namespace."), "Names of the namespaces.").max_items(1024)));
}

Schema relabelings(std::string_view description) {
  auto config = Schema::object("A Prometheus relabel_config.")
                    .property("sourceLabels", Schema::strings("Labels whose values are concatenated.").max_items(64))
                    .property("separator", Schema::string("Separator of the concatenation (default ;)."))
                    .property("targetLabel", Schema::string("Label the result is written to."))
                    .property("regex", Schema::string("Regular expression matched against the concatenation.").max_length(4096))
                    .property("modulus", Schema::integer("Modulus of the hash (hashmod).", "int64").minimum(1))
                    .property("replacement", Schema::string("Replacement value (default $1)."))
                    .property("action", Schema::string_enum({"replace", "Replace", "keep", "Keep", "drop", "Drop", "hashmod",
                                                             "HashMod", "labelmap", "LabelMap", "labeldrop", "LabelDrop",
                                                             "labelkeep", "LabelKeep", "lowercase", "Lowercase", "uppercase",
                                                             "Uppercase", "keepequal", "KeepEqual", "dropequal", "DropEqual"},
                                                            "Relabel action (default replace)."));
  return std::move(Schema::array(config, description).max_items(256));
}

// The members ServiceMonitor endpoints and PodMonitor podMetricsEndpoints share.
Schema endpoint(std::string_view description, bool pod) {
  auto e = Schema::object(description);
  e.property("port", Schema::string(pod ? "Name of the pod port." : "Name of the Service port."));
  if (pod) e.property("portNumber", Schema::integer("Number of the pod port (when it has no name).", "int32").range(1, 65535));
  e.property("targetPort", Schema::int_or_string("Name or number of the target port of the pod."));
  e.property("path", Schema::string("HTTP path of the metrics (default /metrics)."))
      .property("scheme", Schema::string_enum({"http", "https", "HTTP", "HTTPS"}, "HTTP scheme of the scrape."))
      .property("params", Schema::map(Schema::strings(), "URL parameters of the scrape."))
      .property("interval", duration("Scrape interval (default: the Prometheus scrapeInterval)."))
      .property("scrapeTimeout", duration("Scrape timeout."))
      .property("honorLabels", Schema::boolean("Keep the target's labels when they clash with the server's."))
      .property("honorTimestamps", Schema::boolean("Keep the timestamps the target exposes."))
      .property("relabelings", relabelings("Relabelings applied to the target before scraping."))
      .property("metricRelabelings", relabelings("Relabelings applied to samples before ingestion."))
      .property("filterRunning", Schema::boolean("Drop targets whose pods are not running (default true)."))
      .property("followRedirects", Schema::boolean("Follow HTTP 3xx redirects."))
      .property("enableHttp2", Schema::boolean("Allow HTTP/2."))
      .property("tlsConfig", Schema::object("TLS of the scrape.")
                                 .property("serverName", Schema::string("Server name the certificate must carry."))
                                 .property("insecureSkipVerify", Schema::boolean("Do not verify the certificate.")));
  return e;
}

Schema monitor_spec(bool pod) {
  auto s = Schema::object(pod ? "Which pods to scrape, and how." : "Which Services' endpoints to scrape, and how.");
  s.property("selector", label_selector(pod ? "Label selector of the pods." : "Label selector of the Services."))
      .property("namespaceSelector", namespace_selector())
      .property("jobLabel", Schema::string(pod ? "Pod label whose value becomes the job label."
                                               : "Service label whose value becomes the job label (default: the Service name)."))
      .property("podTargetLabels", Schema::strings("Pod labels copied onto the targets."))
      .property("sampleLimit", Schema::integer("Samples per scrape above which the scrape fails.", "int64").minimum(0))
      .property("targetLimit", Schema::integer("Targets above which the scrape fails.", "int64").minimum(0));
  if (pod) {
    s.property("podMetricsEndpoints", Schema::array(endpoint("A pod endpoint to scrape.", true), "The pod endpoints to scrape.").max_items(64));
  } else {
    s.property("targetLabels", Schema::strings("Service labels copied onto the targets."))
        .property("endpoints", Schema::array(endpoint("A Service endpoint to scrape.", false), "The Service endpoints to scrape.").max_items(64))
        .required({"selector"});
  }
  return s;
}

Schema config_resource_status() {
  return std::move(Schema::object("Status of the resource.").property("conditions",
                                                                     openapi::conditions("Conditions.", "Accepted", true)));
}

Schema rule_groups() {
  auto rule = Schema::object("A recording or alerting rule.")
                  .property("record", Schema::string("Name of the time series to record into."))
                  .property("alert", Schema::string("Name of the alert."))
                  .property("expr", Schema::int_or_string("PromQL expression."))
                  .property("for", duration("How long the alert must hold before it fires."))
                  .property("keep_firing_for", duration("How long the alert keeps firing after it stopped holding."))
                  .property("labels", Schema::string_map("Labels added to the series or alerts.").max_properties(64))
                  .property("annotations", Schema::string_map("Annotations of the alerts.").max_properties(64))
                  .required({"expr"})
                  .rule("has(self.record) != has(self.alert)", "a rule has either record (a recording rule) or alert (an alerting rule)");
  auto group = Schema::object("A group of rules evaluated together.")
                   .property("name", Schema::string("Name of the group, unique in the object.").min_length(1))
                   .property("interval", duration("Evaluation interval of the group."))
                   .property("query_offset", duration("Offset of the evaluation timestamp."))
                   .property("limit", Schema::integer("Series or alerts above which evaluation fails.").minimum(0))
                   .property("labels", Schema::string_map("Labels added to every rule of the group.").max_properties(64))
                   .property("rules", Schema::array(rule, "The rules.").max_items(1024))
                   .required({"name"});
  return std::move(Schema::object("The rule groups.").property("groups", Schema::array(group, "The rule groups.").list_map({"name"}).max_items(256)));
}

Schema prometheus_spec() {
  auto remote_write = Schema::object("A remote write endpoint.")
                          .property("url", Schema::string("URL of the endpoint.").min_length(1).max_length(2048))
                          .property("name", Schema::string("Name of the queue, unique per Prometheus."))
                          .property("remoteTimeout", duration("Timeout of a request (default 30s)."))
                          .required({"url"});
  return std::move(
      Schema::object("The desired Prometheus deployment and what it selects.")
          .property("version", Schema::string("Prometheus version, e.g. v3.13.2; used for the image tag."))
          .property("image", Schema::string("Container image (overrides version)."))
          .property("replicas", Schema::integer("Replicas of the StatefulSet (default 1).", "int32").range(0, 100))
          .property("paused", Schema::boolean("Stop reconciling the objects of this Prometheus."))
          .property("serviceAccountName", openapi::object_name("ServiceAccount the pods run as."))
          .property("resources", Schema::open_object("Resource requests and limits of the prometheus container."))
          .property("nodeSelector", Schema::string_map("Node selector of the pods.").max_properties(64))
          .property("tolerations", Schema::array(Schema::open_object("A toleration."), "Tolerations of the pods.").max_items(64))
          .property("podMetadata", Schema::object("Labels and annotations of the pods.")
                                       .property("labels", Schema::string_map("Labels of the pods."))
                                       .property("annotations", Schema::string_map("Annotations of the pods.")))
          .property("retention", duration("How long to keep data (default 24h when retentionSize is unset too)."))
          .property("retentionSize", Schema::string("Maximum size of the data, e.g. 10GB."))
          .property("scrapeInterval", duration("Default scrape interval (default 30s)."))
          .property("scrapeTimeout", duration("Default scrape timeout."))
          .property("evaluationInterval", duration("Rule evaluation interval (default 30s)."))
          .property("externalLabels", Schema::string_map("Labels added to every series and alert leaving this Prometheus.").max_properties(64))
          .property("replicaExternalLabelName", Schema::string("External label naming the replica (default prometheus_replica)."))
          .property("prometheusExternalLabelName", Schema::string("External label naming this Prometheus (default prometheus)."))
          .property("serviceMonitorSelector", label_selector("ServiceMonitors to use: {} all, absent none."))
          .property("serviceMonitorNamespaceSelector", label_selector("Namespaces of the ServiceMonitors: {} all, absent own."))
          .property("podMonitorSelector", label_selector("PodMonitors to use: {} all, absent none."))
          .property("podMonitorNamespaceSelector", label_selector("Namespaces of the PodMonitors: {} all, absent own."))
          .property("ruleSelector", label_selector("PrometheusRules to load: {} all, absent none."))
          .property("ruleNamespaceSelector", label_selector("Namespaces of the PrometheusRules: {} all, absent own."))
          .property("remoteWrite", Schema::array(remote_write, "Remote write endpoints.").max_items(32))
          .property("logLevel", Schema::string_enum({"", "debug", "info", "warn", "error"}, "Log level of Prometheus."))
          .property("logFormat", Schema::string_enum({"", "logfmt", "json"}, "Log format of Prometheus."))
          .property("enableFeatures", Schema::strings("Prometheus feature flags (--enable-feature).").max_items(64).list_type("set"))
          .property("externalUrl", Schema::string("URL Prometheus is reachable at from outside."))
          .property("routePrefix", Schema::string("Prefix of the web routes."))
          .property("portName", Schema::string("Name of the web port (default web).")));
}

Schema prometheus_status() {
  return std::move(
      Schema::object("The observed state of the Prometheus deployment.")
          .property("paused", Schema::boolean("Whether reconciliation is paused."))
          .property("replicas", Schema::integer("Pods of the StatefulSet.", "int32"))
          .property("updatedReplicas", Schema::integer("Pods at the current revision.", "int32"))
          .property("availableReplicas", Schema::integer("Ready pods.", "int32"))
          .property("unavailableReplicas", Schema::integer("Pods not ready.", "int32"))
          .property("shards", Schema::integer("Shards (always 1 here).", "int32"))
          .property("selector", Schema::string("Label selector of the pods (for the scale subresource)."))
          .property("conditions", openapi::conditions("Conditions: Available, Reconciled.", "Available, Reconciled", true)));
}

}  // namespace

json::Value prometheus_schema() {
  return openapi::root(kApiVersion, "A Prometheus runs a Prometheus server with the configuration generated from the monitors and rules it selects.",
                       prometheus_spec(), prometheus_status())
      .json();
}

json::Value service_monitor_schema() {
  return openapi::root(kApiVersion, "A ServiceMonitor declares how the endpoints of Services are scraped.", monitor_spec(false),
                       config_resource_status())
      .json();
}

json::Value pod_monitor_schema() {
  return openapi::root(kApiVersion, "A PodMonitor declares how pods are scraped.", monitor_spec(true), config_resource_status()).json();
}

json::Value prometheus_rule_schema() {
  return openapi::root(kApiVersion, "A PrometheusRule holds recording and alerting rules for the Prometheus servers selecting it.",
                       rule_groups(), config_resource_status())
      .json();
}

}  // namespace capstan::apis::monitoring::v1
