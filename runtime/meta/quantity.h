// resource.Quantity values as numbers, for comparing sizes ("10Gi" < "20Gi"): a non-negative
// decimal with a binary (Ki..Ei), decimal (m, k..E) or exponent (e3) suffix.
#pragma once

#include <optional>
#include <string_view>

namespace capstan::meta {

// The value of quantity `q` ("10Gi" = 10737418240, "500M", "1.5Ti", "1e3", "100m" = 0.1);
// nullopt when it is not one (a sign other than '+', spaces, an unknown suffix, over 64 characters).
std::optional<long double> quantity_value(std::string_view q);

}  // namespace capstan::meta
