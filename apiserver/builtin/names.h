// The string-format checks of k8s.io/apimachinery/pkg/util/validation (v0.32), returning the
// same messages: an empty list means valid. Field paths are added by the callers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::builtin::names {

using Messages = std::vector<std::string>;

Messages dns1123_label(std::string_view v);      // IsDNS1123Label
Messages dns1123_subdomain(std::string_view v);  // IsDNS1123Subdomain
Messages dns1035_label(std::string_view v);      // IsDNS1035Label
Messages qualified_name(std::string_view v);     // IsQualifiedName (label and annotation keys)
Messages label_value(std::string_view v);        // IsValidLabelValue
Messages port_name(std::string_view v);          // IsValidPortName (IANA_SVC_NAME)
Messages port_number(std::int64_t v);            // IsValidPortNum

// A ValidateNameFunc: how metadata.name (prefix=false) or metadata.generateName (prefix=true)
// is checked. rule: "subdomain" (NameIsDNSSubdomain), "label" (NameIsDNSLabel), "dns1035"
// (NameIsDNS1035Label), "path" (path.ValidatePathSegmentName).
Messages name_errors(std::string_view name, std::string_view rule, bool prefix);

}  // namespace capstan::apiserver::builtin::names
