// One API server of the differential suite, addressed with raw HTTP: the admin identity of
// its kubeconfig (client certificate), or a bearer token with no certificate at all, so the
// suite sends exactly the bytes a case names and sees exactly what the server answers.
#pragma once

#include "runtime/http/client.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e::diff {

struct Request {
  std::string method = "GET";
  std::string path;                       // with query; {var} placeholders are the session's
  std::string body;                       // {var} placeholders too
  std::string content_type = "application/json";
  std::string accept = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string bearer;                     // a token (after substitution): sent instead of the admin certificate
};

class Target {
 public:
  Target(std::string name, const std::string& kubeconfig);
  const std::string& name() const { return name_; }
  const std::string& kubeconfig() const { return kubeconfig_; }

  http::Response send(const Request& r, std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // A watch request: the lines of its body until the server ends it or `max` passes.
  struct WatchLines {
    int status = 0;
    std::string error_body;
    std::vector<std::string> lines;
  };
  WatchLines watch(const Request& r, std::chrono::milliseconds max);

 private:
  http::Headers headers_of(const Request& r) const;
  http::Client& client_for(const Request& r);

  std::string name_, kubeconfig_, server_;
  std::unique_ptr<http::Client> admin_, anonymous_;
};

}  // namespace capstan::e2e::diff
