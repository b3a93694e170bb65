// Structs the Go types hold by value (schema::kValue): decoding a body into the Go type and
// encoding it back always yields them, {} when empty ("status": {} on a new Deployment), and
// the field manager compares against a zero object that has them. Filling them in keeps
// stored objects and managedFields as kube-apiserver has them.
#pragma once

#include "apiserver/protobuf/schema.h"
#include "runtime/json/json.h"

#include <string_view>

namespace capstan::apiserver::typed {

// Adds {} for every by-value struct field `obj` lacks (or holds as null), and null for every
// list or map field without omitempty it lacks, at every level where the parent struct exists,
// down lists and maps of structs.
void fill_value_structs(json::Value& obj, const protobuf::schema::Message& m);

// The same for an object of a built-in kind; other kinds are left alone. Returns whether the
// kind is described.
bool fill_value_structs(json::Value& obj, std::string_view api_version, std::string_view kind);

// The Go zero value of a built-in kind as the field manager sees it (by-value structs as {},
// apiVersion and kind set); an empty object for kinds no table describes.
json::Value zero_object(std::string_view api_version, std::string_view kind);

}  // namespace capstan::apiserver::typed
