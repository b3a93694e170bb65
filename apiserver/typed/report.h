// The wording of check()'s findings by each decoder kube-apiserver runs on a built-in kind.
#pragma once

#include "apiserver/typed/check.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::apiserver::typed {

// encoding/json (sigs.k8s.io/json) decoding a request body into the Go struct (create, update,
// JSON and merge patches): the error it returns, e.g. `json: cannot unmarshal string into Go
// struct field DeploymentSpec.spec.replicas of type int32`, or nullopt.
std::optional<std::string> go_json_error(const std::vector<Issue>& issues);

// The strict decoder's unknown-field paths, in walk order: "metadata.bogus",
// "spec.template.spec.containers[0].bogus", map keys as ".key".
std::vector<std::string> unknown_fields(const std::vector<Issue>& issues);

// runtime.DefaultUnstructuredConverter.FromUnstructured (strategic merge patches): its first
// error, e.g. "unrecognized type: int32", "cannot convert int64 to string", "cannot restore
// struct from: string"; nullopt when none. Expects issues found in Options::Order::Schema.
std::optional<std::string> converter_error(const std::vector<Issue>& issues);

// structured-merge-diff's validation of an applied configuration (server-side apply): errors
// like `.spec.template.spec.containers[name="app"].bogus: field not declared in schema`, joined
// as ValidationErrors.Error() does ("errors:\n  ..." when several); nullopt when none. Expects
// issues found with Options::list_types set.
std::optional<std::string> smd_errors(const std::vector<Issue>& issues);

}  // namespace capstan::apiserver::typed
