#include "controllers/kafka/quotas.h"

#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/wire.h"

#include <optional>

namespace capstan::kafka::wire {
namespace {

constexpr std::int8_t kMatchExact = 0;

// An entity: [(type, name or null)].
std::vector<std::pair<std::string, std::optional<std::string>>> read_entity(Reader& r) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    std::string type = r.compact_string();
    auto name = r.compact_nullable_string();
    r.skip_tags();
    out.emplace_back(std::move(type), std::move(name));
  }
  return out;
}

}  // namespace

std::string describe_user_quotas_request(const std::string& user) {
  Writer w;
  w.compact_array_size(1).compact_string("user").int8(kMatchExact).compact_nullable_string(user).no_tags();
  w.boolean(true);  // strict: the entity user=<user> alone, not (user, client-id) pairs
  w.no_tags();
  return w.bytes();
}

Quotas parse_describe_quotas_response(std::string_view body, const std::string& user, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  const std::int16_t error = r.int16();
  throw_if_error(error, r.compact_nullable_string(), what);
  Quotas out;
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    const auto entity = read_entity(r);
    const bool ours = entity.size() == 1 && entity[0].first == "user" && entity[0].second == user;
    for (std::size_t j = 0, m = r.compact_array_size(); j < m; ++j) {
      std::string key = r.compact_string();
      const double value = r.float64();
      r.skip_tags();
      if (ours) out[std::move(key)] = value;
    }
    r.skip_tags();
  }
  return out;
}

std::string alter_user_quotas_request(const std::string& user, const Quotas& set, const std::vector<std::string>& remove) {
  Writer w;
  w.compact_array_size(1);
  w.compact_array_size(1).compact_string("user").compact_nullable_string(user).no_tags();
  w.compact_array_size(set.size() + remove.size());
  for (const auto& [key, value] : set) w.compact_string(key).float64(value).boolean(false).no_tags();
  for (const auto& key : remove) w.compact_string(key).float64(0).boolean(true).no_tags();
  w.no_tags();
  w.boolean(false);  // validate only
  w.no_tags();
  return w.bytes();
}

void check_alter_quotas_response(std::string_view body, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    const std::int16_t error = r.int16();
    auto message = r.compact_nullable_string();
    read_entity(r);
    r.skip_tags();
    throw_if_error(error, message, what);
  }
}

}  // namespace capstan::kafka::wire
