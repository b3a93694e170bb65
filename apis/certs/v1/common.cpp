#include "apis/certs/v1/common.h"

#include "apis/certs/v1/codec.h"
#include "apis/certs/v1/group.h"

#include <algorithm>

namespace capstan::apis::certs::v1 {

bool is_known_usage(std::string_view usage) {
  return std::find(kKeyUsages.begin(), kKeyUsages.end(), usage) != kKeyUsages.end();
}

IssuerReference IssuerReference::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  IssuerReference r;
  r.name = codec::read_string(o, "name", path);
  r.kind = codec::read_string(o, "kind", path);
  r.group = codec::read_string(o, "group", path);
  return r;
}

json::Value IssuerReference::to_json() const {
  json::Object o;
  o["name"] = name;  // required, written even when empty
  codec::put_string(o, "kind", kind);
  codec::put_string(o, "group", group);
  return o;
}

SecretKeySelector SecretKeySelector::from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  SecretKeySelector s;
  s.name = codec::read_string(o, "name", path);
  s.key = codec::read_string(o, "key", path);
  return s;
}

json::Value SecretKeySelector::to_json() const {
  json::Object o;
  o["name"] = name;
  codec::put_string(o, "key", key);
  return o;
}

Condition condition_from_json(const json::Value& v, std::string_view path) {
  const auto& o = codec::as_object(v, path);
  Condition c;
  c.type = codec::read_string(o, "type", path);
  c.status = codec::read_string(o, "status", path);
  c.reason = codec::read_string(o, "reason", path);
  c.message = codec::read_string(o, "message", path);
  c.observed_generation = codec::read_int(o, "observedGeneration", path).value_or(0);
  c.last_transition_time = codec::read_string(o, "lastTransitionTime", path);
  return c;
}

json::Value condition_to_json(const Condition& c) {
  json::Object o;
  o["type"] = c.type;
  o["status"] = c.status;
  codec::put_string(o, "lastTransitionTime", c.last_transition_time);
  codec::put_string(o, "reason", c.reason);
  codec::put_string(o, "message", c.message);
  if (c.observed_generation != 0) o["observedGeneration"] = c.observed_generation;
  return o;
}

std::vector<Condition> conditions_from_json(const json::Value* array, std::string_view path) {
  std::vector<Condition> out;
  if (!array || array->is_null()) return out;
  if (!array->is_array()) throw DecodeError(std::string(path) + ": expected an array of conditions");
  const auto& a = array->get_array();
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out.push_back(condition_from_json(a[i], codec::index(path, i)));
  return out;
}

json::Array conditions_to_json(const std::vector<Condition>& conditions) {
  json::Array a;
  a.reserve(conditions.size());
  for (const auto& c : conditions) a.push_back(condition_to_json(c));
  return a;
}

const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) {
  for (const auto& c : conditions)
    if (c.type == type) return &c;
  return nullptr;
}

}  // namespace capstan::apis::certs::v1
