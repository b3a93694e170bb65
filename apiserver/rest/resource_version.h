// resourceVersion query parameters as kube-apiserver's storage layer reads them
// (strconv.ParseUint), with its error text for malformed ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::apiserver::rest {

struct ParsedResourceVersion {
  std::optional<std::int64_t> value;
  // `resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`
  std::string error;
};

ParsedResourceVersion parse_resource_version(std::string_view s);

}  // namespace capstan::apiserver::rest
