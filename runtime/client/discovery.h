// API discovery over the legacy endpoints: /api and /apis list the group versions,
// /api/v1 and /apis/G/V list their resources (APIResourceList).
#pragma once

#include "runtime/meta/gvk.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::client {

class Client;

struct ApiResource {
  std::string name;           // plural: "configmaps"; subresources appear as "pods/status"
  std::string singular_name;
  std::string kind;           // "ConfigMap"
  std::string group;          // from the list's groupVersion unless the entry overrides it
  std::string version;
  bool namespaced = false;
  std::vector<std::string> verbs;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;

  bool is_subresource() const { return name.find('/') != std::string::npos; }
};

struct ApiGroup {
  std::string name;                   // "" for the core group
  std::vector<std::string> versions;  // in the server's order
  std::string preferred_version;
};

class Discovery {
 public:
  explicit Discovery(Client& client) : client_(client) {}

  // The core group (from /api) first, then every group of /apis.
  std::vector<ApiGroup> groups();
  // The resources of one group version; nullopt when the server does not serve it (404).
  // Other failures throw ApiError / http::TransportError.
  std::optional<std::vector<ApiResource>> resources(const meta::GroupVersion& gv);

 private:
  Client& client_;
};

}  // namespace capstan::client
