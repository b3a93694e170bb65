// Kubernetes' JSONPath dialect (k8s.io/client-go/util/jsonpath): the language of CRD
// additionalPrinterColumns[].jsonPath and `kubectl get -o jsonpath=...`.
//
// A template mixes literal text and actions in braces: "name={.metadata.name} {.spec.ports[*].port}".
// Inside an action: fields `.a.b` (a backslash escapes a terminator: `.labels.app\.kubernetes\.io/name`),
// `..name` (recursive descent), `*` (wildcard), `[0]`, `[-1]`, `[0:2]`, `[::2]` (slices), `[0,2]` and
// `['a','b']` (unions), `['a']` (same as `.a`; as upstream, dots inside the quotes still separate
// fields, so escape them: `['app\.kubernetes\.io/name']`), filters `[?(@.type=="Ready")]` with
// == != < > <= >= or existence `[?(@.x)]`, string/number/bool literals, and `{range ...}...{end}`.
// Semantics follow client-go, including its quirks (see jsonpath.cpp for the details kept).
#pragma once

#include "runtime/json/json.h"

#include <array>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::table {

// Bad syntax (from parse) or an evaluation failure (from find_results); the message names the path.
class JsonPathError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace jsonpath_detail {
struct SliceParam {
  int value = 0;
  bool known = false;
  bool derived = false;
};

struct Node {
  enum class Kind { List, Text, Field, Array, Filter, Int, Float, Bool, Wildcard, Recursive, Union, Identifier };
  Kind kind = Kind::List;
  std::string name;                   // Field: key; Identifier: word; Filter: operator ("exists", "==", ...)
  json::Value literal;                // Text, Int, Float, Bool: the constant produced
  std::array<SliceParam, 3> slice{};  // Array: start, end, step
  std::vector<Node> children;         // List: steps; Union: one List per branch; Filter: {left, right}
};

// A top-level piece of a template: literal text or one {action}; a {range ...} owns its body.
struct Segment {
  std::size_t index = 0;  // into the template's top-level nodes
  enum class Kind { Plain, Range, StrayEnd } kind = Kind::Plain;
  std::vector<Segment> body;  // Range only: the segments up to the matching {end}
};
}  // namespace jsonpath_detail

// What a template matched: one group per template segment evaluated (per range iteration), as
// client-go's FindResults returns [][]reflect.Value. Pointers refer into the evaluated document,
// into the JsonPath (literals) or into `owned`; keep all three alive while using them.
struct JsonPathResults {
  std::vector<std::vector<const json::Value*>> groups;
  std::deque<json::Value> owned;  // values created during evaluation (bytes of a string under `*`)

  std::vector<const json::Value*> flatten() const;
};

class JsonPath {
 public:
  // Parses a full template, exactly as client-go's Parse; throws JsonPathError naming `text`.
  static JsonPath parse(std::string_view text);
  // Parses a printer-column path the way kube-apiserver does: as the template "{<path>}".
  static JsonPath parse_column(std::string_view path);

  // With missing keys allowed (printer columns, kubectl's default) an absent field matches
  // nothing; otherwise it is an evaluation error ("x is not found").
  JsonPath& allow_missing_keys(bool allow) {
    allow_missing_keys_ = allow;
    return *this;
  }

  // Evaluates against `data`; throws JsonPathError on evaluation errors (index out of range,
  // indexing a non-array, comparing incompatible types, unknown identifiers).
  JsonPathResults find_results(const json::Value& data) const;
  // Every matched value, in order, copied out.
  std::vector<json::Value> find(const json::Value& data) const;
  // Renders like client-go's Execute (kubectl -o jsonpath): groups concatenated, values of a
  // group separated by one space, scalars as Go's fmt.Print, objects and arrays as compact JSON.
  std::string execute(const json::Value& data) const;

  const std::string& text() const { return text_; }

 private:
  friend class JsonPathParser;
  std::string text_;
  jsonpath_detail::Node root_;  // List of Text and List nodes
  std::vector<jsonpath_detail::Segment> segments_;
  bool allow_missing_keys_ = false;
};

// One result as client-go's PrintResults prints it: maps and slices as encoding/json, anything else
// as fmt.Print (strings raw, null as <nil>).
std::string print_value(const json::Value& v);
// One group rendered as client-go's PrintResults does (space-separated).
std::string print_results(const std::vector<const json::Value*>& values);

}  // namespace capstan::apiserver::table
