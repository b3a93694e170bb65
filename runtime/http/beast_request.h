// The server's conversion of a parsed Beast request into our Request (shared by the socket
// path in server.cpp and read_request() in request_reader.cpp). Includes Beast: runtime/http only.
#pragma once

#include "runtime/http/message.h"

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

namespace capstan::http::detail {

// Moves the body out of `msg`; method, target and headers are copied as sent.
inline Request to_request(boost::beast::http::request<boost::beast::http::string_body>& msg) {
  Request req;
  req.method = std::string(msg.method_string());
  req.target = std::string(msg.target());
  for (const auto& f : msg) req.headers.add(f.name_string(), f.value());
  req.body = std::move(msg.body());
  return req;
}

}  // namespace capstan::http::detail
