#include "apiserver/simulator/api.h"

#include "apiserver/simulator/resources.h"
#include "runtime/meta/object.h"

namespace capstan::simulator {
namespace {

constexpr int kMaxConflictRetries = 8;

}  // namespace

Object make_object(json::Value v) { return std::make_shared<const json::Value>(std::move(v)); }

Api::Api(client::Client& client, std::string field_manager) : client_(client), field_manager_(std::move(field_manager)) {}

Object Api::get(std::string_view resource, std::string_view ns, std::string_view name) {
  try {
    return make_object(client_.get(gvr(resource), namespaced(resource) ? ns : "", name));
  } catch (const ApiError& e) {
    if (client::is_not_found(e)) return nullptr;
    throw;
  }
}

std::vector<Object> Api::list(std::string_view resource, std::string_view ns, std::string_view label_selector) {
  client::ListOptions o;
  o.label_selector = std::string(label_selector);
  o.limit = 500;
  auto page = client_.list_all(gvr(resource), namespaced(resource) ? ns : "", o);
  std::vector<Object> out;
  out.reserve(page.items.size());
  for (auto& item : page.items) out.push_back(make_object(std::move(item)));
  return out;
}

json::Value Api::create(std::string_view resource, std::string_view ns, const json::Value& obj) {
  client::WriteOptions o;
  o.field_manager = field_manager_;
  return client_.create(gvr(resource), namespaced(resource) ? ns : "", obj, o);
}

json::Value Api::update(std::string_view resource, const json::Value& obj, bool status) {
  client::WriteOptions o;
  o.field_manager = field_manager_;
  auto ns = namespaced(resource) ? meta::namespace_of(obj) : std::string_view();
  return status ? client_.update_status(gvr(resource), ns, obj, o) : client_.update(gvr(resource), ns, obj, o);
}

bool Api::mutate(std::string_view resource, std::string_view ns, std::string_view name, bool status,
                 const std::function<bool(json::Value&)>& fn) {
  for (int attempt = 0;; ++attempt) {
    auto cur = get(resource, ns, name);
    if (!cur) return false;
    json::Value v = *cur;
    if (!fn(v)) return false;
    try {
      update(resource, v, status);
      return true;
    } catch (const ApiError& e) {
      if (client::is_not_found(e)) return false;
      if (!client::is_conflict(e) || attempt + 1 >= kMaxConflictRetries) throw;
    }
  }
}

bool Api::remove(std::string_view resource, std::string_view ns, std::string_view name, std::string_view uid,
                 client::Propagation propagation, std::optional<std::int64_t> grace_period_seconds) {
  client::DeleteOptions o;
  o.precondition_uid = std::string(uid);
  o.propagation = propagation;
  o.grace_period_seconds = grace_period_seconds;
  try {
    client_.remove(gvr(resource), namespaced(resource) ? ns : "", name, o);
    return true;
  } catch (const ApiError& e) {
    if (client::is_not_found(e) || (client::is_conflict(e) && !uid.empty())) return false;
    throw;
  }
}

}  // namespace capstan::simulator
