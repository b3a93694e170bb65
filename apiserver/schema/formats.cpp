#include "apiserver/schema/formats.h"

#include "apiserver/schema/regex.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace capstan::apiserver::schema {
namespace {

std::string normalize(std::string_view f) {
  std::string s;
  for (char c : f)
    if (c != '-') s += c;
  return s;
}

const std::array<std::string_view, 24> kSupported = {
    "bsonobjectid", "uri",    "email",      "hostname", "ipv4",     "ipv6",    "cidr",   "mac",
    "uuid",         "uuid3",  "uuid4",      "uuid5",    "isbn",     "isbn10",  "isbn13", "creditcard",
    "ssn",          "hexcolor", "rgbcolor", "byte",     "password", "date",    "duration", "datetime"};

// All format patterns are anchored (^...$), so an RE2 search is a full match. The NFA matcher keeps
// long user strings safe (std::regex recurses per character).
Pattern make_pattern(std::string_view re) { return *Pattern::compile(re); }

bool re_match(const Pattern& re, std::string_view s) { return re.match(s); }

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ---- IP parsing as k8s.io/utils/net ParseIPSloppy (Go 1.16 net.ParseIP: leading zeros allowed).

bool parse_ipv4(std::string_view s) {
  for (int part = 0; part < 4; ++part) {
    if (part > 0) {
      if (s.empty() || s[0] != '.') return false;
      s.remove_prefix(1);
    }
    std::size_t i = 0;
    long n = 0;
    while (i < s.size() && is_digit(s[i])) {
      n = n * 10 + (s[i] - '0');
      if (n >= 0xFFFFFF) return false;
      ++i;
    }
    if (i == 0 || n > 0xFF) return false;
    s.remove_prefix(i);
  }
  return s.empty();
}

bool parse_ipv6(std::string_view s) {
  constexpr int kLen = 16;
  int ellipsis = -1;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return true;
  }
  int i = 0;  // bytes filled
  while (i < kLen) {
    std::size_t c = 0;
    long n = 0;
    while (c < s.size() && is_hex(s[c])) {
      auto u = static_cast<unsigned char>(s[c]);
      n = n * 16 + (std::isdigit(u) ? u - '0' : std::tolower(u) - 'a' + 10);
      if (n >= 0xFFFFFF) return false;
      ++c;
    }
    if (c == 0 || n > 0xFFFF) return false;
    if (c < s.size() && s[c] == '.') {  // trailing IPv4
      if (ellipsis < 0 && i != kLen - 4) return false;
      if (i + 4 > kLen) return false;
      if (!parse_ipv4(s)) return false;
      s = {};
      i += 4;
      break;
    }
    i += 2;
    s.remove_prefix(c);
    if (s.empty()) break;
    if (s[0] != ':' || s.size() == 1) return false;
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return false;
  if (i < kLen) return ellipsis >= 0;
  return ellipsis < 0;
}

bool parse_ip(std::string_view s) {
  for (char c : s) {
    if (c == '.') return parse_ipv4(s);
    if (c == ':') return parse_ipv6(s);
  }
  return false;
}

bool is_cidr(std::string_view s) {
  auto slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view addr = s.substr(0, slash), mask = s.substr(slash + 1);
  int bits = 32;
  if (!parse_ipv4(addr)) {
    if (!parse_ipv6(addr)) return false;
    bits = 128;
  }
  if (mask.empty()) return false;
  long n = 0;
  for (char c : mask) {
    if (!is_digit(c)) return false;
    n = n * 10 + (c - '0');
    if (n >= 0xFFFFFF) return false;
  }
  return n <= bits;
}

bool is_mac(std::string_view s) {
  if (s.size() < 14) return false;
  auto hex_pair = [&](std::size_t at) { return is_hex(s[at]) && is_hex(s[at + 1]); };
  if (s[2] == ':' || s[2] == '-') {
    if ((s.size() + 1) % 3 != 0) return false;
    std::size_t n = (s.size() + 1) / 3;
    if (n != 6 && n != 8 && n != 20) return false;
    for (std::size_t i = 0, x = 0; i < n; ++i, x += 3) {
      if (!hex_pair(x)) return false;
      if (x + 2 < s.size() && s[x + 2] != s[2]) return false;
    }
    return true;
  }
  if (s[4] == '.') {
    if ((s.size() + 1) % 5 != 0) return false;
    std::size_t n = 2 * (s.size() + 1) / 5;
    if (n != 6 && n != 8 && n != 20) return false;
    for (std::size_t i = 0, x = 0; i < n; i += 2, x += 5) {
      if (!hex_pair(x) || !hex_pair(x + 2)) return false;
      if (x + 4 < s.size() && s[x + 4] != '.') return false;
    }
    return true;
  }
  return false;
}

// ---- Dates and durations.

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// time.Parse("2006-01-02", s)
bool is_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (!is_digit(s[i])) return false;
  int y = std::stoi(std::string(s.substr(0, 4)));
  int m = std::stoi(std::string(s.substr(5, 2)));
  int d = std::stoi(std::string(s.substr(8, 2)));
  if (m < 1 || m > 12 || d < 1) return false;
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int dim = days[m - 1] + (m == 2 && leap(y) ? 1 : 0);
  return d <= dim;
}

// kube-openapi strfmt.IsDateTime
bool is_date_time(std::string_view str) {
  if (str.size() < 4) return false;
  std::string lower(str);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto t = lower.find('t', start);
    parts.push_back(lower.substr(start, t == std::string::npos ? std::string::npos : t - start));
    if (t == std::string::npos) break;
    start = t + 1;
  }
  if (parts.size() < 2 || !is_date(parts[0])) return false;
  static const Pattern time_rx = make_pattern(R"(^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$)");
  const std::string& t = parts[1];
  if (!time_rx.match(t)) return false;
  return t.substr(0, 2) <= "23" && t.substr(3, 2) <= "59" && t.substr(6, 2) <= "59";
}

// Go time.ParseDuration.
bool go_parse_duration(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s == "0") return true;
  if (s.empty()) return false;
  long double total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_digit(s[0]))) return false;
    std::size_t i = 0;
    long double v = 0;
    bool pre = false, post = false;
    while (i < s.size() && is_digit(s[i])) {
      v = v * 10 + (s[i] - '0');
      pre = true;
      ++i;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      long double scale = 0.1L;
      while (i < s.size() && is_digit(s[i])) {
        v += (s[i] - '0') * scale;
        scale /= 10;
        post = true;
        ++i;
      }
    }
    if (!pre && !post) return false;
    std::size_t u = i;
    while (u < s.size() && s[u] != '.' && !is_digit(s[u])) ++u;
    std::string_view unit = s.substr(i, u - i);
    if (unit.empty()) return false;
    long double mult = 0;
    if (unit == "ns") mult = 1;
    else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") mult = 1e3L;
    else if (unit == "ms") mult = 1e6L;
    else if (unit == "s") mult = 1e9L;
    else if (unit == "m") mult = 60e9L;
    else if (unit == "h") mult = 3600e9L;
    else return false;
    total += v * mult;
    if (total > 9.223372036854775807e18L) return false;
    s.remove_prefix(u);
  }
  return true;
}

// kube-openapi strfmt.ParseDuration (Go durations, then "3 days"-style units).
bool is_duration(std::string_view str) {
  if (go_parse_duration(str)) return true;
  // durationValidator: ^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$ ; \s is [\t\n\f\r ]
  static const Pattern validator = make_pattern("^[\t\n\f\r ]*(?:[0-9]+[\t\n\f\r ]*[A-Za-z\u00B5]+[\t\n\f\r ]*)+$");
  if (!validator.match(str)) return false;
  // durationMatcher ((\d+)\s*([A-Za-zµ]+)) over a string the validator accepted: alternating
  // numbers and units separated by optional whitespace.
  static const std::vector<std::vector<std::string>> units = {
      {"ns", "nano"}, {"us", "\xC2\xB5s", "micro"}, {"ms", "milli"}, {"s", "sec"},
      {"m", "min"},   {"h", "hr", "hour"},           {"d", "day"},   {"w", "wk", "week"}};
  auto is_ws = [](char c) { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '; };
  bool ok = false;
  std::size_t i = 0;
  while (i < str.size()) {
    while (i < str.size() && is_ws(str[i])) ++i;
    if (i >= str.size()) break;
    std::size_t d = i;
    while (i < str.size() && is_digit(str[i])) ++i;
    if (i - d > 18) return false;  // strconv.Atoi overflow fails the whole parse
    while (i < str.size() && is_ws(str[i])) ++i;
    std::string unit;
    while (i < str.size()) {
      if (std::isalpha(static_cast<unsigned char>(str[i]))) {
        unit += static_cast<char>(std::tolower(static_cast<unsigned char>(str[i])));
        ++i;
      } else if (str.compare(i, 2, "\xC2\xB5") == 0) {
        unit += "\xC2\xB5";
        i += 2;
      } else {
        break;
      }
    }
    for (const auto& variants : units) {
      for (std::size_t k = 0; k < variants.size(); ++k) {
        const std::string& v = variants[k];
        bool last = k + 1 == variants.size();
        if ((last && unit.rfind(v, 0) == 0) || unit == v) ok = true;
      }
    }
  }
  return ok;
}

// ---- Names and addresses.

// strfmt.IsHostname: the HostnamePattern regex (with \p{S}\p{L} taken as "any non-ASCII code point
// or an ASCII symbol"), total length <= 255 and labels <= 63 bytes.
bool is_hostname(std::string_view str) {
  std::u32string w = utf8_to_u32(str);
  std::string mapped;
  mapped.reserve(w.size());
  for (char32_t c : w) {
    if (c >= 0x80) {
      mapped += 'a';
    } else {
      char ch = static_cast<char>(c);
      // ASCII members of \p{S}: $ + < = > ^ ` | ~
      if (std::string_view("$+<=>^`|~").find(ch) != std::string_view::npos) ch = 'a';
      mapped += ch;
    }
  }
  if (str.size() > 255) return false;
  static const Pattern host_rx = make_pattern(
      R"(^([a-zA-Z0-9]((-?[a-zA-Z0-9]{0,62})?)|([a-zA-Z0-9](([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.)){1,}([a-zA-Z0-9])(-?[a-zA-Z0-9]){1,62})$)");
  if (!host_rx.match(mapped)) return false;
  std::size_t start = 0;
  while (true) {
    auto dot = str.find('.', start);
    std::size_t len = (dot == std::string_view::npos ? str.size() : dot) - start;
    if (len > 63) return false;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return true;
}

bool is_atext(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x80) return true;  // Go's net/mail accepts UTF-8 in atoms
  return std::isalnum(u) || std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos;
}

bool is_dot_atom(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (s[i + 1] == '.') return false;
      continue;
    }
    if (!is_atext(s[i])) return false;
  }
  return true;
}

bool is_quoted_string(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return false;
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      if (i + 1 >= s.size()) return false;
      continue;
    }
    if (s[i] == '"') return false;
  }
  return true;
}

bool is_addr_spec(std::string_view s) {
  auto at = s.rfind('@');
  if (at == std::string_view::npos) return false;
  std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
  if (!(is_dot_atom(local) || is_quoted_string(local))) return false;
  if (domain.size() >= 2 && domain.front() == '[' && domain.back() == ']') return true;
  return is_dot_atom(domain);
}

std::string_view trim_ws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// net/mail.ParseAddress (approximation: addr-spec, or display-name <addr-spec>).
bool is_email(std::string_view str) {
  std::string_view s = trim_ws(str);
  if (s.empty()) return false;
  if (s.back() == '>') {
    auto lt = s.rfind('<');
    if (lt == std::string_view::npos) return false;
    std::string_view name = trim_ws(s.substr(0, lt));
    for (char c : name)
      if (c == '<' || c == '>' || c == '@') {
        if (!(name.front() == '"' && name.back() == '"')) return false;
      }
    return is_addr_spec(s.substr(lt + 1, s.size() - lt - 2));
  }
  return is_addr_spec(s);
}

// net/url.ParseRequestURI: an absolute URI (scheme:) whose rest starts with '/', or an absolute
// path; no control characters; a valid-looking authority.
bool is_request_uri(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
  if (s.empty()) return false;
  if (s == "*") return true;
  std::string_view rest = s;
  // scheme
  std::size_t i = 0;
  bool has_scheme = false;
  if (std::isalpha(static_cast<unsigned char>(s[0]))) {
    i = 1;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '+' || s[i] == '-' || s[i] == '.')) ++i;
    if (i < s.size() && s[i] == ':') {
      has_scheme = true;
      rest = s.substr(i + 1);
    }
  } else if (s[0] == ':') {
    return false;  // missing protocol scheme
  }
  auto q = rest.find('?');
  std::string_view hier = rest.substr(0, q);
  if (hier.empty() || hier[0] != '/') return false;  // invalid URI for request
  if (has_scheme && hier.size() >= 2 && hier[1] == '/') {
    std::string_view auth = hier.substr(2);
    auto slash = auth.find('/');
    auth = auth.substr(0, slash);
    auto at = auth.rfind('@');
    std::string_view host = at == std::string_view::npos ? auth : auth.substr(at + 1);
    if (!host.empty() && host[0] == '[') {
      auto close = host.find(']');
      if (close == std::string_view::npos) return false;
      std::string_view port = host.substr(close + 1);
      if (!port.empty() && port[0] != ':') return false;
      for (char c : port.substr(port.empty() ? 0 : 1))
        if (!is_digit(c)) return false;
      return true;
    }
    auto colon = host.rfind(':');
    if (colon != std::string_view::npos) {
      for (char c : host.substr(colon + 1))
        if (!is_digit(c)) return false;
      host = host.substr(0, colon);
    }
    for (char c : host) {
      auto u = static_cast<unsigned char>(c);
      if (!(std::isalnum(u) || u >= 0x80 || std::string_view("-._~!$&'()*+,;=%").find(c) != std::string_view::npos)) return false;
    }
  }
  return true;
}

bool is_isbn10(std::string_view str) {
  std::string s;
  for (char c : str)
    if (!(c == '-' || c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r')) s += c;
  static const Pattern re = make_pattern("^(?:[0-9]{9}X|[0-9]{10})$");
  if (!re.match(s)) return false;
  int sum = 0;
  for (int i = 0; i < 9; ++i) sum += (i + 1) * (s[static_cast<std::size_t>(i)] - '0');
  sum += 10 * (s[9] == 'X' ? 10 : s[9] - '0');
  return sum % 11 == 0;
}

bool is_isbn13(std::string_view str) {
  std::string s;
  for (char c : str)
    if (!(c == '-' || c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r')) s += c;
  static const Pattern re = make_pattern("^(?:[0-9]{13})$");
  if (!re.match(s)) return false;
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += (i % 2 == 0 ? 1 : 3) * (s[static_cast<std::size_t>(i)] - '0');
  return (s[12] - '0') - ((10 - (sum % 10)) % 10) == 0;
}

bool is_credit_card(std::string_view str) {
  std::string s;
  for (char c : str)
    if (is_digit(c)) s += c;
  static const Pattern re = make_pattern(
      R"(^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$)");
  if (!re.match(s)) return false;
  int sum = 0;
  bool dbl = false;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    int d = *it - '0';
    if (dbl) {
      d *= 2;
      sum += d >= 10 ? (d % 10) + 1 : d;
    } else {
      sum += d;
    }
    dbl = !dbl;
  }
  return sum % 10 == 0;
}

}  // namespace

std::string effective_format(std::string_view format) {
  if (format.empty()) return {};
  std::string n = normalize(format);
  for (auto s : kSupported)
    if (s == n) return std::string(format);
  return {};
}

bool format_valid(std::string_view effective, std::string_view v) {
  std::string f = normalize(effective);
  if (f.empty() || f == "password") return true;
  if (f == "uri") return is_request_uri(v);
  if (f == "email") return is_email(v);
  if (f == "hostname") return is_hostname(v);
  if (f == "ipv4") return parse_ip(v) && v.find('.') != std::string_view::npos;
  if (f == "ipv6") return parse_ip(v) && v.find(':') != std::string_view::npos;
  if (f == "cidr") return is_cidr(v);
  if (f == "mac") return is_mac(v);
  if (f == "uuid" || f == "uuid3" || f == "uuid4" || f == "uuid5") {
    static const Pattern uuid = make_pattern("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
    static const Pattern uuid3 = make_pattern("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
    static const Pattern uuid4 = make_pattern("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
    static const Pattern uuid5 = make_pattern("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
    const Pattern& re = f == "uuid" ? uuid : f == "uuid3" ? uuid3 : f == "uuid4" ? uuid4 : uuid5;
    return re_match(re, v);
  }
  if (f == "isbn") return is_isbn10(v) || is_isbn13(v);
  if (f == "isbn10") return is_isbn10(v);
  if (f == "isbn13") return is_isbn13(v);
  if (f == "creditcard") return is_credit_card(v);
  if (f == "ssn") {
    static const Pattern re = make_pattern(R"(^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$)");
    return v.size() == 11 && re_match(re, v);
  }
  if (f == "hexcolor") {
    static const Pattern re = make_pattern("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
    return re_match(re, v);
  }
  if (f == "rgbcolor") {
    static const Pattern re = make_pattern(
        R"(^rgb\([\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*\)$)");
    return re_match(re, v);
  }
  if (f == "byte") {
    static const Pattern re = make_pattern(R"(^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$)");
    return re_match(re, v);
  }
  if (f == "date") return is_date(v);
  if (f == "datetime") return is_date_time(v);
  if (f == "duration") return is_duration(v);
  if (f == "bsonobjectid") return v.size() == 24 && std::all_of(v.begin(), v.end(), is_hex);
  return true;
}

}  // namespace capstan::apiserver::schema
