#include "runtime/events/event.h"

#include <cstdio>
#include <initializer_list>

namespace capstan::events {
namespace {

// Keys join their parts with a unit separator (client-go joins with ""; a separator keeps
// e.g. name "ab"+uid "c" apart from name "a"+uid "bc").
std::string join(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (auto p : parts) {
    out.append(p);
    out.push_back('\x1f');
  }
  return out;
}

void put_if(json::Object& o, std::string_view key, const std::string& v) {
  if (!v.empty()) o[key] = v;
}

std::string str(const json::Value& v, json::Path p) { return std::string(json::get_string(v, p)); }

}  // namespace

json::Object ObjectReference::to_json() const {
  json::Object o;
  put_if(o, "kind", kind);
  put_if(o, "namespace", ns);
  put_if(o, "name", name);
  put_if(o, "uid", uid);
  put_if(o, "apiVersion", api_version);
  put_if(o, "resourceVersion", resource_version);
  put_if(o, "fieldPath", field_path);
  return o;
}

std::optional<ObjectReference> ObjectReference::from_object(const json::Value& obj) {
  if (!obj.is_object()) return std::nullopt;
  ObjectReference r;
  r.kind = str(obj, {"kind"});
  r.api_version = str(obj, {"apiVersion"});
  if (json::get_object(obj, {"metadata"})) {
    r.ns = str(obj, {"metadata", "namespace"});
    r.name = str(obj, {"metadata", "name"});
    r.uid = str(obj, {"metadata", "uid"});
    r.resource_version = str(obj, {"metadata", "resourceVersion"});
  } else {
    r.ns = str(obj, {"namespace"});
    r.name = str(obj, {"name"});
    r.uid = str(obj, {"uid"});
    r.resource_version = str(obj, {"resourceVersion"});
    r.field_path = str(obj, {"fieldPath"});
  }
  if (r.kind.empty() || r.api_version.empty() || r.name.empty()) return std::nullopt;
  return r;
}

json::Value Event::to_json() const {
  json::Object md{{"name", name}, {"namespace", ns}};
  if (!resource_version.empty()) md["resourceVersion"] = resource_version;
  if (!annotations.empty()) {
    json::Object a;
    for (const auto& [k, v] : annotations) a[k] = v;
    md["annotations"] = std::move(a);
  }
  json::Object src;
  put_if(src, "component", source.component);
  put_if(src, "host", source.host);
  json::Object o{{"apiVersion", "v1"},
                 {"kind", "Event"},
                 {"metadata", std::move(md)},
                 {"involvedObject", involved.to_json()},
                 {"reason", reason},
                 {"message", message},
                 {"source", std::move(src)},
                 {"firstTimestamp", meta::format_rfc3339(first_timestamp)},
                 {"lastTimestamp", meta::format_rfc3339(last_timestamp)},
                 {"count", count},
                 {"type", type},
                 {"reportingComponent", reporting_component},
                 {"reportingInstance", reporting_instance}};
  return o;
}

Event Event::from_json(const json::Value& v) {
  Event e;
  e.name = str(v, {"metadata", "name"});
  e.ns = str(v, {"metadata", "namespace"});
  e.resource_version = str(v, {"metadata", "resourceVersion"});
  if (const auto* a = json::get_object(v, {"metadata", "annotations"}))
    for (const auto& [k, val] : *a)
      if (val.is_string()) e.annotations[std::string(k)] = std::string(val.get_string());
  if (const auto* io = json::find(v, {"involvedObject"})) {
    e.involved.kind = str(*io, {"kind"});
    e.involved.ns = str(*io, {"namespace"});
    e.involved.name = str(*io, {"name"});
    e.involved.uid = str(*io, {"uid"});
    e.involved.api_version = str(*io, {"apiVersion"});
    e.involved.resource_version = str(*io, {"resourceVersion"});
    e.involved.field_path = str(*io, {"fieldPath"});
  }
  e.reason = str(v, {"reason"});
  e.message = str(v, {"message"});
  e.type = str(v, {"type"});
  e.source.component = str(v, {"source", "component"});
  e.source.host = str(v, {"source", "host"});
  e.first_timestamp = meta::parse_rfc3339(json::get_string(v, {"firstTimestamp"})).value_or(meta::TimePoint{});
  e.last_timestamp = meta::parse_rfc3339(json::get_string(v, {"lastTimestamp"})).value_or(meta::TimePoint{});
  e.count = static_cast<std::int32_t>(json::get_int(v, {"count"}).value_or(0));
  e.reporting_component = str(v, {"reportingComponent"});
  e.reporting_instance = str(v, {"reportingInstance"});
  return e;
}

std::string event_name(std::string_view object_name, meta::TimePoint t) {
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  char hex[32];
  std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(nanos));
  return std::string(object_name) + "." + hex;
}

std::string event_namespace(const ObjectReference& ref) { return ref.ns.empty() ? "default" : ref.ns; }

std::string event_key(const Event& e) {
  return join({e.source.component, e.source.host, e.involved.kind, e.involved.ns, e.involved.name,
               e.involved.field_path, e.involved.uid, e.involved.api_version, e.type, e.reason, e.message});
}

std::string spam_key(const Event& e) {
  return join({e.source.component, e.source.host, e.involved.kind, e.involved.ns, e.involved.name, e.involved.uid,
               e.involved.api_version});
}

std::pair<std::string, std::string> aggregate_key(const Event& e) {
  return {join({e.source.component, e.source.host, e.involved.kind, e.involved.ns, e.involved.name, e.involved.uid,
                e.involved.api_version, e.type, e.reason, e.reporting_component, e.reporting_instance}),
          e.message};
}

std::string truncate_utf8(std::string_view s, std::size_t max_bytes) {
  if (max_bytes == 0 || s.size() <= max_bytes) return std::string(s);
  std::size_t cut = max_bytes;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a sequence start.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut));
}

}  // namespace capstan::events
