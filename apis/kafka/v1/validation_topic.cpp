// KafkaTopic validation: Kafka's topic-name rules (org.apache.kafka.common.internals.Topic), the
// bounds of types.h, and what Strimzi's topic operator refuses to change (the topic name).
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "runtime/meta/object.h"

namespace capstan::apis::kafka::v1 {
namespace {

using validation::FieldPath;
using Causes = std::vector<validation::Cause>;

constexpr std::size_t kMaxTopicNameLength = 249;
constexpr std::size_t kMaxConfigKeyLength = 255;
constexpr std::size_t kMaxConfigValueLength = 64 * 1024;

// Why Kafka refuses `name` as a topic name, or empty.
std::string topic_name_error(std::string_view name) {
  if (name.empty()) return "must not be empty";
  if (name == "." || name == "..") return "must not be \".\" or \"..\"";
  if (name.size() > kMaxTopicNameLength) return "must be no more than 249 characters";
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
      return "must consist of ASCII letters, digits, '.', '_' and '-'";
  return {};
}

void validate_count(const json::Value& spec, std::string_view key, std::int64_t max, Causes& out) {
  const json::Value* v = json::find(spec, {key});
  if (!v || v->is_null()) return;
  if (!v->is_int64() || v->as_int64() < 1 || v->as_int64() > max)
    out.push_back(validation::field_invalid(FieldPath("spec").child(key), *v,
                                            "must be between 1 and " + std::to_string(max) + ", inclusive"));
}

bool scalar(const json::Value& v) { return v.is_string() || v.is_number() || v.is_bool(); }

void validate_config(const json::Value& spec, Causes& out) {
  const json::Value* config = json::find(spec, {"config"});
  if (!config || !config->is_object()) return;
  const FieldPath path = FieldPath("spec").child("config");
  if (config->get_object().size() > static_cast<std::size_t>(kMaxTopicConfigs)) {
    out.push_back(validation::field_too_many(path, static_cast<std::int64_t>(config->get_object().size()), kMaxTopicConfigs));
    return;
  }
  for (const auto& kv : config->get_object()) {
    const FieldPath p = path.key(kv.key());
    const json::Value& v = kv.value();
    if (kv.key().empty() || kv.key().size() > kMaxConfigKeyLength) {
      out.push_back(validation::field_invalid(p, json::Value(std::string(kv.key().substr(0, 64))), "a config name is 1-255 characters"));
      continue;
    }
    bool ok = scalar(v);
    if (v.is_array()) {
      ok = true;
      for (const auto& e : v.get_array()) ok &= scalar(e);
    }
    if (!ok) {
      out.push_back(validation::field_type_invalid(p, v, "must be a string, number, boolean or a list of those"));
    } else if (json::serialize(v).size() > kMaxConfigValueLength) {
      out.push_back(validation::field_too_long(p, static_cast<std::int64_t>(kMaxConfigValueLength)));
    }
  }
}

std::string effective_topic_name(const json::Value& obj) {
  std::string_view name = json::get_string(obj, {"spec", "topicName"});
  return std::string(name.empty() ? std::string_view(meta::name_of(obj)) : name);
}

}  // namespace

std::vector<validation::Cause> validate_kafka_topic(const json::Value& obj, const json::Value* old) {
  Causes out;
  if (meta::label(obj, kClusterLabel).empty())
    out.push_back(validation::field_required(FieldPath("metadata").child("labels").key(kClusterLabel),
                                             "the name of the Kafka cluster the topic belongs to"));
  const json::Value* spec = json::find(obj, {"spec"});
  const std::string name = effective_topic_name(obj);
  if (auto why = topic_name_error(name); !why.empty()) {
    FieldPath p = spec && json::find(*spec, {"topicName"}) ? FieldPath("spec").child("topicName") : FieldPath("metadata").child("name");
    out.push_back(validation::field_invalid(p, json::Value(name.substr(0, 300)), why));
  }
  if (spec && spec->is_object()) {
    validate_count(*spec, "partitions", kMaxTopicPartitions, out);
    validate_count(*spec, "replicas", 32767, out);
    validate_config(*spec, out);
  }
  if (old && effective_topic_name(*old) != name)
    out.push_back(validation::field_invalid(FieldPath("spec").child("topicName"), json::Value(name),
                                            "field is immutable: changing the topic name is not supported (was \"" +
                                                effective_topic_name(*old) + "\")"));
  if (old && meta::label(*old, kClusterLabel) != meta::label(obj, kClusterLabel))
    out.push_back(validation::field_invalid(FieldPath("metadata").child("labels").key(kClusterLabel),
                                            json::Value(std::string(meta::label(obj, kClusterLabel))),
                                            "field is immutable: a topic cannot move to another cluster"));
  return out;
}

}  // namespace capstan::apis::kafka::v1
