// JSON values rendered the way Go's standard library prints them. kube-apiserver's messages,
// annotations and table cells embed values printed with fmt (%v, %q, %#v), reflect type names and
// encoding/json; kubectl shows them verbatim, so we reproduce those renderings byte for byte.
//
// A json::Value stands for what Go holds after decoding the same JSON into interface{}:
// map[string]interface {}, []interface {}, string, bool, nil, and numbers as chosen by Numbers.
#pragma once

#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::gofmt {

// How the Go code we mirror decoded the numbers it prints.
enum class Numbers {
  // k8s.io/apimachinery/pkg/util/json (sigs.k8s.io/json's PreserveInts) and unstructured objects,
  // i.e. what kube-apiserver works on: an integer literal that fits int64 is an int64, any other
  // number a float64. (Boost keeps integers beyond int64 as uint64; Go has them as float64.)
  kPreserveInts,
  // Plain encoding/json into interface{}: every number is a float64 (1000000 prints as 1e+06).
  kFloat64,
};

// strconv.Quote / fmt's %q: double quotes, Go escapes (\a \b \f \n \r \t \v, \xNN, \uNNNN,
// \UNNNNNNNN), printable UTF-8 kept, each invalid byte as \xNN.
std::string quote(std::string_view s);

// fmt's %v of a float64 (strconv.FormatFloat(v, 'g', -1, 64)): shortest round-trip digits, exponent
// form when the decimal exponent is < -4 or >= 6: 100000, 1e+06, 1.234567e+06, 0.0001, 1e-05,
// -0, NaN, +Inf.
std::string format_float(double v);

// fmt's %v (and fmt.Print) of a decoded value: strings unquoted, nil as <nil>, maps as
// map[k:v k2:v2] with sorted keys, slices as [a b].
std::string format_v(const json::Value& v, Numbers numbers = Numbers::kPreserveInts);

// fmt's %#v of a value held in interface{} (what field.ErrorBody prints for maps and slices):
// map[string]interface {}{"a":1}, []interface {}{"x", 2}, interface {}(nil) for nested nulls,
// <nil> for a top-level null.
std::string sharp_v(const json::Value& v, Numbers numbers = Numbers::kPreserveInts);

// reflect.TypeOf(v).String(): map[string]interface {}, []interface {}, string, bool, int64,
// float64; <nil> for null (how %v prints the nil reflect.Type).
std::string type_name(const json::Value& v, Numbers numbers = Numbers::kPreserveInts);

// encoding/json.Marshal: compact, map keys sorted bytewise, HTML-safe string escaping (<, >, &,
// U+2028, U+2029 as \uXXXX; \b \f \n \r \t short forms; invalid UTF-8 as \ufffd), floats in 'f'
// form unless < 1e-6 or >= 1e21 (1e-7, 1e+21). Go refuses NaN and infinities; they come out as
// format_float() writes them.
std::string json_marshal(const json::Value& v, Numbers numbers = Numbers::kPreserveInts);

// A number as Go's float64(v); 0 for non-numbers.
double as_float(const json::Value& v);

}  // namespace capstan::gofmt
