// A KafkaUser's ACL bindings in Kafka: the protocol requests DescribeAcls, CreateAcls and
// DeleteAcls v3 (flexible) of our own encoding, since librdkafka 2.0's ACL calls cannot name the
// resource type TRANSACTIONAL_ID (Kafka's code 5) that Strimzi's transactionalId rules need.
// Bindings are in Strimzi's words (AclBinding, cluster_admin.h) and become Kafka's codes here
// (ResourceType, PatternType, AclOperation, AclPermissionType).
#pragma once

#include "controllers/kafka/cluster_admin.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::kafka {

// "allow Write on topic orders (literal) for User:CN=alice": a binding in errors and logs.
std::string acl_text(const AclBinding& b);

namespace wire {

inline constexpr std::int16_t kDescribeAcls = 29;
inline constexpr std::int16_t kCreateAcls = 30;
inline constexpr std::int16_t kDeleteAcls = 31;
inline constexpr std::int16_t kAclsVersion = 3;  // of all three: flexible (v2+); Kafka 4 speaks 1 to 3

// The most bindings a DescribeAcls response may hold before it is refused as malformed (a
// KafkaUser has at most 256 rules of at most 11 operations).
inline constexpr std::size_t kMaxDescribedAcls = 1 << 16;

// Every binding of `principal`, of any resource, pattern, host, operation and permission.
std::string describe_acls_request(const std::string& principal);
// The bindings of the response that Strimzi's words can name (others, such as a delegation
// token's or a User resource's, are left out). Throws AdminError on its error.
std::set<AclBinding> parse_describe_acls_response(std::string_view body, const std::string& what);

// Creates `acls`; throws AdminError("_INVALID_ARG") on a word Kafka has no code for.
std::string create_acls_request(const std::vector<AclBinding>& acls);
// Throws AdminError on the first refused binding, naming it (`acls`: those of the request, in order).
void check_create_acls_response(std::string_view body, const std::vector<AclBinding>& acls, const std::string& what);

// One filter per binding, matching exactly it (a literal name matches only the literal binding).
std::string delete_acls_request(const std::vector<AclBinding>& acls);
// Throws AdminError on a filter's error or a matched binding that was not deleted, naming it.
void check_delete_acls_response(std::string_view body, const std::vector<AclBinding>& acls, const std::string& what);

}  // namespace wire
}  // namespace capstan::kafka
