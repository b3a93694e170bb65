#include "apis/monitoring/promql/strings.h"

#include "runtime/gofmt/gofmt.h"
#include "runtime/json/utf8.h"

#include <cstdio>

namespace capstan::promql {

long decode_utf8(std::string_view s, std::size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return ++i, c;
  int n = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
  if (n < 0 || i + static_cast<std::size_t>(n) >= s.size()) return ++i, -1;
  unsigned long r = c & (0x3Fu >> n);
  for (int k = 1; k <= n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((d & 0xC0) != 0x80) return ++i, -1;
    r = (r << 6) | (d & 0x3F);
  }
  if ((n == 2 && r < 0x800) || (n == 3 && (r < 0x10000 || r > 0x10FFFF)) || (r >= 0xD800 && r < 0xE000)) return ++i, -1;
  i += static_cast<std::size_t>(n) + 1;
  return static_cast<long>(r);
}

char simple_escape(int letter) {
  static constexpr std::string_view kLetters = "abfnrtv", kChars = "\a\b\f\n\r\t\v";
  std::size_t i = letter > 0 && letter < 128 ? kLetters.find(static_cast<char>(letter)) : std::string_view::npos;
  return i == std::string_view::npos ? 0 : kChars[i];
}

std::string go_quote(std::string_view s) { return gofmt::quote(s); }

namespace {
bool printable(int r) { return (r >= 0x20 && r < 0x7F) || (r >= 0xA1 && r != 0xAD && !(r >= 0xD800 && r < 0xE000)); }
}  // namespace

std::string go_quote_rune(int r) {
  std::string out = "'";
  switch (r) {
    case '\'': out += "\\'"; break;
    case '\\': out += "\\\\"; break;
    case '\a': out += "\\a"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\v': out += "\\v"; break;
    default:
      if (r < 0) {
        json::append_utf8(out, 0xFFFD);  // eof (-1) prints as the replacement character
      } else if (printable(r)) {
        json::append_utf8(out, static_cast<char32_t>(r));
      } else {
        char buf[16];
        if (r < 0x80) std::snprintf(buf, sizeof buf, "\\x%02x", r);
        else if (r < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", r);
        else std::snprintf(buf, sizeof buf, "\\U%08x", r);
        out += buf;
      }
  }
  return out + "'";
}

std::string go_sharp_u(int r) {
  if (r < 0) return "U+FFFFFFFFFFFFFFFF";  // %#U of eof (-1), as Go prints it
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", r);
  std::string out = buf;
  if (printable(r)) {
    out += " '";
    json::append_utf8(out, static_cast<char32_t>(r));
    out += "'";
  }
  return out;
}

std::string unquote(std::string_view token) {
  if (token.size() < 2) return {};
  char quote = token.front();
  std::string_view body = token.substr(1, token.size() - 2);
  std::string out;
  out.reserve(body.size());
  if (quote == '`') {
    for (char c : body)
      if (c != '\r') out += c;
    return out;
  }
  auto hex = [](char c) -> unsigned { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    if (char c2 = simple_escape(e)) {
      out += c2;
      continue;
    }
    switch (e) {
      case 'x':
      case 'u':
      case 'U': {
        int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        unsigned long v = 0;
        for (int k = 0; k < n && i + 1 < body.size(); ++k) v = v * 16 + hex(body[++i]);
        if (e == 'x') out += static_cast<char>(v);
        else json::append_utf8(out, static_cast<char32_t>(v));
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned v = static_cast<unsigned>(e - '0');
          for (int k = 0; k < 2 && i + 1 < body.size(); ++k) v = v * 8 + static_cast<unsigned>(body[++i] - '0');
          out += static_cast<char>(v);
        } else {
          out += e;  // \\, \" or \'
        }
    }
  }
  return out;
}

}  // namespace capstan::promql
