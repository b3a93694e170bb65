// What an ACME server answers (network input from a CA we only partly trust, or whoever sits
// between): directory, account, order, authorization and challenge objects, problem documents
// and the Retry-After / Link headers. Each resource reader runs on the body when it is a JSON
// object, as the client does; only parse_directory documents a failure (std::invalid_argument,
// a missing URL). The header readers get the body's first line as the header value.
#include "controllers/certificates/acme/directory.h"
#include "controllers/certificates/acme/http_headers.h"
#include "controllers/certificates/acme/problem.h"
#include "controllers/certificates/acme/resources.h"
#include "runtime/json/json.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

using namespace capstan;
using namespace capstan::certificates::acme;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  (void)parse_problem_body(body).to_string();

  std::string_view line = body.substr(0, body.find('\n'));
  const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  if (auto d = parse_retry_after(line, now); d && d->count() < 0) std::abort();  // never a negative delay
  http::Headers headers{{"Link", std::string(line)}, {"Retry-After", std::string(line)}};
  (void)link_targets(headers, "up", "https://acme.example/directory");
  (void)link_targets(headers, "alternate");
  (void)retry_after(headers, now);

  auto v = json::try_parse(body);
  if (!v || !v->is_object()) return 0;
  const json::Object& o = v->as_object();
  try {
    (void)parse_directory(o);
  } catch (const std::invalid_argument&) {
  }
  (void)parse_registration(o);
  (void)parse_challenge(o);
  Authorization authz = parse_authorization(o, "https://acme.example/authz/1");
  (void)authz.find_challenge(kHttp01);
  (void)parse_order(o, "https://acme.example/order/1");
  (void)parse_problem(o).to_string();
  return 0;
}
