#include "runtime/http/message.h"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace capstan::http {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::optional<std::string_view> Headers::get(std::string_view name) const {
  for (const auto& [k, v] : entries_)
    if (iequals(k, name)) return std::string_view(v);
  return std::nullopt;
}

std::string_view Headers::get_or(std::string_view name, std::string_view fallback) const {
  auto v = get(name);
  return v ? *v : fallback;
}

void Headers::set(std::string_view name, std::string_view value) {
  erase(name);
  entries_.emplace_back(std::string(name), std::string(value));
}

void Headers::add(std::string_view name, std::string_view value) { entries_.emplace_back(std::string(name), std::string(value)); }

void Headers::erase(std::string_view name) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return iequals(e.first, name); }),
                 entries_.end());
}

std::string_view Request::path() const {
  std::string_view t = target;
  auto q = t.find('?');
  return q == std::string_view::npos ? t : t.substr(0, q);
}

std::string_view Request::raw_query() const {
  std::string_view t = target;
  auto q = t.find('?');
  return q == std::string_view::npos ? std::string_view{} : t.substr(q + 1);
}

namespace {
int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decode_component(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
      out += static_cast<char>(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}
}  // namespace

Query Query::parse(std::string_view raw) {
  Query q;
  std::size_t start = 0;
  while (start < raw.size()) {
    auto amp = raw.find('&', start);
    std::string_view part = raw.substr(start, amp == std::string_view::npos ? std::string_view::npos : amp - start);
    if (!part.empty()) {
      auto eq = part.find('=');
      if (eq == std::string_view::npos) q.items_.emplace_back(decode_component(part), "");
      else q.items_.emplace_back(decode_component(part.substr(0, eq)), decode_component(part.substr(eq + 1)));
    }
    if (amp == std::string_view::npos) break;
    start = amp + 1;
  }
  return q;
}

std::optional<std::string_view> Query::get(std::string_view key) const {
  for (const auto& [k, v] : items_)
    if (k == key) return std::string_view(v);
  return std::nullopt;
}

std::string_view Query::get_or(std::string_view key, std::string_view fallback) const {
  auto v = get(key);
  return v ? *v : fallback;
}

void Query::set(std::string key, std::string value) {
  items_.erase(std::remove_if(items_.begin(), items_.end(), [&](const auto& e) { return e.first == key; }), items_.end());
  items_.emplace_back(std::move(key), std::move(value));
}

void Query::add(std::string key, std::string value) { items_.emplace_back(std::move(key), std::move(value)); }

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string Query::encode() const {
  std::string out;
  for (const auto& [k, v] : items_) {
    if (!out.empty()) out += '&';
    out += percent_encode(k);
    out += '=';
    out += percent_encode(v);
  }
  return out;
}

Url Url::parse(std::string_view url) {
  auto r = boost::urls::parse_absolute_uri(url);
  if (!r) throw std::invalid_argument("invalid URL \"" + std::string(url) + "\": " + r.error().message());
  Url u;
  u.scheme = std::string(r->scheme());
  if (u.scheme != "http" && u.scheme != "https")
    throw std::invalid_argument("invalid URL \"" + std::string(url) + "\": scheme must be http or https");
  u.host = std::string(r->encoded_host());
  if (u.host.size() > 2 && u.host.front() == '[' && u.host.back() == ']') u.host = u.host.substr(1, u.host.size() - 2);
  if (r->has_port()) u.port = r->port_number();
  else u.port = u.scheme == "https" ? 443 : 80;
  u.target = std::string(r->encoded_path());
  if (u.target.empty()) u.target = "/";
  if (r->has_query()) u.target += "?" + std::string(r->encoded_query());
  return u;
}

std::string Url::origin() const {
  bool v6 = host.find(':') != std::string::npos;
  return scheme + "://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace capstan::http
