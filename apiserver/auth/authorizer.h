// The authorizer the API server consults (--authorization-mode): for each request, and for the
// access reviews that ask it questions on someone's behalf.
#pragma once

#include "apiserver/auth/attributes.h"
#include "apiserver/auth/policy_rule.h"

#include <memory>
#include <string>
#include <vector>

namespace capstan::apiserver::auth {

// What a user may do in a namespace (authorizer.RuleResolver), as SelfSubjectRulesReview reports it.
struct RuleSet {
  std::vector<PolicyRule> resource_rules;      // rules with resources
  std::vector<PolicyRule> non_resource_rules;  // rules with nonResourceURLs
  bool incomplete = false;
  std::string evaluation_error;
};

class Authorizer {
 public:
  virtual ~Authorizer() = default;
  Decision authorize(const Attributes& a) const { return decide(a, true); }
  // The same, without working out why a request is allowed (the request path only needs the
  // reason of a refusal).
  Decision check(const Attributes& a) const { return decide(a, false); }
  virtual RuleSet rules_for(const rest::User& u, std::string_view ns) const = 0;
  // Whether every request of `u` is allowed whatever it asks (lets the request path skip working
  // out the attributes).
  virtual bool allows_everything(const rest::User& u) const = 0;

 protected:
  virtual Decision decide(const Attributes& a, bool explain_allowed) const = 0;
};

// --authorization-mode=AlwaysAllow: everything is allowed, and every user holds `*` on `*`.
class AlwaysAllow : public Authorizer {
 public:
  RuleSet rules_for(const rest::User&, std::string_view) const override;
  bool allows_everything(const rest::User&) const override { return true; }

 protected:
  Decision decide(const Attributes&, bool) const override { return {true, ""}; }
};

}  // namespace capstan::apiserver::auth
