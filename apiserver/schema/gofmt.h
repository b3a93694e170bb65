// Go formatting rules that kube-apiserver's messages depend on. The API server is written in Go and
// its error texts embed values printed with fmt verbs (%v, %q, %#v) and encoding/json; kubectl shows
// these texts verbatim, so we reproduce the exact renderings for JSON values.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace capstan::apiserver::schema::gofmt {

// strconv.Quote / fmt "%q" of a string: double quotes, Go escapes, printable UTF-8 kept.
std::string quote(std::string_view s);

// fmt "%v" of a float64: strconv 'g' with the shortest digits; exponent form when the decimal
// exponent is < -4 or >= 6 (Go decides with precision 6 for shortest output): 100000, 1e+06,
// 1.234567e+06, 0.0001, 1e-05.
std::string format_float(double v);

// fmt "%v" of a scalar JSON value as kube's decoder would hold it: int64, float64, bool, string
// (unquoted). Objects/arrays fall back to sharp_v().
std::string format_v(const json::Value& v);

// fmt "%#v" of a value held in interface{} (what field.ErrorBody prints for maps and slices):
// map[string]interface {}{"a":1}, []interface {}{"x", 2}, interface {}(nil) for nested nulls.
std::string sharp_v(const json::Value& v);

// encoding/json.Marshal of a JSON value: compact, map keys sorted, HTML-safe escaping, Go float
// formatting.
std::string json_marshal(const json::Value& v);

// The value as the apiextensions decoder sees it: true when it is a Go int64 (Boost int64).
// uint64 beyond int64 and doubles are float64 in Go.
bool is_go_int(const json::Value& v);
// As float64 (for numbers only).
double as_float(const json::Value& v);

}  // namespace capstan::apiserver::schema::gofmt
