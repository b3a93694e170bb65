// The short, documented list of known divergences between the embedded API server and
// kube-apiserver that are kept on purpose (each with its reason). A divergence not on it
// fails the differential suite.
#pragma once

#include "e2e/differential/session.h"

#include <string>

namespace capstan::e2e::diff {

// The reason when every difference of `r` is allowlisted, "" otherwise.
std::string allowed(const Result& r);

// Every allowlist entry, for the suite's report.
struct Allowance {
  std::string id_pattern;    // regex over "group/case/label"
  std::string diff_pattern;  // regex over one difference line
  std::string reason;
};
const std::vector<Allowance>& allowlist();

}  // namespace capstan::e2e::diff
