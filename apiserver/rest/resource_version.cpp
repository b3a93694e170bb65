#include "apiserver/rest/resource_version.h"

#include "runtime/gofmt/gofmt.h"

#include <limits>

namespace capstan::apiserver::rest {

ParsedResourceVersion parse_resource_version(std::string_view s) {
  ParsedResourceVersion out;
  auto fail = [&](std::string_view why) {
    std::string q = gofmt::quote(s);
    out.error = "resourceVersion: Invalid value: " + q + ": strconv.ParseUint: parsing " + q + ": " + std::string(why);
    return out;
  };
  if (s.empty()) return fail("invalid syntax");
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return fail("invalid syntax");
    std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return fail("value out of range");
    v = v * 10 + d;
  }
  // Stored resourceVersions are int64 in this server; larger ones cannot name any of them.
  if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return fail("value out of range");
  out.value = static_cast<std::int64_t>(v);
  return out;
}

}  // namespace capstan::apiserver::rest
