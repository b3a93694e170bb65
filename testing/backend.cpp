#include "testing/backend.h"

#include <cstdlib>
#include <stdexcept>

namespace capstan::e2e {

std::string to_string(Backend b) { return b == Backend::Embedded ? "embedded" : "kube"; }

std::vector<Backend> selected_backends() {
  const char* v = std::getenv("CAPSTAN_E2E_BACKEND");
  std::string s = v ? v : "both";
  if (s == "both" || s.empty()) return {Backend::Embedded, Backend::Kube};
  if (s == "embedded") return {Backend::Embedded};
  if (s == "kube") return {Backend::Kube};
  throw std::invalid_argument("CAPSTAN_E2E_BACKEND=" + s + ": expected embedded, kube or both");
}

std::string backend_param_name(const ::testing::TestParamInfo<Backend>& info) { return to_string(info.param); }

}  // namespace capstan::e2e
