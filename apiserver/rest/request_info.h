// Parses a request path the way kube-apiserver's RequestInfoFactory does:
// /api/v1[/namespaces/NS]/RESOURCE[/NAME[/SUBRESOURCE]] and /apis/GROUP/VERSION/...
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::rest {

struct RequestInfo {
  bool is_resource = false;  // false: discovery, openapi, healthz, version...
  std::string prefix;        // "api" | "apis"
  std::string group;
  std::string version;
  std::string ns;
  std::string resource;
  std::string name;
  std::string subresource;
  std::string verb;          // get list watch create update patch delete deletecollection
  std::vector<std::string> parts;  // path segments after the group/version
};

RequestInfo parse_request_info(std::string_view method, std::string_view path, bool watch_param);

// The non-empty segments of a URL path, each percent-decoded.
std::vector<std::string> split_path(std::string_view path);

}  // namespace capstan::apiserver::rest
