#include "apiserver/rest/service.h"

#include "apiserver/builtin/strategy.h"
#include "runtime/gofmt/json_syntax.h"
#include "apiserver/rest/field_labels.h"
#include "apiserver/rest/resource_version.h"
#include "apiserver/rest/scale.h"
#include "apiserver/patch/apply.h"
#include "apiserver/schema/cel_validate.h"
#include "apiserver/schema/prune.h"
#include "apiserver/schema/validate.h"
#include "apiserver/typed/value_structs.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/time.h"

#include <boost/json/serialize.hpp>

#include <cctype>
#include <optional>
#include <random>
#include <thread>

namespace capstan::apiserver::rest {
namespace {

std::string encode_continue(std::int64_t rv, const std::string& start) {
  json::Object o{{"v", "meta.k8s.io/v1"}, {"rv", rv}, {"start", start}};
  return meta::base64url_encode(json::serialize(o));
}

// storage.DecodeContinue: the token's resourceVersion and start key, or the error kube-apiserver
// reports ("continue key is not valid: ...").
std::optional<std::string> decode_continue(const std::string& token, std::int64_t& rv, std::string& start) {
  const std::string invalid = "continue key is not valid";
  auto raw = meta::base64url_decode(token);
  if (!raw) {
    std::size_t at = 0;
    while (at < token.size() && (std::isalnum(static_cast<unsigned char>(token[at])) || token[at] == '-' || token[at] == '_')) ++at;
    return invalid + ": illegal base64 data at input byte " + std::to_string(at);
  }
  if (auto err = gofmt::scan_json(*raw).syntax_error) return invalid + ": " + *err;
  auto v = json::parse(*raw);
  if (!v.is_object()) return invalid + ": json: cannot unmarshal " + std::string(json::go_type_name(v)) + " into Go value of type storage.continueToken";
  auto field = [&](std::string_view name, bool integer) -> std::optional<std::string> {
    const auto* f = json::find(v, {name});
    if (!f || f->is_null()) return std::nullopt;
    bool ok = integer ? (f->is_int64() || f->is_uint64()) : f->is_string();
    if (ok) return std::nullopt;
    return invalid + ": json: cannot unmarshal " + std::string(json::go_type_name(*f)) + " into Go struct field continueToken." +
           std::string(name) + " of type " + (integer ? "int64" : "string");
  };
  for (auto [name, integer] : {std::pair{"v", false}, std::pair{"rv", true}, std::pair{"start", false}})
    if (auto e = field(name, integer)) return e;
  std::string version(json::get_string(v, {"v"}));
  if (version != "meta.k8s.io/v1") return invalid + ": server does not recognize this encoded version " + version;
  rv = json::get_int(v, {"rv"}).value_or(0);
  start = json::get_string(v, {"start"});
  if (rv == 0) return invalid + ": incorrect encoded start resourceVersion (version meta.k8s.io/v1)";
  if (start.empty()) return invalid + ": encoded start key empty (version meta.k8s.io/v1)";
  return std::nullopt;
}

// The scale subresource's spec replicas of a custom resource: an int64 from 0 to MaxInt32
// (the apiextensions validator's ValidateScaleSpec), reported under the path as the CRD writes it.
void validate_scale_replicas(const json::Value& obj, const std::string& path, std::vector<Cause>& causes) {
  const auto* v = dotted_find(obj, path);
  if (!v || v->is_null()) return;
  if (!v->is_int64()) return;  // the schema already reports a value of another type
  std::int64_t n = v->get_int64();
  if (n < 0) causes.push_back(validation::field_invalid(FieldPath(path), *v, "should be a non-negative integer"));
  else if (n > 2147483647) causes.push_back(validation::field_invalid(FieldPath(path), *v, "should be less than or equal to 2147483647"));
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

void Service::check_field_selector(const registry::ResourceInfo& r, const meta::FieldSelector& fs) { check_field_labels(r, fs); }

bool Service::field_match(const registry::ResourceInfo& r, const json::Value& obj, const meta::FieldSelector& fs) {
  if (fs.empty()) return true;
  return fs.matches([&](std::string_view f) { return field_value(r, obj, f); });
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
    if (auto err = decode_continue(o.continue_token, rv, after)) throw bad_request("invalid continue token: " + *err);
    if (!o.resource_version.empty() && o.resource_version != "0")
      throw bad_request("specifying resource version is not allowed when using continue");
    if (rv < store_.oldest_rv() && rv < store_.current_rv()) {
      throw expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.");
    }
  }
  std::function<bool(const storage::Object&)> filter;
  if (!o.labels.empty() || !o.fields.empty()) {
    filter = [&](const storage::Object& obj) { return o.labels.matches(*obj.value) && field_match(r, *obj.value, o.fields); };
  }
  std::int64_t want_rv = 0;
  if (!o.resource_version.empty()) {
    auto parsed = parse_resource_version(o.resource_version);
    if (!parsed.value) throw bad_request("invalid resource version: " + parsed.error);
    want_rv = *parsed.value;
    if (want_rv > store_.current_rv()) wait_for_resource_version(want_rv);
  }
  if (o.resource_version_match == "Exact" && want_rv > 0 && want_rv != store_.current_rv()) {
    // The list as it was at that resourceVersion (pagination is not offered at a past one).
    std::vector<storage::Object> then;
    try {
      then = store_.list_at(r.group_resource(), t.ns, want_rv);
    } catch (const storage::TooOldError&) {
      throw expired("The resourceVersion for the provided list is too old.");
    }
    RawList out;
    out.resource_version = std::to_string(want_rv);
    for (auto& obj : then)
      if (!filter || filter(obj)) out.items.push_back(std::move(obj));
    return out;
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

void Service::wait_for_resource_version(std::int64_t rv) {
  for (int i = 0; i < 30 && rv > store_.current_rv(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (rv <= store_.current_rv()) return;
  ApiError e(504, "Timeout", "Too large resource version: " + std::to_string(rv) + ", current: " + std::to_string(store_.current_rv()));
  e.details["causes"] = json::Array{json::Object{{"reason", "ResourceVersionTooLarge"}, {"message", "Too large resource version"}}};
  e.details["retryAfterSeconds"] = 1;
  throw e;
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
    // As NamespaceLifecycle admission says it: controllers recognise the cause and stop.
    e.with_causes({Cause{"NamespaceTerminating", "metadata.namespace", "namespace " + std::string(ns) + " is being terminated"}});
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
                              const json::Value* old, std::vector<std::string>& warnings) {
  std::vector<Cause> causes;
  auto& strategy = builtin::strategy_for(r.group_resource());
  std::string_view name = json::get_string(obj, {"metadata", "name"});
  for (auto& c : builtin::validate_object_meta(obj, r.crd ? "subdomain" : strategy.name_rule(), old == nullptr))
    causes.push_back(std::move(c));
  if (r.crd) {
    const auto* v = r.version(version);
    if (v && v->structural) {
      for (auto& c : schema::validate_custom_resource(obj, *v->structural)) causes.push_back(std::move(c));
      if (v->scale) validate_scale_replicas(obj, v->scale->spec_replicas_path, causes);
      // customResourceStrategy: CEL rules run unless an error so far is a blocking one (a wrong
      // type, a missing required field, an enum or size violation); then kube says so instead.
      if (schema::has_validation_rules(*v->structural)) {
        if (schema::has_blocking_error(causes)) {
          causes.push_back(schema::rules_not_checked());
        } else {
          auto cel = schema::validate_rules(obj, old, *v->structural);
          for (auto& c : cel.errors) causes.push_back(std::move(c));
          for (auto& w : cel.warnings) warnings.push_back(std::move(w));
        }
      }
    }
  } else {
    for (auto& c : strategy.validate(obj, old)) causes.push_back(std::move(c));
    if (causes.empty())
      for (auto& w : strategy.warnings(obj, old)) warnings.push_back(std::move(w));
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
  check_body_type(r, t.version, body);
  decode_body(r, t.version, body, o);
  if (!r.crd) typed::fill_value_structs(body, want_api, r.kind);
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
      throw invalid(r, "", {validation::field_required(FieldPath("metadata").child("name"), "name or generateName is required")});
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
  if (!r.crd) typed::fill_value_structs(body, want_api, r.kind);  // again: status was reset
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
  run_guards(a, body, false);
  validate_object(r, t.version, body, nullptr, o.warnings);
  run_guards(a, body, true);
  if (admission_) admission_->validate(a, &body, o.warnings);

  const auto& types = list_types_for(r, t.version);
  if (!managed_fields_set) {
    // Compared with the type's zero value, as kube's field manager compares a new object.
    const json::Value zero = r.crd ? json::Value(json::Object{}) : typed::zero_object(want_api, r.kind);
    patch::set_managed_fields(body, patch::update(&zero, body, o.field_manager, "Update", "", want_api, meta::Clock::now(), types));
  }
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
