#include "runtime/plugin/plugin.h"

#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/plugin/dry_run.h"
#include "runtime/plugin/storage_migration.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace capstan::plugin {
namespace {

std::vector<std::string> strings(std::initializer_list<std::string_view> items) { return {items.begin(), items.end()}; }

// kubectl's order for the usual verbs, then the rest (approve, impersonate...) by name.
int verb_rank(const std::string& verb) {
  static const std::vector<std::string> order = {"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"};
  auto it = std::find(order.begin(), order.end(), verb);
  return it == order.end() ? static_cast<int>(order.size()) : static_cast<int>(it - order.begin());
}

struct VerbOrder {
  bool operator()(const std::string& a, const std::string& b) const {
    return std::make_tuple(verb_rank(a), a) < std::make_tuple(verb_rank(b), b);
  }
};

std::size_t versions_of(const json::Value& crd) {
  const auto* v = json::get_array(crd, {"spec", "versions"});
  return v ? v->size() : 0;
}

json::Array to_array(const std::vector<std::string>& items) {
  json::Array out;
  for (const auto& s : items) out.emplace_back(s);
  return out;
}

}  // namespace

Plugin::Plugin(std::string name) : name_(std::move(name)) {}

Plugin& Plugin::alias(std::string name) {
  aliases_.push_back(std::move(name));
  return *this;
}

Plugin& Plugin::off_by_default() {
  default_on_ = false;
  return *this;
}

Plugin& Plugin::describe(std::string text) {
  description_ = std::move(text);
  return *this;
}

Plugin& Plugin::flags(std::function<void(flags::FlagSet&)> add) {
  flags_.push_back(std::move(add));
  return *this;
}

Plugin& Plugin::crds(std::function<std::vector<json::Value>()> crds) {
  crds_ = std::move(crds);
  return *this;
}

Plugin& Plugin::permits(std::initializer_list<std::string_view> groups, std::initializer_list<std::string_view> resources,
                        std::initializer_list<std::string_view> verbs) {
  permits_.push_back(Permit{strings(groups), strings(resources), strings(verbs)});
  return *this;
}

Plugin& Plugin::webhooks(Webhooks hooks) {
  webhooks_.push_back(std::move(hooks));
  return *this;
}

Plugin& Plugin::setup(std::function<void(Wiring&)> wire) {
  setup_ = std::move(wire);
  return *this;
}

Plugin& Plugin::dev_defaults(std::function<std::vector<std::string>(flags::FlagSet&, const DevEnvironment&)> set) {
  dev_defaults_ = std::move(set);
  return *this;
}

void Plugin::add_flags(flags::FlagSet& fs) const {
  for (const auto& add : flags_) add(fs);
}

std::vector<std::string> Plugin::apply_dev_defaults(flags::FlagSet& fs, const DevEnvironment& env) const {
  return dev_defaults_ ? dev_defaults_(fs, env) : std::vector<std::string>{};
}

std::vector<json::Value> Plugin::crds(const webhook::Endpoint& endpoint) const {
  std::vector<json::Value> out = crds_ ? crds_() : std::vector<json::Value>{};
  for (auto& crd : out)
    for (const auto& hooks : webhooks_)
      for (const auto& c : hooks.conversions)
        if (json::get_string(crd, {"metadata", "name"}) == c.crd) webhook::set_conversion_webhook(crd, c.path, endpoint);
  return out;
}

std::vector<json::Value> Plugin::webhook_configurations(const webhook::Endpoint& endpoint) const {
  std::vector<json::Value> out;
  for (const auto& w : webhooks_)
    if (w.configurations)
      for (auto& c : w.configurations(endpoint)) out.push_back(std::move(c));
  return out;
}

void Plugin::wire(Wiring& w) const {
  if (setup_) setup_(w);
  for (const auto& hooks : webhooks_)
    if (hooks.serve) hooks.serve(w);
  std::vector<std::string> migrated;
  for (const auto& crd : crds_ ? crds_() : std::vector<json::Value>{})
    if (versions_of(crd) > 1) migrated.emplace_back(json::get_string(crd, {"metadata", "name"}));
  if (!migrated.empty()) add_storage_migration(w.manager, name_ + "-storage-migration", std::move(migrated));
}

std::vector<InformerUse> Plugin::informers() const {
  DryRun dry;
  wire(dry.wiring());
  std::vector<InformerUse> out;
  for (const auto* inf : dry.manager().informers().informers()) out.push_back({inf->options().gvr, inf->options().label_selector});
  std::sort(out.begin(), out.end(), [](const InformerUse& a, const InformerUse& b) {
    return std::tie(a.gvr.group, a.gvr.resource, a.label_selector) < std::tie(b.gvr.group, b.gvr.resource, b.label_selector);
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

json::Array Plugin::rbac_rules() const {
  // group -> resource -> verbs
  std::map<std::string, std::map<std::string, std::set<std::string, VerbOrder>>> grants;
  for (const auto& use : informers())
    for (const char* verb : {"get", "list", "watch"}) grants[use.gvr.group][use.gvr.resource].insert(verb);
  for (const auto& p : permits_)
    for (const auto& g : p.groups)
      for (const auto& r : p.resources)
        for (const auto& v : p.verbs) grants[g][r].insert(v);
  json::Array rules;
  json::Array migrated;  // CRDs served at several versions, by name
  for (const auto& crd : crds_ ? crds_() : std::vector<json::Value>{}) {
    if (versions_of(crd) < 2) continue;
    migrated.emplace_back(json::get_string(crd, {"metadata", "name"}));
    grants[std::string(json::get_string(crd, {"spec", "group"}))][std::string(json::get_string(crd, {"spec", "names", "plural"}))].insert(
        {"list", "update"});
  }
  for (const auto& [group, resources] : grants) {
    // Resources with the same verbs share a rule, in the order of their first resource.
    std::map<std::vector<std::string>, std::vector<std::string>> by_verbs;
    std::vector<std::vector<std::string>> order;
    for (const auto& [resource, verbs] : resources) {
      std::vector<std::string> key(verbs.begin(), verbs.end());
      auto& list = by_verbs[key];
      if (list.empty()) order.push_back(key);
      list.push_back(resource);
    }
    for (const auto& verbs : order)
      rules.emplace_back(json::Object{
          {"apiGroups", json::Array{json::Value(group)}}, {"resources", to_array(by_verbs[verbs])}, {"verbs", to_array(verbs)}});
  }
  if (!migrated.empty())
    for (auto [resource, verbs] : {std::pair{"customresourcedefinitions", json::Array{"get", "patch"}},
                                   std::pair{"customresourcedefinitions/status", json::Array{"patch"}}})
      rules.emplace_back(json::Object{{"apiGroups", json::Array{"apiextensions.k8s.io"}},
                                      {"resources", json::Array{resource}},
                                      {"verbs", std::move(verbs)},
                                      {"resourceNames", migrated}});
  return rules;
}

json::Object rbac_rule(std::initializer_list<std::string_view> groups, std::initializer_list<std::string_view> resources,
                       std::initializer_list<std::string_view> verbs) {
  return json::Object{{"apiGroups", to_array(strings(groups))}, {"resources", to_array(strings(resources))}, {"verbs", to_array(strings(verbs))}};
}

}  // namespace capstan::plugin
