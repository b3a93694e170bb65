// `capstan apiserver`: runs the embedded API server until SIGTERM/SIGINT.
#pragma once

#include <string>
#include <vector>

namespace capstan::manager {

int apiserver_command(const std::vector<std::string>& args);

}  // namespace capstan::manager
