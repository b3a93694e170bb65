// The configuration of an Alertmanager, assembled as prometheus-operator assembles it: the base
// configuration (its Secret's alertmanager.yaml, or a route to the receiver "null") with each
// selected AlertmanagerConfig merged in, in namespace/name order:
//   - its route becomes a child of the top route, first among the children, with continue: true
//     and (strategy OnNamespace) the matcher namespace="<its namespace>" first;
//   - its receivers are added as "<namespace>/<name>/<receiver>", and its routes name them so;
//   - its inhibit rules are added with that namespace matcher on both sides;
//   - its muteTimeIntervals become time_intervals "<namespace>/<name>/<interval>", which its
//     routes' mute_time_intervals and active_time_intervals name.
// Receivers: webhook, Slack, PagerDuty, Opsgenie and e-mail. Secret references (URLs, keys,
// passwords) are resolved through a reader, in the object's own namespace: what Alertmanager
// reads is a plain configuration file (in the generated Secret). A receiver lacking what neither
// it nor the base's global section gives (Slack's API URL, Opsgenie's API key, SMTP's smarthost
// and sender) leaves its object out alone, as an unreadable Secret does.
#pragma once

#include "apis/monitoring/v1/types.h"
#include "runtime/json/json.h"

#include <functional>
#include <string>
#include <vector>

namespace capstan::monitoring {

struct AlertmanagerConfigInput {
  std::string ns, name;
  apis::monitoring::v1::AlertmanagerConfigSpec spec;
};

// The value of a key of a Secret in namespace `ns`; throws std::runtime_error naming the Secret and
// key when it cannot be read.
using SecretValueReader = std::function<std::string(const std::string& ns, const apis::monitoring::v1::SecretKeySelector& ref)>;

// What Alertmanager runs with when there is no base configuration.
json::Value default_alertmanager_config();

// The base configuration from its YAML text; throws std::invalid_argument when it is not a
// mapping with a route that names a receiver (what Alertmanager requires at the top).
json::Value parse_base_config(const std::string& yaml);

struct AssembledConfig {
  json::Value config;
  // Configs left out (their index in the input, and why: a Secret they refer to cannot be read, or
  // a receiver lacks a setting).
  std::vector<std::pair<std::size_t, std::string>> rejected;
};

// `configs` (validated: validate_alertmanager_config; in the order they are merged) merged into
// `base`. A config whose Secret cannot be read is left out alone.
AssembledConfig assemble_alertmanager_config(json::Value base, const std::vector<AlertmanagerConfigInput>& configs, bool on_namespace,
                                             const SecretValueReader& secrets);

}  // namespace capstan::monitoring
