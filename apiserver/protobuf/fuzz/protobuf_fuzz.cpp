// Kubernetes protobuf request bodies (application/vnd.kubernetes.protobuf, sent by kubectl's
// typed clients) decoded into the JSON object. The documented failure is DecodeError.
// Invariant: what decodes is an object whose JSON text reads back equal.
#include "apiserver/protobuf/decode.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;
using namespace capstan::apiserver;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  try {
    protobuf::DecodeResult r = protobuf::decode_with_report(body);
    if (!r.object.is_object()) std::abort();
    if (json::parse(json::serialize(r.object)) != r.object) std::abort();
  } catch (const protobuf::DecodeError&) {
  }
  try {
    (void)protobuf::decode_with_report(body, protobuf::DecodeOptions{.reject_unknown_fields = true});
  } catch (const protobuf::DecodeError&) {
  }
  return 0;
}
