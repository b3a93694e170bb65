// PrometheusRule expressions (what users write in spec.groups[].rules[].expr), parsed and
// type-checked by promql::parse. Errors are results, never exceptions. Invariant: an accepted
// expression prints (Node::str(), Prometheus's canonical form) to text that parses again to the
// same type. Not to the same text: Prometheus's own printer does not round-trip every input
// (`-inf^2` prints as `-+Inf ^ 2`, which reads back with one unary `+` more), and ours prints
// as it does.
#include "apis/monitoring/promql/promql.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto first = capstan::promql::parse(input);
  if (!first.ok()) {
    if (first.error->message.empty()) std::abort();  // an error always says what is wrong
    return 0;
  }
  std::string printed = first.expr->str();
  auto again = capstan::promql::parse(printed);
  if (!again.ok() || again.expr->type() != first.expr->type()) std::abort();
  return 0;
}
