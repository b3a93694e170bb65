#include "controllers/monitoring/alertmanager_objects.h"

#include "controllers/monitoring/builders.h"
#include "controllers/monitoring/objects.h"
#include "runtime/meta/object.h"

#include <stdexcept>

namespace capstan::monitoring {
namespace {

using apis::monitoring::v1::AlertmanagerSpec;
using build::compressed_secret;
using build::metadata;
using build::string_map;
using build::typed;
using build::volume_mount;

std::map<std::string, std::string> common_labels(std::string_view name) {
  auto labels = alertmanager_selector_labels(name);
  labels[std::string(kManagedByLabel)] = std::string(kManagedBy);
  return labels;
}

}  // namespace

std::string alertmanager_statefulset_name(std::string_view alertmanager) { return "alertmanager-" + std::string(alertmanager); }
std::string alertmanager_generated_secret_name(std::string_view alertmanager) { return "alertmanager-" + std::string(alertmanager) + "-generated"; }
std::string alertmanager_base_secret_name(std::string_view alertmanager, const AlertmanagerSpec& spec) {
  return spec.config_secret.empty() ? "alertmanager-" + std::string(alertmanager) : spec.config_secret;
}

std::map<std::string, std::string> alertmanager_selector_labels(std::string_view alertmanager) {
  return {{"app.kubernetes.io/instance", std::string(alertmanager)},
          {"app.kubernetes.io/name", "alertmanager"},
          {"alertmanager", std::string(alertmanager)}};
}

json::Value alertmanager_config_secret(const json::Value& alertmanager, const std::string& config_yaml) {
  auto name = meta::name_of(alertmanager);
  return compressed_secret(alertmanager, alertmanager_generated_secret_name(name), common_labels(name), kAlertmanagerConfigKey,
                           config_yaml, "the assembled Alertmanager configuration", "select fewer AlertmanagerConfigs");
}

json::Value alertmanager_governing_service(const json::Value& alertmanager) {
  auto o = typed("v1", "Service",
                 metadata(alertmanager, std::string(kAlertmanagerGoverningService),
                          {{"operated-alertmanager", "true"}, {std::string(kManagedByLabel), std::string(kManagedBy)}}, false));
  auto port = [](std::string_view name, int number, std::string_view protocol, std::string_view target) {
    return json::Object{{"name", name}, {"port", number}, {"protocol", protocol}, {"targetPort", target}};
  };
  // Not-ready pods are published: peers find each other before they are ready.
  o["spec"] = json::Object{{"clusterIP", "None"},
                           {"publishNotReadyAddresses", true},
                           {"selector", json::Object{{"app.kubernetes.io/name", "alertmanager"}}},
                           {"ports", json::Array{port("web", kAlertmanagerWebPort, "TCP", "web"), port("tcp-mesh", kAlertmanagerMeshPort, "TCP", "mesh-tcp"),
                                                 port("udp-mesh", kAlertmanagerMeshPort, "UDP", "mesh-udp")}}};
  return o;
}

json::Value alertmanager_statefulset(const json::Value& alertmanager, const AlertmanagerSpec& spec) {
  const std::string name(meta::name_of(alertmanager));
  const std::string sts = alertmanager_statefulset_name(name);
  auto o = typed("apps/v1", "StatefulSet", metadata(alertmanager, sts, common_labels(name)));
  json::Array args{"--config.file=/etc/alertmanager/config_out/alertmanager.env.yaml",
                   "--storage.path=/alertmanager",
                   "--data.retention=" + spec.retention,
                   "--web.listen-address=:" + std::to_string(kAlertmanagerWebPort),
                   "--web.route-prefix=" + (spec.route_prefix.empty() ? std::string("/") : spec.route_prefix)};
  // A cluster of one gossips with nobody: clustering off, as prometheus-operator does.
  if (spec.replicas > 1) {
    args.emplace_back("--cluster.listen-address=[$(POD_IP)]:" + std::to_string(kAlertmanagerMeshPort));
    for (std::int32_t i = 0; i < spec.replicas; ++i)
      args.emplace_back("--cluster.peer=" + sts + "-" + std::to_string(i) + "." + std::string(kAlertmanagerGoverningService) + ":" +
                        std::to_string(kAlertmanagerMeshPort));
    args.emplace_back("--cluster.reconnect-timeout=5m");
  } else {
    args.emplace_back("--cluster.listen-address=");
  }
  if (!spec.external_url.empty()) args.emplace_back("--web.external-url=" + spec.external_url);
  if (!spec.log_level.empty()) args.emplace_back("--log.level=" + spec.log_level);
  if (!spec.log_format.empty()) args.emplace_back("--log.format=" + spec.log_format);

  json::Array volumes{json::Object{{"name", "config-volume"}, {"secret", json::Object{{"secretName", alertmanager_generated_secret_name(name)}}}},
                      json::Object{{"name", "config-out"}, {"emptyDir", json::Object{{"medium", "Memory"}}}}};
  // Silences and the notification log: mounted through the alertmanager-db subPath when storage is set.
  json::Object claims;  // the StatefulSet's volumeClaimTemplates and their retention, if any
  json::Object db_mount = build::data_volume(spec.storage, spec.persistent_volume_claim_retention_policy, sts + "-db", "/alertmanager",
                                             "alertmanager-db", {volumes, claims});
  json::Object am{
      {"name", "alertmanager"},
      {"image", spec.effective_image()},
      {"args", std::move(args)},
      {"env", json::Array{json::Object{{"name", "POD_IP"},
                                       {"valueFrom", json::Object{{"fieldRef", json::Object{{"apiVersion", "v1"}, {"fieldPath", "status.podIP"}}}}}}}},
      {"ports", json::Array{json::Object{{"name", spec.port_name}, {"containerPort", kAlertmanagerWebPort}, {"protocol", "TCP"}},
                            json::Object{{"name", "mesh-tcp"}, {"containerPort", kAlertmanagerMeshPort}, {"protocol", "TCP"}},
                            json::Object{{"name", "mesh-udp"}, {"containerPort", kAlertmanagerMeshPort}, {"protocol", "UDP"}}}},
      {"readinessProbe", json::Object{{"httpGet", json::Object{{"path", "/-/ready"}, {"port", spec.port_name}}},
                                      {"periodSeconds", 5},
                                      {"failureThreshold", 10}}},
      {"volumeMounts", json::Array{volume_mount("config-volume", "/etc/alertmanager/config"),
                                   volume_mount("config-out", "/etc/alertmanager/config_out", true), std::move(db_mount)}}};
  if (spec.resources) am["resources"] = *spec.resources;
  json::Array containers{std::move(am), build::config_reloader("config-reloader", false, "alertmanager", kAlertmanagerWebPort, {}, {}, {})};
  json::Array init_containers{build::config_reloader("init-config-reloader", true, "alertmanager", kAlertmanagerWebPort, {}, {}, {})};
  build::merge_by_name(containers, spec.containers);
  build::merge_by_name(init_containers, spec.init_containers);
  build::merge_by_name(volumes, spec.volumes);

  auto pod_labels = alertmanager_selector_labels(name);
  json::Object pod_annotations{{"kubectl.kubernetes.io/default-container", "alertmanager"}};
  if (spec.pod_metadata) {
    for (const auto& [key, value] : spec.pod_metadata->labels) pod_labels.try_emplace(key, value);
    for (const auto& [key, value] : spec.pod_metadata->annotations) pod_annotations[key] = value;
  }
  json::Object pod_spec{{"containers", std::move(containers)},
                        {"initContainers", std::move(init_containers)},
                        {"terminationGracePeriodSeconds", 120},
                        {"volumes", std::move(volumes)}};
  build::pod_settings(pod_spec, spec);
  o["spec"] = json::Object{
      {"replicas", spec.replicas},
      {"serviceName", kAlertmanagerGoverningService},
      {"podManagementPolicy", "Parallel"},
      {"updateStrategy", json::Object{{"type", "RollingUpdate"}}},
      {"selector", json::Object{{"matchLabels", string_map(alertmanager_selector_labels(name))}}},
      {"template", json::Object{{"metadata", json::Object{{"labels", string_map(pod_labels)}, {"annotations", std::move(pod_annotations)}}},
                                {"spec", std::move(pod_spec)}}}};
  for (auto& kv : claims) o["spec"].as_object()[kv.key()] = std::move(kv.value());
  return o;
}

}  // namespace capstan::monitoring
