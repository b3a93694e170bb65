// Go names of the k8s.io/api types behind the protobuf schema tables, as reflect prints them in
// encoding/json errors: "v1.DeploymentStrategy", "[]v1.Container", "map[string]string", "int32".
#pragma once

#include "apiserver/protobuf/schema.h"

#include <string>
#include <string_view>

namespace capstan::apiserver::typed {

// The Go struct name: the last component of the proto name ("DeploymentSpec").
std::string_view go_struct_name(const protobuf::schema::Message& m);
// The package-qualified name ("v1.DeploymentSpec", "resource.Quantity", "intstr.IntOrString"): the
// proto package's last component is the Go package name.
std::string go_qualified_name(const protobuf::schema::Message& m);
// The Go type of one value of the field (an element of a list, a value of a map): "int32",
// "string", "[]byte", "v1.Container", "resource.Quantity".
std::string go_element_type(const protobuf::schema::Field& f, const protobuf::schema::Message& owner);
// The Go type of the whole field: "[]v1.Container", "map[string]string", "v1.ResourceList", "*int32"
// is reported as "int32" (encoding/json reports the pointee).
std::string go_field_type(const protobuf::schema::Field& f, const protobuf::schema::Message& owner);

}  // namespace capstan::apiserver::typed
