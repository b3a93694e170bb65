// The RBAC objects of the store (Roles, ClusterRoles, RoleBindings, ClusterRoleBindings), parsed
// once and kept current by store watches, with bindings indexed by subject so that resolving a
// user's rules costs a few hash lookups rather than a scan. Reads take a shared lock; the store's
// watch callbacks update under an exclusive one (inside the write, so a request after a write to an
// RBAC object sees it).
//
// Rules are visited as kube's DefaultRuleResolver visits them: the ClusterRoleBindings that apply
// to the user, then (for a namespace) the RoleBindings there; each binding's role's rules in order.
// kube lists bindings in informer (map) order; here they come in name order.
#pragma once

#include "apiserver/auth/policy_rule.h"
#include "apiserver/rest/user.h"
#include "apiserver/storage/store.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace capstan::apiserver::auth {

inline constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";

struct RoleRef {
  std::string api_group;
  std::string kind;  // Role | ClusterRole
  std::string name;
};

struct Subject {
  std::string kind;  // User | Group | ServiceAccount
  std::string api_group;
  std::string name;
  std::string ns;
};

struct Binding {
  std::string name;
  std::string ns;  // empty: a ClusterRoleBinding
  RoleRef role_ref;
  std::vector<Subject> subjects;
};

RoleRef parse_role_ref(const json::Value& binding);
Binding parse_binding(const json::Value& binding);
// Whether `s` (a subject of a binding in namespace `binding_ns`) is `u` (rbac appliesToUser).
bool subject_applies(const Subject& s, const rest::User& u, std::string_view binding_ns);

// Why a role reference grants nothing.
struct RoleRefError {
  bool unsupported_kind = false;  // otherwise: the role does not exist
  std::string kind;
  std::string name;
  // As the authorizer's listers word it: `clusterrole.rbac.authorization.k8s.io "x" not found`.
  std::string lister_message() const;
  // As the RBAC storage's registry getters word it, named after the resource being written:
  // `rolebindings.rbac.authorization.k8s.io "x" not found`.
  std::string registry_message(std::string_view written_resource) const;
};

// Why `ref` resolves to nothing (assuming it does): an unsupported kind or a missing role.
RoleRefError ref_error(const RoleRef& ref);

// The binding (and its first subject matching the user) a rule came through.
struct RuleSource {
  const Binding* binding = nullptr;
  const Subject* subject = nullptr;
  // `ClusterRoleBinding "b" of ClusterRole "r" to Group "g"`, `RoleBinding "b/ns" of Role "r" to
  // ServiceAccount "sa/ns"`.
  std::string describe() const;
};

class RbacIndex {
 public:
  explicit RbacIndex(storage::Store& store);
  ~RbacIndex();
  RbacIndex(const RbacIndex&) = delete;
  RbacIndex& operator=(const RbacIndex&) = delete;

  // Called with each rule that applies to `u` in `ns` ("" = cluster-wide only), or with an error
  // for a binding whose role cannot be resolved; returning false stops. Runs under the index's
  // read lock: the visitor must not call back into the index.
  using Visitor = std::function<bool(const RuleSource* source, const PolicyRule* rule, const RoleRefError* error)>;
  void visit_rules_for(const rest::User& u, std::string_view ns, const Visitor& visit) const;

  // The rules of a binding's roleRef (a Role in `ns`, or a ClusterRole).
  std::vector<PolicyRule> role_ref_rules(const RoleRef& ref, std::string_view ns, std::optional<RoleRefError>* error) const;

 private:
  // Hash maps looked up by string_view (no key is built on the request path).
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <class V>
  using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;
  using Rules = std::vector<PolicyRule>;

  struct BindingSet {
    std::map<std::string, Binding> by_name;
    StringMap<std::vector<const Binding*>> by_user;   // User subjects, and ServiceAccounts by username
    StringMap<std::vector<const Binding*>> by_group;  // Group subjects
    void put(Binding b);
    void erase(const std::string& name);
    // The bindings naming `u` or one of its groups, in name order.
    std::vector<const Binding*> candidates(const rest::User& u) const;
  };
  class Sink;
  void on_event(int kind, const storage::Event& e);
  // The rules of `ref` for a binding in `ns`; null when the role does not exist (see ref_error).
  const Rules* resolve(const RoleRef& ref, std::string_view ns) const;
  bool visit_set(const BindingSet& set, const rest::User& u, std::string_view ns, const Visitor& visit) const;

  storage::Store& store_;
  std::vector<std::uint64_t> watches_;
  mutable std::shared_mutex mu_;
  StringMap<Rules> cluster_roles_;         // by name
  StringMap<StringMap<Rules>> roles_;      // by namespace, then name
  BindingSet cluster_bindings_;
  StringMap<BindingSet> role_bindings_;    // by namespace
};

}  // namespace capstan::apiserver::auth
