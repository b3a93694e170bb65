#include "apiserver/aggregator/proxy.h"

#include "apiserver/aggregator/discovery.h"
#include "apiserver/rest/api_error.h"
#include "apiserver/rest/handler.h"
#include "apiserver/rest/request_info.h"
#include "runtime/log/log.h"

#include <array>
#include <cctype>

namespace capstan::apiserver::aggregator {
namespace {

bool starts_with_ci(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && http::iequals(s.substr(0, p.size()), p);
}

// Not forwarded: credentials of the caller (the backend trusts the front proxy instead),
// requestheaders a client might forge, hop-by-hop headers, and Accept-Encoding (the answer is
// passed on as a whole body, so it is asked for unencoded).
bool dropped(std::string_view name) {
  static constexpr std::array<std::string_view, 10> exact = {
      "Authorization", "Host", "Connection", "Keep-Alive", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding",
      "Upgrade", "Accept-Encoding"};
  for (auto e : exact)
    if (http::iequals(name, e)) return true;
  return http::iequals(name, "Content-Length") || starts_with_ci(name, "Impersonate-") || starts_with_ci(name, "X-Remote-");
}

// An extra's key, percent-encoded as kube's requestheader authenticator expects (it unescapes
// the X-Remote-Extra-* names).
std::string escape_extra_key(std::string_view k) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : k) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

}  // namespace

Proxy::Proxy(const storage::Store& store, const registry::Registry& registry, Backends& backends, ProxyOptions options)
    : store_(store), registry_(registry), backends_(backends), options_(options) {}

http::Headers Proxy::forwarded_headers(const http::Headers& in, const rest::User& user) {
  http::Headers out;
  for (const auto& [k, v] : in.entries())
    if (!dropped(k)) out.add(k, v);
  out.set("X-Remote-User", user.name);
  for (const auto& g : user.groups) out.add("X-Remote-Group", g);
  for (const auto& [k, vs] : user.extra)
    for (const auto& v : vs) out.add("X-Remote-Extra-" + escape_extra_key(k), v);
  return out;
}

bool Proxy::operator()(const http::Request& req, const rest::User& user, http::Reply& reply) {
  std::string_view path = req.path();
  if (path.substr(0, 6) != "/apis/") return false;
  auto parts = rest::split_path(path);
  if (parts.size() < 2) return false;
  const std::string& group = parts[1];
  if (parts.size() == 2) {
    // /apis/<group>: answered here only for a group this server does not serve itself.
    for (const auto& r : registry_.all())
      if (r->group == group) return false;
    auto g = aggregated_group(store_, group);
    if (!g) return false;
    rest::send_json(reply, 200, *g);
    return true;
  }
  auto a = find_api_service(store_, group, parts[2]);
  if (!a || !a->service) return false;
  if (!is_available(store_, a->name)) {
    // kube-apiserver's proxy refuses while the APIService is not Available.
    throw ApiError(503, "ServiceUnavailable", "the server is currently unable to handle the request");
  }
  std::string target(path);
  if (auto q = req.raw_query(); !q.empty()) target += "?" + std::string(q);
  http::Response r;
  try {
    r = backends_.send(*a, req.method, target, forwarded_headers(req.headers, user), req.body, options_.timeout);
  } catch (const BackendError& e) {
    log::warn("aggregated API unreachable", {{"apiService", a->name}, {"error", e.what()}});
    throw ApiError(503, "ServiceUnavailable", std::string("Error trying to reach service: '") + e.what() + "'");
  }
  http::Response out(r.status, std::move(r.body), r.headers.get_or("Content-Type", "application/json"));
  for (const auto& [k, v] : r.headers.entries())
    if (http::iequals(k, "Warning") || http::iequals(k, "Retry-After")) out.headers.add(k, v);
  reply.send(std::move(out));
  return true;
}

}  // namespace capstan::apiserver::aggregator
