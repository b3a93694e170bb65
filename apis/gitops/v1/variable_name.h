// The names post-build variables may have (Flux's ^[_[:alpha:]][_[:alpha:][:digit:]]*$): one rule
// for the webhook (spec.postBuild.substitute) and the substitution itself.
#pragma once

#include <string_view>

namespace capstan::apis::gitops::v1 {

bool valid_variable_name(std::string_view name);

}  // namespace capstan::apis::gitops::v1
