// Group/version/kind and group/version/resource identities, as apimachinery spells them.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace capstan::meta {

struct GroupVersion {
  std::string group;    // "" for the core group
  std::string version;  // "v1"

  // "v1" for the core group, "apps/v1" otherwise (the apiVersion field).
  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
  static GroupVersion parse(std::string_view api_version);
  bool operator==(const GroupVersion&) const = default;
};

struct GroupVersionKind {
  std::string group;
  std::string version;
  std::string kind;

  GroupVersion gv() const { return {group, version}; }
  std::string api_version() const { return gv().api_version(); }
  static GroupVersionKind from(std::string_view api_version, std::string_view kind);
  std::string str() const { return api_version() + ", Kind=" + kind; }
  bool operator==(const GroupVersionKind&) const = default;
};

struct GroupVersionResource {
  std::string group;
  std::string version;
  std::string resource;  // plural, lower case: "configmaps"

  GroupVersion gv() const { return {group, version}; }
  std::string api_version() const { return gv().api_version(); }
  // "configmaps" for core, "deployments.apps" otherwise (kubectl's resource.group form).
  std::string group_resource() const { return group.empty() ? resource : resource + "." + group; }
  // The collection path: /api/v1[/namespaces/NS]/configmaps or /apis/G/V[/namespaces/NS]/R.
  std::string path(std::string_view ns = {}) const;
  std::string str() const { return api_version() + "/" + resource; }
  bool operator==(const GroupVersionResource&) const = default;
};

// A resource a controller or an API declares: how to list it and what its objects are called.
struct ResourceType {
  GroupVersionResource gvr;
  std::string kind;
  bool namespaced = true;
};

}  // namespace capstan::meta

template <>
struct std::hash<capstan::meta::GroupVersionResource> {
  std::size_t operator()(const capstan::meta::GroupVersionResource& g) const noexcept {
    return std::hash<std::string>()(g.group + "/" + g.version + "/" + g.resource);
  }
};
