// YAML reading (from_yaml_documents): manifests from Git, kubeconfig files, `kubectl apply`
// bodies sent as YAML. Invariant: what we emit with to_yaml reads back as the same JSON.
#include "runtime/json/json.h"
#include "runtime/json/patch.h"
#include "runtime/json/yaml.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<json::Value> docs;
  try {
    docs = json::from_yaml_documents(text, "fuzz input");
  } catch (const json::ParseError&) {
    return 0;
  }
  for (const auto& doc : docs) {
    std::string emitted = json::to_yaml(doc);
    json::Value back = json::from_yaml(emitted, "emitted YAML");
    if (!json::deep_equal(back, doc)) std::abort();
  }
  return 0;
}
