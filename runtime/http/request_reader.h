// Turning the bytes a client sent into a Request, the step of the server that sees raw network
// input. The server reads from its socket with Beast's parser and converts the message with
// to_request(); read_request() does the same from a buffer, so the step can be tested and
// fuzzed without sockets. No Beast here (see beast_request.h for the server's side).
#pragma once

#include "runtime/http/message.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::http {

struct ReadRequest {
  Request request;
  bool keep_alive = false;
  unsigned version = 11;  // 10 or 11
  std::size_t consumed = 0;  // bytes of `wire` the request took (a pipelined one may follow)
};

// Parses one HTTP/1.x request at the start of `wire` with the server's parser and limits
// (`body_limit`, Beast's default 8 KiB header limit). Returns nullopt and sets `error` (Beast's
// message: "bad method", "body limit exceeded", "partial message", ...) when it is malformed
// or incomplete.
std::optional<ReadRequest> read_request(std::string_view wire, std::size_t body_limit, std::string* error = nullptr);

}  // namespace capstan::http
