// The type checks kube-apiserver's JSON decoding into Go structs performs, for the fields
// where clients most often send the wrong type (a YAML `yes` or `1` where a string belongs).
// Without them an object would be stored that kubectl's typed clients then cannot read.
#pragma once

#include "runtime/json/json.h"

#include <string_view>

namespace capstan::apiserver::builtin {

// Throws the Go decoder's message, e.g. `json: cannot unmarshal bool into Go struct field
// ConfigMap.data of type string`, as std::invalid_argument; the caller adds the
// `<Kind> in version "v1" cannot be handled as a <Kind>: ` prefix and answers 400.
void check_decodable(std::string_view group_resource, std::string_view kind, const json::Value& obj);

}  // namespace capstan::apiserver::builtin
