// `capstan dev`: the embedded API server (durable, simulating workloads) and every
// controller in one process, with the CRDs and webhook configurations installed.
#pragma once

#include <string>
#include <vector>

namespace capstan::manager {

int dev_command(const std::vector<std::string>& args);

}  // namespace capstan::manager
