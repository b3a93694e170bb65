#include "controllers/kafka/acls.h"

#include "controllers/kafka/wire.h"

#include <optional>

namespace capstan::kafka {
namespace {

// Kafka's codes: org.apache.kafka.common.resource.ResourceType and PatternType,
// org.apache.kafka.common.acl.AclOperation and AclPermissionType. Code 1 is each one's ANY, for
// filters.
constexpr std::int8_t kAny = 1;

struct Code {
  std::string_view name;  // Strimzi's word
  std::int8_t code;
};

constexpr Code kResourceTypes[] = {{"topic", 2}, {"group", 3}, {"cluster", 4}, {"transactionalId", 5}};
constexpr Code kPatterns[] = {{"literal", 3}, {"prefix", 4}};
constexpr Code kOperations[] = {{"All", 2},           {"Read", 3},           {"Write", 4},
                                {"Create", 5},        {"Delete", 6},         {"Alter", 7},
                                {"Describe", 8},      {"ClusterAction", 9},  {"DescribeConfigs", 10},
                                {"AlterConfigs", 11}, {"IdempotentWrite", 12}};
constexpr Code kPermissions[] = {{"deny", 2}, {"allow", 3}};

template <std::size_t N>
std::int8_t code_of(const Code (&table)[N], std::string_view name, const char* kind, const AclBinding& b) {
  for (const auto& c : table)
    if (c.name == name) return c.code;
  throw AdminError("_INVALID_ARG", "the ACL " + acl_text(b) + ": Kafka has no " + kind + " named " + std::string(name));
}

template <std::size_t N>
std::optional<std::string> name_of(const Code (&table)[N], std::int8_t code) {
  for (const auto& c : table)
    if (c.code == code) return std::string(c.name);
  return std::nullopt;
}

[[noreturn]] void bad_message(const std::string& what, const std::string& detail) {
  throw AdminError("_BAD_MSG", "malformed Kafka response: " + what + ": " + detail);
}

// The fields a CreateAcls creation and an exact DeleteAcls filter share: resource type, name,
// pattern type, principal, host, operation, permission type, tags.
void write_binding(wire::Writer& w, const AclBinding& b) {
  w.int8(code_of(kResourceTypes, b.resource_type, "resource type", b)).compact_string(b.resource_name);
  w.int8(code_of(kPatterns, b.pattern, "pattern type", b));
  w.compact_string(b.principal).compact_string(b.host);
  w.int8(code_of(kOperations, b.operation, "operation", b)).int8(code_of(kPermissions, b.permission, "permission", b));
  w.no_tags();
}

// The binding of Kafka's codes in Strimzi's words; nullopt for one they cannot name.
std::optional<AclBinding> binding_of(std::int8_t type, std::string name, std::int8_t pattern, std::string principal, std::string host,
                                     std::int8_t operation, std::int8_t permission) {
  auto t = name_of(kResourceTypes, type);
  auto p = name_of(kPatterns, pattern);
  auto o = name_of(kOperations, operation);
  auto m = name_of(kPermissions, permission);
  if (!t || !p || !o || !m) return std::nullopt;
  return AclBinding{*t, std::move(name), *p, std::move(principal), std::move(host), *o, *m};
}

}  // namespace

std::string acl_text(const AclBinding& b) {
  return b.permission + " " + b.operation + " on " + b.resource_type + " " + b.resource_name + " (" + b.pattern + ") for " + b.principal;
}

namespace wire {

std::string describe_acls_request(const std::string& principal) {
  Writer w;
  w.int8(kAny).compact_nullable_string(std::nullopt).int8(kAny);  // any resource, of any name and pattern
  w.compact_nullable_string(principal).compact_nullable_string(std::nullopt);  // any host
  w.int8(kAny).int8(kAny);  // any operation and permission
  w.no_tags();
  return w.bytes();
}

std::set<AclBinding> parse_describe_acls_response(std::string_view body, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  const std::int16_t error = r.int16();
  throw_if_error(error, r.compact_nullable_string(), what);
  std::set<AclBinding> out;
  std::size_t seen = 0;
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    const std::int8_t type = r.int8();
    const std::string name = r.compact_string();
    const std::int8_t pattern = r.int8();
    for (std::size_t j = 0, m = r.compact_array_size(); j < m; ++j) {
      std::string principal = r.compact_string();
      std::string host = r.compact_string();
      const std::int8_t operation = r.int8();
      const std::int8_t permission = r.int8();
      r.skip_tags();
      if (++seen > kMaxDescribedAcls) bad_message(what, "more than " + std::to_string(kMaxDescribedAcls) + " ACLs");
      if (auto b = binding_of(type, name, pattern, std::move(principal), std::move(host), operation, permission)) out.insert(std::move(*b));
    }
    r.skip_tags();
  }
  r.skip_tags();
  return out;
}

std::string create_acls_request(const std::vector<AclBinding>& acls) {
  Writer w;
  w.compact_array_size(acls.size());
  for (const auto& b : acls) write_binding(w, b);
  w.no_tags();
  return w.bytes();
}

void check_create_acls_response(std::string_view body, const std::vector<AclBinding>& acls, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  const std::size_t n = r.compact_array_size();
  if (n != acls.size()) bad_message(what, std::to_string(n) + " results for " + std::to_string(acls.size()) + " ACLs");
  for (std::size_t i = 0; i < n; ++i) {
    const std::int16_t error = r.int16();
    auto message = r.compact_nullable_string();
    r.skip_tags();
    throw_if_error(error, message, what + ": " + acl_text(acls[i]));
  }
  r.skip_tags();
}

// A DeleteAcls filter of exact values is encoded as the creation of the same binding (its
// nullable strings are not null), so the request is the same list.
std::string delete_acls_request(const std::vector<AclBinding>& acls) { return create_acls_request(acls); }

void check_delete_acls_response(std::string_view body, const std::vector<AclBinding>& acls, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  const std::size_t n = r.compact_array_size();
  if (n != acls.size()) bad_message(what, std::to_string(n) + " results for " + std::to_string(acls.size()) + " filters");
  for (std::size_t i = 0; i < n; ++i) {
    const std::int16_t error = r.int16();
    auto message = r.compact_nullable_string();
    throw_if_error(error, message, what + ": " + acl_text(acls[i]));
    for (std::size_t j = 0, m = r.compact_array_size(); j < m; ++j) {
      const std::int16_t matched_error = r.int16();
      auto matched_message = r.compact_nullable_string();
      const std::int8_t type = r.int8();
      std::string name = r.compact_string();
      const std::int8_t pattern = r.int8();
      std::string principal = r.compact_string();
      std::string host = r.compact_string();
      const std::int8_t operation = r.int8();
      const std::int8_t permission = r.int8();
      r.skip_tags();
      if (matched_error == 0) continue;
      auto matched = binding_of(type, std::move(name), pattern, std::move(principal), std::move(host), operation, permission);
      throw_if_error(matched_error, matched_message, what + ": " + acl_text(matched.value_or(acls[i])));
    }
    r.skip_tags();
  }
  r.skip_tags();
}

}  // namespace wire
}  // namespace capstan::kafka
