// Which monitors and rules a Prometheus chooses, with prometheus-operator's semantics: an
// absent selector chooses nothing, `{}` everything; an absent namespace selector means the
// Prometheus's own namespace only, `{}` every namespace. An object whose labels match but whose
// namespace is left out is told apart, so its status can say why it is not picked up.
#pragma once

#include "runtime/cache/object.h"
#include "runtime/meta/selector.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::cache {
class Informer;
}

namespace capstan::monitoring {

enum class Choice { NotSelected, Selected, NamespaceNotSelected };

class Selection {
 public:
  // `namespaces`: the Namespace informer (their labels); `own_ns`: the Prometheus's namespace.
  // Throws std::invalid_argument for a selector that does not parse.
  Selection(const cache::Informer& namespaces, std::string own_ns, const std::optional<json::Value>& selector,
            const std::optional<json::Value>& ns_selector);

  Choice judge(const cache::CachedObject& o) const;

  // The objects of `inf` this selection chooses, sorted by namespace and name.
  std::vector<json::Value> pick(const cache::Informer& inf) const;

 private:
  bool namespace_chosen(std::string_view ns) const;

  const cache::Informer& namespaces_;
  std::string own_ns_;
  std::optional<meta::LabelSelector> objects_;              // absent: nothing is chosen
  std::optional<meta::LabelSelector> namespaces_selector_;  // absent: own namespace only
};

}  // namespace capstan::monitoring
