// The scalar formats Kubernetes decodes with its own parsers, checked on every typed object a
// client sends: resource.Quantity, time.Duration, metav1.Time (RFC 3339, seconds and micro)
// and []byte's base64. They answer with an error text, never by throwing.
#include "apiserver/typed/special.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan::apiserver::typed;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view value(reinterpret_cast<const char*>(data), size);
  auto q = quantity_parse_error(value);
  if (q && q->empty()) std::abort();  // a rejection always says why
  (void)duration_parse_error(value);
  (void)time_parse_error(kRFC3339, value);
  (void)time_parse_error(kRFC3339Micro, value);
  (void)base64_error(value);
  return 0;
}
