// Name, label and port formats with apimachinery's exact messages.
#include "runtime/meta/names.h"

#include <map>
#include <regex>

namespace capstan::meta::names {
namespace {

const char* kSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const char* kLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const char* kDns1035Fmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const char* kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const char* kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const char* kPortNameCharsetFmt = "[-a-z0-9]+";

// MaxLenError: pkg/util/validation counts characters, pkg/api/validate/content bytes.
enum class Unit { Characters, Bytes };
std::string max_len(std::size_t n, Unit u) {
  return "must be no more than " + std::to_string(n) + (u == Unit::Bytes ? " bytes" : " characters");
}

// RegexError: "<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')".
std::string regex_error(std::string_view msg, const char* fmt, std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  if (examples.size() > 0) {
    out += " (e.g. ";
    bool first = true;
    for (auto e : examples) {
      if (!first) out += ",  or ";
      first = false;
      out += "'" + std::string(e) + "'";
    }
    out += ", regex used for validation is '" + std::string(fmt) + "')";
  } else {
    out += " (regex used for validation is '" + std::string(fmt) + "')";
  }
  return out;
}

const char* kLabelKeyMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

Messages subdomain(std::string_view v, Unit u) {
  Messages errs;
  if (v.size() > 253) errs.push_back(max_len(253, u));
  if (!full_match(v, kSubdomainFmt))
    errs.push_back(regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                               "and must start and end with an alphanumeric character",
                               kSubdomainFmt, {"example.com"}));
  return errs;
}

}  // namespace

bool full_match(std::string_view s, const char* expression) {
  static thread_local std::map<const char*, std::regex> cache;
  auto it = cache.find(expression);
  if (it == cache.end()) it = cache.emplace(expression, std::regex(std::string("^") + expression + "$")).first;
  return std::regex_match(s.begin(), s.end(), it->second);
}

Messages dns1123_label(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(max_len(63, Unit::Characters));
  if (!full_match(v, kLabelFmt)) {
    if (full_match(v, kSubdomainFmt)) {
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
  Messages errs;
  if (v.size() > 63) errs.push_back(max_len(63, Unit::Characters));
  if (!full_match(v, kDns1035Fmt))
    errs.push_back(regex_error("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                               "alphabetic character, and end with an alphanumeric character",
                               kDns1035Fmt, {"my-name", "abc-123"}));
  return errs;
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
  if (!full_match(name, kQualifiedNameFmt))
    errs.push_back("name part " + regex_error(kLabelKeyMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

Messages label_value(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(max_len(63, Unit::Bytes));
  if (!full_match(v, kLabelValueFmt))
    errs.push_back(regex_error("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                               "and must start and end with an alphanumeric character",
                               kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  return errs;
}

Messages port_name(std::string_view v) {
  Messages errs;
  if (v.size() > 15) errs.push_back(max_len(15, Unit::Characters));
  if (!full_match(v, kPortNameCharsetFmt)) errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  bool letter = false;
  for (char c : v) letter = letter || (c >= 'a' && c <= 'z');
  if (!letter) errs.push_back("must contain at least one letter (a-z)");
  if (v.find("--") != std::string_view::npos) errs.push_back("must not contain consecutive hyphens");
  if (!v.empty() && (v.front() == '-' || v.back() == '-')) errs.push_back("must not begin or end with a hyphen");
  return errs;
}

Messages config_map_key(std::string_view v) {
  Messages errs;
  if (v.size() > 253) errs.push_back(max_len(253, Unit::Characters));
  if (!full_match(v, "[-._a-zA-Z0-9]+"))
    errs.push_back(regex_error("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", "[-._a-zA-Z0-9]+",
                               {"key.name", "KEY_NAME", "key-name"}));
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
