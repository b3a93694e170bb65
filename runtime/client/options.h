// Request options of the Kubernetes client: the query parameters and bodies of
// metav1.GetOptions, ListOptions, CreateOptions/UpdateOptions, PatchOptions, DeleteOptions.
#pragma once

#include "runtime/json/json.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::client {

struct GetOptions {
  std::optional<std::string> resource_version;  // "0" = any (may be served from the watch cache)
  std::string subresource;                      // "status", "scale"
};

struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  std::int64_t limit = 0;  // 0 = no paging
  std::string continue_token;
  std::optional<std::string> resource_version;
  std::string resource_version_match;  // "NotOlderThan" | "Exact"
  std::optional<std::int64_t> timeout_seconds;
};

// A decoded LIST response.
struct ObjectList {
  std::string api_version;
  std::string kind;  // "ConfigMapList"
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;
  std::vector<json::Value> items;
};

// Create (POST) and update (PUT) options.
struct WriteOptions {
  std::string field_manager;
  bool dry_run = false;          // dryRun=All
  std::string field_validation;  // "Strict" | "Warn" | "Ignore"; "" = the server's default
};

enum class PatchType {
  Json,            // application/json-patch+json (RFC 6902)
  Merge,           // application/merge-patch+json (RFC 7386)
  StrategicMerge,  // application/strategic-merge-patch+json (built-in types only)
  Apply,           // application/apply-patch+yaml (server-side apply; needs a field manager)
};
std::string_view content_type(PatchType t);

struct PatchOptions {
  std::string field_manager;  // required for Apply
  bool force = false;         // Apply only: take ownership of conflicting fields
  bool dry_run = false;
  std::string field_validation;
  std::string subresource;    // "status"
};

enum class Propagation { Unset, Orphan, Background, Foreground };

struct DeleteOptions {
  Propagation propagation = Propagation::Unset;
  std::optional<std::int64_t> grace_period_seconds;
  std::string precondition_uid;
  std::string precondition_resource_version;
  bool dry_run = false;
  bool ignore_not_found = false;  // remove(): a 404 returns nullopt instead of throwing
};
// The DeleteOptions body ({"propagationPolicy":"Background",...}); "{}" when nothing is set.
json::Value delete_options_body(const DeleteOptions& o);

struct WatchOptions {
  std::optional<std::string> resource_version;  // unset = "get state and start at most recent"
  std::string label_selector;
  std::string field_selector;
  bool allow_watch_bookmarks = true;
  std::optional<std::int64_t> timeout_seconds;  // the server ends the watch after this
  // Streaming list (KEP-3157): sendInitialEvents=true&resourceVersionMatch=NotOlderThan, with
  // bookmarks forced on. A server without it answers 422 Invalid (thrown as ApiError).
  bool send_initial_events = false;
  // The stream fails (TransportError) when no byte arrives for this long; 0 = timeout_seconds
  // + 60 s, or 10 minutes without timeout_seconds.
  std::chrono::milliseconds idle_timeout{0};
};

enum class WatchEnd {
  Closed,     // the server ended the stream (timeoutSeconds, restart): resume from the last RV
  Cancelled,  // the Cancellation fired
  Stopped,    // the callback returned false
};
std::string_view watch_end_name(WatchEnd e);

struct WatchResult {
  WatchEnd end = WatchEnd::Closed;
  std::uint64_t events = 0;   // delivered to the callback
  std::uint64_t skipped = 0;  // malformed lines logged and dropped
};

}  // namespace capstan::client
