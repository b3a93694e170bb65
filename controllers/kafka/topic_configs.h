// A topic's configuration changed key by key: IncrementalAlterConfigs v1 (flexible) of our own
// encoding, as Strimzi's topic operator changes it (librdkafka 2.0 has only AlterConfigs, which
// replaces a topic's whole configuration at once and is deprecated by Kafka).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::kafka::wire {

inline constexpr std::int16_t kIncrementalAlterConfigs = 44;
inline constexpr std::int16_t kIncrementalAlterConfigsVersion = 1;

// Sets `set` and deletes `remove` (back to the broker's default) on topic `topic`.
std::string alter_topic_configs_request(const std::string& topic, const std::map<std::string, std::string>& set,
                                        const std::vector<std::string>& remove);
// Throws AdminError on the topic's error (e.g. INVALID_CONFIG, naming the refused setting as
// the broker words it) or a response that is not the topic's.
void check_alter_configs_response(std::string_view body, const std::string& topic, const std::string& what);

}  // namespace capstan::kafka::wire
