// Boost.JSON reading (json::parse): every request body, webhook answer and stored object.
// Invariants: parse and try_parse agree; serialize -> parse gives back an equal value (also
// for the pretty form); deep_equal sees the value equal to itself.
#include "runtime/json/json.h"
#include "runtime/json/patch.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  json::Value v;
  try {
    v = json::parse(text, "fuzz input");
  } catch (const json::ParseError&) {
    if (json::try_parse(text)) std::abort();  // try_parse accepted what parse refused
    return 0;
  }
  if (!json::try_parse(text)) std::abort();
  json::Value again = json::parse(json::serialize(v));
  if (again != v) std::abort();
  if (json::parse(json::serialize_pretty(v)) != v) std::abort();
  if (!json::deep_equal(v, again)) std::abort();
  (void)json::type_name(v);
  (void)json::go_type_name(v);
  return 0;
}
