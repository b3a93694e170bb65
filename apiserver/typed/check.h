// What decoding a JSON object into the k8s.io/api Go struct of a built-in kind finds wrong, read
// off the protobuf schema tables (apiserver/protobuf/schema*.cpp): members no struct field has
// (unknown fields, which the Go struct cannot hold and so are always dropped) and values of the
// wrong JSON type or form. The findings are neutral; report.h words them the way each of
// kube-apiserver's decoders does (encoding/json, the unstructured converter, structured-merge-diff).
#pragma once

#include "apiserver/patch/list_types.h"
#include "apiserver/protobuf/schema.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::typed {

namespace schema = protobuf::schema;

// One step of the path to a value.
struct Step {
  enum class Kind : std::uint8_t { Field, Index, Key };
  Kind kind = Kind::Field;
  std::string name;       // Field, Key
  std::size_t index = 0;  // Index
  // Index into an associative list (Options::list_types set): structured-merge-diff's element
  // label, e.g. `[name="app"]` or `[containerPort=80,protocol="TCP"]`.
  std::string label;
};

// The kind of Go value a JSON value was decoded into.
enum class Dest : std::uint8_t { Scalar, Struct, Slice, Map, Special };

struct Issue {
  enum class Kind : std::uint8_t {
    UnknownField,  // no struct field has this JSON name: path ends with it
    WrongType,     // encoding/json's *UnmarshalTypeError (value of the wrong JSON type or range)
    BadValue,      // a decoder's own error (time, quantity, duration, base64): `message`
  };
  Kind kind = Kind::UnknownField;
  std::vector<Step> path;
  json::Value value;                           // WrongType / BadValue: what was found
  Dest dest = Dest::Scalar;
  schema::Type scalar = schema::Type::String;  // Dest::Scalar
  schema::Special special = schema::Special::None;
  std::string go_type;    // encoding/json's Type: "int32", "v1.DeploymentStrategy", "map[string]string"
  std::string go_struct;  // the Go struct holding the field being decoded ("DeploymentSpec")
  std::string message;    // BadValue
  // Returned by a custom UnmarshalJSON (Time, Quantity, IntOrString, ...): it ends decoding, so
  // it is the error encoding/json reports even when a saved error came first.
  bool aborts = false;
};

struct Options {
  enum class Order : std::uint8_t {
    Document,  // members as they appear (encoding/json reading a request body)
    Sorted,    // keys sorted at each level (encoding/json reading a map marshalled by Go)
    Schema,    // struct fields in Go declaration order, then unknown members (the unstructured converter)
  };
  Order order = Order::Document;
  bool prune = true;  // remove unknown members from the object
  // When set, list elements of associative lists carry structured-merge-diff labels.
  const patch::ListTypes* list_types = nullptr;
};

// Checks `obj` (a whole object of a kind, so apiVersion and kind are known members) against
// message `m`; removes unknown members when o.prune. Findings are in walk order.
std::vector<Issue> check(json::Value& obj, const schema::Message& m, const Options& o = {});

// For a built-in kind no table describes: checks only its metadata (an ObjectMeta) the same way;
// other members are left alone.
std::vector<Issue> check_metadata(json::Value& obj, std::string_view kind, const Options& o = {});

// The message of a built-in kind ("apps/v1", "Deployment"), or nullptr when no table describes it.
const schema::Message* kind_message(std::string_view api_version, std::string_view kind);

}  // namespace capstan::apiserver::typed
