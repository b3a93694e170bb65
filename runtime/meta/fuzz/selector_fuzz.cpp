// Label and field selectors from ?labelSelector= / ?fieldSelector= and from
// metav1.LabelSelector objects (Service, Deployment, ServiceMonitor, ...). The documented failure
// is SelectorError. Invariant: str() of a parsed selector parses to a selector with the same
// str() and the same verdict on a fixed set of labels / fields (the client sends str() to the
// API server, so it must mean what was parsed).
#include "runtime/json/json.h"
#include "runtime/meta/selector.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;

namespace {

const meta::Labels kLabels{{"app", "web"}, {"tier", "frontend"}, {"version", "3"}, {"app.kubernetes.io/name", "x"}};

std::optional<std::string> field(std::string_view f) {
  if (f == "metadata.name") return "web";
  if (f == "metadata.namespace") return "default";
  if (f == "status.phase") return "Running";
  return std::nullopt;
}

void label_selector(std::string_view text) {
  meta::LabelSelector s;
  try {
    s = meta::LabelSelector::parse(text);
  } catch (const meta::SelectorError&) {
    return;
  }
  std::string printed = s.str();
  meta::LabelSelector again = meta::LabelSelector::parse(printed);
  if (again.str() != printed || again.matches(kLabels) != s.matches(kLabels)) std::abort();
}

void field_selector(std::string_view text) {
  meta::FieldSelector s;
  try {
    s = meta::FieldSelector::parse(text);
  } catch (const meta::SelectorError&) {
    return;
  }
  std::string printed = s.str();
  meta::FieldSelector again = meta::FieldSelector::parse(printed);
  if (again.str() != printed || again.matches(field) != s.matches(field)) std::abort();
}

void structured(std::string_view text) {
  auto v = json::try_parse(text);
  if (!v) return;
  try {
    auto s = meta::LabelSelector::from_json(&*v);
    (void)s.matches(kLabels);
    (void)s.str();
  } catch (const meta::SelectorError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  label_selector(text);
  field_selector(text);
  structured(text);
  return 0;
}
