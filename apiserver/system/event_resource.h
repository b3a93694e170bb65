// The group-resource a store event is about. Events replayed by Store::watch("*", initial)
// carry "*" as their resource, so those are resolved from the object's apiVersion and kind.
#pragma once

#include "apiserver/registry/resource.h"
#include "apiserver/storage/object.h"

#include <string>

namespace capstan::apiserver::system {

inline std::string event_resource(const registry::Registry& registry, const storage::Event& e) {
  if (e.resource != "*" || !e.object) return e.resource;
  std::string_view api_version = json::get_string(*e.object.value, {"apiVersion"});
  auto slash = api_version.find('/');
  std::string_view group = slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
  auto r = registry.find_kind(group, json::get_string(*e.object.value, {"kind"}));
  return r ? r->group_resource() : std::string();
}

}  // namespace capstan::apiserver::system
