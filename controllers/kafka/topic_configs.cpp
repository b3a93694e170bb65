#include "controllers/kafka/topic_configs.h"

#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/wire.h"

namespace capstan::kafka::wire {
namespace {

// org.apache.kafka.common.config.ConfigResource.Type and AlterConfigOp.OpType.
constexpr std::int8_t kTopicResource = 2;
constexpr std::int8_t kSet = 0;
constexpr std::int8_t kDelete = 1;

}  // namespace

std::string alter_topic_configs_request(const std::string& topic, const std::map<std::string, std::string>& set,
                                        const std::vector<std::string>& remove) {
  Writer w;
  w.compact_array_size(1);
  w.int8(kTopicResource).compact_string(topic);
  w.compact_array_size(set.size() + remove.size());
  for (const auto& [name, value] : set) w.compact_string(name).int8(kSet).compact_nullable_string(value).no_tags();
  for (const auto& name : remove) w.compact_string(name).int8(kDelete).compact_nullable_string(std::nullopt).no_tags();
  w.no_tags();          // the resource's
  w.boolean(false);     // validateOnly
  w.no_tags();
  return w.bytes();
}

void check_alter_configs_response(std::string_view body, const std::string& topic, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  const std::size_t n = r.compact_array_size();
  if (n != 1) throw AdminError("_BAD_MSG", "malformed Kafka response: " + what + ": " + std::to_string(n) + " results for one topic");
  const std::int16_t error = r.int16();
  auto message = r.compact_nullable_string();
  const std::int8_t type = r.int8();
  const std::string name = r.compact_string();
  r.skip_tags();
  r.skip_tags();
  if (type != kTopicResource || name != topic)
    throw AdminError("_BAD_MSG", "malformed Kafka response: " + what + ": the result is of resource " + std::to_string(type) + " " + name);
  throw_if_error(error, message, what);
}

}  // namespace capstan::kafka::wire
