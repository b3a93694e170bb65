// The manager's command lines use runtime/flags; this adds what only the manager's commands check.
#pragma once

#include "runtime/flags/flags.h"

#include <string>

namespace capstan::manager {

using flags::FlagSet;
using flags::split_csv;
using flags::UsageError;

// The value of --log-format ("text" or "json"); anything else is a UsageError.
void check_log_format(const std::string& value);

}  // namespace capstan::manager
