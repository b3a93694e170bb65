// The hot decode path: LIST pages and WATCH streams parsed with simdjson On-Demand.
// Objects stay as their raw JSON text (views into the caller's buffer); only the metadata
// the cache needs is extracted. Malformed input is reported, never thrown.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::json {

enum class EventType { Added, Modified, Deleted, Bookmark, Error };
std::string_view event_type_name(EventType t);

struct OwnerRefSummary {
  std::string_view api_version;
  std::string_view kind;
  std::string_view name;
  std::string_view uid;
  bool controller = false;
};

// What the cache and the work queue need from an object's metadata. The strings are views:
// into the summarised text where they appear there verbatim (the common case: no escapes),
// else into `storage`. They stay valid while both the text and this summary live; a summary
// is therefore not copyable (moving keeps the views valid). Reused with clear(), it
// allocates nothing in the common case.
struct MetaSummary {
  std::string_view ns;
  std::string_view name;
  std::string_view uid;
  std::string_view resource_version;
  std::int64_t generation = 0;
  bool deleting = false;
  std::vector<std::pair<std::string_view, std::string_view>> labels;
  std::vector<std::pair<std::string_view, std::string_view>> annotations;
  std::vector<OwnerRefSummary> owners;
  // Byte range [begin, end) of the metadata.managedFields member including its key and one
  // adjoining comma, so that erasing it leaves valid JSON; begin == end when absent.
  std::size_t managed_fields_begin = 0;
  std::size_t managed_fields_end = 0;
  // Unescaped strings, and the padded copy of a text given without padding.
  std::deque<std::string> storage;

  MetaSummary() = default;
  MetaSummary(const MetaSummary&) = delete;
  MetaSummary& operator=(const MetaSummary&) = delete;
  MetaSummary(MetaSummary&&) = default;
  MetaSummary& operator=(MetaSummary&&) = default;
  void clear();
};

// Views handed out by decode_list() and WatchDecoder are followed by at least this many
// readable bytes (they point into simdjson's padded input), so they can be parsed again in place.
inline constexpr std::size_t kReadablePadding = 64;

// Extracts metadata from one object's JSON text (`out` is cleared first). Returns false (and
// sets `error`) when the text is not a JSON object. `padded`: the text is followed by
// kReadablePadding readable bytes (a view from decode_list or WatchDecoder) and is parsed
// where it is; else it is copied into out.storage, which the views then point into.
bool summarize(std::string_view object_json, MetaSummary& out, std::string* error = nullptr, bool padded = false);

// Returns `object_json` without metadata.managedFields (the common case: copied as is).
std::string strip_managed_fields(std::string_view object_json, const MetaSummary& meta);

// Decodes a LIST response body: calls `on_item` with each item's raw JSON text.
struct ListMeta {
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;
  std::string kind;  // "ConfigMapList", or "Status" when the body was an error
};
bool decode_list(std::string_view body, ListMeta& meta, const std::function<void(std::string_view item)>& on_item,
                 std::string* error = nullptr);

// A WATCH stream decoder: feed it the body in chunks split anywhere; it calls the handler for
// each complete line ({"type":...,"object":{...}}) with the object's text and its metadata,
// both read in one pass. The views are valid during the call and the object's text is
// followed by kReadablePadding readable bytes. Lines that are not valid events are logged
// (naming `what`) and skipped.
class WatchDecoder {
 public:
  using Handler = std::function<void(EventType type, std::string_view object_json, const MetaSummary& meta)>;
  WatchDecoder(Handler handler, std::string what);
  ~WatchDecoder();
  WatchDecoder(const WatchDecoder&) = delete;
  WatchDecoder& operator=(const WatchDecoder&) = delete;

  void feed(std::string_view chunk);
  // Processes a final line that had no trailing newline.
  void finish();
  std::uint64_t events() const { return events_; }
  std::uint64_t skipped() const { return skipped_; }

 private:
  // `readable`: bytes readable after the line (parsed in place when that covers the padding).
  void line(std::string_view l, std::size_t readable);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Handler handler_;
  std::string what_;
  std::string pending_;
  std::uint64_t events_ = 0;
  std::uint64_t skipped_ = 0;
};

}  // namespace capstan::json
