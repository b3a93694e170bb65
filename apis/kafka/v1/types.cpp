#include "apis/kafka/v1/types.h"


namespace capstan::apis::kafka::v1 {
namespace {

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

}  // namespace capstan::apis::kafka::v1
