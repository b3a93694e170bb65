// Health probes (/healthz, /readyz) as controller-runtime's healthz package serves them:
// named checks, "ok" when all pass, otherwise 500 with "[+]name ok" / "[-]name failed:
// reason withheld" lines; /readyz/<name> for one check; ?verbose lists every check.
#pragma once

#include "runtime/http/message.h"

#include <functional>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

namespace capstan::health {

// A check returns "" when healthy, else why not (the reason is not shown to clients).
using Check = std::function<std::string()>;

class Checks {
 public:
  void add_liveness(std::string name, Check c);
  void add_readiness(std::string name, Check c);
  // Serves GET /healthz, /livez, /readyz (and /<probe>/<name>); nullopt for other paths.
  std::optional<http::Response> handle(const http::Request& req) const;

 private:
  http::Response run(const std::vector<std::pair<std::string, Check>>& checks, std::string_view only, bool verbose,
                     std::string_view probe) const;
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, Check>> live_;
  std::vector<std::pair<std::string, Check>> ready_;
};

}  // namespace capstan::health
