#include "controllers/kafka/rack.h"

#include "apis/kafka/v1/group.h"
#include "controllers/kafka/objects.h"
#include "runtime/meta/object.h"

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;

json::Object mount() { return json::Object{{"name", kRackVolume}, {"mountPath", kRackPath}}; }

json::Object env(std::string_view name, std::string_view value) { return json::Object{{"name", name}, {"value", value}}; }

// Strimzi's ModelUtils.populateAffinityBuilderWithRackLabelSelector and getMergedAffinity.
json::Object affinity(const v1::Rack& rack, std::string_view cluster) {
  json::Object exists{{"key", rack.topology_key}, {"operator", "Exists"}};
  json::Object node_affinity{
      {"requiredDuringSchedulingIgnoredDuringExecution",
       json::Object{{"nodeSelectorTerms", json::Array{json::Object{{"matchExpressions", json::Array{std::move(exists)}}}}}}}};
  json::Object match{{v1::kClusterLabel, cluster}, {v1::kNameLabel, std::string(cluster) + "-kafka"}};
  json::Object term{{"topologyKey", rack.topology_key}, {"labelSelector", json::Object{{"matchLabels", std::move(match)}}}};
  json::Object anti{{"preferredDuringSchedulingIgnoredDuringExecution",
                     json::Array{json::Object{{"weight", 100}, {"podAffinityTerm", std::move(term)}}}}};
  return json::Object{{"nodeAffinity", std::move(node_affinity)}, {"podAntiAffinity", std::move(anti)}};
}

}  // namespace

std::string rack_init_image() { return "quay.io/strimzi/operator:" + std::string(v1::kStrimziVersion); }

std::string kafka_service_account_name(std::string_view cluster) { return std::string(cluster) + "-kafka"; }

std::string rack_binding_name(std::string_view ns, std::string_view cluster) {
  return "capstan-" + std::string(ns) + "-" + std::string(cluster) + "-kafka-init";
}

json::Value kafka_service_account(const json::Value& kafka) {
  const std::string cluster(meta::name_of(kafka));
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "ServiceAccount"},
                      {"metadata", owned_metadata(kafka, kafka_service_account_name(cluster), cluster_labels(cluster))}};
}

json::Value rack_binding(const json::Value& kafka, std::string_view cluster_role) {
  const std::string cluster(meta::name_of(kafka));
  const std::string ns(meta::namespace_of(kafka));
  auto labels = cluster_labels(cluster);
  labels[kNamespaceLabel] = ns;
  return json::Object{
      {"apiVersion", "rbac.authorization.k8s.io/v1"},
      {"kind", "ClusterRoleBinding"},
      {"metadata", json::Object{{"name", rack_binding_name(ns, cluster)}, {"labels", std::move(labels)}}},
      {"roleRef", json::Object{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", cluster_role}}},
      {"subjects", json::Array{json::Object{
                       {"kind", "ServiceAccount"}, {"name", kafka_service_account_name(cluster)}, {"namespace", ns}}}}};
}

std::optional<std::pair<std::string, std::string>> rack_binding_owner(const json::Value& binding) {
  const std::string ns(meta::label(binding, kNamespaceLabel));
  const std::string cluster(meta::label(binding, v1::kClusterLabel));
  if (ns.empty() || cluster.empty() || meta::name_of(binding) != rack_binding_name(ns, cluster)) return std::nullopt;
  return std::pair{ns, cluster};
}

void add_rack_awareness(json::Object& pod_spec, const v1::Rack& rack, std::string_view cluster, const Node& node) {
  if (node.broker) {
    for (auto& c : pod_spec["containers"].as_array())
      if (json::get_string(c, {"name"}) == "kafka") c.as_object()["volumeMounts"].as_array().push_back(mount());
    json::Object downward{{"name", "NODE_NAME"},
                          {"valueFrom", json::Object{{"fieldRef", json::Object{{"apiVersion", "v1"}, {"fieldPath", "spec.nodeName"}}}}}};
    pod_spec["initContainers"] = json::Array{json::Object{{"name", kRackInitContainer},
                                                          {"image", rack_init_image()},
                                                          {"command", json::Array{"/opt/strimzi/bin/kafka_init_run.sh"}},
                                                          {"env", json::Array{std::move(downward), env("RACK_TOPOLOGY_KEY", rack.topology_key)}},
                                                          {"volumeMounts", json::Array{mount()}}}};
    pod_spec["volumes"].as_array().push_back(json::Object{{"name", kRackVolume}, {"emptyDir", json::Object{}}});
  }
  pod_spec["serviceAccountName"] = kafka_service_account_name(cluster);
  pod_spec["affinity"] = affinity(rack, cluster);
}

std::string rack_config(const Node& node, std::string_view user_providers) {
  if (!node.broker) return "";
  std::string out = "broker.rack=" + std::string(kRackPlaceholder) + "\n";
  out += "config.providers=" + (user_providers.empty() ? "" : std::string(user_providers) + ",") + "strimzidir\n";
  out += "config.providers.strimzidir.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider\n";
  out += "config.providers.strimzidir.param.allowed.paths=/opt/kafka\n";
  return out;
}

}  // namespace capstan::kafka
