// YAML <-> JSON conversion: manifests, kubeconfig files, `capstan crds` output.
// YAML is read with yaml-cpp; it is written by our emitter so that strings which would
// read back as other types ("true", "1.0", "null") are always quoted.
#pragma once

#include "runtime/json/json.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::json {

// Parses one YAML document into JSON; throws ParseError naming `what` on bad input.
Value from_yaml(std::string_view text, std::string_view what = "YAML document");
// Parses a multi-document stream ("---" separated); empty documents are skipped.
std::vector<Value> from_yaml_documents(std::string_view text, std::string_view what = "YAML stream");
// Emits block-style YAML (the shape kubectl prints).
std::string to_yaml(const Value& v);

}  // namespace capstan::json
