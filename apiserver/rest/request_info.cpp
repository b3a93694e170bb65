#include "apiserver/rest/request_info.h"

namespace capstan::apiserver::rest {
namespace {
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.emplace_back(path.substr(i, j - i));
    i = j;
  }
  // Path segments may be percent-encoded (names cannot contain '/', but ':' etc. can be escaped).
  // Decoded as a path, not as a query: '+' stays '+' and '&' is data (found by
  // apiserver/rest/fuzz: a segment holding '&' decoded to "", a resource request naming none).
  // An invalid escape is kept as written.
  for (auto& s : out) {
    if (s.find('%') == std::string::npos) continue;
    std::string decoded;
    for (std::size_t k = 0; k < s.size(); ++k) {
      int hi = s[k] == '%' && k + 2 < s.size() ? hex_digit(s[k + 1]) : -1;
      int lo = hi >= 0 ? hex_digit(s[k + 2]) : -1;
      if (lo >= 0) {
        decoded += static_cast<char>(hi * 16 + lo);
        k += 2;
      } else {
        decoded += s[k];
      }
    }
    s = std::move(decoded);
  }
  return out;
}

RequestInfo parse_request_info(std::string_view method, std::string_view path, bool watch_param) {
  RequestInfo ri;
  auto parts = split_path(path);
  if (parts.empty() || (parts[0] != "api" && parts[0] != "apis")) return ri;
  ri.prefix = parts[0];
  std::size_t i = 1;
  if (ri.prefix == "apis") {
    if (parts.size() < 3) return ri;  // /apis or /apis/GROUP (discovery)
    ri.group = parts[1];
    ri.version = parts[2];
    i = 3;
  } else {
    if (parts.size() < 2) return ri;  // /api
    ri.version = parts[1];
    i = 2;
  }
  std::vector<std::string> rest(parts.begin() + static_cast<std::ptrdiff_t>(i), parts.end());
  if (rest.empty()) return ri;  // /api/v1 (discovery)
  ri.is_resource = true;
  bool legacy_watch = false;
  if (rest[0] == "watch") {
    legacy_watch = true;
    rest.erase(rest.begin());
    if (rest.empty()) {
      ri.is_resource = false;
      return ri;
    }
  }
  if (rest[0] == "namespaces" && rest.size() > 1) {
    ri.ns = rest[1];
    // /namespaces/NS/status and /namespaces/NS/finalize are subresources of the namespace.
    if (rest.size() > 2 && rest[2] != "status" && rest[2] != "finalize") {
      rest.erase(rest.begin(), rest.begin() + 2);
    }
  }
  ri.parts = rest;
  ri.resource = rest[0];
  if (rest.size() > 1) ri.name = rest[1];
  if (rest.size() > 2) ri.subresource = rest[2];
  if (ri.resource == "namespaces") {
    // The namespace object itself: its name is the path's namespace segment.
    ri.name = rest.size() > 1 ? rest[1] : "";
    ri.ns.clear();
  }
  if (method == "GET" || method == "HEAD") {
    if (legacy_watch || watch_param) ri.verb = "watch";
    else ri.verb = ri.name.empty() ? "list" : "get";
  } else if (method == "POST") {
    ri.verb = "create";
  } else if (method == "PUT") {
    ri.verb = "update";
  } else if (method == "PATCH") {
    ri.verb = "patch";
  } else if (method == "DELETE") {
    ri.verb = ri.name.empty() ? "deletecollection" : "delete";
  } else {
    ri.verb = "unknown";
  }
  return ri;
}

}  // namespace capstan::apiserver::rest
