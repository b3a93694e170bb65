// The simdjson hot path (decode.h): object metadata summaries, LIST pages and WATCH streams as
// an API server sends them. These report malformed input and never throw, so any exception is
// a finding. Invariant: stripping managedFields from a text Boost.JSON reads leaves text it
// still reads.
#include "runtime/json/decode.h"
#include "runtime/json/json.h"
#include "runtime/log/log.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  log::silence();  // the watch decoder logs each line it skips
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  json::MetaSummary meta;
  std::string error;
  if (json::summarize(text, meta, &error)) {
    std::string stripped = json::strip_managed_fields(text, meta);
    if (meta.managed_fields_begin != meta.managed_fields_end && json::try_parse(text) && !json::try_parse(stripped))
      std::abort();
  }

  json::ListMeta list;
  std::size_t items = 0;
  (void)json::decode_list(text, list, [&](std::string_view item) { items += item.size() > 0; }, &error);

  // The same stream fed whole and in chunks split at every 7th byte yields the same events.
  std::size_t whole = 0, chunked = 0;
  {
    json::WatchDecoder d([&](json::EventType, std::string_view, const json::MetaSummary&) { ++whole; }, "fuzz");
    d.feed(text);
    d.finish();
  }
  {
    json::WatchDecoder d([&](json::EventType, std::string_view, const json::MetaSummary&) { ++chunked; }, "fuzz");
    for (std::size_t i = 0; i < text.size(); i += 7) d.feed(text.substr(i, 7));
    d.finish();
  }
  if (whole != chunked) std::abort();
  return 0;
}
