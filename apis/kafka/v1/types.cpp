#include "apis/kafka/v1/types.h"

#include <set>

namespace capstan::apis::kafka::v1 {
namespace {

// Broker settings Strimzi owns (KafkaClusterSpec.FORBIDDEN_PREFIXES), and the exceptions.
constexpr std::string_view kForbiddenPrefixes[] = {
    "listeners",       "advertised.",     "broker.",        "listener.",       "host.name",     "port",
    "inter.broker.listener.name",         "sasl.",          "ssl.",            "security.",     "password.",
    "log.dir",         "authorizer.",     "super.user",     "node.id",         "process.roles", "controller.",
    "metadata.log.dir", "cruise.control.metrics.", "prometheus.metrics.reporter.", "cordoned.log.dirs"};
constexpr std::string_view kForbiddenExceptions[] = {"ssl.cipher.suites", "ssl.protocol", "ssl.enabled.protocols",
                                                     "ssl.secure.random.implementation", "ssl.endpoint.identification.algorithm",
                                                     "controller.quorum.election.backoff.max.ms",
                                                     "controller.quorum.election.timeout.ms",
                                                     "controller.quorum.fetch.timeout.ms"};

std::string scalar(const json::Value& v) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_bool()) return v.get_bool() ? "true" : "false";
  return json::serialize(v);
}

}  // namespace

std::string KafkaSpec::effective_image() const {
  if (!image.empty()) return image;
  return "quay.io/strimzi/kafka:" + std::string(kStrimziVersion) + "-kafka-" + effective_version();
}

KafkaSpec parse_kafka_spec(const json::Value& kafka) {
  KafkaSpec s;
  const json::Value* k = json::find(kafka, {"spec", "kafka"});
  if (!k || !k->is_object()) return s;
  s.version = std::string(json::get_string(*k, {"version"}));
  s.metadata_version = std::string(json::get_string(*k, {"metadataVersion"}));
  s.image = std::string(json::get_string(*k, {"image"}));
  if (const auto* ls = json::get_array(*k, {"listeners"})) {
    for (const auto& l : *ls) {
      Listener x;
      x.name = std::string(json::get_string(l, {"name"}));
      if (const auto* p = json::find(l, {"port"}); p && p->is_int64()) x.port = p->as_int64();
      x.type = std::string(json::get_string(l, {"type"}));
      x.tls = json::get_bool(l, {"tls"});
      s.listeners.push_back(std::move(x));
    }
  }
  if (const auto* c = json::get_object(*k, {"config"}))
    for (const auto& kv : *c) s.config[std::string(kv.key())] = scalar(kv.value());
  return s;
}

NodePoolSpec parse_node_pool_spec(const json::Value& pool) {
  NodePoolSpec s;
  if (const auto* r = json::find(pool, {"spec", "replicas"}); r && r->is_int64()) s.replicas = r->as_int64();
  if (const auto* roles = json::get_array(pool, {"spec", "roles"}))
    for (const auto& r : *roles) {
      if (r.is_string() && r.get_string() == "broker") s.broker = true;
      if (r.is_string() && r.get_string() == "controller") s.controller = true;
    }
  if (const auto* st = json::find(pool, {"spec", "storage"})) {
    s.storage.type = std::string(json::get_string(*st, {"type"}, "ephemeral"));
    s.storage.size = std::string(json::get_string(*st, {"size"}));
    s.storage.size_limit = std::string(json::get_string(*st, {"sizeLimit"}));
    s.storage.storage_class = std::string(json::get_string(*st, {"class"}));
    s.storage.delete_claim = json::get_bool(*st, {"deleteClaim"});
  }
  if (const auto* r = json::find(pool, {"spec", "resources"}); r && r->is_object()) s.resources = *r;
  return s;
}

std::vector<std::string> validate_kafka(const KafkaSpec& spec) {
  std::vector<std::string> errors;
  std::set<std::string> names;
  std::set<std::int64_t> ports;
  for (std::size_t i = 0; i < spec.listeners.size(); ++i) {
    const auto& l = spec.listeners[i];
    std::string path = "spec.kafka.listeners[" + std::to_string(i) + "]";
    if (!names.insert(l.name).second) errors.push_back(path + ".name: listener name " + l.name + " is used more than once");
    if (!ports.insert(l.port).second) errors.push_back(path + ".port: port " + std::to_string(l.port) + " is used more than once");
    if (l.tls)
      errors.push_back(path + ".tls: Unsupported value: true: TLS listeners need the cluster CA, which Capstan does not issue yet");
    if (l.port == 9090 || l.port == 9091)
      errors.push_back(path + ".port: port " + std::to_string(l.port) + " is reserved for the control plane and replication");
  }
  if (spec.listeners.empty()) errors.push_back("spec.kafka.listeners: at least one listener is required");
  for (const auto& [key, value] : spec.config) {
    bool exception = false;
    for (auto e : kForbiddenExceptions) exception |= key == e;
    if (exception) continue;
    for (auto p : kForbiddenPrefixes)
      if (key.compare(0, p.size(), p) == 0) {
        errors.push_back("spec.kafka.config." + key + ": Forbidden: set by the operator (prefix " + std::string(p) + ")");
        break;
      }
  }
  return errors;
}

std::vector<std::string> validate_node_pool(std::string_view name, const NodePoolSpec& spec) {
  std::vector<std::string> errors;
  if (spec.replicas < 0 || spec.replicas > kMaxNodes)
    errors.push_back("KafkaNodePool " + std::string(name) + " spec.replicas: Invalid value: " + std::to_string(spec.replicas) +
                     ": must be between 0 and " + std::to_string(kMaxNodes));
  return errors;
}

}  // namespace capstan::apis::kafka::v1
