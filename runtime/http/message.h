// Plain HTTP message types shared by the client and the server. No Beast/Asio here: every
// other folder includes this header, and it must stay light.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::http {

class Headers {
 public:
  using Entry = std::pair<std::string, std::string>;
  Headers() = default;
  Headers(std::initializer_list<Entry> init) : entries_(init) {}

  // Case-insensitive lookup of the first value.
  std::optional<std::string_view> get(std::string_view name) const;
  std::string_view get_or(std::string_view name, std::string_view fallback) const;
  // Replaces every value of `name`.
  void set(std::string_view name, std::string_view value);
  void add(std::string_view name, std::string_view value);
  void erase(std::string_view name);
  const std::vector<Entry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<Entry> entries_;
};

bool iequals(std::string_view a, std::string_view b);

struct Request {
  std::string method = "GET";
  std::string target = "/";  // path plus optional ?query, as sent on the wire
  Headers headers;
  std::string body;

  // Filled in by the server.
  std::string remote;                     // peer address "ip:port"
  std::optional<std::string> peer_cn;     // verified TLS client certificate's common name
  std::vector<std::string> peer_orgs;     // ... and its organisations (groups)

  std::string_view path() const;
  std::string_view raw_query() const;
};

struct Response {
  int status = 200;
  Headers headers;
  std::string body;

  Response() = default;
  Response(int s, std::string b, std::string_view content_type = "application/json")
      : status(s), body(std::move(b)) {
    headers.set("Content-Type", content_type);
  }
};

// Decoded query parameters (a key may repeat).
class Query {
 public:
  Query() = default;
  static Query parse(std::string_view raw);  // "a=b&c=%2F" -> {a:b, c:/}
  std::optional<std::string_view> get(std::string_view key) const;
  std::string_view get_or(std::string_view key, std::string_view fallback) const;
  bool has(std::string_view key) const { return get(key).has_value(); }
  void set(std::string key, std::string value);
  void add(std::string key, std::string value);
  // Percent-encodes into "a=b&c=%2F" in insertion order.
  std::string encode() const;
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

std::string percent_encode(std::string_view s);

// An absolute URL split into the parts the client needs.
struct Url {
  std::string scheme;  // "https" | "http"
  std::string host;    // "127.0.0.1", "::1" (no brackets), "api.example"
  std::uint16_t port = 0;
  std::string target;  // path + query

  static Url parse(std::string_view url);  // throws std::invalid_argument naming the URL
  std::string origin() const;              // "https://127.0.0.1:6443"
};

}  // namespace capstan::http
