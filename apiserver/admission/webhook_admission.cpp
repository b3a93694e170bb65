#include "apiserver/admission/webhook_admission.h"

#include "apiserver/admission/admission_review.h"
#include "apiserver/admission/errors.h"
#include "apiserver/admission/matcher.h"
#include "apiserver/rest/service.h"
#include "runtime/json/patch.h"
#include "runtime/log/log.h"

#include <future>

namespace capstan::apiserver::admission {
namespace {

bool is_namespace(const registry::ResourceInfo& r) { return r.group.empty() && r.resource == "namespaces"; }

RuleTarget target_of(const rest::AdmissionAttributes& a, const std::string& ns) {
  RuleTarget t;
  t.group = a.resource->group;
  t.version = a.version;
  t.resource = a.resource->resource;
  t.subresource = a.subresource;
  t.operation = a.operation;
  t.ns = ns;
  return t;
}

std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.append(1, '"').append(s).append(1, '"');
  return out;
}

}  // namespace

std::string request_namespace(const rest::AdmissionAttributes& a) {
  if (a.resource && is_namespace(*a.resource)) return a.operation == "CREATE" ? std::string() : a.name;
  return a.ns;
}

WebhookAdmission::WebhookAdmission(storage::Store& store, registry::Registry& registry)
    : store_(store), registry_(registry), configs_(store), client_(store) {}

WebhookAdmission::~WebhookAdmission() = default;

void WebhookAdmission::note_match_conditions(const Webhook& hook) {
  std::lock_guard<std::mutex> l(mu_);
  if (match_conditions_logged_.insert(hook.configuration + "/" + hook.name).second) {
    log::warn("admission webhook matchConditions are not evaluated (no CEL); treating them as matching",
              {{"configuration", hook.configuration}, {"webhook", hook.name}, {"matchConditions", hook.match_conditions}});
  }
}

bool WebhookAdmission::namespace_selector_matches(const Webhook& hook, const rest::AdmissionAttributes& a,
                                                  const json::Value* obj, std::optional<ApiError>& error) {
  const auto& r = *a.resource;
  std::string ns = request_namespace(a);
  // Cluster-scoped objects other than Namespaces are never exempted by a namespaceSelector.
  if (ns.empty() && !is_namespace(r)) return true;
  if (!hook.namespace_selector.error.empty()) {
    error = internal_error(hook.namespace_selector.error);
    return false;
  }
  const auto& sel = hook.namespace_selector.selector;
  if (sel.empty()) return true;
  // A Namespace being created or updated is matched on its new labels.
  if (is_namespace(r) && a.subresource.empty() && (a.operation == "CREATE" || a.operation == "UPDATE")) {
    return obj && sel.matches(*obj);
  }
  if (ns.empty()) ns = a.name;
  auto nsobj = store_.get("namespaces", "", ns);
  if (!nsobj) {
    error = namespace_not_found(ns);
    return false;
  }
  return sel.matches(*nsobj.value);
}

std::optional<WebhookAdmission::Invocation> WebhookAdmission::should_call(const Webhook& hook,
                                                                         const rest::AdmissionAttributes& a,
                                                                         const json::Value* obj) {
  std::optional<ApiError> ns_error;
  bool ns_match = namespace_selector_matches(hook, a, obj, ns_error);
  if (!ns_match && !ns_error) return std::nullopt;

  std::optional<ApiError> obj_error;
  bool obj_match = false;
  if (!hook.object_selector.error.empty()) obj_error = internal_error(hook.object_selector.error);
  else obj_match = object_selector_matches(hook.object_selector.selector, obj, a.old_object);
  if (!obj_match && !obj_error) return std::nullopt;

  auto version = match_version(hook, *a.resource, target_of(a, request_namespace(a)));
  if (!version) return std::nullopt;
  // Selector errors only matter for webhooks whose rules match.
  if (ns_error) throw *ns_error;
  if (obj_error) throw *obj_error;
  if (hook.match_conditions > 0) note_match_conditions(hook);
  return Invocation{&hook, *version};
}

json::Value WebhookAdmission::in_version(const registry::ResourceInfo& r, const json::Value& obj, std::string_view version) {
  json::Value copy = obj;
  std::string want = r.api_version(version);
  if (json::get_string(copy, {"apiVersion"}) == want) return copy;
  if (converter_) {
    std::vector<json::Value*> objs{&copy};
    converter_->convert(r, objs, version);
  } else if (copy.is_object()) {
    copy.as_object()["apiVersion"] = want;
  }
  return copy;
}

WebhookAdmission::Outcome WebhookAdmission::call(const Invocation& inv, const rest::AdmissionAttributes& a,
                                                 const json::Value* obj, const json::Value* old, bool mutating) {
  const Webhook& hook = *inv.hook;
  const auto& r = *a.resource;
  Outcome out;
  if (a.dry_run) {
    if (!hook.side_effects) {
      out.failure = CallFailure{"Webhook SideEffects is nil"};
      return out;
    }
    if (*hook.side_effects != "None" && *hook.side_effects != "NoneOnDryRun") {
      out.error = dry_run_unsupported(hook.name);
      return out;
    }
  }
  auto review_version = pick_review_version(hook.admission_review_versions);
  if (!review_version) {
    std::string why = "webhook does not accept known AdmissionReview versions (v1, v1beta1)";
    out.failure = CallFailure{mutating ? "could not create admission objects: " + why : why};
    return out;
  }

  // The objects in the version the webhook asked for (matchPolicy Equivalent).
  bool converted = inv.version != a.version;
  std::optional<json::Value> vobj, vold;
  if (obj) vobj = converted ? in_version(r, *obj, inv.version) : *obj;
  if (old) vold = converted ? in_version(r, *old, inv.version) : *old;

  ReviewRequest req;
  req.uid = rest::new_uid();
  req.kind = {r.group, inv.version, r.kind};
  req.resource = {r.group, inv.version, r.resource};
  req.sub_resource = a.subresource;
  req.request_kind = {r.group, a.version, r.kind};
  req.request_resource = {r.group, a.version, r.resource};
  req.request_sub_resource = a.subresource;
  req.name = a.name;
  req.ns = request_namespace(a);
  req.operation = a.operation;
  req.user = a.user;
  req.object = vobj ? &*vobj : nullptr;
  req.old_object = vold ? &*vold : nullptr;
  req.dry_run = a.dry_run;
  // The options as the client sent them: a dry-run request's options say so.
  json::Value options = a.options;
  if (a.dry_run && options.is_object() && !options.as_object().contains("dryRun")) options.as_object()["dryRun"] = json::Array{"All"};
  req.options = &options;
  std::string body = json::serialize(build_admission_review(*review_version, req));

  std::string answer;
  try {
    answer = client_.post(hook.client, body, std::chrono::seconds(hook.timeout_seconds));
  } catch (const CallError& e) {
    out.failure = CallFailure{(e.kind == CallError::Kind::Config ? "could not get REST client: " : "failed to call webhook: ") +
                              std::string(e.what())};
    return out;
  }
  ReviewResponse resp;
  try {
    resp = parse_admission_response(answer, *review_version, req.uid, mutating);
  } catch (const ReviewDecodeError& e) {
    out.failure = CallFailure{"failed to call webhook: " + std::string(e.what())};
    return out;
  } catch (const ReviewInvalidError& e) {
    out.failure = CallFailure{"received invalid webhook response: " + std::string(e.what())};
    return out;
  }
  out.warnings = std::move(resp.warnings);
  if (!resp.allowed) {
    out.error = denial_error(hook.name, resp.status);
    return out;
  }
  if (!mutating || resp.patch.empty()) return out;

  std::string perr;
  auto patch = json::try_parse(resp.patch, &perr);
  if (!patch || !patch->is_array()) {
    std::string why = patch ? "json: cannot unmarshal object into Go value of type jsonpatch.Patch" : perr;
    out.failure = CallFailure{"received undecodable patch in webhook response: " + why};
    return out;
  }
  if (patch->as_array().empty()) return out;
  if (!vobj) {
    out.error = internal_error("admission webhook " + quoted(hook.name) +
                               " attempted to modify the object, which is not supported for this operation");
    return out;
  }
  if (resp.patch_type != "JSONPatch") {
    out.failure = CallFailure{"unsupported patch type " + quoted(resp.patch_type)};
    return out;
  }
  json::Value patched;
  try {
    patched = json::apply_json_patch(*vobj, *patch);
  } catch (const json::PatchError& e) {
    out.error = internal_error(e.what());
    return out;
  }
  out.changed = !json::deep_equal(*vobj, patched);
  if (out.changed) out.patched = converted ? in_version(r, patched, a.version) : std::move(patched);
  return out;
}

void WebhookAdmission::mutate(const rest::AdmissionAttributes& a, json::Value* obj, std::vector<std::string>& warnings) {
  if (!a.resource || is_exempt(a.resource->group, a.resource->kind)) return;
  WebhookList hooks = configs_.mutating();
  if (hooks->empty()) return;

  // reinvocationPolicy IfNeeded: a webhook already called is called once more when the object
  // changed after it ran.
  std::set<const Webhook*> previously_invoked, reinvoke;
  auto run = [&](const Webhook& hook, int round) {
    auto inv = should_call(hook, a, obj);
    if (!inv) return;
    Outcome o = call(*inv, a, obj, a.old_object, true);
    for (auto& w : o.warnings) warnings.push_back(std::move(w));
    if (o.error) throw *o.error;
    if (o.failure) {
      if (hook.failure_policy == "Ignore") {
        log::warn("Failed calling webhook, failing open",
                  {{"webhook", hook.name}, {"round", round}, {"error", calling_error_text(hook.name, o.failure->reason)}});
        return;
      }
      log::warn("Failed calling webhook, failing closed",
                {{"webhook", hook.name}, {"error", calling_error_text(hook.name, o.failure->reason)}});
      throw calling_error(hook.name, o.failure->reason);
    }
    if (o.patched) *obj = std::move(*o.patched);
    if (o.changed && round == 0) {
      reinvoke.insert(previously_invoked.begin(), previously_invoked.end());
      previously_invoked.clear();
    }
    if (round == 0 && hook.reinvocation_policy == "IfNeeded") previously_invoked.insert(&hook);
  };
  for (const auto& hook : *hooks) run(hook, 0);
  if (reinvoke.empty()) return;
  for (const auto& hook : *hooks)
    if (reinvoke.count(&hook)) run(hook, 1);
}

void WebhookAdmission::validate(const rest::AdmissionAttributes& a, const json::Value* obj,
                                std::vector<std::string>& warnings) {
  if (!a.resource || is_exempt(a.resource->group, a.resource->kind)) return;
  WebhookList hooks = configs_.validating();
  if (hooks->empty()) return;
  std::vector<Invocation> relevant;
  for (const auto& hook : *hooks)
    if (auto inv = should_call(hook, a, obj)) relevant.push_back(*inv);
  if (relevant.empty()) return;

  std::vector<Outcome> outcomes(relevant.size());
  auto run_one = [&](std::size_t i) {
    try {
      outcomes[i] = call(relevant[i], a, obj, a.old_object, false);
    } catch (const ApiError& e) {
      outcomes[i].error = e;
    } catch (const std::exception& e) {
      outcomes[i].error = internal_error(e.what());
    }
  };
  if (relevant.size() == 1) {
    run_one(0);
  } else {
    std::vector<std::future<void>> running;
    for (std::size_t i = 0; i < relevant.size(); ++i) running.push_back(std::async(std::launch::async, run_one, i));
    for (auto& f : running) f.get();
  }

  std::optional<ApiError> first;
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const Webhook& hook = *relevant[i].hook;
    Outcome& o = outcomes[i];
    for (auto& w : o.warnings) warnings.push_back(std::move(w));
    if (o.failure) {
      if (hook.failure_policy == "Ignore") {
        log::warn("Failed calling webhook, failing open",
                  {{"webhook", hook.name}, {"error", calling_error_text(hook.name, o.failure->reason)}});
        continue;
      }
      log::warn("Failed calling webhook, failing closed",
                {{"webhook", hook.name}, {"error", calling_error_text(hook.name, o.failure->reason)}});
      if (!first) first = calling_error(hook.name, o.failure->reason);
      continue;
    }
    if (o.error) {
      log::info("rejected by webhook", {{"webhook", hook.name}, {"error", o.error->what()}});
      if (!first) first = *o.error;
    }
  }
  if (first) throw *first;
}

}  // namespace capstan::apiserver::admission
