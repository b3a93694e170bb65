// The string formats Kubernetes validates names, label keys and values and ports with, and
// their exact messages (k8s.io/apimachinery 0.37): an empty list means valid; field paths are
// the callers'. Object names use pkg/util/validation ("must be no more than N characters");
// label keys and values use pkg/api/validate/content ("... N bytes").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::meta::names {

using Messages = std::vector<std::string>;

Messages dns1123_label(std::string_view v);      // validation.IsDNS1123Label
Messages dns1123_subdomain(std::string_view v);  // validation.IsDNS1123Subdomain
Messages dns1035_label(std::string_view v);      // validation.IsDNS1035Label
Messages qualified_name(std::string_view v);     // content.IsLabelKey (= IsQualifiedName: label and annotation keys)
Messages label_value(std::string_view v);        // content.IsLabelValue
Messages port_name(std::string_view v);          // validation.IsValidPortName (IANA_SVC_NAME)
Messages port_number(std::int64_t v);            // validation.IsValidPortNum
Messages config_map_key(std::string_view v);     // validation.IsConfigMapKey (ConfigMap and Secret keys)

// Every format above: the regular expression its messages quote, and its matcher (for the tests,
// which check the two agree).
std::vector<std::pair<const char*, bool (*)(std::string_view)>> formats();

}  // namespace capstan::meta::names
