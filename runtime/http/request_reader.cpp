#include "runtime/http/request_reader.h"

#include "runtime/http/beast_request.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/parser.hpp>

namespace capstan::http {

namespace bhttp = boost::beast::http;

std::optional<ReadRequest> read_request(std::string_view wire, std::size_t body_limit, std::string* error) {
  bhttp::request_parser<bhttp::string_body> parser;
  parser.body_limit(body_limit);
  parser.eager(true);  // the body too, as the server's async_read does
  boost::beast::error_code ec;
  std::size_t used = 0;
  // put() may stop before the end of what it was given (at the end of the header, or of a
  // chunk); feed it the rest until the message is done, it fails or wants more than there is.
  while (!parser.is_done()) {
    std::size_t n = parser.put(boost::asio::buffer(wire.data() + used, wire.size() - used), ec);
    used += n;
    if (ec == bhttp::error::need_more || (!ec && n == 0)) {
      // The whole buffer was seen; a message whose end is marked by EOF can end here. As
      // Beast's read does: nothing at all is end_of_stream, and put_eof requires some input
      // (it asserts: found by runtime/http/fuzz and apiserver/rest/fuzz on an empty input).
      if (used < wire.size() && n > 0) continue;
      if (parser.got_some()) parser.put_eof(ec);
      else ec = bhttp::error::end_of_stream;
      break;
    }
    if (ec) break;
  }
  if (ec || !parser.is_done()) {
    if (error) *error = ec ? ec.message() : "partial message";
    return std::nullopt;
  }
  ReadRequest out;
  auto msg = parser.release();
  out.keep_alive = msg.keep_alive();
  out.version = msg.version();
  out.request = detail::to_request(msg);
  out.consumed = used;
  return out;
}

}  // namespace capstan::http
