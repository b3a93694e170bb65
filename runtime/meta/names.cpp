// Name, label and port formats with apimachinery's exact messages.
#include "runtime/meta/names.h"

#include <utility>

namespace capstan::meta::names {
namespace {

// Each format: the regular expression apimachinery's messages quote, and a matcher for the whole
// string written out by hand (the same language; names_test checks them against the expression).
struct Format {
  const char* regex;
  bool (*matches)(std::string_view);
};

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool alnum(char c) { return lower_alnum(c) || (c >= 'A' && c <= 'Z'); }
template <class Pred>
bool all_of(std::string_view s, Pred p) {
  for (char c : s)
    if (!p(c)) return false;
  return true;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool is_label(std::string_view s) {
  return !s.empty() && lower_alnum(s.front()) && lower_alnum(s.back()) && all_of(s, [](char c) { return lower_alnum(c) || c == '-'; });
}
// labels joined by '.'
bool is_subdomain(std::string_view s) {
  for (std::size_t start = 0;;) {
    const auto dot = s.find('.', start);
    if (!is_label(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}
// [a-z]([-a-z0-9]*[a-z0-9])?
bool is_dns1035(std::string_view s) { return is_label(s) && s.front() >= 'a' && s.front() <= 'z'; }
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool is_qualified(std::string_view s) {
  return !s.empty() && alnum(s.front()) && alnum(s.back()) && all_of(s, [](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}
bool is_label_value(std::string_view s) { return s.empty() || is_qualified(s); }
bool is_port_charset(std::string_view s) { return !s.empty() && all_of(s, [](char c) { return lower_alnum(c) || c == '-'; }); }
bool is_config_key(std::string_view s) {
  return !s.empty() && all_of(s, [](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

const Format kSubdomainFmt{"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*", is_subdomain};
const Format kLabelFmt{"[a-z0-9]([-a-z0-9]*[a-z0-9])?", is_label};
const Format kDns1035Fmt{"[a-z]([-a-z0-9]*[a-z0-9])?", is_dns1035};
const Format kQualifiedNameFmt{"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]", is_qualified};
const Format kLabelValueFmt{"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?", is_label_value};
const Format kPortNameCharsetFmt{"[-a-z0-9]+", is_port_charset};
const Format kConfigKeyFmt{"[-._a-zA-Z0-9]+", is_config_key};

// MaxLenError: pkg/util/validation counts characters, pkg/api/validate/content bytes.
enum class Unit { Characters, Bytes };
std::string max_len(std::size_t n, Unit u) {
  return "must be no more than " + std::to_string(n) + (u == Unit::Bytes ? " bytes" : " characters");
}

// RegexError: "<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')".
std::string regex_error(std::string_view msg, const Format& format, std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out += examples.size() > 0 ? " (e.g. " : " (";
  bool first = true;
  for (auto e : examples) {
    if (!first) out += ",  or ";
    first = false;
    out += '\'';
    out += e;
    out += '\'';
  }
  out += examples.size() > 0 ? ", regex used for validation is '" : "regex used for validation is '";
  out += format.regex;
  out += "')";
  return out;
}

const char* kLabelKeyMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

// The common shape of a format check: a length limit, then a regular expression.
Messages length_and_format(std::string_view v, std::size_t max, Unit u, const Format& fmt, std::string_view msg,
                           std::initializer_list<std::string_view> examples) {
  Messages errs;
  if (v.size() > max) errs.push_back(max_len(max, u));
  if (!fmt.matches(v)) errs.push_back(regex_error(msg, fmt, examples));
  return errs;
}

Messages subdomain(std::string_view v, Unit u) {
  return length_and_format(v, 253, u, kSubdomainFmt,
                           "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                           "and must start and end with an alphanumeric character",
                           {"example.com"});
}

}  // namespace

std::vector<std::pair<const char*, bool (*)(std::string_view)>> formats() {
  std::vector<std::pair<const char*, bool (*)(std::string_view)>> out;
  for (const Format* f : {&kSubdomainFmt, &kLabelFmt, &kDns1035Fmt, &kQualifiedNameFmt, &kLabelValueFmt, &kPortNameCharsetFmt, &kConfigKeyFmt})
    out.emplace_back(f->regex, f->matches);
  return out;
}

Messages dns1123_label(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(max_len(63, Unit::Characters));
  if (!kLabelFmt.matches(v)) {
    if (kSubdomainFmt.matches(v)) {
      errs.push_back("must not contain dots");
    } else {
      errs.push_back(regex_error("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
                                 "must start and end with an alphanumeric character",
                                 kLabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

Messages dns1123_subdomain(std::string_view v) { return subdomain(v, Unit::Characters); }

Messages dns1035_label(std::string_view v) {
  return length_and_format(v, 63, Unit::Characters, kDns1035Fmt,
                           "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                           "alphabetic character, and end with an alphanumeric character",
                           {"my-name", "abc-123"});
}

Messages qualified_name(std::string_view v) {
  Messages errs;
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    auto slash = v.find('/', start);
    parts.push_back(v.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  std::string_view name;
  if (parts.size() == 1) {
    name = parts[0];
  } else if (parts.size() == 2) {
    std::string_view prefix = parts[0];
    name = parts[1];
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (auto& m : subdomain(prefix, Unit::Bytes)) errs.push_back("prefix part " + m);
    }
  } else {
    errs.push_back("a valid label key " + regex_error(kLabelKeyMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
                   " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    return errs;
  }
  if (name.empty()) errs.push_back("name part must be non-empty");
  else if (name.size() > 63) errs.push_back("name part " + max_len(63, Unit::Bytes));
  if (!kQualifiedNameFmt.matches(name))
    errs.push_back("name part " + regex_error(kLabelKeyMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

Messages label_value(std::string_view v) {
  return length_and_format(v, 63, Unit::Bytes, kLabelValueFmt,
                           "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                           "and must start and end with an alphanumeric character",
                           {"MyValue", "my_value", "12345"});
}

Messages port_name(std::string_view v) {
  Messages errs;
  if (v.size() > 15) errs.push_back(max_len(15, Unit::Characters));
  if (!kPortNameCharsetFmt.matches(v)) errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  bool letter = false;
  for (char c : v) letter = letter || (c >= 'a' && c <= 'z');
  if (!letter) errs.push_back("must contain at least one letter (a-z)");
  if (v.find("--") != std::string_view::npos) errs.push_back("must not contain consecutive hyphens");
  if (!v.empty() && (v.front() == '-' || v.back() == '-')) errs.push_back("must not begin or end with a hyphen");
  return errs;
}

Messages config_map_key(std::string_view v) {
  Messages errs = length_and_format(v, 253, Unit::Characters, kConfigKeyFmt,
                                    "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                                    {"key.name", "KEY_NAME", "key-name"});
  if (v == ".") errs.push_back("must not be '.'");
  else if (v == "..") errs.push_back("must not be '..'");
  else if (v.substr(0, 2) == "..") errs.push_back("must not start with '..'");
  return errs;
}

Messages port_number(std::int64_t v) {
  if (v >= 1 && v <= 65535) return {};
  return {"must be between 1 and 65535, inclusive"};
}

}  // namespace capstan::meta::names
