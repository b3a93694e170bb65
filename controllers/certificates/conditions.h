// Condition lists as the controllers keep them: set by type (lastTransitionTime kept while the
// status stays the same), removed by type.
#pragma once

#include "apis/certs/v1/common.h"
#include "runtime/meta/time.h"

#include <string_view>
#include <vector>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// Returns whether anything changed.
bool set_condition(std::vector<v1::Condition>& conditions, std::string_view type, std::string_view status,
                   std::string_view reason, std::string_view message, std::int64_t observed_generation, meta::TimePoint now);
bool remove_condition(std::vector<v1::Condition>& conditions, std::string_view type);
bool condition_is(const std::vector<v1::Condition>& conditions, std::string_view type, std::string_view status);

}  // namespace capstan::certificates
