// Kind-addressed wrappers: resolve GroupVersionKind through the REST mapper, then call the
// resource-addressed operation.
#include "runtime/client/client.h"

#include "runtime/meta/object.h"

#include <stdexcept>

namespace capstan::client {
namespace {

meta::GroupVersionKind gvk_of(const json::Value& obj, std::string_view verb) {
  std::string_view api_version = json::get_string(obj, {"apiVersion"});
  std::string_view kind = json::get_string(obj, {"kind"});
  if (api_version.empty() || kind.empty())
    throw std::invalid_argument(std::string(verb) + " " + meta::key_of(obj) + ": the object has no apiVersion/kind");
  return meta::GroupVersionKind::from(api_version, kind);
}

}  // namespace

std::pair<meta::GroupVersionResource, std::string> Client::resolve(const meta::GroupVersionKind& gvk,
                                                                   std::string_view ns, bool need_ns,
                                                                   std::string_view what) {
  RestMapping m = mapper().mapping(gvk);
  if (!m.namespaced) return {m.gvr, ""};
  if (need_ns && ns.empty())
    throw std::invalid_argument(std::string(what) + " " + gvk.str() + ": a namespace is required for a namespaced kind");
  return {m.gvr, std::string(ns)};
}

json::Value Client::get(const meta::GroupVersionKind& gvk, std::string_view ns, std::string_view name,
                        const GetOptions& options) {
  auto [gvr, n] = resolve(gvk, ns, true, "get");
  return get(gvr, n, name, options);
}

ObjectList Client::list(const meta::GroupVersionKind& gvk, std::string_view ns, const ListOptions& options) {
  auto [gvr, n] = resolve(gvk, ns, false, "list");
  return list(gvr, n, options);
}

json::Value Client::create(const json::Value& obj, const WriteOptions& options) {
  auto [gvr, n] = resolve(gvk_of(obj, "create"), meta::namespace_of(obj), true, "create");
  return create(gvr, n, obj, options);
}

json::Value Client::update(const json::Value& obj, const WriteOptions& options) {
  auto [gvr, n] = resolve(gvk_of(obj, "update"), meta::namespace_of(obj), true, "update");
  return update(gvr, n, obj, options);
}

json::Value Client::update_status(const json::Value& obj, const WriteOptions& options) {
  auto [gvr, n] = resolve(gvk_of(obj, "update status"), meta::namespace_of(obj), true, "update status");
  return update_status(gvr, n, obj, options);
}

json::Value Client::apply(const json::Value& obj, std::string_view field_manager, bool force) {
  auto [gvr, n] = resolve(gvk_of(obj, "apply"), meta::namespace_of(obj), true, "apply");
  return apply(gvr, n, obj, field_manager, force);
}

json::Value Client::patch(const meta::GroupVersionKind& gvk, std::string_view ns, std::string_view name,
                          PatchType type, std::string_view body, const PatchOptions& options) {
  auto [gvr, n] = resolve(gvk, ns, true, "patch");
  return patch(gvr, n, name, type, body, options);
}

std::optional<json::Value> Client::remove(const meta::GroupVersionKind& gvk, std::string_view ns,
                                          std::string_view name, const DeleteOptions& options) {
  auto [gvr, n] = resolve(gvk, ns, true, "delete");
  return remove(gvr, n, name, options);
}

std::optional<json::Value> Client::remove(const json::Value& obj, const DeleteOptions& options) {
  return remove(gvk_of(obj, "delete"), meta::namespace_of(obj), meta::name_of(obj), options);
}

WatchResult Client::watch(const meta::GroupVersionKind& gvk, std::string_view ns, const WatchOptions& options,
                          const WatchHandler& on_event, http::Cancellation* cancel) {
  auto [gvr, n] = resolve(gvk, ns, false, "watch");
  return watch(gvr, n, options, on_event, cancel);
}

}  // namespace capstan::client
