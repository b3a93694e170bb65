// Text renderings that must match what Go's standard library prints, because kube-apiserver
// builds table cells with them: fmt.Print of JSON scalars and encoding/json for objects/arrays.
#pragma once

#include "runtime/json/json.h"

#include <string>

namespace capstan::apiserver::table {

// fmt.Print(float64): shortest round-trip digits, %e form when the exponent is < -4 or >= 6
// ("1.5", "100000", "1e+06", "1e-05").
std::string go_format_float(double d);

// json.Marshal of a decoded JSON document (map[string]interface{} et al.): object keys sorted
// bytewise, '<' '>' '&' U+2028 U+2029 escaped as \uXXXX, floats in Go's 'f'/'e' choice.
std::string go_json_marshal(const json::Value& v);

// How client-go's jsonpath prints one value: objects and arrays as go_json_marshal, strings raw,
// numbers and booleans as fmt.Print, null as "<nil>".
std::string go_print_value(const json::Value& v);

}  // namespace capstan::apiserver::table
