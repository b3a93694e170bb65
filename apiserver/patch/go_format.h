// Renderings of JSON values the way the Go code we mirror prints them, so messages and annotations
// match kube-apiserver byte for byte:
//   go_sprint       fmt's %v of a value decoded by encoding/json (map[a:1 b:[x y]], 1e+06)
//   go_quote        fmt's %q of a string
//   go_type_name    reflect.TypeOf(decoded value).String()
//   go_json         encoding/json.Marshal (sorted keys, HTML-escaped strings)
#pragma once

#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::apiserver::patch {

std::string go_sprint(const json::Value& v);
std::string go_quote(std::string_view s);
std::string go_type_name(const json::Value& v);
std::string go_json(const json::Value& v);
// fmt's %v of a float64.
std::string go_format_float(double d);

}  // namespace capstan::apiserver::patch
