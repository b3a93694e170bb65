// Go's string renderings: strconv.Quote and encoding/json's string encoding.
#include "runtime/gofmt/detail.h"
#include "runtime/gofmt/gofmt.h"

namespace capstan::gofmt {
namespace detail {

long decode_rune(std::string_view s, std::size_t& i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int len = 0;
  long cp = 0;
  long min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
    min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
    min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
    min = 0x10000;
  } else {
    ++i;
    return -1;
  }
  if (i + static_cast<std::size_t>(len) > s.size()) {
    ++i;
    return -1;
  }
  for (int k = 1; k < len; ++k) {
    auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return -1;
  }
  i += static_cast<std::size_t>(len);
  return cp;
}

void append_hex(std::string& out, unsigned long v, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int d = digits - 1; d >= 0; --d) out += kHex[(v >> (4 * d)) & 0xF];
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t start = i;
    long cp = decode_rune(s, i);
    switch (cp) {
      case -1: out += "\\ufffd"; continue;
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\b': out += "\\b"; continue;  // short forms for \b and \f since Go 1.22
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '<':
      case '>':
      case '&':
      case 0x2028:
      case 0x2029: break;
      default:
        if (cp >= 0x20) {
          out.append(s.substr(start, i - start));
          continue;
        }
    }
    out += "\\u";
    append_hex(out, static_cast<unsigned long>(cp), 4);
  }
  out += '"';
}

}  // namespace detail

namespace {

struct Range {
  long lo, hi;
};

// Code points strconv.IsPrint rejects beyond the C0/C1 controls: spaces other than U+0020 (Zs,
// Zl, Zp), format characters (Cf), private use (Co) and noncharacters. Unassigned code points,
// which Go rejects too, would need the full Unicode tables and are taken as printable.
constexpr Range kNotPrint[] = {
    {0x00A0, 0x00A0}, {0x00AD, 0x00AD}, {0x0600, 0x0605}, {0x061C, 0x061C},     {0x06DD, 0x06DD},
    {0x070F, 0x070F}, {0x0890, 0x0891}, {0x08E2, 0x08E2}, {0x1680, 0x1680},     {0x180E, 0x180E},
    {0x2000, 0x200F}, {0x2028, 0x202F}, {0x205F, 0x206F}, {0x3000, 0x3000},     {0xE000, 0xF8FF},
    {0xFDD0, 0xFDEF}, {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB}, {0x110BD, 0x110BD},   {0x110CD, 0x110CD},
    {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
    {0xF0000, 0x10FFFF},
};

bool is_print(long cp) {
  if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return false;
  if ((cp & 0xFFFE) == 0xFFFE) return false;  // U+xFFFE and U+xFFFF of every plane
  for (const auto& r : kNotPrint) {
    if (cp < r.lo) return true;
    if (cp <= r.hi) return false;
  }
  return true;
}

}  // namespace

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t start = i;
    long cp = detail::decode_rune(s, i);
    switch (cp) {
      case -1:
        out += "\\x";
        detail::append_hex(out, static_cast<unsigned char>(s[start]), 2);
        continue;
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\a': out += "\\a"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\v': out += "\\v"; continue;
      default: break;
    }
    if (is_print(cp)) {
      out.append(s.substr(start, i - start));
    } else if (cp < 0x80) {
      out += "\\x";
      detail::append_hex(out, static_cast<unsigned long>(cp), 2);
    } else if (cp < 0x10000) {
      out += "\\u";
      detail::append_hex(out, static_cast<unsigned long>(cp), 4);
    } else {
      out += "\\U";
      detail::append_hex(out, static_cast<unsigned long>(cp), 8);
    }
  }
  out += '"';
  return out;
}

}  // namespace capstan::gofmt
