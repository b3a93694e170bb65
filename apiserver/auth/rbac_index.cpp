#include "apiserver/auth/rbac_index.h"

#include "runtime/gofmt/gofmt.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <mutex>

namespace capstan::apiserver::auth {
namespace {

enum Kind { kRoles, kClusterRoles, kRoleBindings, kClusterRoleBindings };
const char* const kResources[] = {"roles.rbac.authorization.k8s.io", "clusterroles.rbac.authorization.k8s.io",
                                  "rolebindings.rbac.authorization.k8s.io", "clusterrolebindings.rbac.authorization.k8s.io"};

constexpr std::string_view kServiceAccountPrefix = "system:serviceaccount:";

std::string str(const json::Value& v, std::string_view key) {
  const auto* o = v.if_object();
  if (!o) return {};
  const auto* s = o->if_contains(key);
  return s && s->is_string() ? std::string(s->get_string()) : std::string();
}

// Where a subject of a binding in `binding_ns` is indexed: under a user name (Users, and
// ServiceAccounts by their username) or a group name; nothing for subjects that never apply.
std::optional<std::pair<bool, std::string>> subject_key(const Subject& s, std::string_view binding_ns) {
  if (s.kind == "User") return std::make_pair(false, s.name);
  if (s.kind == "Group") return std::make_pair(true, s.name);
  if (s.kind == "ServiceAccount") {
    std::string_view ns = s.ns.empty() ? binding_ns : std::string_view(s.ns);
    if (ns.empty()) return std::nullopt;
    return std::make_pair(false, std::string(kServiceAccountPrefix) + std::string(ns) + ":" + s.name);
  }
  return std::nullopt;
}

std::string describe_subject(const Subject& s, std::string_view binding_ns) {
  if (s.kind == "ServiceAccount") return s.kind + " " + gofmt::quote(s.name + "/" + (s.ns.empty() ? std::string(binding_ns) : s.ns));
  return s.kind + " " + gofmt::quote(s.name);
}

}  // namespace

RoleRef parse_role_ref(const json::Value& binding) {
  RoleRef r;
  const auto* o = binding.if_object();
  const auto* ref = o ? o->if_contains("roleRef") : nullptr;
  if (!ref) return r;
  r.api_group = str(*ref, "apiGroup");
  r.kind = str(*ref, "kind");
  r.name = str(*ref, "name");
  return r;
}

Binding parse_binding(const json::Value& v) {
  Binding b;
  b.name = meta::name_of(v);
  b.ns = meta::namespace_of(v);
  b.role_ref = parse_role_ref(v);
  const auto* o = v.if_object();
  const auto* subjects = o ? o->if_contains("subjects") : nullptr;
  if (subjects && subjects->is_array()) {
    for (const auto& s : subjects->get_array())
      b.subjects.push_back(Subject{str(s, "kind"), str(s, "apiGroup"), str(s, "name"), str(s, "namespace")});
  }
  return b;
}

bool subject_applies(const Subject& s, const rest::User& u, std::string_view binding_ns) {
  if (s.kind == "User") return u.name == s.name;
  if (s.kind == "Group") return u.in_group(s.name);
  if (s.kind == "ServiceAccount") {
    std::string_view ns = s.ns.empty() ? binding_ns : std::string_view(s.ns);
    if (ns.empty()) return false;
    std::string_view n = u.name;
    return n.size() == kServiceAccountPrefix.size() + ns.size() + 1 + s.name.size() && n.substr(0, kServiceAccountPrefix.size()) == kServiceAccountPrefix &&
           n.substr(kServiceAccountPrefix.size(), ns.size()) == ns && n[kServiceAccountPrefix.size() + ns.size()] == ':' &&
           n.substr(kServiceAccountPrefix.size() + ns.size() + 1) == s.name;
  }
  return false;
}

RoleRefError ref_error(const RoleRef& ref) {
  return RoleRefError{ref.kind != "Role" && ref.kind != "ClusterRole", ref.kind, ref.name};
}

std::string RoleRefError::lister_message() const {
  if (unsupported_kind) return "unsupported role reference kind: " + gofmt::quote(kind);
  std::string resource = kind == "Role" ? "role" : "clusterrole";
  return resource + "." + std::string(kRbacGroup) + " " + gofmt::quote(name) + " not found";
}

std::string RoleRefError::registry_message(std::string_view written_resource) const {
  if (unsupported_kind) return lister_message();
  return std::string(written_resource) + "." + std::string(kRbacGroup) + " " + gofmt::quote(name) + " not found";
}

std::string RuleSource::describe() const {
  const Binding& b = *binding;
  std::string head = b.ns.empty() ? "ClusterRoleBinding " + gofmt::quote(b.name) : "RoleBinding " + gofmt::quote(b.name + "/" + b.ns);
  return head + " of " + b.role_ref.kind + " " + gofmt::quote(b.role_ref.name) + " to " + describe_subject(*subject, b.ns);
}

// --- the subject index ---------------------------------------------------------------------------------

void RbacIndex::BindingSet::put(Binding b) {
  erase(b.name);
  auto [it, inserted] = by_name.emplace(b.name, std::move(b));
  const Binding* p = &it->second;
  std::vector<std::pair<bool, std::string>> keys;
  for (const auto& s : p->subjects)
    if (auto k = subject_key(s, p->ns)) keys.push_back(std::move(*k));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (auto& [group, name] : keys) (group ? by_group : by_user)[std::move(name)].push_back(p);
}

void RbacIndex::BindingSet::erase(const std::string& name) {
  auto it = by_name.find(name);
  if (it == by_name.end()) return;
  const Binding* p = &it->second;
  for (const auto& s : p->subjects) {
    auto k = subject_key(s, p->ns);
    if (!k) continue;
    auto& index = k->first ? by_group : by_user;
    auto v = index.find(k->second);
    if (v == index.end()) continue;
    v->second.erase(std::remove(v->second.begin(), v->second.end(), p), v->second.end());
    if (v->second.empty()) index.erase(v);
  }
  by_name.erase(it);
}

std::vector<const Binding*> RbacIndex::BindingSet::candidates(const rest::User& u) const {
  std::vector<const Binding*> out;
  auto add = [&](const StringMap<std::vector<const Binding*>>& index, std::string_view key) {
    auto it = index.find(key);
    if (it != index.end()) out.insert(out.end(), it->second.begin(), it->second.end());
  };
  add(by_user, u.name);
  for (const auto& g : u.groups) add(by_group, g);
  if (out.size() > 1) {
    std::sort(out.begin(), out.end(), [](const Binding* a, const Binding* b) { return a->name < b->name; });
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;
}

// --- watching the store ----------------------------------------------------------------------------------

class RbacIndex::Sink : public storage::Watcher {
 public:
  Sink(RbacIndex& index, int kind) : index_(index), kind_(kind) {}
  void on_event(const storage::Event& e) override { index_.on_event(kind_, e); }

 private:
  RbacIndex& index_;
  int kind_;
};

RbacIndex::RbacIndex(storage::Store& store) : store_(store) {
  for (int k = kRoles; k <= kClusterRoleBindings; ++k) watches_.push_back(store_.watch(kResources[k], -1, std::make_shared<Sink>(*this, k), true));
}

RbacIndex::~RbacIndex() {
  for (auto id : watches_) store_.unwatch(id);
}

void RbacIndex::on_event(int kind, const storage::Event& e) {
  if (!e.object.value) return;
  const json::Value& v = *e.object.value;
  std::string name(meta::name_of(v));
  std::string ns(meta::namespace_of(v));
  bool gone = e.type == storage::EventType::Deleted;
  std::unique_lock<std::shared_mutex> l(mu_);
  switch (kind) {
    case kClusterRoles:
      if (gone) cluster_roles_.erase(name);
      else cluster_roles_[name] = parse_policy_rules(json::find(v, {"rules"}));
      break;
    case kRoles: {
      auto& in_ns = roles_[ns];
      if (gone) in_ns.erase(name);
      else in_ns[name] = parse_policy_rules(json::find(v, {"rules"}));
      if (in_ns.empty()) roles_.erase(ns);
      break;
    }
    case kClusterRoleBindings:
      if (gone) cluster_bindings_.erase(name);
      else cluster_bindings_.put(parse_binding(v));
      break;
    case kRoleBindings: {
      auto& set = role_bindings_[ns];
      if (gone) set.erase(name);
      else set.put(parse_binding(v));
      if (set.by_name.empty()) role_bindings_.erase(ns);
      break;
    }
  }
}

// --- resolving -------------------------------------------------------------------------------------------

const RbacIndex::Rules* RbacIndex::resolve(const RoleRef& ref, std::string_view ns) const {
  if (ref.kind == "ClusterRole") {
    auto it = cluster_roles_.find(ref.name);
    return it == cluster_roles_.end() ? nullptr : &it->second;
  }
  if (ref.kind == "Role") {
    auto in_ns = roles_.find(ns);
    if (in_ns == roles_.end()) return nullptr;
    auto it = in_ns->second.find(ref.name);
    return it == in_ns->second.end() ? nullptr : &it->second;
  }
  return nullptr;
}

bool RbacIndex::visit_set(const BindingSet& set, const rest::User& u, std::string_view ns, const Visitor& visit) const {
  for (const Binding* b : set.candidates(u)) {
    const Subject* subject = nullptr;
    for (const auto& s : b->subjects)
      if (subject_applies(s, u, ns)) {
        subject = &s;
        break;
      }
    if (!subject) continue;
    const auto* rules = resolve(b->role_ref, ns);
    if (!rules) {
      RoleRefError error = ref_error(b->role_ref);
      if (!visit(nullptr, nullptr, &error)) return false;
      continue;
    }
    RuleSource source{b, subject};
    for (const auto& r : *rules)
      if (!visit(&source, &r, nullptr)) return false;
  }
  return true;
}

void RbacIndex::visit_rules_for(const rest::User& u, std::string_view ns, const Visitor& visit) const {
  std::shared_lock<std::shared_mutex> l(mu_);
  if (!visit_set(cluster_bindings_, u, "", visit)) return;
  if (ns.empty()) return;
  auto it = role_bindings_.find(ns);
  if (it != role_bindings_.end()) visit_set(it->second, u, ns, visit);
}

std::vector<PolicyRule> RbacIndex::role_ref_rules(const RoleRef& ref, std::string_view ns, std::optional<RoleRefError>* error) const {
  std::shared_lock<std::shared_mutex> l(mu_);
  if (const auto* rules = resolve(ref, ns)) return *rules;
  if (error) *error = ref_error(ref);
  return {};
}

}  // namespace capstan::apiserver::auth
