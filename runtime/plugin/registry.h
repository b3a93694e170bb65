// The plugins a binary is built with, and kube-controller-manager's --controllers selection.
//
//   plugin::Registry r;
//   r.add(certificates::plugin());
//   r.add(kafka::plugin());
//   r.add_flags(fs);                         // every plugin's flags, enabled or not
//   auto on = r.enabled({"*", "-kafka"});    // the default-on ones but kafka
#pragma once

#include "runtime/plugin/plugin.h"

#include <string>
#include <vector>

namespace capstan::plugin {

class Registry {
 public:
  // Throws std::invalid_argument when the name or an alias is taken.
  void add(Plugin p);
  const std::vector<Plugin>& all() const { return plugins_; }
  // By name or alias; nullptr when none.
  const Plugin* find(std::string_view name) const;
  // "*" = every default-on plugin, "name" enables, "-name" disables, the first explicit match
  // wins; aliases accepted. Throws flags::UsageError naming the known plugins on an unknown name.
  std::vector<const Plugin*> enabled(const std::vector<std::string>& flag) const;
  // "certificates, monitoring, ..." (or "(none in this build)").
  std::string names() const;
  void add_flags(flags::FlagSet& fs) const;
  // Every plug-in's `capstan dev` defaults; their banner lines.
  std::vector<std::string> apply_dev_defaults(flags::FlagSet& fs, const DevEnvironment& env) const;
  // Every plugin's CRDs, conversion webhooks at `endpoint` (what `capstan crds` prints).
  std::vector<json::Value> crds(const webhook::Endpoint& endpoint) const;

 private:
  std::vector<Plugin> plugins_;
};

}  // namespace capstan::plugin
