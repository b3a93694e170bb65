// What Go's encoding/json says about a document before decoding it: the first syntax error, in
// the words of its scanner ("invalid character 'x' after object key:value pair", "unexpected end
// of JSON input", ...), and the members an object repeats, as sigs.k8s.io/json's strict decoding
// names them ("metadata.name", "spec.containers[0].image"). kube-apiserver returns both texts
// in its Status messages.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::gofmt {

struct JsonScan {
  std::optional<std::string> syntax_error;  // nullopt: well-formed
  std::vector<std::string> duplicates;      // field paths of repeated members, in document order
};

JsonScan scan_json(std::string_view text);

}  // namespace capstan::gofmt
