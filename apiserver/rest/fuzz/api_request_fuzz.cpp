// The API server's reading of a request before any storage is touched, from raw bytes: the
// HTTP message (read_request with kube-apiserver's body limit), the RequestInfo of its path,
// content negotiation (Accept, Content-Type) and the list/watch query parameters
// (resourceVersion, labelSelector, fieldSelector). These report bad input in their results;
// the selectors' documented failure is SelectorError.
#include "apiserver/rest/negotiate.h"
#include "apiserver/rest/request_info.h"
#include "apiserver/rest/resource_version.h"
#include "runtime/http/message.h"
#include "runtime/http/request_reader.h"
#include "runtime/meta/selector.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;
using namespace capstan::apiserver;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view wire(reinterpret_cast<const char*>(data), size);
  auto read = http::read_request(wire, 3 * 1024 * 1024);
  if (!read) return 0;
  const http::Request& req = read->request;
  http::Query q = http::Query::parse(req.raw_query());
  bool watch = q.get_or("watch", "") == "true" || q.get_or("watch", "") == "1";
  rest::RequestInfo info = rest::parse_request_info(req.method, req.path(), watch);
  if (info.is_resource && info.resource.empty()) std::abort();  // a resource request names one
  (void)rest::split_path(req.path());
  auto accept = req.headers.get_or("Accept", "");
  (void)rest::negotiate(accept, false);
  (void)rest::negotiate(accept, true);
  (void)rest::media_type(req.headers.get_or("Content-Type", ""));
  if (auto rv = q.get("resourceVersion")) {
    auto parsed = rest::parse_resource_version(*rv);
    if (parsed.value.has_value() == !parsed.error.empty()) std::abort();  // a value or an error
  }
  try {
    (void)meta::LabelSelector::parse(q.get_or("labelSelector", ""));
  } catch (const meta::SelectorError&) {
  }
  try {
    (void)meta::FieldSelector::parse(q.get_or("fieldSelector", ""));
  } catch (const meta::SelectorError&) {
  }
  return 0;
}
