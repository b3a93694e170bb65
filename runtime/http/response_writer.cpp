#include "runtime/http/response_writer.h"

#include <boost/beast/http/status.hpp>

namespace capstan::http {

std::string serialize_response(const Response& response, bool keep_alive, unsigned version) {
  const int status = response.status;
  const bool bodyless = (status >= 100 && status < 200) || status == 204 || status == 304;
  const auto reason = boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(status));
  std::size_t size = 64 + reason.size() + (bodyless ? 0 : response.body.size());
  for (const auto& [k, v] : response.headers.entries()) size += k.size() + v.size() + 4;
  std::string out;
  out.reserve(size);
  out += version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  out += std::to_string(status);
  out += ' ';
  out.append(reason.data(), reason.size());
  out += "\r\n";
  for (const auto& [k, v] : response.headers.entries()) {
    if (iequals(k, "Content-Length") || iequals(k, "Connection")) continue;
    out += k;
    out += ": ";
    out += v;
    out += "\r\n";
  }
  if (version == 10 && keep_alive) out += "Connection: keep-alive\r\n";
  if (version != 10 && !keep_alive) out += "Connection: close\r\n";
  if (!bodyless) {
    out += "Content-Length: ";
    out += std::to_string(response.body.size());
    out += "\r\n";
  }
  out += "\r\n";
  if (!bodyless) out += response.body;
  return out;
}

}  // namespace capstan::http
