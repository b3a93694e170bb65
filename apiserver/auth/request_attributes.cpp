#include "apiserver/auth/request_attributes.h"

#include "apiserver/rest/request_info.h"
#include "runtime/meta/selector.h"

#include <algorithm>
#include <optional>

namespace capstan::apiserver::auth {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// strconv.ParseBool, as the query parameter codec decodes ?watch=.
std::optional<bool> go_parse_bool(std::string_view v) {
  if (v == "1" || v == "t" || v == "T" || v == "TRUE" || v == "true" || v == "True") return true;
  if (v == "0" || v == "f" || v == "F" || v == "FALSE" || v == "false" || v == "False") return false;
  return std::nullopt;
}

// content.IsPathSegmentName: a name usable as a URL path segment.
bool path_segment_name(std::string_view n) {
  return n != "." && n != ".." && n.find('/') == std::string_view::npos && n.find('%') == std::string_view::npos;
}

// fields.Selector.RequiresExactMatch("metadata.name").
std::optional<std::string> exact_name(std::string_view field_selector) {
  try {
    auto fs = meta::FieldSelector::parse(field_selector);
    for (const auto& t : fs.terms())
      if (t.field == "metadata.name" && t.equal) return t.value;
  } catch (const meta::SelectorError&) {
  }
  return std::nullopt;
}

}  // namespace

Attributes request_attributes(const http::Request& req, const rest::User& user) {
  Attributes a;
  a.user = &user;
  a.path = std::string(req.path());
  a.verb = lower(req.method);
  auto parts = rest::split_path(a.path);
  if (parts.size() < 3 || (parts[0] != "api" && parts[0] != "apis")) return a;
  std::size_t i = 1;
  if (parts[0] == "apis") {
    if (parts.size() < 4) return a;
    a.api_group = parts[1];
    i = 2;
  }
  a.resource_request = true;
  a.api_version = parts[i++];
  std::vector<std::string> rest(parts.begin() + static_cast<std::ptrdiff_t>(i), parts.end());

  if (rest[0] == "proxy" || rest[0] == "watch") {
    a.verb = rest[0];
    rest.erase(rest.begin());
    if (rest.empty()) return a;  // kube answers 500 "unable to determine kind and namespace"; nothing to authorize
  } else {
    const std::string& m = req.method;
    if (m == "POST") a.verb = "create";
    else if (m == "GET" || m == "HEAD") a.verb = "get";
    else if (m == "PUT") a.verb = "update";
    else if (m == "PATCH") a.verb = "patch";
    else if (m == "DELETE") a.verb = "delete";
    else a.verb = "";
  }

  if (rest[0] == "namespaces") {
    if (rest.size() > 1) {
      a.ns = rest[1];
      if (rest.size() > 2 && rest[2] != "status" && rest[2] != "finalize") rest.erase(rest.begin(), rest.begin() + 2);
    }
  }
  if (rest.size() >= 3 && a.verb != "proxy") a.subresource = rest[2];
  if (rest.size() >= 2) a.name = rest[1];
  a.resource = rest[0];

  if (a.name.empty() && a.verb == "get") {
    auto q = http::Query::parse(req.raw_query());
    bool watch = false;
    bool decoded = true;
    if (auto w = q.get("watch")) {
      if (auto b = go_parse_bool(*w)) {
        watch = *b;
      } else {
        // The options fail to decode: kube then only looks at ?watch= itself.
        decoded = false;
        std::string v = lower(*w);
        watch = v != "false" && v != "0";
      }
    }
    a.verb = watch ? "watch" : "list";
    if (decoded) {
      if (auto fs = q.get("fieldSelector")) {
        if (auto n = exact_name(*fs); n && path_segment_name(*n)) a.name = *n;
      }
    }
  }
  if (a.name.empty() && a.verb == "delete") a.verb = "deletecollection";
  return a;
}

}  // namespace capstan::apiserver::auth
