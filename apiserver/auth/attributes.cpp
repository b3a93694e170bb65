#include "apiserver/auth/attributes.h"

#include "runtime/gofmt/gofmt.h"

#include <set>

namespace capstan::apiserver::auth {
namespace {

// responsewriters' sanitizer: the message must not look like HTML.
std::string sanitize(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

std::string forbidden_message(const Attributes& a) {
  std::string user = a.user ? a.user->name : "";
  if (!a.resource_request) return "User " + gofmt::quote(user) + " cannot " + a.verb + " path " + gofmt::quote(a.path);
  std::string resource = a.subresource.empty() ? a.resource : a.resource + "/" + a.subresource;
  std::string out = "User " + gofmt::quote(user) + " cannot " + a.verb + " resource " + gofmt::quote(resource) + " in API group " +
                    gofmt::quote(a.api_group);
  if (!a.ns.empty()) return out + " in the namespace " + gofmt::quote(a.ns);
  return out + " at the cluster scope";
}

}  // namespace

ApiError forbidden_status(std::string_view group, std::string_view resource, std::string_view name, std::string_view message) {
  std::string gr(resource);
  if (!group.empty()) gr += "." + std::string(group);
  std::string text;
  if (group.empty() && resource.empty()) text = "forbidden: " + std::string(message);
  else if (name.empty()) text = gr + " is forbidden: " + std::string(message);
  else text = gr + " " + gofmt::quote(name) + " is forbidden: " + std::string(message);
  ApiError e(403, "Forbidden", std::move(text));
  if (!name.empty()) e.details["name"] = name;
  if (!group.empty()) e.details["group"] = group;
  if (!resource.empty()) e.details["kind"] = resource;
  e.empty_details = true;
  return e;
}

ApiError forbidden_error(const Attributes& a, std::string_view reason) {
  std::string msg = sanitize(forbidden_message(a));
  if (!reason.empty()) msg += ": " + std::string(reason);
  return forbidden_status(a.api_group, a.resource, a.name, msg);
}

std::string quote_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ' ';
    out += gofmt::quote(v[i]);
  }
  return out + "]";
}

std::string aggregate_errors(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors.front();
  std::set<std::string_view> seen;
  std::string joined;
  for (const auto& e : errors) {
    if (!seen.insert(e).second) continue;
    if (seen.size() > 1) joined += ", ";
    joined += e;
  }
  return seen.size() == 1 ? joined : "[" + joined + "]";
}

}  // namespace capstan::apiserver::auth
