// `capstan manager`: the enabled controllers against a cluster.
#pragma once

#include <string>
#include <vector>

namespace capstan::manager {

int manager_command(const std::vector<std::string>& args);

}  // namespace capstan::manager
