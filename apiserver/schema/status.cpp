#include "apiserver/schema/status.h"

#include "runtime/gofmt/gofmt.h"

#include <set>

namespace capstan::apiserver::schema {
namespace {

std::string qualified_kind(std::string_view kind, std::string_view group) {
  if (group.empty()) return std::string(kind);
  return std::string(kind) + "." + std::string(group);
}

// utilerrors.aggregate.Error() over ErrorList.ToAggregate() (duplicates removed first).
std::string aggregate(const std::vector<validation::Cause>& causes) {
  std::vector<std::string> msgs;
  std::set<std::string> seen;
  for (const auto& c : causes) {
    std::string m = c.error();
    if (seen.insert(m).second) msgs.push_back(std::move(m));
  }
  if (msgs.size() == 1) return msgs[0];
  std::string out = "[";
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    if (i) out += ", ";
    out += msgs[i];
  }
  out += "]";
  return out;
}

}  // namespace

std::string format_invalid(std::string_view kind, std::string_view group, std::string_view name,
                           const std::vector<validation::Cause>& causes) {
  std::string s = qualified_kind(kind, group) + " " + gofmt::quote(name) + " is invalid";
  if (!causes.empty()) s += ": " + aggregate(causes);
  return s;
}

json::Value invalid_status(std::string_view kind, std::string_view group, std::string_view name,
                           const std::vector<validation::Cause>& causes) {
  json::Object st;
  st["kind"] = "Status";
  st["apiVersion"] = "v1";
  st["metadata"] = json::Object{};
  st["status"] = "Failure";
  st["message"] = format_invalid(kind, group, name, causes);
  st["reason"] = "Invalid";
  json::Object details;
  if (!name.empty()) details["name"] = name;
  if (!group.empty()) details["group"] = group;
  if (!kind.empty()) details["kind"] = kind;
  json::Array arr;
  for (const auto& c : causes) {
    json::Object o;
    if (!c.reason.empty()) o["reason"] = c.reason;
    if (!c.message.empty()) o["message"] = c.message;
    if (!c.field.empty()) o["field"] = c.field;
    arr.emplace_back(std::move(o));
  }
  if (!arr.empty()) details["causes"] = std::move(arr);
  st["details"] = std::move(details);
  st["code"] = 422;
  return st;
}

json::Value bad_request_status(std::string_view message) {
  json::Object st;
  st["kind"] = "Status";
  st["apiVersion"] = "v1";
  st["metadata"] = json::Object{};
  st["status"] = "Failure";
  st["message"] = message;
  st["reason"] = "BadRequest";
  st["code"] = 400;
  return st;
}

}  // namespace capstan::apiserver::schema
