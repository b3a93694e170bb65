// YAML <-> JSON conversion: manifests, kubeconfig files, `capstan crds` output.
// YAML is read with yaml-cpp; it is written by our emitter so that strings which would
// read back as other types ("true", "1.0", "null") are always quoted.
#pragma once

#include "runtime/json/json.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::json {

// Bounds on what reading YAML may cost (ParseError naming the input beyond them):
// the input's size, how deeply values nest, and how many values and scalar bytes the
// JSON made from it may hold once aliases are expanded (at most 4x the input's size
// with a floor of 10,000 values / 1 MiB, and these ceilings).
inline constexpr std::size_t kMaxYamlBytes = 64 * 1024 * 1024;
inline constexpr std::size_t kMaxYamlDepth = 256;
inline constexpr std::size_t kMaxYamlValues = 8 * 1024 * 1024;
inline constexpr std::size_t kMaxYamlExpandedBytes = 256 * 1024 * 1024;

// Parses one YAML document into JSON; throws ParseError naming `what` on bad input.
Value from_yaml(std::string_view text, std::string_view what = "YAML document");
// Parses a multi-document stream ("---" separated); empty documents are skipped.
std::vector<Value> from_yaml_documents(std::string_view text, std::string_view what = "YAML stream");
// The same, calling `quoted` on every string scalar that was not plain (quoted, or a block
// scalar: YAML keeps those strings whatever they hold), which may rewrite it. For readers that
// later turn values back into text and must still tell `"3"` from `3` (gitops' post-build
// variable substitution, as Flux does it on YAML that keeps its quotes).
using QuotedStringHook = std::function<void(std::string&)>;
std::vector<Value> from_yaml_documents(std::string_view text, std::string_view what, const QuotedStringHook& quoted);
// Emits block-style YAML (the shape kubectl prints).
std::string to_yaml(const Value& v);

}  // namespace capstan::json
