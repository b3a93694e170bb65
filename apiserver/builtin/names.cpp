// metadata.name and label validation with apimachinery's exact messages.
#include "apiserver/builtin/strategy.h"

#include <map>
#include <regex>

namespace capstan::apiserver::builtin {
namespace {

using schema::FieldPath;

const char* kSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const char* kLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const char* kDns1035Fmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const char* kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const char* kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

bool full_match(std::string_view s, const char* fmt) {
  static thread_local std::map<const char*, std::regex> cache;
  auto it = cache.find(fmt);
  if (it == cache.end()) it = cache.emplace(fmt, std::regex(std::string("^") + fmt + "$")).first;
  return std::regex_match(s.begin(), s.end(), it->second);
}

std::string subdomain_msg() {
  return std::string("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
                     "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '") +
         kSubdomainFmt + "')";
}
std::string label_msg() {
  return std::string("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
                     "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '") +
         kLabelFmt + "')";
}
std::string dns1035_msg() {
  return std::string("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
                     "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
                     "validation is '") +
         kDns1035Fmt + "')";
}

}  // namespace

std::vector<schema::Cause> validate_name(std::string_view name, std::string_view rule, bool) {
  std::vector<schema::Cause> out;
  auto path = FieldPath("metadata").child("name");
  json::Value v = json::String(name);
  if (name.empty()) {
    out.push_back(schema::field_required(path, "name or generateName is required"));
    return out;
  }
  if (rule == "path") {
    if (name == "." || name == "..") out.push_back(schema::field_invalid(path, v, "may not be '" + std::string(name) + "'"));
    else if (name.find('/') != std::string_view::npos) out.push_back(schema::field_invalid(path, v, "may not contain '/'"));
    else if (name.find('%') != std::string_view::npos) out.push_back(schema::field_invalid(path, v, "may not contain '%'"));
    return out;
  }
  if (rule == "label") {
    if (name.size() > 63) out.push_back(schema::field_invalid(path, v, "must be no more than 63 characters"));
    if (!full_match(name, kLabelFmt)) out.push_back(schema::field_invalid(path, v, label_msg()));
    return out;
  }
  if (rule == "dns1035") {
    if (name.size() > 63) out.push_back(schema::field_invalid(path, v, "must be no more than 63 characters"));
    if (!full_match(name, kDns1035Fmt)) out.push_back(schema::field_invalid(path, v, dns1035_msg()));
    return out;
  }
  if (name.size() > 253) out.push_back(schema::field_invalid(path, v, "must be no more than 253 characters"));
  if (!full_match(name, kSubdomainFmt)) out.push_back(schema::field_invalid(path, v, subdomain_msg()));
  return out;
}

std::vector<schema::Cause> validate_labels(const json::Value& obj) {
  std::vector<schema::Cause> out;
  const auto* labels = json::get_object(obj, {"metadata", "labels"});
  if (!labels) return out;
  auto path = FieldPath("metadata").child("labels");
  for (const auto& kv : *labels) {
    std::string_view key = kv.key();
    std::string_view name = key;
    auto slash = key.find('/');
    if (slash != std::string_view::npos) {
      std::string_view prefix = key.substr(0, slash);
      name = key.substr(slash + 1);
      if (prefix.empty() || prefix.size() > 253 || !full_match(prefix, kSubdomainFmt)) {
        out.push_back(schema::field_invalid(path, json::Value(json::String(key)),
                                            "prefix part " + subdomain_msg()));
      }
    }
    if (name.empty() || name.size() > 63 || !full_match(name, kQualifiedNameFmt)) {
      std::string detail = name.empty() ? "name part must be non-empty"
                           : name.size() > 63
                               ? "name part must be no more than 63 characters"
                               : std::string("name part must consist of alphanumeric characters, '-', '_' or '.', and must start "
                                             "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
                                             "regex used for validation is '") +
                                     kQualifiedNameFmt + "')";
      out.push_back(schema::field_invalid(path, json::Value(json::String(key)), detail));
    }
    if (!kv.value().is_string()) continue;
    std::string_view val = kv.value().get_string();
    if (val.size() > 63) {
      out.push_back(schema::field_invalid(path, kv.value(), "must be no more than 63 characters"));
    } else if (!full_match(val, kLabelValueFmt)) {
      out.push_back(schema::field_invalid(
          path, kv.value(),
          std::string("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
                      "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
                      "for validation is '") +
              kLabelValueFmt + "')"));
    }
  }
  return out;
}

}  // namespace capstan::apiserver::builtin
