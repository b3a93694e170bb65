#include "apiserver/rest/handler.h"

#include "runtime/gofmt/json_syntax.h"
#include "apiserver/patch/apply.h"
#include "apiserver/protobuf/decode.h"
#include "apiserver/rest/discovery.h"
#include "apiserver/rest/negotiate.h"
#include "apiserver/rest/pod_binding.h"
#include "apiserver/rest/request_info.h"
#include "apiserver/rest/resource_version.h"
#include "apiserver/rest/scale.h"
#include "apiserver/schema/status.h"
#include "apiserver/storage/store.h"
#include "apiserver/swagger/v2.h"
#include "apiserver/table/builtin_printers.h"
#include "apiserver/table/table.h"
#include "apiserver/typed/check.h"
#include "runtime/json/yaml.h"
#include "runtime/log/log.h"
#include "runtime/meta/time.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace capstan::apiserver::rest {
namespace {

const char* kDiscoveryV2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const char* kDiscoveryV2beta1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string quote_warning(std::string_view w) {
  std::string out = "299 - \"";
  for (char c : w) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void send_body(http::Reply& reply, int code, std::string body, std::string_view content_type,
               const std::vector<std::string>& warnings = {}) {
  http::Response r(code, std::move(body), content_type);
  r.headers.set("Cache-Control", "no-cache, private");
  for (const auto& w : warnings) r.headers.add("Warning", quote_warning(w));
  reply.send(std::move(r));
}

void send_value(http::Reply& reply, int code, const json::Value& v, const Accepted& acc,
                const std::vector<std::string>& warnings = {}) {
  if (acc.kind == Accepted::Kind::Yaml) send_body(reply, code, json::to_yaml(v), "application/yaml", warnings);
  else send_body(reply, code, json::serialize(v), "application/json", warnings);
}

const table::Converter& converter_of(const registry::ResourceInfo& r, std::string_view version) {
  const auto* v = r.version(version);
  if (v && v->table) return *v->table;
  return table::converter_for(r.group, r.resource);
}

table::TableOptions table_options(const http::Query& q, const Accepted& acc) {
  table::TableOptions to;
  auto inc = table::parse_include_object(q.get_or("includeObject", ""));
  if (!inc) throw bad_request("unrecognized includeObject value: \"" + std::string(q.get_or("includeObject", "")) + "\"");
  to.include = *inc;
  to.api_version = "meta.k8s.io/" + (acc.version.empty() ? std::string("v1") : acc.version);
  return to;
}

std::string default_manager(const http::Request& req) {
  std::string_view ua = req.headers.get_or("User-Agent", "");
  auto slash = ua.find('/');
  std::string m(ua.substr(0, slash));
  if (m.size() > 128) m.resize(128);
  return m;
}

bool parse_bool(std::string_view v) { return v == "true" || v == "1" || v == "True"; }

json::Value parse_json_body(const http::Request& req, std::string_view what) {
  std::string mt = media_type(req.headers.get_or("Content-Type", "application/json"));
  try {
    if (mt == "application/yaml") return json::from_yaml(req.body, what);
    if (mt == "application/json" || mt.empty()) return json::parse(req.body, what);
    // Typed clients (kubectl create ...) send protobuf; decoded to the same JSON object.
    if (protobuf::is_protobuf_content_type(mt)) return protobuf::decode(req.body);
  } catch (const json::ParseError& e) {
    throw bad_request(e.what());
  } catch (const protobuf::DecodeError& e) {
    throw bad_request(std::string("decoding the protobuf request body: ") + e.what());
  }
  throw unsupported_media_type(mt, {"application/json", "application/yaml", "application/vnd.kubernetes.protobuf"});
}

// The body of a create or update: a JSON body is first read as Go's decoder reads it, so a
// syntax error is worded as kube-apiserver words it and repeated members are known (for
// fieldValidation); YAML and protobuf bodies as parse_json_body.
json::Value parse_object_body(const http::Request& req, std::string_view kind, WriteOptions& o) {
  std::string mt = media_type(req.headers.get_or("Content-Type", "application/json"));
  if (mt == "application/json" || mt.empty()) {
    auto scan = gofmt::scan_json(req.body);
    if (scan.syntax_error) {
      std::string summary = req.body.empty() ? "<empty>" : req.body.size() > 30 ? req.body.substr(0, 30) + " ..." : req.body;
      throw bad_request("the object provided is unrecognized (must be of type " + std::string(kind) +
                        "): couldn't get version/kind; json parse error: " + *scan.syntax_error + " (" + summary + ")");
    }
    o.duplicate_fields = std::move(scan.duplicates);
  }
  return parse_json_body(req, "request body");
}

// Create/Update/PatchOptions from the query, validated as apimachinery's ValidateCreateOptions,
// ValidateUpdateOptions and ValidatePatchOptions word it (422, kind `options_kind`).
void fill_write_options(WriteOptions& o, const http::Request& req, const http::Query& q, const User& user,
                        std::string_view options_kind, std::optional<PatchType> patch = std::nullopt) {
  std::vector<Cause> causes;
  std::string manager(q.get_or("fieldManager", ""));
  if (patch) {
    if (*patch == PatchType::Apply && manager.empty())
      causes.push_back(validation::field_required(FieldPath("fieldManager"), "is required for apply patch"));
    if (*patch != PatchType::Apply && q.has("force"))
      causes.push_back(validation::field_forbidden(FieldPath("force"), "may not be specified for non-apply patch"));
  }
  if (manager.size() > 128) causes.push_back(validation::field_too_long(FieldPath("fieldManager"), 128));
  json::Array dry_run;
  bool dry_run_ok = true;
  for (const auto& [k, v] : q.items()) {
    if (k != "dryRun") continue;
    dry_run.emplace_back(v);
    dry_run_ok = dry_run_ok && v == "All";
  }
  if (!dry_run_ok) causes.push_back(validation::field_not_supported(FieldPath("dryRun"), json::Value(dry_run), {"All"}));
  std::string fv(q.get_or("fieldValidation", ""));
  if (fv != "" && fv != "Ignore" && fv != "Warn" && fv != "Strict")
    causes.push_back(validation::field_not_supported(FieldPath("fieldValidation"), json::Value(fv), {"", "Ignore", "Strict", "Warn"}));
  if (!causes.empty()) throw invalid_options(options_kind, causes);
  o.user = user;
  o.field_manager = manager.empty() ? default_manager(req) : manager;
  o.dry_run = !dry_run.empty();
  o.field_validation = fv.empty() ? "Warn" : fv;
}

// ListOptions validation as apimachinery's ValidateListOptions words it (422, kind ListOptions).
void validate_list_options(const http::Query& q, bool watch) {
  std::vector<Cause> causes;
  const FieldPath match_path("resourceVersionMatch");
  std::string match(q.get_or("resourceVersionMatch", ""));
  bool initial = q.has("sendInitialEvents");
  bool has_continue = !q.get_or("continue", "").empty();
  if (watch) {
    if (initial && match != "NotOlderThan")
      causes.push_back(validation::field_forbidden(match_path, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
    if (!match.empty()) {
      if (!initial) causes.push_back(validation::field_forbidden(match_path, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
      if (match != "NotOlderThan") causes.push_back(validation::field_not_supported(match_path, json::Value(match), {"NotOlderThan"}));
      if (has_continue) causes.push_back(validation::field_forbidden(match_path, "resourceVersionMatch is forbidden when continue is provided"));
    }
  } else {
    std::string rv(q.get_or("resourceVersion", ""));
    if (!match.empty()) {
      if (rv.empty()) causes.push_back(validation::field_forbidden(match_path, "resourceVersionMatch is forbidden unless resourceVersion is provided"));
      if (has_continue) causes.push_back(validation::field_forbidden(match_path, "resourceVersionMatch is forbidden when continue is provided"));
      if (match != "Exact" && match != "NotOlderThan")
        causes.push_back(validation::field_not_supported(match_path, json::Value(match), {"Exact", "NotOlderThan", ""}));
      if (match == "Exact" && rv == "0")
        causes.push_back(validation::field_forbidden(match_path, "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
    }
    if (initial) causes.push_back(validation::field_forbidden(FieldPath("sendInitialEvents"), "sendInitialEvents is forbidden for list"));
  }
  if (!causes.empty()) throw invalid_options("ListOptions", causes);
}

ListOptions list_options(const registry::ResourceInfo& r, const http::Query& q) {
  ListOptions lo;
  try {
    lo.labels = meta::LabelSelector::parse(q.get_or("labelSelector", ""));
  } catch (const meta::SelectorError& e) {
    throw bad_request(e.what());
  }
  try {
    lo.fields = meta::FieldSelector::parse(q.get_or("fieldSelector", ""));
  } catch (const meta::SelectorError& e) {
    throw bad_request(e.what());
  }
  lo.resource_version = std::string(q.get_or("resourceVersion", ""));
  // resourceVersion=0 is served from kube-apiserver's watch cache, which has no pages: the
  // limit is ignored and the whole list comes back.
  if (auto l = q.get("limit"); l && !l->empty() && lo.resource_version != "0") {
    try {
      long long n = std::stoll(std::string(*l));
      if (n > 0) lo.limit = static_cast<std::size_t>(n);
    } catch (...) {
      throw bad_request("limit: invalid value \"" + std::string(*l) + "\"");
    }
  }
  lo.continue_token = std::string(q.get_or("continue", ""));
  lo.resource_version_match = std::string(q.get_or("resourceVersionMatch", ""));
  return lo;
}

// The stored text of an item without its leading "apiVersion" and "kind" members: kube-apiserver
// lists built-in objects without them (they are the list's), custom resources with them.
// Stored objects begin with those two members; anything else is kept whole.
std::string_view without_type_meta(std::string_view item) {
  auto skip_member = [](std::string_view s, std::string_view key) -> std::size_t {
    // s starts at a member: "key":"value", ; returns the length through the comma, 0 if not.
    std::string head = "\"" + std::string(key) + "\":\"";
    if (s.substr(0, head.size()) != head) return 0;
    for (std::size_t i = head.size(); i < s.size(); ++i) {
      if (s[i] == '\\') return 0;  // escapes never occur in apiVersion/kind; keep it simple
      if (s[i] == '"') return i + 1 < s.size() && s[i + 1] == ',' ? i + 2 : 0;
    }
    return 0;
  };
  if (item.empty() || item[0] != '{') return item;
  std::size_t a = skip_member(item.substr(1), "apiVersion");
  if (!a) return item;
  std::size_t k = skip_member(item.substr(1 + a), "kind");
  if (!k) return item;
  return item.substr(1 + a + k);  // what follows "{" and the two members, without the "{"
}

// A list response: the envelope is serialised by Boost.JSON; each item is the stored
// object's own serialisation (for built-in kinds without apiVersion and kind), placed inside
// the envelope's (empty) items array.
std::string serialize_list(const json::Value& envelope, const std::vector<std::shared_ptr<const std::string>>& items, bool builtin) {
  std::string head = json::serialize(envelope);  // ends with "items":[]}
  const std::string tail = "]}";
  std::size_t total = head.size();
  for (const auto& i : items) total += i->size() + 1;
  std::string out;
  out.reserve(total);
  out.append(head, 0, head.size() - tail.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k) out += ',';
    std::string_view rest = builtin ? without_type_meta(*items[k]) : std::string_view(*items[k]);
    if (rest.size() != items[k]->size()) out += '{';
    out += rest;
  }
  out += tail;
  return out;
}

// A malformed resourceVersion on a get or watch: kube-apiserver answers 500 with the parse error
// (the storage layer's, with no reason).
std::int64_t parse_rv(std::string_view s) {
  auto parsed = parse_resource_version(s);
  if (!parsed.value) throw ApiError(500, "", parsed.error);
  return *parsed.value;
}

// Whether kube-apiserver serves group `g` itself (the core group, apps, ...) rather than
// through its apiextensions server (custom resources): that decides how a missing version
// or resource under it is answered.
bool builtin_group(const registry::Registry& reg, std::string_view g) {
  if (g.empty()) return true;
  for (const auto& r : reg.all())
    if (r->group == g && !r->crd) return true;
  return false;
}

[[noreturn]] void group_path_not_found(const registry::Registry& reg, std::string_view group) {
  if (builtin_group(reg, group)) throw path_not_found();
  throw PageNotFound();
}

const std::vector<std::string> kRepresentations = {"application/json", "application/yaml", "application/vnd.kubernetes.protobuf"};

// The 406 for an Accept that names nothing servable: go-restful's on kube-apiserver's own
// routes (a list route also produces the watch streams), the handler's own for custom resources.
ApiError not_acceptable_for(const registry::ResourceInfo& r, std::string_view verb, std::string_view subresource) {
  if (r.crd) return not_acceptable(kRepresentations);
  auto produces = kRepresentations;
  if (subresource.empty() && (verb == "list" || verb == "watch"))
    produces.insert(produces.end(), {"application/json;stream=watch", "application/vnd.kubernetes.protobuf;stream=watch"});
  return route_not_acceptable(produces);
}

}  // namespace

ApiError request_too_large() {
  return ApiError(413, "RequestEntityTooLarge", "Request entity too large: limit is " + std::to_string(kMaxRequestBodyBytes));
}

void send_error(http::Reply& reply, const ApiError& e) {
  http::Response r(e.code, json::serialize(e.status()), "application/json");
  r.headers.set("Cache-Control", "no-cache, private");
  for (const auto& h : e.headers) {
    auto colon = h.find(':');
    if (colon != std::string::npos) r.headers.set(h.substr(0, colon), h.substr(colon + 2));
  }
  reply.send(std::move(r));
}

void send_json(http::Reply& reply, int code, const json::Value& v, const std::vector<std::string>& warnings) {
  send_body(reply, code, json::serialize(v), "application/json", warnings);
}

Handler::Handler(Service& service, WatchHub& watches, OpenApi& openapi, Authenticator auth, Faults& faults)
    : service_(service), watches_(watches), openapi_(openapi), auth_(std::move(auth)), faults_(faults) {}

void Handler::operator()(http::Request& req, http::Reply& reply) {
  auto start = std::chrono::steady_clock::now();
  std::string path(req.path());
  int code = 200;
  try {
    bool public_path = path == "/healthz" || path == "/livez" || path == "/readyz" || path == "/version" ||
                       starts_with(path, "/healthz/") || starts_with(path, "/livez/") || starts_with(path, "/readyz/");
    std::optional<User> authenticated = auth_ ? auth_(req) : std::optional<User>(User::system());
    if (!authenticated && !public_path) throw unauthorized();
    User user = authenticated ? std::move(*authenticated) : User{"system:anonymous", "", {"system:unauthenticated"}, {}};
    if (authorize_) authorize_(req, user);
    if (req.body.size() > kMaxRequestBodyBytes) throw request_too_large();
    if (!public_path) {
      if (auto ms = faults_.latency_ms.load(); ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      if (!starts_with(path, "/debug/")) {
        int f = faults_.roll();
        if (f == 429) throw too_many_requests(faults_.retry_after_seconds.load());
        if (f == 500) throw internal_error("injected fault");
      }
    }
    handle(req, reply, user);
  } catch (const ApiError& e) {
    code = e.code;
    send_error(reply, e);
  } catch (const storage::TooLargeError& e) {
    // Not an API status of kube-apiserver's own: etcd's error, passed on as an unknown 500.
    code = 500;
    send_error(reply, ApiError(500, "", e.what()));
  } catch (const PageNotFound& e) {
    code = 404;
    send_body(reply, 404, std::string(e.what()) + "\n", "text/plain; charset=utf-8");
  } catch (const std::exception& e) {
    code = 500;
    log::error("request failed", {{"method", req.method}, {"path", path}, {"error", e.what()}});
    send_error(reply, internal_error(e.what()));
  }
  if (log::enabled(log::Level::Debug)) {
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    log::debug("request", {{"method", req.method}, {"path", path}, {"query", std::string(req.raw_query())}, {"code", code}, {"micros", us}});
  }
}

void Handler::handle(http::Request& req, http::Reply& reply, const User& user) {
  for (const auto& route : extra_)
    if (route(req, user, reply)) return;
  if (handle_non_resource(req, reply)) return;
  handle_resource(req, reply, user);
}

bool Handler::handle_non_resource(http::Request& req, http::Reply& reply) {
  std::string path(req.path());
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  auto& reg = service_.registry();
  std::string_view accept = req.headers.get_or("Accept", "");
  if (path == "/healthz" || path == "/livez" || starts_with(path, "/healthz/") || starts_with(path, "/livez/")) {
    send_body(reply, 200, "ok", "text/plain; charset=utf-8");
    return true;
  }
  if (path == "/readyz" || starts_with(path, "/readyz/")) {
    bool ok = !ready_ || ready_();
    send_body(reply, ok ? 200 : 500, ok ? "ok" : "[-]capstan-ready failed: reason withheld\nreadyz check failed", "text/plain; charset=utf-8");
    return true;
  }
  if (path == "/version") {
    auto acc = negotiate(accept, false);
    if (!acc.acceptable || acc.kind == Accepted::Kind::Yaml) throw route_not_acceptable({"application/json"});
    send_json(reply, 200, server_version());
    return true;
  }
  if (path == "/api" || path == "/apis") {
    auto acc = negotiate(accept, true);
    if (!acc.acceptable) throw path == "/api" ? route_not_acceptable(kRepresentations) : not_acceptable(kRepresentations);
    if (acc.kind == Accepted::Kind::Discovery) {
      json::Value doc = aggregated_discovery(reg, path == "/api", acc.version);
      if (path == "/apis" && group_list_extension_) group_list_extension_(doc, true);
      send_body(reply, 200, json::serialize(doc), acc.version == "v2" ? kDiscoveryV2 : kDiscoveryV2beta1);
    } else if (path == "/api") {
      send_json(reply, 200, api_versions(server_address_));
    } else {
      json::Value groups = api_group_list(reg);
      if (group_list_extension_) group_list_extension_(groups, false);
      send_json(reply, 200, groups);
    }
    return true;
  }
  if (path == "/openapi/v3") {
    send_json(reply, 200, openapi_.index());
    return true;
  }
  if (starts_with(path, "/openapi/v3/")) {
    auto doc = openapi_.document(std::string_view(path).substr(12));
    if (!doc) {
      send_body(reply, 404, "", "");  // kube-apiserver's OpenAPI handler: no body at all
      return true;
    }
    send_body(reply, 200, *doc, "application/json");
    return true;
  }
  if (path == "/openapi/v2") {
    // kubectl asks for gnostic's protobuf form; other clients for JSON.
    bool protobuf = accept.find("application/com.github.proto-openapi.spec.v2") != std::string_view::npos;
    if (protobuf) send_body(reply, 200, openapi_.v2(true), swagger::kProtobufContentType);
    else send_body(reply, 200, openapi_.v2(false), "application/json");
    return true;
  }
  // /apis/GROUP and /api/v1, /apis/GROUP/VERSION (discovery documents).
  RequestInfo ri = parse_request_info(req.method, path, false);
  if (ri.is_resource) return false;
  bool acceptable = negotiate(accept, true).acceptable;
  if (ri.prefix == "apis" && !path.empty()) {
    std::string_view rest = std::string_view(path).substr(6);
    auto slash = rest.find('/');
    if (slash == std::string_view::npos) {
      auto g = api_group(reg, rest);
      if (!g) throw PageNotFound();
      if (!acceptable) throw not_acceptable(kRepresentations);
      send_json(reply, 200, *g);
      return true;
    }
    std::string_view group = rest.substr(0, slash);
    auto l = api_resource_list(reg, group, rest.substr(slash + 1));
    if (!l) group_path_not_found(reg, group);
    if (!acceptable) throw builtin_group(reg, group) ? route_not_acceptable(kRepresentations) : not_acceptable(kRepresentations);
    send_json(reply, 200, *l);
    return true;
  }
  if (ri.prefix == "api" && !ri.version.empty()) {
    auto l = api_resource_list(reg, "", ri.version);
    if (!l) throw path_not_found();
    if (!acceptable) throw route_not_acceptable(kRepresentations);
    send_json(reply, 200, *l);
    return true;
  }
  throw PageNotFound();
}

void Handler::handle_resource(http::Request& req, http::Reply& reply, const User& user) {
  auto q = http::Query::parse(req.raw_query());
  bool watch_param = parse_bool(q.get_or("watch", ""));
  RequestInfo ri = parse_request_info(req.method, req.path(), watch_param);
  auto r = service_.registry().find(ri.group, ri.version, ri.resource);
  if (!r) group_path_not_found(service_.registry(), ri.group);
  if (!r->namespaced && !ri.ns.empty()) throw path_not_found();
  const auto* vi = r->version(ri.version);
  const std::string& sub = ri.subresource;
  if (!sub.empty()) {
    bool ok = (sub == "status" && vi->status_subresource) || (sub == "scale" && vi->scale) ||
              (sub == "finalize" && r->finalize_subresource) ||
              (sub == "token" && r->extra_subresources_token && token_request_) ||
              (sub == "binding" && r->binding_subresource);
    if (!ok) throw path_not_found();
  } else if (!r->review && std::find(r->verbs.begin(), r->verbs.end(), ri.verb) == r->verbs.end()) {
    throw method_not_allowed();  // e.g. deletecollection of namespaces
  }
  Target t{r, ri.version, ri.ns, ri.name, sub};
  auto acc = negotiate(req.headers.get_or("Accept", ""), false);
  if (!acc.acceptable) throw not_acceptable_for(*r, ri.verb, sub);
  const auto& rr = *r;

  if (ri.verb == "get") {
    if (auto rv = q.get("resourceVersion"); rv && !rv->empty()) parse_rv(*rv);
    json::Value obj = service_.get(t);
    if (sub == "scale") obj = to_scale(rr, t.version, obj);
    if (acc.kind == Accepted::Kind::Table && sub.empty()) {
      send_json(reply, 200, table::table_for(converter_of(rr, t.version), obj, table_options(q, acc)));
    } else if (acc.kind == Accepted::Kind::PartialMetadata) {
      send_json(reply, 200, table::partial_object_metadata(obj, "meta.k8s.io/" + acc.version));
    } else {
      send_value(reply, 200, obj, acc);
    }
    return;
  }
  if (ri.verb == "list") {
    validate_list_options(q, false);
    auto lo = list_options(rr, q);
    auto list_meta = [](const std::string& rv, const std::string& cont, const std::optional<std::int64_t>& remaining) {
      json::Object md{{"resourceVersion", rv}};
      if (!cont.empty()) md["continue"] = cont;
      if (remaining) md["remainingItemCount"] = *remaining;
      return md;
    };
    std::optional<Service::RawList> raw;
    if (acc.kind == Accepted::Kind::Json && t.version == rr.storage_version().name) {
      raw = service_.list_raw(t, lo);
      // Objects written while another version was the storage version stay stored at it until
      // rewritten (storage version migration): those need converting.
      const std::string want = rr.api_version(t.version);
      for (const auto& i : raw->items)
        if (json::get_string(*i.value, {"apiVersion"}) != want) {
          raw.reset();
          break;
        }
    }
    if (raw) {
      // The common case (informers, kubectl -o json): stored objects as they are serialised.
      json::Value envelope = json::Object{{"kind", rr.list_kind}, {"apiVersion", rr.api_version(t.version)},
                                          {"metadata", list_meta(raw->resource_version, raw->continue_token, raw->remaining)},
                                          {"items", json::Array{}}};
      std::vector<std::shared_ptr<const std::string>> items;
      items.reserve(raw->items.size());
      for (const auto& i : raw->items) items.push_back(i.json);
      send_body(reply, 200, serialize_list(envelope, items, !rr.crd), "application/json");
      return;
    }
    auto res = service_.list(t, lo);
    json::Object md = list_meta(res.resource_version, res.continue_token, res.remaining);
    if (acc.kind == Accepted::Kind::Table) {
      json::Value list = json::Object{{"metadata", md}, {"items", json::Array(res.items.begin(), res.items.end())}};
      send_json(reply, 200, table::table_for(converter_of(rr, t.version), list, table_options(q, acc)));
      return;
    }
    if (acc.kind == Accepted::Kind::PartialMetadata) {
      json::Array items;
      for (const auto& i : res.items) items.push_back(table::partial_object_metadata(i, "meta.k8s.io/" + acc.version));
      send_json(reply, 200, json::Object{{"kind", "PartialObjectMetadataList"}, {"apiVersion", "meta.k8s.io/" + acc.version},
                                         {"metadata", md}, {"items", std::move(items)}});
      return;
    }
    if (!rr.crd)
      for (auto& i : res.items)
        if (auto* o = i.if_object()) {
          o->erase("apiVersion");
          o->erase("kind");
        }
    json::Value envelope = json::Object{{"kind", rr.list_kind}, {"apiVersion", rr.api_version(t.version)}, {"metadata", md},
                                        {"items", json::Array(res.items.begin(), res.items.end())}};
    send_value(reply, 200, envelope, acc);
    return;
  }
  if (ri.verb == "watch") {
    WatchRequest w;
    w.target = t;
    auto lo = list_options(rr, q);
    Service::check_field_selector(rr, lo.fields);
    w.labels = lo.labels;
    w.fields = lo.fields;
    w.bookmarks = parse_bool(q.get_or("allowWatchBookmarks", ""));
    std::string rv(q.get_or("resourceVersion", ""));
    bool send_initial = q.has("sendInitialEvents") ? parse_bool(q.get_or("sendInitialEvents", "")) : false;
    validate_list_options(q, true);
    if (send_initial) {
      w.initial_state = true;
      // The initial-events-end bookmark is a bookmark: only for watches that allow them.
      w.initial_events_end = w.bookmarks;
    } else if (rv.empty() || rv == "0") {
      w.initial_state = true;
    } else {
      w.from_rv = parse_rv(rv);
      service_.wait_for_resource_version(w.from_rv);  // a resourceVersion from the future
    }
    if (auto ts = q.get("timeoutSeconds"); ts && !ts->empty()) {
      try {
        w.timeout = std::chrono::seconds(std::max(1LL, std::stoll(std::string(*ts))));
      } catch (...) {
        throw bad_request("timeoutSeconds: invalid value \"" + std::string(*ts) + "\"");
      }
    }
    if (acc.kind == Accepted::Kind::Table) {
      w.format = WatchRequest::Format::Table;
      w.table_include = std::string(q.get_or("includeObject", "Metadata"));
      w.table_api_version = "meta.k8s.io/" + (acc.version.empty() ? std::string("v1") : acc.version);
    } else if (acc.kind == Accepted::Kind::PartialMetadata) {
      w.format = WatchRequest::Format::Metadata;
    }
    watches_.serve(std::move(w), reply);
    return;
  }
  if (rr.review) {
    if (ri.verb != "create" || !review_) throw method_not_allowed();
    json::Value body = parse_json_body(req, rr.kind);
    if (body.is_object()) {
      // Decoded into the Go type (unknown members dropped) and, like any create, given its
      // managedFields: the reviews that answer with the request (access and token reviews) show
      // them. The fields are what differs from the type's zero value, whose spec is {}.
      std::string api = rr.api_version(t.version);
      if (const auto* m = typed::kind_message(api, rr.kind)) typed::check(body, *m);
      WriteOptions o;
      fill_write_options(o, req, q, user, "CreateOptions");
      const json::Value zero = json::Object{{"spec", json::Object{}}};
      patch::set_managed_fields(body, patch::update(&zero, body, o.field_manager, "Update", "", api, meta::Clock::now(),
                                                    list_types_for(rr, t.version)));
    }
    json::Value out = review_(rr, t.ns, body, user);
    auto& o = out.as_object();
    // Members in the order of the Go types: kind, apiVersion, metadata, spec, status.
    json::Object head{{"kind", rr.kind}, {"apiVersion", rr.api_version(t.version)}};
    for (auto k : {"metadata", "spec", "status"})
      if (auto* v = o.if_contains(k)) head[k] = std::move(*v);
    for (auto& [k, v] : o)
      if (!head.contains(k)) head[k] = std::move(v);
    send_value(reply, 201, head, acc);
    return;
  }
  if (ri.verb == "create" && sub == "token") {
    json::Value sa = service_.get(Target{r, t.version, t.ns, t.name, ""});
    json::Value body = parse_json_body(req, "TokenRequest");
    WriteOptions o;
    fill_write_options(o, req, q, user, "CreateOptions");
    send_value(reply, 201, token_request_(sa, body, o.field_manager), acc);
    return;
  }
  if (sub == "token") throw method_not_allowed();
  if (sub == "binding") {
    if (ri.verb != "create") throw method_not_allowed();
    WriteOptions o;
    fill_write_options(o, req, q, user, "CreateOptions");
    bind_pod(service_, t, parse_json_body(req, "Binding"), o);
    send_json(reply, 201, json::Object{{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", json::Object{}},
                                        {"status", "Success"}, {"code", 201}});
    return;
  }
  if (ri.verb == "create") {
    if (!t.name.empty() && sub.empty()) throw method_not_allowed();
    WriteOptions o;
    fill_write_options(o, req, q, user, "CreateOptions");
    json::Value body = parse_object_body(req, rr.kind, o);
    auto res = service_.create(t, std::move(body), o);
    send_value(reply, 201, res.object, acc, o.warnings);
    return;
  }
  if (ri.verb == "update") {
    WriteOptions o;
    fill_write_options(o, req, q, user, "UpdateOptions");
    json::Value body = parse_object_body(req, sub == "scale" ? "Scale" : rr.kind, o);
    auto res = service_.update(t, std::move(body), o);
    send_value(reply, 200, res.object, acc, o.warnings);
    return;
  }
  if (ri.verb == "patch") {
    std::string mt = media_type(req.headers.get_or("Content-Type", ""));
    PatchType type;
    if (mt == "application/json-patch+json") type = PatchType::Json;
    else if (mt == "application/merge-patch+json") type = PatchType::Merge;
    else if (mt == "application/strategic-merge-patch+json") type = PatchType::Strategic;
    else if (mt == "application/apply-patch+yaml") type = PatchType::Apply;
    else if (rr.crd)
      throw unsupported_media_type(mt, {"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"});
    else
      throw route_unsupported_media_type();
    WriteOptions o;
    fill_write_options(o, req, q, user, "PatchOptions", type);
    bool force = parse_bool(q.get_or("force", ""));
    auto res = service_.patch(t, type, req.body, force, o);
    send_value(reply, res.created ? 201 : 200, res.object, acc, o.warnings);
    return;
  }
  if (ri.verb == "delete" || ri.verb == "deletecollection") {
    DeleteOptions d;
    d.user = user;
    json::Array dry_run;
    if (!req.body.empty()) {
      json::Value body = parse_json_body(req, "DeleteOptions");
      d.propagation = std::string(json::get_string(body, {"propagationPolicy"}));
      if (auto g = json::get_int(body, {"gracePeriodSeconds"})) d.grace_period = *g;
      d.precondition_uid = std::string(json::get_string(body, {"preconditions", "uid"}));
      d.precondition_rv = std::string(json::get_string(body, {"preconditions", "resourceVersion"}));
      if (const auto* dr = json::get_array(body, {"dryRun"}))
        for (const auto& x : *dr) dry_run.push_back(x);
      if (const auto* od = json::find(body, {"orphanDependents"}); od && od->is_bool() && d.propagation.empty())
        d.propagation = od->get_bool() ? "Orphan" : "Background";
    }
    if (auto p = q.get("propagationPolicy")) d.propagation = std::string(*p);
    for (const auto& [k, v] : q.items())
      if (k == "dryRun") dry_run.emplace_back(v);
    for (const auto& v : dry_run)
      if (v != "All")
        throw invalid_options("DeleteOptions", {validation::field_not_supported(FieldPath("dryRun"), json::Value(dry_run), {"All"})});
    d.dry_run = !dry_run.empty();
    if (auto g = q.get("gracePeriodSeconds"); g && !g->empty()) d.grace_period = std::stoll(std::string(*g));
    if (ri.verb == "delete") {
      auto res = service_.remove(t, d);
      send_value(reply, 200, res.body, acc);
    } else {
      auto lo = list_options(rr, q);
      send_value(reply, 200, service_.delete_collection(t, lo, d), acc);
    }
    return;
  }
  throw method_not_allowed();
}

}  // namespace capstan::apiserver::rest
