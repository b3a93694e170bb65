#include "runtime/meta/gvk.h"

namespace capstan::meta {

GroupVersion GroupVersion::parse(std::string_view api_version) {
  auto slash = api_version.find('/');
  if (slash == std::string_view::npos) return {"", std::string(api_version)};
  return {std::string(api_version.substr(0, slash)), std::string(api_version.substr(slash + 1))};
}

GroupVersionKind GroupVersionKind::from(std::string_view api_version, std::string_view kind) {
  auto gv = GroupVersion::parse(api_version);
  return {gv.group, gv.version, std::string(kind)};
}

std::string GroupVersionResource::path(std::string_view ns) const {
  std::string p = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (!ns.empty()) {
    p += "/namespaces/";
    p += ns;
  }
  p += "/";
  p += resource;
  return p;
}

}  // namespace capstan::meta
