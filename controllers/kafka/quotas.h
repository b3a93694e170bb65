// Kafka's client quotas of a user (Strimzi's KafkaUser spec.quotas): the Kafka protocol requests
// DescribeClientQuotas and AlterClientQuotas v1, which librdkafka 2.0 lacks, for the entity
// user=<name> alone (not its client ids).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::kafka {

// Quota key (producer_byte_rate, consumer_byte_rate, request_percentage,
// controller_mutation_rate) -> value.
using Quotas = std::map<std::string, double>;

namespace wire {

inline constexpr std::int16_t kDescribeClientQuotas = 48;
inline constexpr std::int16_t kAlterClientQuotas = 49;

std::string describe_user_quotas_request(const std::string& user);
// The quotas of the entity user=<user> exactly; throws AdminError on an error.
Quotas parse_describe_quotas_response(std::string_view body, const std::string& user, const std::string& what);

std::string alter_user_quotas_request(const std::string& user, const Quotas& set, const std::vector<std::string>& remove);
void check_alter_quotas_response(std::string_view body, const std::string& what);

}  // namespace wire
}  // namespace capstan::kafka
