// Name formats of metadata.name: the string formats (runtime/meta/names.h) plus the
// ValidateNameFunc rules the resources use.
#pragma once

#include "runtime/meta/names.h"

namespace capstan::apiserver::builtin::names {

using meta::names::Messages;
using meta::names::dns1123_label;
using meta::names::dns1123_subdomain;
using meta::names::dns1035_label;
using meta::names::qualified_name;
using meta::names::label_value;
using meta::names::port_name;
using meta::names::port_number;

// A ValidateNameFunc: how metadata.name (prefix=false) or metadata.generateName (prefix=true)
// is checked. rule: "subdomain" (NameIsDNSSubdomain), "label" (NameIsDNSLabel), "dns1035"
// (NameIsDNS1035Label), "path" (path.ValidatePathSegmentName).
Messages name_errors(std::string_view name, std::string_view rule, bool prefix);

}  // namespace capstan::apiserver::builtin::names
