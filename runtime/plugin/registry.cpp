#include "runtime/plugin/registry.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace capstan::plugin {

void Registry::add(Plugin p) {
  std::vector<std::string> names = p.aliases();
  names.push_back(p.name());
  for (const auto& n : names)
    if (find(n)) throw std::invalid_argument("a controller named \"" + n + "\" is already registered");
  plugins_.push_back(std::move(p));
}

const Plugin* Registry::find(std::string_view name) const {
  for (const auto& p : plugins_) {
    if (p.name() == name) return &p;
    if (std::find(p.aliases().begin(), p.aliases().end(), name) != p.aliases().end()) return &p;
  }
  return nullptr;
}

std::string Registry::names() const {
  std::string out;
  for (const auto& p : plugins_) out += (out.empty() ? "" : ", ") + p.name();
  return out.empty() ? "(none in this build)" : out;
}

std::vector<const Plugin*> Registry::enabled(const std::vector<std::string>& flag) const {
  for (const auto& item : flag) {
    if (item == "*") continue;
    std::string_view name = item;
    if (!name.empty() && name.front() == '-') name.remove_prefix(1);
    if (name.empty() || !find(name)) {
      throw flags::UsageError("unknown controller \"" + std::string(name) + "\" in --controllers (known controllers: " + names() +
                              "; use '*' for all default-on, 'name' to enable, '-name' to disable)");
    }
  }
  std::vector<const Plugin*> out;
  for (const auto& p : plugins_) {
    bool star = false;
    std::optional<bool> decided;
    for (const auto& item : flag) {
      if (item == "*") {
        star = true;
        continue;
      }
      bool negate = !item.empty() && item.front() == '-';
      if (find(negate ? std::string_view(item).substr(1) : std::string_view(item)) == &p) {
        decided = !negate;
        break;
      }
    }
    if (decided ? *decided : (star && p.default_on())) out.push_back(&p);
  }
  return out;
}

void Registry::add_flags(flags::FlagSet& fs) const {
  for (const auto& p : plugins_) p.add_flags(fs);
}

std::vector<std::string> Registry::apply_dev_defaults(flags::FlagSet& fs, const DevEnvironment& env) const {
  std::vector<std::string> lines;
  for (const auto& p : plugins_)
    for (auto& l : p.apply_dev_defaults(fs, env)) lines.push_back(std::move(l));
  return lines;
}

std::vector<json::Value> Registry::crds(const webhook::Endpoint& endpoint) const {
  std::vector<json::Value> out;
  for (const auto& p : plugins_)
    for (auto& c : p.crds(endpoint)) out.push_back(std::move(c));
  return out;
}

}  // namespace capstan::plugin
