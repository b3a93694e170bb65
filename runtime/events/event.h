// core/v1 Events as the recorder builds them (client-go tools/record makeEvent), the object
// reference they point at, and the keys the correlator groups them by.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::events {

inline constexpr std::string_view kNormal = "Normal";
inline constexpr std::string_view kWarning = "Warning";

// Who reports: core/v1 EventSource (also written as reportingComponent / reportingInstance).
struct Source {
  std::string component;  // "capstan-certificates"
  std::string host;       // the node or pod name
};

// core/v1 ObjectReference.
struct ObjectReference {
  std::string kind;
  std::string ns;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;
  std::string field_path;

  json::Object to_json() const;
  // From an object (apiVersion, kind, metadata.{namespace,name,uid,resourceVersion}) or from
  // an ObjectReference-shaped value (kind and name at the top). nullopt when kind, apiVersion
  // or name is missing (client-go cannot build a reference then either).
  static std::optional<ObjectReference> from_object(const json::Value& obj);
};

struct Event {
  std::string name;
  std::string ns;
  std::string resource_version;
  std::map<std::string, std::string> annotations;
  ObjectReference involved;
  std::string reason;
  std::string message;
  std::string type;
  Source source;
  meta::TimePoint first_timestamp{};
  meta::TimePoint last_timestamp{};
  std::int32_t count = 1;
  std::string reporting_component;
  std::string reporting_instance;

  // The core/v1 Event object (timestamps with second precision, as metav1.Time).
  json::Value to_json() const;
  static Event from_json(const json::Value& v);
};

// "<name>.<hex unix nanoseconds>", client-go's event name.
std::string event_name(std::string_view object_name, meta::TimePoint t);
// The namespace an event about `ref` lives in: the object's, or "default" when cluster-scoped.
std::string event_namespace(const ObjectReference& ref);

// getEventKey: source, involved object (with fieldPath), type, reason and message.
std::string event_key(const Event& e);
// getSpamKey: source and involved object.
std::string spam_key(const Event& e);
// EventAggregatorByReasonFunc: (source, object, type, reason, reporting component/instance), message.
std::pair<std::string, std::string> aggregate_key(const Event& e);

// Cuts `s` to at most `max_bytes` without splitting a UTF-8 sequence (0 = no limit).
std::string truncate_utf8(std::string_view s, std::size_t max_bytes);

}  // namespace capstan::events
