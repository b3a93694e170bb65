// Name, label and port formats with apimachinery's exact messages.
#include "apiserver/builtin/names.h"

#include "apiserver/builtin/object_meta.h"
#include "apiserver/builtin/strategy.h"

#include <map>
#include <regex>

namespace capstan::apiserver::builtin {
namespace names {
namespace {

const char* kSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const char* kLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const char* kDns1035Fmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const char* kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const char* kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const char* kPortNameCharsetFmt = "[-a-z0-9]+";

bool full_match(std::string_view s, const char* fmt) {
  static thread_local std::map<const char*, std::regex> cache;
  auto it = cache.find(fmt);
  if (it == cache.end()) it = cache.emplace(fmt, std::regex(std::string("^") + fmt + "$")).first;
  return std::regex_match(s.begin(), s.end(), it->second);
}

std::string max_len(std::size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }

// validation.RegexError: "<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')".
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

const char* kQualifiedNameMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

// apimachinery's maskTrailingDash, verbatim: a trailing '-' of a generateName prefix (longer
// than one character) stands for a character still to come.
std::string mask_trailing_dash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') return std::string(name.substr(0, name.size() - 2)) + "a";
  return std::string(name);
}

}  // namespace

Messages dns1123_label(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(max_len(63));
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

Messages dns1123_subdomain(std::string_view v) {
  Messages errs;
  if (v.size() > 253) errs.push_back(max_len(253));
  if (!full_match(v, kSubdomainFmt))
    errs.push_back(regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                               "and must start and end with an alphanumeric character",
                               kSubdomainFmt, {"example.com"}));
  return errs;
}

Messages dns1035_label(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(max_len(63));
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
      for (auto& m : dns1123_subdomain(prefix)) errs.push_back("prefix part " + m);
    }
  } else {
    errs.push_back("a qualified name " +
                   regex_error(kQualifiedNameMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
                   " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    return errs;
  }
  if (name.empty()) errs.push_back("name part must be non-empty");
  else if (name.size() > 63) errs.push_back("name part " + max_len(63));
  if (!full_match(name, kQualifiedNameFmt))
    errs.push_back("name part " + regex_error(kQualifiedNameMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

Messages label_value(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(max_len(63));
  if (!full_match(v, kLabelValueFmt))
    errs.push_back(regex_error("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                               "and must start and end with an alphanumeric character",
                               kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  return errs;
}

Messages port_name(std::string_view v) {
  Messages errs;
  if (v.size() > 15) errs.push_back(max_len(15));
  if (!full_match(v, kPortNameCharsetFmt)) errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  bool letter = false;
  for (char c : v) letter = letter || (c >= 'a' && c <= 'z');
  if (!letter) errs.push_back("must contain at least one letter (a-z)");
  if (v.find("--") != std::string_view::npos) errs.push_back("must not contain consecutive hyphens");
  if (!v.empty() && (v.front() == '-' || v.back() == '-')) errs.push_back("must not begin or end with a hyphen");
  return errs;
}

Messages port_number(std::int64_t v) {
  if (v >= 1 && v <= 65535) return {};
  return {"must be between 1 and 65535, inclusive"};
}

Messages name_errors(std::string_view name, std::string_view rule, bool prefix) {
  if (rule == "path") {
    // path.IsValidPathSegmentName / IsValidPathSegmentPrefix.
    if (!prefix && (name == "." || name == "..")) return {"may not be '" + std::string(name) + "'"};
    Messages errs;
    for (auto bad : {"/", "%"})
      if (name.find(bad) != std::string_view::npos) errs.push_back("may not contain '" + std::string(bad) + "'");
    return errs;
  }
  std::string n = prefix ? mask_trailing_dash(name) : std::string(name);
  if (rule == "label") return dns1123_label(n);
  if (rule == "dns1035") return dns1035_label(n);
  return dns1123_subdomain(n);
}

}  // namespace names

std::vector<schema::Cause> validate_name(std::string_view name, std::string_view rule, bool generate_name_prefix) {
  std::vector<schema::Cause> out;
  auto path = schema::FieldPath("metadata").child(generate_name_prefix ? "generateName" : "name");
  if (name.empty() && !generate_name_prefix) {
    out.push_back(schema::field_required(path, "name or generateName is required"));
    return out;
  }
  json::Value v = json::String(name);
  for (auto& m : names::name_errors(name, rule, generate_name_prefix)) out.push_back(schema::field_invalid(path, v, m));
  return out;
}

std::vector<schema::Cause> validate_labels(const json::Value& obj) {
  std::vector<schema::Cause> out;
  if (const auto* labels = json::get_object(obj, {"metadata", "labels"}))
    validate_label_map(*labels, schema::FieldPath("metadata").child("labels"), out);
  return out;
}

}  // namespace capstan::apiserver::builtin
