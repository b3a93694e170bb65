// RFC 4514 parsing and formatting, object identifier syntax, and DER names from sequences.
#include "runtime/pki/dn.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>

#include "runtime/pki/detail.h"

namespace capstan::pki {
namespace {

struct Keyword {
  std::string_view name;
  std::string_view oid;
};

// cert-manager's attributeTypeNames (pkg/util/pki/subject.go) plus POSTALCODE.
constexpr std::array<Keyword, 11> kKeywords{{
    {"CN", "2.5.4.3"},
    {"C", "2.5.4.6"},
    {"O", "2.5.4.10"},
    {"OU", "2.5.4.11"},
    {"L", "2.5.4.7"},
    {"ST", "2.5.4.8"},
    {"STREET", "2.5.4.9"},
    {"POSTALCODE", "2.5.4.17"},
    {"SERIALNUMBER", "2.5.4.5"},
    {"DC", "0.9.2342.19200300.100.1.25"},
    {"UID", "0.9.2342.19200300.100.1.1"},
}};

[[noreturn]] void bad(std::size_t at, const std::string& why) {
  throw PkiError("at byte " + std::to_string(at) + ": " + why);
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7F) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool is_space(char c) { return c == ' '; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += len;
  }
  return true;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string keyword_list() {
  std::string out;
  for (std::size_t i = 0; i < kKeywords.size(); ++i) out += std::string(kKeywords[i].name) + ", ";
  return out + "or a dotted OID such as 1.2.840.113549.1.9.1";
}

}  // namespace

bool is_object_identifier(std::string_view oid) {
  if (oid.empty() || oid.size() > kMaxObjectIdentifierBytes) return false;
  std::size_t arcs = 0;
  std::uint64_t first = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = oid.find('.', start);
    std::string_view arc = oid.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (arc.empty() || (arc.size() > 1 && arc.front() == '0')) return false;
    if (!std::all_of(arc.begin(), arc.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
    std::uint64_t value = 0;
    auto [p, ec] = std::from_chars(arc.data(), arc.data() + arc.size(), value);
    if (ec != std::errc() || p != arc.data() + arc.size() || value >= (std::uint64_t{1} << 63)) return false;
    if (arcs == 0) {
      if (value > 2) return false;
      first = value;
    } else if (arcs == 1 && first < 2 && value >= 40) {
      return false;
    }
    ++arcs;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return arcs >= 2;
}

NameSequence parse_distinguished_name(std::string_view dn) {
  if (trim_spaces(dn).empty()) throw PkiError("the distinguished name is empty");
  if (dn.size() > kMaxDistinguishedNameBytes)
    throw PkiError("the distinguished name is " + std::to_string(dn.size()) + " bytes long, more than the " +
                   std::to_string(kMaxDistinguishedNameBytes) + " allowed");
  NameSequence in_string_order;
  RelativeName current;
  std::size_t attributes = 0;
  std::size_t i = 0;
  const std::size_t n = dn.size();
  while (true) {
    // attributeType "="
    const std::size_t type_start = i;
    while (i < n && dn[i] != '=' && dn[i] != ',' && dn[i] != ';' && dn[i] != '+') ++i;
    std::string_view type = trim_spaces(dn.substr(type_start, i - type_start));
    if (i == n || dn[i] != '=') {
      if (type.empty()) bad(type_start, "expected an attribute (type=value), found " + (i == n ? std::string("the end") : quoted(dn.substr(i, 1))));
      bad(type_start, "attribute type " + quoted(type) + " is not followed by \"=\"");
    }
    if (type.empty()) bad(type_start, "missing attribute type before \"=\"");
    std::string oid;
    const std::string keyword = upper(type);
    for (const auto& k : kKeywords)
      if (keyword == k.name) oid = std::string(k.oid);
    if (oid.empty()) {
      std::string_view numeric = type;
      if (keyword.starts_with("OID.")) numeric.remove_prefix(4);
      if (!is_object_identifier(numeric)) bad(type_start, "unknown attribute type " + quoted(type) + ": use " + keyword_list());
      oid = std::string(numeric);
    }
    ++i;  // '='

    // attributeValue
    while (i < n && is_space(dn[i])) ++i;
    const std::size_t value_start = i;
    if (i < n && dn[i] == '#')
      bad(i, "the value of " + std::string(type) +
                 " is '#'-encoded (hex BER), which is not supported: write it as a string, escaping a leading # as \\#");
    std::string value;
    std::size_t keep = 0;  // length up to the last character that is not an unescaped space
    while (i < n) {
      char c = dn[i];
      if (c == ',' || c == ';' || c == '+') break;
      if (c == '\\') {
        if (i + 1 >= n) bad(i, "the escape at the end of the value of " + std::string(type) + " escapes nothing");
        char d = dn[i + 1];
        int hi = hex_value(d);
        if (hi >= 0) {
          int lo = i + 2 < n ? hex_value(dn[i + 2]) : -1;
          if (lo < 0) bad(i, "invalid escape " + quoted(dn.substr(i, std::min<std::size_t>(3, n - i))) + ": a hex escape is \\ and two hex digits");
          value += static_cast<char>(hi * 16 + lo);
          i += 3;
        } else if (d == ' ' || d == '"' || d == '#' || d == '+' || d == ',' || d == ';' || d == '<' || d == '=' || d == '>' ||
                   d == '\\') {
          value += d;
          i += 2;
        } else {
          bad(i, "invalid escape " + quoted(dn.substr(i, 2)) +
                     ": escape only a space, \", #, +, ',', ;, <, =, >, \\ or a byte as two hex digits");
        }
        keep = value.size();
        continue;
      }
      value += c;
      if (!is_space(c)) keep = value.size();
      ++i;
    }
    value.resize(keep);
    if (value.empty()) bad(value_start, "the value of " + std::string(type) + " is empty");
    if (value.find('\0') != std::string::npos) bad(value_start, "the value of " + std::string(type) + " contains a NUL byte");
    if (!valid_utf8(value)) bad(value_start, "the value of " + std::string(type) + " is not valid UTF-8");
    if (++attributes > kMaxDistinguishedNameAttributes)
      bad(type_start, "more than " + std::to_string(kMaxDistinguishedNameAttributes) + " attributes");
    current.push_back({std::move(oid), std::move(value)});

    if (i == n) {
      in_string_order.push_back(std::move(current));
      break;
    }
    char sep = dn[i++];
    if (sep != '+') {
      in_string_order.push_back(std::move(current));
      current.clear();
    }
  }
  std::reverse(in_string_order.begin(), in_string_order.end());
  return in_string_order;
}

std::string encode_name(const NameSequence& name) {
  constexpr std::string_view what = "encoding distinguished name";
  detail::ErrorScope scope;
  detail::NamePtr n = detail::build_sequence(name, what);
  return detail::i2d_string([&](unsigned char** out) { return i2d_X509_NAME(n.get(), out); }, what);
}

std::string canonical_cidr(const std::string& cidr) {
  detail::ErrorScope scope;
  return detail::canonical_cidr(cidr, "parsing CIDR");
}

std::string format_distinguished_name(const NameSequence& name) {
  std::string out;
  for (auto rdn = name.rbegin(); rdn != name.rend(); ++rdn) {
    if (!out.empty()) out += ',';
    bool first = true;
    for (const auto& a : *rdn) {
      if (!first) out += '+';
      first = false;
      auto k = std::find_if(kKeywords.begin(), kKeywords.end(), [&](const Keyword& k) { return k.oid == a.oid; });
      out += k != kKeywords.end() ? std::string(k->name) : a.oid;
      out += '=';
      for (std::size_t i = 0; i < a.value.size(); ++i) {
        char c = a.value[i];
        bool special = c == ',' || c == '+' || c == '"' || c == '\\' || c == '<' || c == '>' || c == ';' || c == '=' ||
                       (i == 0 && (c == '#' || c == ' ')) || (i + 1 == a.value.size() && c == ' ');
        if (special) out += '\\';
        out += c;
      }
    }
  }
  return out;
}

}  // namespace capstan::pki
