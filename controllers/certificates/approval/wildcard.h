// approver-policy's wildcard matching: '*' in a pattern matches any run of characters (none
// included), every other character only itself; "" matches only "". No other metacharacters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates::approval {

bool wildcard_matches(std::string_view pattern, std::string_view value);
// Some pattern matches `value`.
bool wildcard_contains(const std::vector<std::string>& patterns, std::string_view value);
// Every member is matched by some pattern (true for no members).
bool wildcard_subset(const std::vector<std::string>& patterns, const std::vector<std::string>& members);

}  // namespace capstan::certificates::approval
