#include "controllers/kafka/objects.h"

#include "apis/kafka/v1/group.h"
#include "controllers/kafka/rack.h"
#include "controllers/kafka/security.h"
#include "runtime/meta/object.h"
#include "runtime/pki/digest.h"


namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;

// What the Services select: the cluster's pods (its labels without managed-by).
json::Object pod_selector(std::string_view cluster) {
  auto l = cluster_labels(cluster);
  l.erase("app.kubernetes.io/managed-by");
  return l;
}

json::Object typed(std::string_view kind, json::Object metadata) {
  return json::Object{{"apiVersion", "v1"}, {"kind", kind}, {"metadata", std::move(metadata)}};
}

json::Object port(std::string name, std::int64_t number) {
  return json::Object{{"name", std::move(name)}, {"port", number}, {"protocol", "TCP"}, {"targetPort", number}};
}

}  // namespace

json::Object cluster_labels(std::string_view cluster) {
  return json::Object{{v1::kClusterLabel, cluster},
                      {v1::kKindLabel, v1::kKafkaKind},
                      {v1::kNameLabel, std::string(cluster) + "-kafka"},
                      {"app.kubernetes.io/managed-by", "capstan-kafka"}};
}

json::Object node_labels(std::string_view cluster, const Node& n) {
  auto l = cluster_labels(cluster);
  l[v1::kPoolNameLabel] = n.pool;
  l[v1::kPodNameLabel] = n.pod_name(cluster);
  l[v1::kBrokerRoleLabel] = n.broker ? "true" : "false";
  l[v1::kControllerRoleLabel] = n.controller ? "true" : "false";
  return l;
}

json::Object owned_metadata(const json::Value& kafka, std::string name, json::Object l) {
  return json::Object{{"name", std::move(name)},
                      {"namespace", meta::namespace_of(kafka)},
                      {"labels", std::move(l)},
                      {"ownerReferences", json::Array{meta::controller_reference(kafka).to_json()}}};
}

std::string brokers_service_name(std::string_view cluster) { return std::string(cluster) + "-kafka-brokers"; }
std::string bootstrap_service_name(std::string_view cluster) { return std::string(cluster) + "-kafka-bootstrap"; }

std::string pool_selector(std::string_view cluster, std::string_view pool) {
  return std::string(v1::kClusterLabel) + "=" + std::string(cluster) + "," + std::string(v1::kKindLabel) + "=Kafka," +
         std::string(v1::kNameLabel) + "=" + std::string(cluster) + "-kafka," + std::string(v1::kPoolNameLabel) + "=" +
         std::string(pool);
}

json::Value brokers_service(const json::Value& kafka, const v1::KafkaClusterSpec& spec) {
  std::string cluster(meta::name_of(kafka));
  auto o = typed("Service", owned_metadata(kafka, brokers_service_name(cluster), cluster_labels(cluster)));
  json::Array ports{port("tcp-ctrlplane", 9090), port("tcp-replication", 9091)};
  for (const auto& l : spec.listeners) ports.push_back(port("tcp-" + l.name, l.port));
  o["spec"] = json::Object{{"clusterIP", "None"},
                           {"publishNotReadyAddresses", true},
                           {"selector", pod_selector(cluster)},
                           {"ports", std::move(ports)}};
  return o;
}

json::Value bootstrap_service(const json::Value& kafka, const v1::KafkaClusterSpec& spec) {
  std::string cluster(meta::name_of(kafka));
  auto o = typed("Service", owned_metadata(kafka, bootstrap_service_name(cluster), cluster_labels(cluster)));
  json::Array ports{port("tcp-replication", 9091)};
  for (const auto& l : spec.listeners) ports.push_back(port("tcp-" + l.name, l.port));
  auto selector = pod_selector(cluster);
  selector[v1::kBrokerRoleLabel] = "true";
  o["spec"] = json::Object{{"type", "ClusterIP"}, {"selector", std::move(selector)}, {"ports", std::move(ports)}};
  return o;
}

json::Value disruption_budget(const json::Value& kafka, std::size_t nodes) {
  std::string cluster(meta::name_of(kafka));
  auto o = typed("PodDisruptionBudget", owned_metadata(kafka, std::string(cluster) + "-kafka", cluster_labels(cluster)));
  o["apiVersion"] = "policy/v1";
  const auto min_available = static_cast<std::int64_t>(nodes > 0 ? nodes - 1 : 0);
  o["spec"] = json::Object{{"minAvailable", min_available}, {"selector", json::Object{{"matchLabels", pod_selector(cluster)}}}};
  return o;
}

json::Value node_configmap(const json::Value& kafka, const Node& node, const NodeFiles& files) {
  std::string cluster(meta::name_of(kafka));
  auto o = typed("ConfigMap", owned_metadata(kafka, node.pod_name(cluster), node_labels(cluster, node)));
  o["data"] = json::Object{{"server.config", files.server_config},
                           {"cluster.id", files.cluster_id},
                           {"metadata.version", files.metadata_version}};
  if (!files.metrics_config.empty()) o["data"].as_object()["metrics-config.json"] = files.metrics_config;
  return o;
}

json::Value node_claim(const json::Value& kafka, const Node& node, const DataVolume& volume) {
  std::string cluster(meta::name_of(kafka));
  auto o = typed("PersistentVolumeClaim", owned_metadata(kafka, volume.claim_name(node.pod_name(cluster)), node_labels(cluster, node)));
  if (!volume.spec.delete_claim) o["metadata"].as_object().erase("ownerReferences");  // outlives the cluster, as Strimzi's
  json::Object spec{{"accessModes", json::Array{"ReadWriteOnce"}},
                    {"resources", json::Object{{"requests", json::Object{{"storage", volume.spec.size.empty() ? "1Gi" : volume.spec.size}}}}}};
  if (!volume.spec.storage_class.empty()) spec["storageClassName"] = volume.spec.storage_class;
  o["spec"] = std::move(spec);
  return o;
}

std::string pod_monitor_name(std::string_view cluster) { return std::string(cluster) + "-kafka"; }

json::Value pod_monitor(const json::Value& kafka, const v1::KafkaPodMonitor& settings) {
  const std::string cluster(meta::name_of(kafka));
  auto labels = cluster_labels(cluster);
  for (const auto& [k, v] : settings.labels) labels[k] = v;
  json::Object o{{"apiVersion", "monitoring.capstan.dev/v1"}, {"kind", "PodMonitor"},
                 {"metadata", owned_metadata(kafka, pod_monitor_name(cluster), std::move(labels))}};
  json::Object match{{v1::kClusterLabel, cluster}, {v1::kKindLabel, v1::kKafkaKind}};
  o["spec"] = json::Object{
      {"selector", json::Object{{"matchLabels", std::move(match)}}},
      {"podMetricsEndpoints",
       json::Array{json::Object{{"port", "tcp-prometheus"},
                                {"path", "/metrics"},
                                {"relabelings", json::Array{json::Object{{"action", "labelmap"},
                                                                         {"regex", "__meta_kubernetes_pod_label_(kafka_capstan_dev_.+)"},
                                                                         {"replacement", "$1"}}}}}}}};
  return o;
}

json::Value node_pod(const json::Value& kafka, const v1::KafkaClusterSpec& spec, const v1::KafkaNodePoolSpec& pool, const Node& node,
                     const std::string& inputs, bool internal_tls) {
  std::string cluster(meta::name_of(kafka));
  json::Array ports{json::Object{{"name", "tcp-ctrlplane"}, {"containerPort", 9090}, {"protocol", "TCP"}},
                    json::Object{{"name", "tcp-replication"}, {"containerPort", 9091}, {"protocol", "TCP"}}};
  for (const auto& l : spec.listeners)
    ports.push_back(json::Object{{"name", "tcp-" + l.name}, {"containerPort", l.port}, {"protocol", "TCP"}});
  const bool metrics = spec.metrics_config.has_value();
  if (metrics) ports.push_back(json::Object{{"name", "tcp-prometheus"}, {"containerPort", kMetricsPort}, {"protocol", "TCP"}});
  json::Object container{
      {"name", "kafka"},
      {"image", spec.effective_image()},
      {"command", json::Array{"/opt/kafka/kafka_run.sh"}},
      // Strimzi's image starts the JMX exporter agent on 9404 with /opt/kafka/custom-config/metrics-config.json.
      {"env", json::Array{json::Object{{"name", "KAFKA_METRICS_ENABLED"}, {"value", metrics ? "true" : "false"}},
                          json::Object{{"name", "STRIMZI_KRAFT_ENABLED"}, {"value", "true"}}}},
      {"ports", std::move(ports)},
      {"readinessProbe", json::Object{{"exec", json::Object{{"command", json::Array{"/opt/kafka/kafka_readiness.sh"}}}},
                                      {"initialDelaySeconds", 15},
                                      {"timeoutSeconds", 5}}},
      {"volumeMounts", json::Array{json::Object{{"name", "kafka-metrics-and-logging"}, {"mountPath", "/opt/kafka/custom-config/"}}}}};
  json::Array volumes;
  // The data volumes first, as Strimzi's pods list them.
  json::Array data_volumes, data_mounts;
  for (const auto& v : node.volumes) {
    data_mounts.push_back(json::Object{{"name", v.name()}, {"mountPath", v.mount_path()}});
    json::Object volume{{"name", v.name()}};
    if (v.persistent()) {
      volume["persistentVolumeClaim"] = json::Object{{"claimName", v.claim_name(node.pod_name(cluster))}};
    } else {
      json::Object empty;
      if (!v.spec.size_limit.empty()) empty["sizeLimit"] = v.spec.size_limit;
      volume["emptyDir"] = std::move(empty);
    }
    data_volumes.push_back(std::move(volume));
  }
  auto& mounts = container["volumeMounts"].as_array();
  mounts.insert(mounts.begin(), data_mounts.begin(), data_mounts.end());
  if (needs_certificate(spec, node, internal_tls)) {
    auto secret_volume = [&](std::string name, std::string secret, std::string_view path) {
      container["volumeMounts"].as_array().push_back(json::Object{{"name", name}, {"mountPath", path}, {"readOnly", true}});
      volumes.push_back(json::Object{{"name", std::move(name)}, {"secret", json::Object{{"secretName", std::move(secret)}}}});
    };
    secret_volume("broker-certs", node.pod_name(cluster), kBrokerCertsPath);
    secret_volume("cluster-ca", ca_cert_secret_name(cluster_ca_name(cluster)), kClusterCaCertsPath);
    if (node.broker && authenticates_clients(spec))
      secret_volume("clients-ca", ca_cert_secret_name(clients_ca_name(cluster)), kClientsCaCertsPath);
  }
  if (pool.resources) container["resources"] = *pool.resources;
  data_volumes.push_back(json::Object{{"name", "kafka-metrics-and-logging"}, {"configMap", json::Object{{"name", node.pod_name(cluster)}}}});
  volumes.insert(volumes.begin(), data_volumes.begin(), data_volumes.end());
  json::Object pod_spec{
      {"hostname", node.pod_name(cluster)},
      {"subdomain", brokers_service_name(cluster)},
      {"containers", json::Array{std::move(container)}},
      {"volumes", std::move(volumes)},
      {"terminationGracePeriodSeconds", 30},
      {"restartPolicy", "Always"}};
  if (spec.rack) add_rack_awareness(pod_spec, *spec.rack, cluster, node);
  auto o = typed("Pod", owned_metadata(kafka, node.pod_name(cluster), node_labels(cluster, node)));
  o["spec"] = pod_spec;
  // The revision: the pod as built plus its inputs, so a change to either rolls it.
  std::string revision = pki::sha256_hex(json::serialize(o) + inputs, 8);
  o["metadata"].as_object()["annotations"] = json::Object{{v1::kRevisionAnnotation, revision}};
  return o;
}

}  // namespace capstan::kafka
