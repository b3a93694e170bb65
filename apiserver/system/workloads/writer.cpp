#include "apiserver/system/workloads/writer.h"

#include "runtime/meta/object.h"

namespace capstan::apiserver::system::workloads {
namespace {

constexpr int kMaxConflictRetries = 8;

}  // namespace

Writer::Writer(rest::Service& service, std::string field_manager, rest::User user)
    : service_(service), field_manager_(std::move(field_manager)), user_(std::move(user)) {}

rest::Target Writer::target(std::string_view resource, std::string_view ns, std::string_view name,
                            std::string_view subresource) const {
  auto res = service_.registry().find_group_resource(resource);
  if (!res) throw std::runtime_error("resource " + std::string(resource) + " is not served");
  return rest::Target{res, res->storage_version().name, std::string(ns), std::string(name), std::string(subresource)};
}

json::Value Writer::create(std::string_view resource, std::string_view ns, json::Value obj) {
  rest::WriteOptions o;
  o.field_manager = field_manager_;
  o.user = user_;
  auto t = target(resource, ns, "");
  return service_.create(t, std::move(obj), o).object;
}

json::Value Writer::update(std::string_view resource, const json::Value& obj, bool status) {
  rest::WriteOptions o;
  o.field_manager = field_manager_;
  o.user = user_;
  auto t = target(resource, meta::namespace_of(obj), meta::name_of(obj), status ? "status" : "");
  return service_.update(t, obj, o).object;
}

bool Writer::mutate(std::string_view resource, std::string_view ns, std::string_view name, bool status,
                    const std::function<bool(json::Value&)>& fn) {
  for (int attempt = 0;; ++attempt) {
    auto cur = store().get(std::string(resource), ns, name);
    if (!cur) return false;
    json::Value v = *cur.value;
    if (!fn(v)) return false;
    try {
      update(resource, v, status);
      return true;
    } catch (const ApiError& e) {
      if (e.code == 404) return false;
      if (e.code != 409 || attempt + 1 >= kMaxConflictRetries) throw;
    }
  }
}

bool Writer::remove(std::string_view resource, std::string_view ns, std::string_view name, std::string_view uid,
                    std::string_view propagation) {
  rest::DeleteOptions o;
  o.user = user_;
  o.precondition_uid = std::string(uid);
  o.propagation = std::string(propagation);
  try {
    service_.remove(target(resource, ns, name), o);
    return true;
  } catch (const ApiError& e) {
    if (e.code == 404 || (e.code == 409 && !uid.empty())) return false;
    throw;
  }
}

rest::User controller_user(std::string_view controller) {
  return rest::User{"system:serviceaccount:kube-system:" + std::string(controller), "",
                    {"system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"}};
}

rest::User node_user(std::string_view node) {
  return rest::User{"system:node:" + std::string(node), "", {"system:nodes", "system:authenticated"}};
}

rest::User scheduler_user() { return rest::User{"system:kube-scheduler", "", {"system:authenticated"}}; }

}  // namespace capstan::apiserver::system::workloads
