#include "runtime/meta/base64.h"

namespace capstan::meta {
namespace {

constexpr char kStd[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::string_view in, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                 static_cast<unsigned char>(in[i + 2]);
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  std::size_t rest = in.size() - i;
  if (rest == 1) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    if (pad) out += "==";
  } else if (rest == 2) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    if (pad) out += '=';
  }
  return out;
}

int value_of(char c, bool url) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (!url && c == '+') return 62;
  if (!url && c == '/') return 63;
  if (url && c == '-') return 62;
  if (url && c == '_') return 63;
  return -1;
}

std::optional<std::string> decode(std::string_view in, bool url) {
  std::string out;
  out.reserve(in.size() * 3 / 4);
  unsigned buf = 0;
  int bits = 0;
  std::size_t digits = 0;
  bool padding = false;
  for (char c : in) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    if (padding) return std::nullopt;  // data after padding
    int v = value_of(c, url);
    if (v < 0) return std::nullopt;
    buf = (buf << 6) | static_cast<unsigned>(v);
    bits += 6;
    ++digits;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buf >> bits) & 0xff);
    }
  }
  if (digits % 4 == 1) return std::nullopt;  // a lone sextet cannot encode a byte
  return out;
}

}  // namespace

std::string base64_encode(std::string_view data) { return encode(data, kStd, true); }
std::string base64url_encode(std::string_view data) { return encode(data, kUrl, false); }
std::optional<std::string> base64_decode(std::string_view text) { return decode(text, false); }
std::optional<std::string> base64url_decode(std::string_view text) { return decode(text, true); }

}  // namespace capstan::meta
