// Test helpers for runtime/client: an in-process API server that records every request,
// temporary directories and certificates.
#pragma once

#include "runtime/client/config.h"
#include "runtime/http/server.h"
#include "runtime/metrics/registry.h"
#include "testing/temp_dir.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace capstan::client::testing {

struct Recorded {
  std::string method;
  std::string path;
  std::string query;  // raw, as sent
  std::string body;
  http::Headers headers;
  std::optional<std::string> peer_cn;
};

// An http::Server on 127.0.0.1:0 that records requests and answers through `handler`
// (default: 404 Status).
class FakeApiServer {
 public:
  using Handler = std::function<void(http::Request&, http::Reply&)>;
  explicit FakeApiServer(Handler handler, std::optional<http::ServerTls> tls = std::nullopt);
  ~FakeApiServer();

  std::string url() const;  // "http://127.0.0.1:PORT" (https with TLS)
  Config config() const;    // url(), qps unlimited
  std::vector<Recorded> requests() const;
  Recorded last() const;
  std::size_t count() const;
  void clear();

 private:
  mutable std::mutex mu_;
  std::vector<Recorded> recorded_;
  bool tls_ = false;
  std::unique_ptr<http::Server> server_;
};

http::Response json_response(int status, std::string body);
// A metav1.Status failure body.
std::string status_body(int code, std::string_view reason, std::string_view message);

// The sample of family `name` with these label values (nullopt when absent).
std::optional<metrics::SampleSnapshot> find_sample(const metrics::Registry& registry, std::string_view name,
                                                   const std::vector<std::string>& label_values);
// A counter's value, 0 when absent.
double counter_value(const metrics::Registry& registry, std::string_view name,
                     const std::vector<std::string>& label_values);

using e2e::TempDir;

// A CA, a serving certificate for 127.0.0.1 and a client certificate (CN=admin, O=system:masters).
struct TestPki {
  std::string ca_pem;
  std::string server_cert_pem, server_key_pem;
  std::string client_cert_pem, client_key_pem;
  static const TestPki& get();  // generated once per process
};

}  // namespace capstan::client::testing
