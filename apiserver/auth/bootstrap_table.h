// Shorthands for the bootstrap policy tables (bootstrap_*.cpp): one line per rule or subject.
#pragma once

#include "apiserver/auth/bootstrap_policy.h"

namespace capstan::apiserver::auth::bootstrap {

using Strings = std::vector<std::string>;

// verbs on resources of API groups
inline PolicyRule rule(Strings verbs, Strings groups, Strings resources) { return {std::move(verbs), std::move(groups), std::move(resources), {}, {}}; }
// ... restricted to resourceNames
inline PolicyRule named(Strings verbs, Strings groups, Strings resources, Strings names) {
  return {std::move(verbs), std::move(groups), std::move(resources), std::move(names), {}};
}
// verbs on non-resource URLs
inline PolicyRule urls(Strings verbs, Strings urls) { return {std::move(verbs), {}, {}, {}, std::move(urls)}; }

inline Subject user(std::string name) { return {"User", std::string(kRbacGroup), std::move(name), ""}; }
inline Subject group(std::string name) { return {"Group", std::string(kRbacGroup), std::move(name), ""}; }
inline Subject sa(std::string ns, std::string name) { return {"ServiceAccount", "", std::move(name), std::move(ns)}; }

// The aggregation labels of admin, edit and view.
inline const std::string kToAdmin = "admin";
inline const std::string kToEdit = "edit";
inline const std::string kToView = "view";

}  // namespace capstan::apiserver::auth::bootstrap
