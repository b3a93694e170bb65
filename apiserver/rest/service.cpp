#include "apiserver/rest/service.h"

#include "apiserver/builtin/strategy.h"
#include "apiserver/patch/apply.h"
#include "apiserver/schema/prune.h"
#include "apiserver/schema/validate.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/time.h"

#include <boost/json/serialize.hpp>

#include <random>

namespace capstan::apiserver::rest {
namespace {

std::string encode_continue(std::int64_t rv, const std::string& start) {
  json::Object o{{"v", "meta.k8s.io/v1"}, {"rv", rv}, {"start", start}};
  return meta::base64url_encode(json::serialize(o));
}

bool decode_continue(const std::string& token, std::int64_t& rv, std::string& start) {
  auto raw = meta::base64url_decode(token);
  if (!raw) return false;
  auto v = json::try_parse(*raw);
  if (!v || !v->is_object()) return false;
  rv = json::get_int(*v, {"rv"}).value_or(0);
  start = json::get_string(*v, {"start"});
  return json::get_string(*v, {"v"}) == "meta.k8s.io/v1";
}

std::optional<std::string> object_field(const registry::ResourceInfo& r, const json::Value& obj, std::string_view field) {
  auto str = [&](json::Path p) -> std::optional<std::string> { return std::string(json::get_string(obj, p)); };
  if (field == "metadata.name") return str({"metadata", "name"});
  if (field == "metadata.namespace") return str({"metadata", "namespace"});
  const std::string gr = r.group_resource();
  if (gr == "pods") {
    if (field == "spec.nodeName") return str({"spec", "nodeName"});
    if (field == "spec.restartPolicy") return str({"spec", "restartPolicy"});
    if (field == "spec.schedulerName") return str({"spec", "schedulerName"});
    if (field == "spec.serviceAccountName") return str({"spec", "serviceAccountName"});
    if (field == "status.phase") return str({"status", "phase"});
    if (field == "status.podIP") return str({"status", "podIP"});
    if (field == "status.nominatedNodeName") return str({"status", "nominatedNodeName"});
  }
  if (gr == "events" || gr == "events.events.k8s.io") {
    static const char* const kInvolved[] = {"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"};
    for (auto k : kInvolved) {
      if (field == std::string("involvedObject.") + k) return str({"involvedObject", k});
      if (field == std::string("regarding.") + k) return str({"regarding", k});
    }
    if (field == "reason") return str({"reason"});
    if (field == "type") return str({"type"});
    if (field == "source") return str({"source", "component"});
    if (field == "reportingComponent") return str({"reportingComponent"});
  }
  if (gr == "secrets" && field == "type") return str({"type"});
  if (gr == "namespaces" && field == "status.phase") return str({"status", "phase"});
  return std::nullopt;
}

}  // namespace

std::string new_uid() {
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::uint64_t a = rng(), b = rng();
  a = (a & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // version 4
  b = (b & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // variant 10
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xffff),
                static_cast<unsigned>(b >> 48), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

void drop_empty_metadata(json::Value& obj) {
  auto* md = json::find(obj, {"metadata"});
  if (!md || !md->is_object()) return;
  auto& m = md->as_object();
  for (auto key : {"labels", "annotations", "finalizers", "ownerReferences", "managedFields"}) {
    auto it = m.find(key);
    if (it == m.end()) continue;
    const auto& v = it->value();
    if (v.is_null() || (v.is_object() && v.get_object().empty()) || (v.is_array() && v.get_array().empty())) m.erase(it);
  }
}

bool spec_differs(const json::Value& a, const json::Value& b) {
  const auto* ao = a.if_object();
  const auto* bo = b.if_object();
  if (!ao || !bo) return a != b;
  auto skip = [](std::string_view k) { return k == "metadata" || k == "status" || k == "apiVersion" || k == "kind"; };
  for (const auto& kv : *ao) {
    if (skip(kv.key())) continue;
    auto it = bo->find(kv.key());
    if (it == bo->end() || !json::deep_equal(it->value(), kv.value())) return true;
  }
  for (const auto& kv : *bo) {
    if (skip(kv.key())) continue;
    if (!ao->contains(kv.key())) return true;
  }
  return false;
}

Service::Service(storage::Store& store, registry::Registry& registry) : store_(store), registry_(registry) {}

const patch::ListTypes& list_types_for(const registry::ResourceInfo& r, std::string_view version) {
  const auto* v = r.version(version);
  return v && v->list_types ? *v->list_types : patch::default_list_types();
}

void Service::to_version(const registry::ResourceInfo& r, std::vector<json::Value*>& objs, std::string_view version) {
  if (objs.empty()) return;
  std::vector<json::Value*> pending;
  std::string want = r.api_version(version);
  for (auto* o : objs)
    if (json::get_string(*o, {"apiVersion"}) != want) pending.push_back(o);
  if (pending.empty()) return;
  if (r.conversion_strategy == "Webhook" && converter_) {
    converter_->convert(r, pending, version);
    return;
  }
  for (auto* o : pending) o->as_object()["apiVersion"] = want;
}

json::Value Service::to_version(const registry::ResourceInfo& r, json::Value obj, std::string_view version) {
  std::vector<json::Value*> v{&obj};
  to_version(r, v, version);
  return obj;
}

void Service::check_field_selector(const registry::ResourceInfo& r, const meta::FieldSelector& fs) {
  json::Value probe = json::Object{};
  for (const auto& t : fs.terms()) {
    if (!object_field(r, probe, t.field)) {
      if (r.crd) {
        throw bad_request("field label not supported: " + t.field);
      }
      throw bad_request("field label not supported: " + t.field);
    }
  }
}

bool Service::field_match(const registry::ResourceInfo& r, const json::Value& obj, const meta::FieldSelector& fs) {
  if (fs.empty()) return true;
  return fs.matches([&](std::string_view f) { return object_field(r, obj, f); });
}

json::Value Service::get(const Target& t) {
  const auto& r = *t.res;
  auto o = store_.get(r.group_resource(), t.ns, t.name);
  if (!o) throw not_found(r, t.name);
  return to_version(r, *o.value, t.version);
}

Service::RawList Service::list_raw(const Target& t, const ListOptions& o) {
  const auto& r = *t.res;
  check_field_selector(r, o.fields);
  std::string after;
  if (!o.continue_token.empty()) {
    std::int64_t rv = 0;
    if (!decode_continue(o.continue_token, rv, after))
      throw bad_request("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
    if (rv < store_.oldest_rv() && rv < store_.current_rv()) {
      throw expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.");
    }
  }
  std::function<bool(const storage::Object&)> filter;
  if (!o.labels.empty() || !o.fields.empty()) {
    filter = [&](const storage::Object& obj) { return o.labels.matches(*obj.value) && field_match(r, *obj.value, o.fields); };
  }
  auto page = store_.list(r.group_resource(), t.ns, after, o.limit, filter);
  RawList out;
  out.resource_version = std::to_string(page.rv);
  out.items = std::move(page.items);
  if (page.more) {
    out.continue_token = encode_continue(page.rv, page.last_key);
    if (o.labels.empty() && o.fields.empty()) out.remaining = page.remaining;
  }
  return out;
}

ListResult Service::list(const Target& t, const ListOptions& o) {
  auto raw = list_raw(t, o);
  ListResult out;
  out.resource_version = std::move(raw.resource_version);
  out.continue_token = std::move(raw.continue_token);
  out.remaining = raw.remaining;
  out.items.reserve(raw.items.size());
  for (auto& item : raw.items) out.items.push_back(*item.value);
  std::vector<json::Value*> ptrs;
  for (auto& i : out.items) ptrs.push_back(&i);
  to_version(*t.res, ptrs, t.version);
  return out;
}

void Service::check_namespace_for_create(const registry::ResourceInfo& r, std::string_view ns) {
  if (!r.namespaced) return;
  auto nsobj = store_.get("namespaces", "", ns);
  if (!nsobj) throw namespace_not_found(ns);
  if (json::find(*nsobj.value, {"metadata", "deletionTimestamp"})) {
    ApiError e = forbidden(&r, "", "unable to create new content in namespace " + std::string(ns) +
                                        " because it is being terminated");
    e.details.erase("name");
    throw e;
  }
}

void Service::prepare_custom_resource(const registry::ResourceInfo& r, std::string_view version, json::Value& obj,
                                      WriteOptions& o, bool is_patch) {
  if (!r.crd) return;
  const auto* v = r.version(version);
  if (!v || !v->structural) return;
  auto unknown = schema::prune_and_default(obj, *v->structural);
  if (unknown.empty() || o.field_validation == "Ignore") return;
  if (o.field_validation == "Strict") {
    if (is_patch) throw bad_request(schema::strict_decoding_error(unknown));
    throw bad_request(schema::strict_decoding_error_for_object(r.kind, version, unknown));
  }
  for (auto& w : schema::unknown_field_warnings(unknown)) o.warnings.push_back(std::move(w));
}

void Service::validate_object(const registry::ResourceInfo& r, std::string_view version, const json::Value& obj,
                              const json::Value* old) {
  std::vector<Cause> causes;
  auto& strategy = builtin::strategy_for(r.group_resource());
  std::string_view name = json::get_string(obj, {"metadata", "name"});
  for (auto& c : builtin::validate_object_meta(obj, r.crd ? "subdomain" : strategy.name_rule(), old == nullptr))
    causes.push_back(std::move(c));
  if (r.crd) {
    const auto* v = r.version(version);
    if (v && v->structural)
      for (auto& c : schema::validate_custom_resource(obj, *v->structural)) causes.push_back(std::move(c));
  } else {
    for (auto& c : strategy.validate(obj, old)) causes.push_back(std::move(c));
  }
  if (!causes.empty()) throw invalid(r, name, causes);
}

Service::WriteResult Service::create(const Target& t, json::Value body, WriteOptions& o) {
  return create_impl(t, std::move(body), o, false);
}

Service::WriteResult Service::create_impl(const Target& t, json::Value body, WriteOptions& o, bool managed_fields_set) {
  const auto& r = *t.res;
  if (!body.is_object()) throw bad_request("the body of the request was in an unknown format");
  if (t.subresource == "status" || t.subresource == "scale") throw method_not_allowed();
  auto& obj = body.as_object();
  std::string want_api = r.api_version(t.version);
  std::string_view api = json::get_string(body, {"apiVersion"});
  std::string_view kind = json::get_string(body, {"kind"});
  if (kind.empty()) throw bad_request("Object 'Kind' is missing in '" + json::serialize(body).substr(0, 200) + "'");
  if (api != want_api || kind != r.kind) {
    throw bad_request("the API version in the data (" + std::string(api) + ") does not match the expected API version (" +
                      want_api + ")");
  }
  decode_body(r, t.version, body, o);
  auto& md = json::ensure_object(body, {"metadata"});
  if (r.namespaced) {
    std::string_view body_ns = json::get_string(body, {"metadata", "namespace"});
    if (!body_ns.empty() && body_ns != t.ns)
      throw bad_request("the namespace of the provided object does not match the namespace sent on the request");
    md["namespace"] = t.ns;
  } else {
    md.erase("namespace");
  }
  std::string name(json::get_string(body, {"metadata", "name"}));
  if (name.empty()) {
    std::string_view gen = json::get_string(body, {"metadata", "generateName"});
    if (gen.empty()) {
      throw invalid(r, "", {schema::field_required(FieldPath("metadata").child("name"), "name or generateName is required")});
    }
    static const char* alphabet = "bcdfghjklmnpqrstvwxz2456789";
    thread_local std::mt19937 rng(std::random_device{}());
    name = std::string(gen);
    for (int i = 0; i < 5; ++i) name += alphabet[rng() % 27];
    md["name"] = name;
  }
  check_namespace_for_create(r, t.ns);

  // Server-owned metadata.
  md.erase("resourceVersion");
  md.erase("deletionTimestamp");
  md.erase("deletionGracePeriodSeconds");
  md.erase("selfLink");
  md["uid"] = new_uid();
  md["creationTimestamp"] = meta::format_rfc3339(meta::Clock::now());
  if (r.has_generation || r.crd) md["generation"] = 1;
  else md.erase("generation");
  if (r.has_status(t.version)) obj.erase("status");  // status is written through /status only

  builtin::strategy_for(r.group_resource()).prepare_create(body);
  prepare_custom_resource(r, t.version, body, o, false);

  AdmissionAttributes a;
  a.resource = &r;
  a.version = t.version;
  a.operation = "CREATE";
  a.ns = t.ns;
  a.name = name;
  a.user = &o.user;
  a.dry_run = o.dry_run;
  a.options = json::Object{{"kind", "CreateOptions"}, {"apiVersion", "meta.k8s.io/v1"}};
  if (!o.field_manager.empty()) a.options.as_object()["fieldManager"] = o.field_manager;
  if (admission_) {
    admission_->mutate(a, &body, o.warnings);
    prepare_custom_resource(r, t.version, body, o, false);
  }
  validate_object(r, t.version, body, nullptr);
  if (admission_) admission_->validate(a, &body, o.warnings);

  const auto& types = list_types_for(r, t.version);
  if (!managed_fields_set)
    patch::set_managed_fields(body, patch::update(nullptr, body, o.field_manager, "Update", "", want_api,
                                                  meta::Clock::now(), types));
  builtin::strategy_for(r.group_resource()).prepare_create_server_owned(body);
  drop_empty_metadata(body);
  json::Value stored = to_version(r, std::move(body), r.storage_version().name);
  if (o.dry_run) return {to_version(r, std::move(stored), t.version), true};
  try {
    auto created = store_.create(r.group_resource(), std::move(stored));
    return {to_version(r, *created.value, t.version), true};
  } catch (const storage::AlreadyExistsError&) {
    throw already_exists(r, name);
  }
}

}  // namespace capstan::apiserver::rest
