#include "runtime/meta/base64.h"

namespace capstan::meta {
namespace {

constexpr char kStd[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::string_view in, const char* alphabet, bool pad) {
  std::string out((in.size() + 2) / 3 * 4, '=');
  char* o = out.data();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (p[i] << 16) | (p[i + 1] << 8) | p[i + 2];
    *o++ = alphabet[v >> 18];
    *o++ = alphabet[(v >> 12) & 63];
    *o++ = alphabet[(v >> 6) & 63];
    *o++ = alphabet[v & 63];
  }
  std::size_t rest = in.size() - i;
  if (rest > 0) {
    unsigned v = (p[i] << 16) | (rest == 2 ? p[i + 1] << 8 : 0);
    *o++ = alphabet[v >> 18];
    *o++ = alphabet[(v >> 12) & 63];
    if (rest == 2) *o++ = alphabet[(v >> 6) & 63];
    if (pad) o = out.data() + out.size();  // the '=' already there
  }
  out.resize(static_cast<std::size_t>(o - out.data()));
  return out;
}

// Sextet of each byte in one alphabet: 0..63, kSpace for the whitespace decoders skip, kPad for
// '=', kBad for anything else.
constexpr unsigned char kBad = 0xff, kSpace = 0xfe, kPad = 0xfd;

struct DecodeTable {
  unsigned char v[256];
  constexpr explicit DecodeTable(const char* alphabet) : v{} {
    for (auto& b : v) b = kBad;
    for (int i = 0; i < 64; ++i) v[static_cast<unsigned char>(alphabet[i])] = static_cast<unsigned char>(i);
    v[static_cast<unsigned char>(' ')] = v[static_cast<unsigned char>('\n')] = v[static_cast<unsigned char>('\r')] =
        v[static_cast<unsigned char>('\t')] = kSpace;
    v[static_cast<unsigned char>('=')] = kPad;
  }
};
constexpr DecodeTable kStdTable(kStd), kUrlTable(kUrl);

std::optional<std::string> decode(std::string_view in, bool url) {
  const unsigned char* table = url ? kUrlTable.v : kStdTable.v;
  std::string out;
  out.resize(in.size() / 4 * 3 + 3);
  char* o = out.data();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const auto* end = p + in.size();
  unsigned buf = 0;
  int bits = 0;
  std::size_t digits = 0;
  bool padding = false;
  while (p < end) {
    // Whole quartets without whitespace or padding: the common case, four lookups per three bytes.
    // Taken again after each line break of wrapped input, whenever no sextet is pending.
    while (!padding && digits % 4 == 0 && end - p >= 4) {
      unsigned a = table[p[0]], b = table[p[1]], c = table[p[2]], d = table[p[3]];
      if ((a | b | c | d) & 0xc0) break;
      unsigned v = (a << 18) | (b << 12) | (c << 6) | d;
      *o++ = static_cast<char>(v >> 16);
      *o++ = static_cast<char>((v >> 8) & 0xff);
      *o++ = static_cast<char>(v & 0xff);
      p += 4;
    }
    if (p == end) break;
    // One character at a time: whitespace, padding and the last quartet.
    unsigned char v = table[*p++];
    if (v == kSpace) continue;
    if (v == kPad) {
      padding = true;
      continue;
    }
    if (padding || v == kBad) return std::nullopt;  // data after padding, or not of the alphabet
    buf = (buf << 6) | v;
    bits += 6;
    ++digits;
    if (bits >= 8) {
      bits -= 8;
      *o++ = static_cast<char>((buf >> bits) & 0xff);
    }
  }
  if (digits % 4 == 1) return std::nullopt;  // a lone sextet cannot encode a byte
  out.resize(static_cast<std::size_t>(o - out.data()));
  return out;
}

}  // namespace

std::string base64_encode(std::string_view data) { return encode(data, kStd, true); }
std::string base64url_encode(std::string_view data) { return encode(data, kUrl, false); }
std::optional<std::string> base64_decode(std::string_view text) { return decode(text, false); }
std::optional<std::string> base64url_decode(std::string_view text) { return decode(text, true); }

}  // namespace capstan::meta
