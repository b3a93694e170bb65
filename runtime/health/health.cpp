#include "runtime/health/health.h"

#include "runtime/log/log.h"

namespace capstan::health {

void Checks::add_liveness(std::string name, Check c) {
  std::lock_guard<std::mutex> l(mu_);
  live_.emplace_back(std::move(name), std::move(c));
}

void Checks::add_readiness(std::string name, Check c) {
  std::lock_guard<std::mutex> l(mu_);
  ready_.emplace_back(std::move(name), std::move(c));
}

http::Response Checks::run(const std::vector<std::pair<std::string, Check>>& checks, std::string_view only, bool verbose,
                           std::string_view probe) const {
  std::string body;
  bool ok = true, found = only.empty();
  for (const auto& [name, check] : checks) {
    if (!only.empty() && name != only) continue;
    found = true;
    std::string why;
    try {
      why = check();
    } catch (const std::exception& e) {
      why = e.what();
    }
    if (why.empty()) {
      body += "[+]" + name + " ok\n";
    } else {
      ok = false;
      body += "[-]" + name + " failed: reason withheld\n";
      log::debug("health check failed", {{"probe", probe}, {"check", name}, {"reason", why}});
    }
  }
  if (!found) return http::Response(404, "404 page not found\n", "text/plain; charset=utf-8");
  if (ok && !verbose) return http::Response(200, "ok", "text/plain; charset=utf-8");
  if (ok) return http::Response(200, body + std::string(probe) + " check passed\n", "text/plain; charset=utf-8");
  return http::Response(500, body + std::string(probe) + " check failed\n", "text/plain; charset=utf-8");
}

std::optional<http::Response> Checks::handle(const http::Request& req) const {
  std::string_view path = req.path();
  bool verbose = req.raw_query().find("verbose") != std::string_view::npos;
  auto probe_of = [&](std::string_view prefix) -> std::optional<std::string_view> {
    if (path == prefix) return std::string_view();
    if (path.size() > prefix.size() && path.substr(0, prefix.size()) == prefix && path[prefix.size()] == '/')
      return path.substr(prefix.size() + 1);
    return std::nullopt;
  };
  std::lock_guard<std::mutex> l(mu_);
  if (auto n = probe_of("/healthz")) return run(live_, *n, verbose, "healthz");
  if (auto n = probe_of("/livez")) return run(live_, *n, verbose, "livez");
  if (auto n = probe_of("/readyz")) return run(ready_, *n, verbose, "readyz");
  return std::nullopt;
}

}  // namespace capstan::health
