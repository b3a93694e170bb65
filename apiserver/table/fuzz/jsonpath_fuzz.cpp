// Kubernetes JSONPath: CRD additionalPrinterColumns[].jsonPath (written by whoever may create
// CRDs, evaluated by the API server on every Table request) and `-o jsonpath` templates. The
// input is "template\nJSON document" (or a template alone, evaluated on a Pod). The documented
// failure is JsonPathError, for parsing and for evaluation.
#include "apiserver/table/jsonpath.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;
using namespace capstan::apiserver::table;

namespace {

const json::Value& pod() {
  static const json::Value v = json::parse(R"({"apiVersion":"v1","kind":"Pod",
    "metadata":{"name":"web-0","namespace":"default","labels":{"app":"web","app.kubernetes.io/name":"web"}},
    "spec":{"containers":[{"name":"app","image":"nginx:1.27","ports":[{"containerPort":80},{"containerPort":443}]},
                          {"name":"sidecar","image":"envoy","resources":{"limits":{"cpu":"500m"}}}]},
    "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"},{"type":"PodScheduled","status":"True"}],
              "restartCount":3,"ratio":0.5,"ready":true,"nothing":null}})");
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto nl = text.find('\n');
  std::string_view tmpl = text.substr(0, nl);
  std::optional<json::Value> doc;
  if (nl != std::string_view::npos) doc = json::try_parse(text.substr(nl + 1));
  const json::Value& data_doc = doc ? *doc : pod();
  for (bool column : {false, true}) {
    try {
      JsonPath p = column ? JsonPath::parse_column(tmpl) : JsonPath::parse(tmpl);
      for (bool allow : {true, false}) {
        p.allow_missing_keys(allow);
        try {
          (void)p.execute(data_doc);
          for (const auto& group : p.find_results(data_doc).groups) (void)print_results(group);
        } catch (const JsonPathError&) {
        }
      }
    } catch (const JsonPathError&) {
    }
  }
  return 0;
}
