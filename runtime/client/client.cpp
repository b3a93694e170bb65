// Client construction and the dynamic (resource-addressed) CRUD operations.
#include "runtime/client/client.h"

#include "runtime/client/client_impl.h"
#include "runtime/client/discovery.h"
#include "runtime/meta/object.h"
#include "runtime/meta/ascii.h"

#include <stdexcept>

namespace capstan::client {
namespace {

// Escapes one path segment (an object name) as Go's url.PathEscape does: unreserved
// characters and the reserved ones allowed in a segment ($&+:=@) stay, the rest is %XX.
std::string escape_segment(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    bool keep = std::isalnum(c) || std::string_view("-._~$&+:=@").find(static_cast<char>(c)) != std::string_view::npos;
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string item_path(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                      std::string_view subresource = {}) {
  std::string p = gvr.path(ns);
  p += '/';
  p += escape_segment(name);
  if (!subresource.empty()) {
    p += '/';
    p += subresource;
  }
  return p;
}

RequestInfo info_for(std::string verb, const meta::GroupVersionResource& gvr, std::string_view ns,
                     std::string_view name, std::string_view subresource = {}) {
  return {std::move(verb), gvr.group_resource(), std::string(ns), std::string(name), std::string(subresource)};
}

void add_list_params(Params& q, const ListOptions& o) {
  q.add_if(!o.label_selector.empty(), "labelSelector", o.label_selector);
  q.add_if(!o.field_selector.empty(), "fieldSelector", o.field_selector);
  q.add_if(o.limit > 0, "limit", std::to_string(o.limit));
  q.add_if(!o.continue_token.empty(), "continue", o.continue_token);
  if (o.resource_version) q.add("resourceVersion", *o.resource_version);
  q.add_if(!o.resource_version_match.empty(), "resourceVersionMatch", o.resource_version_match);
  if (o.timeout_seconds) q.add("timeoutSeconds", std::to_string(*o.timeout_seconds));
}

void add_write_params(Params& q, const WriteOptions& o) {
  q.add_if(o.dry_run, "dryRun", "All");
  q.add_if(!o.field_manager.empty(), "fieldManager", o.field_manager);
  q.add_if(!o.field_validation.empty(), "fieldValidation", o.field_validation);
}

std::string require_name(const json::Value& obj, std::string_view verb) {
  std::string_view name = meta::name_of(obj);
  if (name.empty()) throw std::invalid_argument(std::string(verb) + ": the object has no metadata.name");
  return std::string(name);
}

ObjectList to_list(json::Value body, const RequestInfo& info) {
  ObjectList out;
  if (!body.is_object()) throw std::runtime_error(info.describe() + ": the response is not a JSON object");
  out.api_version = std::string(json::get_string(body, {"apiVersion"}));
  out.kind = std::string(json::get_string(body, {"kind"}));
  out.resource_version = std::string(json::get_string(body, {"metadata", "resourceVersion"}));
  out.continue_token = std::string(json::get_string(body, {"metadata", "continue"}));
  out.remaining_item_count = json::get_int(body, {"metadata", "remainingItemCount"});
  if (json::Value* items = json::find(body, {"items"}); items && items->is_array()) {
    auto& arr = items->as_array();
    out.items.reserve(arr.size());
    for (auto& item : arr) out.items.push_back(std::move(item));
  }
  return out;
}

}  // namespace

Client::Client(Config config, ClientOptions options)
    : impl_(std::make_shared<Impl>(std::move(config), std::move(options))), as_(impl_->config.impersonate) {
  impl_->discovery = std::make_unique<Discovery>(*this);
  impl_->mapper = std::make_unique<RestMapper>(*impl_->discovery, impl_->options.mapper);
}

Client::Client(std::shared_ptr<Impl> impl, Impersonation as) : impl_(std::move(impl)), as_(std::move(as)) {}

Client::~Client() = default;

std::unique_ptr<Client> Client::impersonating(Impersonation who) {
  if (who.empty()) who = impl_->config.impersonate;
  return std::unique_ptr<Client>(new Client(impl_, std::move(who)));
}

http::Response Client::send(Call& call, http::Cancellation* cancel) {
  call.as = &as_;
  return impl_->execute(call, cancel);
}

const Config& Client::config() const { return impl_->config; }
Discovery& Client::discovery() { return *impl_->discovery; }
RestMapper& Client::mapper() { return *impl_->mapper; }

json::Value Client::get(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                        const GetOptions& options) {
  Call c{"GET", info_for("get", gvr, ns, name, options.subresource), item_path(gvr, ns, name, options.subresource)};
  if (options.resource_version) c.query.add("resourceVersion", *options.resource_version);
  return parse_body(send(c), c.info);
}

std::string Client::list_raw(const meta::GroupVersionResource& gvr, std::string_view ns, const ListOptions& options,
                             http::Cancellation* cancel) {
  Call c{"GET", info_for("list", gvr, ns, ""), gvr.path(ns)};
  add_list_params(c.query, options);
  return std::move(send(c, cancel).body);
}

ObjectList Client::list(const meta::GroupVersionResource& gvr, std::string_view ns, const ListOptions& options) {
  Call c{"GET", info_for("list", gvr, ns, ""), gvr.path(ns)};
  add_list_params(c.query, options);
  return to_list(parse_body(send(c), c.info), c.info);
}

ObjectList Client::list_all(const meta::GroupVersionResource& gvr, std::string_view ns, ListOptions options) {
  ObjectList all = list(gvr, ns, options);
  while (!all.continue_token.empty()) {
    // Follow-up pages repeat the query with the token; resourceVersion(Match) must not be sent.
    options.continue_token = all.continue_token;
    options.resource_version.reset();
    options.resource_version_match.clear();
    ObjectList page = list(gvr, ns, options);
    for (auto& item : page.items) all.items.push_back(std::move(item));
    all.continue_token = std::move(page.continue_token);
    all.resource_version = std::move(page.resource_version);
    all.remaining_item_count = page.remaining_item_count;
  }
  return all;
}

json::Value Client::create(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                           const WriteOptions& options) {
  Call c{"POST", info_for("create", gvr, ns, meta::name_of(obj)), gvr.path(ns)};
  add_write_params(c.query, options);
  c.body = json::serialize(obj);
  c.content_type = "application/json";
  return parse_body(send(c), c.info);
}

json::Value Client::update(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                           const WriteOptions& options) {
  std::string name = require_name(obj, "update " + gvr.group_resource());
  Call c{"PUT", info_for("update", gvr, ns, name), item_path(gvr, ns, name)};
  add_write_params(c.query, options);
  c.body = json::serialize(obj);
  c.content_type = "application/json";
  return parse_body(send(c), c.info);
}

json::Value Client::update_status(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                                  const WriteOptions& options) {
  std::string name = require_name(obj, "update " + gvr.group_resource() + " status");
  Call c{"PUT", info_for("update", gvr, ns, name, "status"), item_path(gvr, ns, name, "status")};
  add_write_params(c.query, options);
  c.body = json::serialize(obj);
  c.content_type = "application/json";
  return parse_body(send(c), c.info);
}

json::Value Client::patch(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                          PatchType type, std::string_view body, const PatchOptions& options) {
  if (name.empty()) throw std::invalid_argument("patch " + gvr.group_resource() + ": no object name given");
  if (type == PatchType::Apply && options.field_manager.empty())
    throw std::invalid_argument("apply " + gvr.group_resource() + " " + std::string(name) +
                                ": server-side apply needs a field manager");
  Call c{"PATCH", info_for(type == PatchType::Apply ? "apply" : "patch", gvr, ns, name, options.subresource),
         item_path(gvr, ns, name, options.subresource)};
  c.query.add_if(options.dry_run, "dryRun", "All");
  c.query.add_if(!options.field_manager.empty(), "fieldManager", options.field_manager);
  c.query.add_if(!options.field_validation.empty(), "fieldValidation", options.field_validation);
  c.query.add_if(type == PatchType::Apply && options.force, "force", "true");
  c.body = std::string(body);
  c.content_type = std::string(content_type(type));
  return parse_body(send(c), c.info);
}

json::Value Client::patch(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                          PatchType type, const json::Value& body, const PatchOptions& options) {
  return patch(gvr, ns, name, type, std::string_view(json::serialize(body)), options);
}

json::Value Client::apply(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                          std::string_view field_manager, bool force, std::string_view subresource) {
  std::string name = require_name(obj, "apply " + gvr.group_resource());
  PatchOptions o;
  o.field_manager = std::string(field_manager);
  o.force = force;
  o.subresource = std::string(subresource);
  // JSON is YAML: the body is sent as JSON, as kubectl does.
  return patch(gvr, ns, name, PatchType::Apply, std::string_view(json::serialize(obj)), o);
}

std::optional<json::Value> Client::remove(const meta::GroupVersionResource& gvr, std::string_view ns,
                                          std::string_view name, const DeleteOptions& options) {
  if (name.empty()) throw std::invalid_argument("delete " + gvr.group_resource() + ": no object name given");
  Call c{"DELETE", info_for("delete", gvr, ns, name), item_path(gvr, ns, name)};
  c.body = json::serialize(delete_options_body(options));
  c.content_type = "application/json";
  try {
    return parse_body(send(c), c.info);
  } catch (const ApiError& e) {
    if (options.ignore_not_found && is_not_found(e)) return std::nullopt;
    throw;
  }
}

json::Value Client::delete_collection(const meta::GroupVersionResource& gvr, std::string_view ns,
                                      const ListOptions& selection, const DeleteOptions& options) {
  Call c{"DELETE", info_for("deletecollection", gvr, ns, ""), gvr.path(ns)};
  add_list_params(c.query, selection);
  c.body = json::serialize(delete_options_body(options));
  c.content_type = "application/json";
  return parse_body(send(c), c.info);
}

http::Response Client::raw(std::string_view method, std::string_view path_and_query, std::string_view body,
                           std::string_view content_type) {
  if (path_and_query.empty() || path_and_query.front() != '/')
    throw std::invalid_argument("raw request path must start with '/': " + std::string(path_and_query));
  const std::string verb = meta::ascii_lower(method);
  std::string path(path_and_query);
  Call c{std::string(method), RequestInfo{verb, path, "", "", ""}, path};
  c.body = std::string(body);
  if (!body.empty()) c.content_type = content_type.empty() ? "application/json" : std::string(content_type);
  return send(c);
}

}  // namespace capstan::client
