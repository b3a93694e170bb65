#include "manager/registry.h"

#include "controllers/certificates/descriptor.h"
#include "controllers/gitops/descriptor.h"
#include "controllers/kafka/descriptor.h"
#include "controllers/monitoring/descriptor.h"
#include "manager/flags.h"
#include "manager/webhooks.h"
#include "runtime/cache/factory.h"

#include <algorithm>
#include <set>

namespace capstan::manager {

const std::vector<ControllerDescriptor>& all_controllers() {
  static const std::vector<ControllerDescriptor> all = [] {
    std::vector<ControllerDescriptor> v;
    // Controllers register here as they are built (controllers/<name>/descriptor.h).
    v.push_back(certificates::certificates_descriptor());
    v.push_back(monitoring::monitoring_descriptor());
    v.push_back(kafka::kafka_descriptor());
    v.push_back(gitops::gitops_descriptor());
    for (auto& d : v) attach_webhooks(d);
    return v;
  }();
  return all;
}

namespace {

std::string known_names() {
  std::string out;
  for (const auto& d : all_controllers()) {
    if (!out.empty()) out += ", ";
    out += d.name;
  }
  return out.empty() ? "(none in this build)" : out;
}

const ControllerDescriptor* find(std::string_view name) {
  for (const auto& d : all_controllers()) {
    if (d.name == name) return &d;
    if (std::find(d.aliases.begin(), d.aliases.end(), name) != d.aliases.end()) return &d;
  }
  return nullptr;
}

}  // namespace

std::vector<const ControllerDescriptor*> enabled_controllers(const std::vector<std::string>& flag) {
  for (const auto& item : flag) {
    if (item == "*") continue;
    std::string_view name = item;
    if (!name.empty() && name.front() == '-') name.remove_prefix(1);
    if (name.empty() || !find(name)) {
      throw UsageError("unknown controller \"" + std::string(name) + "\" in --controllers (known controllers: " + known_names() +
                       "; use '*' for all default-on, 'name' to enable, '-name' to disable)");
    }
  }
  std::vector<const ControllerDescriptor*> out;
  for (const auto& d : all_controllers()) {
    bool star = false;
    std::optional<bool> decided;
    for (const auto& item : flag) {
      if (item == "*") {
        star = true;
        continue;
      }
      bool negate = !item.empty() && item.front() == '-';
      const auto* target = find(negate ? std::string_view(item).substr(1) : std::string_view(item));
      if (target == &d) {
        decided = !negate;
        break;
      }
    }
    bool on = decided ? *decided : (star && d.default_on);
    if (on) out.push_back(&d);
  }
  return out;
}

namespace {

std::string informer_name(const meta::GroupVersionResource& gvr, std::string_view label_selector) {
  std::string out = gvr.group.empty() ? gvr.resource : gvr.resource + "." + gvr.group;
  if (!label_selector.empty()) out += "?labelSelector=" + std::string(label_selector);
  return out;
}

}  // namespace

void create_informers(cache::InformerFactory& factory, const std::vector<const ControllerDescriptor*>& controllers) {
  for (const auto* d : controllers) {
    if (!d->informers) continue;
    for (const auto& need : d->informers()) {
      cache::InformerOptions o;
      o.gvr = need.type.gvr;
      o.label_selector = need.label_selector;
      factory.informer(std::move(o), need.type.namespaced);
    }
  }
}

std::vector<std::string> undeclared_informers(const cache::InformerFactory& factory,
                                              const std::vector<const ControllerDescriptor*>& controllers) {
  std::set<std::string> declared;
  for (const auto* d : controllers)
    if (d->informers)
      for (const auto& need : d->informers()) declared.insert(informer_name(need.type.gvr, need.label_selector));
  std::vector<std::string> out;
  for (const auto* inf : factory.informers()) {
    auto name = informer_name(inf->options().gvr, inf->options().label_selector);
    if (!declared.count(name)) out.push_back(name);
  }
  return out;
}

std::vector<json::Value> all_crds() {
  std::vector<json::Value> out;
  for (const auto& d : all_controllers())
    if (d.crds)
      for (auto& c : d.crds()) out.push_back(std::move(c));
  return out;
}

}  // namespace capstan::manager
