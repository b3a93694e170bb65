// The typed values kube-apiserver's validation puts in field errors (maps, label selectors,
// service ports) as field.ErrorBody prints them (json.Marshal since apimachinery 0.34).
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace capstan::apiserver::builtin {

// map[string]string: map[string]string{"a":"b"}, keys sorted; map[string]string(nil) when absent.
std::string go_string_map(const json::Value* v);
// []string{"a", "b"}; []string(nil) when absent.
std::string go_string_slice(const json::Value* v);
// A *metav1.LabelSelector dereferenced: v1.LabelSelector{MatchLabels:..., MatchExpressions:...}.
std::string go_label_selector(const json::Value& selector);
// The (protocol, port) key Service validation reports duplicates with: core.ServicePort{...}.
std::string go_service_port_key(std::string_view protocol, std::int64_t port);

}  // namespace capstan::apiserver::builtin
