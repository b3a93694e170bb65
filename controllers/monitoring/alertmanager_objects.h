// The objects an Alertmanager "<name>" in "<ns>" owns, named and labelled as prometheus-operator
// names them (pkg/alertmanager/statefulset.go):
//
//   Secret       alertmanager-<name>-generated  alertmanager.yaml.gz (the assembled configuration)
//   Service      alertmanager-operated          headless, shared by the namespace's Alertmanagers:
//                                               web 9093, the cluster's gossip on 9094 (TCP, UDP)
//   StatefulSet  alertmanager-<name>            alertmanager + config-reloader; with more than one
//                                               replica each pod peers with the others through
//                                               alertmanager-<name>-<i>.alertmanager-operated:9094
#pragma once

#include "apis/monitoring/v1/types.h"
#include "runtime/json/json.h"

#include <map>
#include <string>

namespace capstan::monitoring {

inline constexpr std::string_view kAlertmanagerGoverningService = "alertmanager-operated";
inline constexpr std::string_view kAlertmanagerConfigKey = "alertmanager.yaml.gz";
inline constexpr int kAlertmanagerWebPort = 9093;
inline constexpr int kAlertmanagerMeshPort = 9094;

std::string alertmanager_statefulset_name(std::string_view alertmanager);
std::string alertmanager_generated_secret_name(std::string_view alertmanager);
// spec.configSecret, or alertmanager-<name>.
std::string alertmanager_base_secret_name(std::string_view alertmanager, const apis::monitoring::v1::AlertmanagerSpec& spec);
std::map<std::string, std::string> alertmanager_selector_labels(std::string_view alertmanager);

// Throws std::length_error naming the sizes when the gzipped configuration does not fit a Secret.
json::Value alertmanager_config_secret(const json::Value& alertmanager, const std::string& config_yaml);
json::Value alertmanager_governing_service(const json::Value& alertmanager);
json::Value alertmanager_statefulset(const json::Value& alertmanager, const apis::monitoring::v1::AlertmanagerSpec& spec);

}  // namespace capstan::monitoring
