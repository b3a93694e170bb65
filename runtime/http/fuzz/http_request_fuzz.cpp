// Raw bytes on a server connection (API server, webhook server, metrics, health, the ACME
// HTTP-01 solver): Beast's parser with the server's limits and our conversion into a Request,
// then the query string. Up to four pipelined requests are read from one input. Malformed
// input is reported by read_request (never thrown). Invariant: a parsed query re-encodes to a
// string that parses to the same items.
#include "runtime/http/message.h"
#include "runtime/http/request_reader.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view wire(reinterpret_cast<const char*>(data), size);
  for (int i = 0; i < 4 && !wire.empty(); ++i) {
    std::string error;
    auto read = http::read_request(wire, 64 * 1024, &error);
    if (!read) {
      if (error.empty()) std::abort();  // a refusal always says why
      return 0;
    }
    if (read->consumed == 0 || read->consumed > wire.size()) std::abort();
    const http::Request& req = read->request;
    (void)req.path();
    (void)req.headers.get("Content-Type");
    http::Query q = http::Query::parse(req.raw_query());
    if (http::Query::parse(q.encode()).items() != q.items()) std::abort();
    wire.remove_prefix(read->consumed);
  }
  return 0;
}
