// JSON Patch and JSON Merge Patch (patch.h): PATCH bodies from any API client and mutating
// webhooks' answers. The input is "document\npatch"; the documented failures are ParseError
// (not JSON) and PatchError (a patch that cannot be decoded or applied).
#include "runtime/json/json.h"
#include "runtime/json/patch.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto nl = text.find('\n');
  if (nl == std::string_view::npos) return 0;
  auto doc = json::try_parse(text.substr(0, nl));
  auto patch = json::try_parse(text.substr(nl + 1));
  if (!doc || !patch) return 0;
  try {
    (void)json::apply_json_patch(*doc, *patch);
  } catch (const json::PatchError&) {
  }
  try {
    json::Value merged = json::apply_merge_patch(*doc, *patch);
    // A merge patch computed between two documents turns the first into the second.
    json::Value diff = json::create_merge_patch(*doc, merged);
    if (doc->is_object() && merged.is_object() && !json::deep_equal(json::apply_merge_patch(*doc, diff), merged))
      std::abort();
  } catch (const json::PatchError&) {
  }
  try {
    json::Value ops = json::create_json_patch(*doc, *patch);
    if (!json::deep_equal(json::apply_json_patch(*doc, ops), *patch)) std::abort();
  } catch (const json::PatchError&) {
  }
  return 0;
}
