#include "runtime/controller/status.h"

#include "runtime/client/client.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::controller {

json::Object& status_of(json::Value& obj) {
  auto& o = obj.as_object();
  auto* s = o.if_contains("status");
  if (!s || !s->is_object()) s = &(o["status"] = json::Object());
  return s->as_object();
}

void set_condition(json::Value& obj, std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message) {
  meta::set_condition(obj, meta::Condition{std::string(type), std::string(status), std::string(reason), std::string(message),
                                           meta::generation_of(obj), ""});
}

void remove_condition(json::Value& obj, std::string_view type) {
  auto& status = status_of(obj);
  auto* conditions = status.if_contains("conditions");
  if (!conditions || !conditions->is_array()) return;
  auto& a = conditions->as_array();
  a.erase(std::remove_if(a.begin(), a.end(), [&](const json::Value& c) { return json::get_string(c, {"type"}) == type; }), a.end());
}

bool condition_current(const json::Value& obj, std::string_view type, std::string_view status) {
  auto c = meta::find_condition(obj, type);
  return c && c->status == status && c->observed_generation == meta::generation_of(obj);
}

bool write_status(client::Client& client, const meta::GroupVersionResource& gvr, const json::Value& before, json::Value& obj) {
  status_of(obj);
  const json::Value* old = json::find(before, {"status"});
  if (old && *old == obj.at("status")) return false;
  client.patch(gvr, meta::namespace_of(obj), meta::name_of(obj), client::PatchType::Merge,
               json::Value(json::Object{{"status", obj.at("status")}}), client::PatchOptions{.subresource = "status"});
  return true;
}

}  // namespace capstan::controller
