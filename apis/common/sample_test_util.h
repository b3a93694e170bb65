// The documents of config/samples/<file>, for the API groups' validation tests (header-only;
// the test target defines CAPSTAN_SOURCE_DIR, the checkout the samples are read from).
#pragma once

#include "runtime/json/json.h"
#include "runtime/json/yaml.h"

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::testing {

// Every YAML document of config/samples/`file` ("kafka.yaml"); empty when the file is missing.
inline std::vector<json::Value> sample_documents(std::string_view file) {
  std::ifstream in(std::string(CAPSTAN_SOURCE_DIR) + "/config/samples/" + std::string(file));
  std::stringstream text;
  text << in.rdbuf();
  return json::from_yaml_documents(text.str());
}

}  // namespace capstan::apis::testing
