#include "apiserver/auth/reviews.h"

#include "runtime/gofmt/gofmt.h"
#include "apiserver/schema/status.h"
#include "runtime/meta/selector.h"
#include "runtime/meta/time.h"

namespace capstan::apiserver::auth {
namespace {

using validation::Cause;
using validation::FieldPath;

constexpr std::string_view kAuthzGroup = "authorization.k8s.io";

// NewInvalid(authorizationapi.Kind(review.Kind), "", errs): the internal object has no kind, so
// the message starts `.authorization.k8s.io "" is invalid: `.
ApiError invalid_review(const std::vector<Cause>& causes) {
  json::Value st = schema::invalid_status("", kAuthzGroup, "", causes);
  ApiError e(422, "Invalid", std::string(json::get_string(st, {"message"})));
  if (const auto* d = json::get_object(st, {"details"})) e.details = *d;
  return e;
}

const json::Value* member(const json::Value& v, std::string_view key) {
  const auto* o = v.if_object();
  const auto* m = o ? o->if_contains(key) : nullptr;
  return m && !m->is_null() ? m : nullptr;
}

std::string str(const json::Value* v, std::string_view key) {
  if (!v) return {};
  const auto* m = member(*v, key);
  return m && m->is_string() ? std::string(m->get_string()) : std::string();
}

// How field.Invalid prints a *NonResourceAttributes (a struct without JSON tags).
std::string non_resource_value(const json::Value* nra) {
  if (!nra) return "null";
  return "{\"Path\":" + gofmt::json_marshal(json::Value(str(nra, "path"))) + ",\"Verb\":" + gofmt::json_marshal(json::Value(str(nra, "verb"))) + "}";
}

// ObjectMeta must be empty (but for managedFields, and the namespace of a local review).
bool metadata_empty(const json::Value& review, bool allow_namespace, json::Value& rest) {
  rest = json::Object{};
  const auto* md = member(review, "metadata");
  if (!md || !md->is_object()) return true;
  for (const auto& [k, v] : md->get_object()) {
    if (k == "managedFields" || v.is_null() || (allow_namespace && k == "namespace")) continue;
    if ((v.is_object() && v.get_object().empty()) || (v.is_array() && v.get_array().empty()) || (v.is_string() && v.get_string().empty()))
      continue;
    rest.as_object()[k] = v;
  }
  return rest.get_object().empty();
}

void validate_spec(const json::Value* spec, bool subject, std::vector<Cause>& causes) {
  const auto* ra = spec ? member(*spec, "resourceAttributes") : nullptr;
  const auto* nra = spec ? member(*spec, "nonResourceAttributes") : nullptr;
  if ((ra != nullptr) == (nra != nullptr))
    causes.push_back(validation::field_invalid_rendered(FieldPath("spec"), non_resource_value(nra),
                                                    "exactly one of nonResourceAttributes or resourceAttributes must be specified"));
  if (subject && str(spec, "user").empty() && (!spec || string_items(*spec, "groups").empty()))
    causes.push_back(validation::field_invalid(FieldPath("spec").child("user"), json::Value(str(spec, "user")),
                                           "at least one of user or group must be specified"));
  if (!ra) return;
  for (auto which : {"fieldSelector", "labelSelector"}) {
    const auto* sel = member(*ra, which);
    if (!sel) continue;
    FieldPath p = FieldPath("spec.resourceAttributes").child(which);
    std::string raw = str(sel, "rawSelector");
    const auto* reqs = member(*sel, "requirements");
    bool has_reqs = reqs && reqs->is_array() && !reqs->get_array().empty();
    if (!raw.empty() && has_reqs)
      causes.push_back(validation::field_invalid(p.child("rawSelector"), json::Value(raw), "may not specified at the same time as requirements"));
    if (raw.empty() && !has_reqs)
      causes.push_back(validation::field_required(p.child("requirements"), "when " + p.str() + " is specified, requirements or rawSelector is required"));
  }
}

Attributes attributes_of(const json::Value* spec, const rest::User& user) {
  Attributes a;
  a.user = &user;
  if (const auto* ra = spec ? member(*spec, "resourceAttributes") : nullptr) {
    a.resource_request = true;
    a.verb = str(ra, "verb");
    a.ns = str(ra, "namespace");
    a.api_group = str(ra, "group");
    a.api_version = str(ra, "version");
    if (a.api_version.empty()) a.api_version = "*";
    a.resource = str(ra, "resource");
    a.subresource = str(ra, "subresource");
    a.name = str(ra, "name");
  } else if (const auto* nra = spec ? member(*spec, "nonResourceAttributes") : nullptr) {
    a.path = str(nra, "path");
    a.verb = str(nra, "verb");
  }
  return a;
}

// BuildEvaluationError: what could not be used of the request's selectors.
std::string evaluation_error(const json::Value* spec) {
  const auto* ra = spec ? member(*spec, "resourceAttributes") : nullptr;
  if (!ra) return {};
  std::vector<std::string> errors;
  if (auto raw = str(member(*ra, "fieldSelector"), "rawSelector"); !raw.empty()) {
    try {
      meta::FieldSelector::parse(raw);
    } catch (const meta::SelectorError&) {
      errors.push_back("spec.resourceAttributes.fieldSelector ignored due to parse error");
    }
  }
  if (auto raw = str(member(*ra, "labelSelector"), "rawSelector"); !raw.empty()) {
    try {
      meta::LabelSelector::parse(raw);
    } catch (const meta::SelectorError&) {
      errors.push_back("spec.resourceAttributes.labelSelector ignored due to parse error");
    }
  }
  std::string out;
  for (const auto& e : errors) out += (out.empty() ? "" : "; ") + e;
  return out;
}

}  // namespace

rest::User service_account_user(const TokenClaims& c) {
  rest::User u{"system:serviceaccount:" + c.ns + ":" + c.service_account, c.uid,
               {"system:serviceaccounts", "system:serviceaccounts:" + c.ns, "system:authenticated"}, {}};
  if (!c.id.empty()) u.extra[std::string(kCredentialIdExtra)] = {"JTI=" + c.id};
  return u;
}

json::Value Reviews::answer(const registry::ResourceInfo& r, std::string_view ns, const json::Value& request, const rest::User& user) const {
  json::Value review = request.is_object() ? request : json::Value(json::Object{});
  if (r.kind == "SelfSubjectRulesReview") return rules_review(review, user);
  if (r.kind == "SelfSubjectReview") {
    return json::Object{{"metadata", json::Object{{"creationTimestamp", meta::format_rfc3339(meta::Clock::now())}}},
                        {"status", json::Object{{"userInfo", rest::user_info_json(user)}}}};
  }
  if (r.kind == "TokenReview") return token_review(std::move(review));
  return access_review(r, ns, std::move(review), user);
}

json::Value Reviews::access_review(const registry::ResourceInfo& r, std::string_view ns, json::Value review, const rest::User& user) const {
  bool local = r.kind == "LocalSubjectAccessReview";
  bool self = r.kind == "SelfSubjectAccessReview";
  if (local) {
    // The create handler's namespace defaulting and check.
    auto& md = json::ensure_object(review, {"metadata"});
    std::string_view body_ns = json::get_string(review, {"metadata", "namespace"});
    if (!body_ns.empty() && body_ns != ns)
      throw bad_request("the namespace of the provided object does not match the namespace sent on the request");
    md["namespace"] = ns;
  }
  const json::Value* spec = member(review, "spec");
  std::vector<Cause> causes;
  validate_spec(spec, !self, causes);
  json::Value rest_md;
  if (!metadata_empty(review, local, rest_md))
    causes.push_back(validation::field_invalid_rendered(FieldPath("metadata"), gofmt::json_marshal(rest_md),
                                                    local ? "must be empty except for namespace" : "must be empty"));
  if (local) {
    const auto* ra = spec ? member(*spec, "resourceAttributes") : nullptr;
    if (ra && str(ra, "namespace") != ns)
      causes.push_back(validation::field_invalid(FieldPath("spec.resourceAttributes.namespace"), json::Value(str(ra, "namespace")),
                                             "must match metadata.namespace"));
    if (const auto* nra = spec ? member(*spec, "nonResourceAttributes") : nullptr)
      causes.push_back(validation::field_invalid_rendered(FieldPath("spec.nonResourceAttributes"), non_resource_value(nra),
                                                      "disallowed on this kind of request"));
  }
  if (!causes.empty()) throw invalid_review(causes);

  rest::User subject;
  if (!self) {
    subject.name = str(spec, "user");
    subject.uid = str(spec, "uid");
    if (spec) subject.groups = string_items(*spec, "groups");
    if (const auto* extra = spec ? member(*spec, "extra") : nullptr; extra && extra->is_object())
      for (const auto& kv : extra->get_object()) subject.extra[std::string(kv.key())] = string_items(*extra, kv.key());
  }
  Attributes a = attributes_of(spec, self ? user : subject);
  Decision d = authorizer_.authorize(a);
  json::Object status{{"allowed", d.allowed}};
  if (!d.reason.empty()) status["reason"] = d.reason;
  if (auto err = evaluation_error(spec); !err.empty()) status["evaluationError"] = err;
  review.as_object()["status"] = std::move(status);
  return review;
}

json::Value Reviews::rules_review(const json::Value& request, const rest::User& user) const {
  std::string ns(json::get_string(request, {"spec", "namespace"}));
  if (ns.empty()) throw bad_request("no namespace on request");
  RuleSet rules = authorizer_.rules_for(user, ns);
  json::Object status{{"resourceRules", to_json(rules.resource_rules)},
                      {"nonResourceRules", to_json(rules.non_resource_rules)},
                      {"incomplete", rules.incomplete}};
  if (!rules.evaluation_error.empty()) status["evaluationError"] = rules.evaluation_error;
  return json::Object{{"metadata", json::Object{}}, {"spec", json::Object{}}, {"status", std::move(status)}};
}

json::Value Reviews::token_review(json::Value review) const {
  auto claims = tokens_.verify(json::get_string(review, {"spec", "token"}));
  auto& o = review.as_object();
  if (!claims) {
    o["status"] = json::Object{{"authenticated", false}, {"error", "invalid bearer token"}};
    return review;
  }
  json::Array aud;
  for (const auto& a : claims->audiences) aud.emplace_back(a);
  o["status"] = json::Object{{"authenticated", true}, {"user", rest::user_info_json(service_account_user(*claims))}, {"audiences", std::move(aud)}};
  return review;
}

}  // namespace capstan::apiserver::auth
