#include "apiserver/server.h"

#include "apiserver/admission/claim_resize.h"
#include "apiserver/admission/webhook_admission.h"
#include "apiserver/admission/webhook_converter.h"
#include "apiserver/aggregator/authentication_config.h"
#include "apiserver/aggregator/availability_controller.h"
#include "apiserver/aggregator/discovery.h"
#include "apiserver/aggregator/proxy.h"
#include "apiserver/auth/bootstrap_policy.h"
#include "apiserver/auth/escalation.h"
#include "apiserver/auth/rbac_authorizer.h"
#include "apiserver/auth/request_authorizer.h"
#include "apiserver/auth/reviews.h"
#include "apiserver/auth/tokens.h"
#include "apiserver/patch/apply.h"
#include "apiserver/patch/managed_fields.h"
#include "apiserver/typed/value_structs.h"
#include "apiserver/registry/resource.h"
#include "apiserver/rest/api_error.h"
#include "apiserver/rest/handler.h"
#include "apiserver/rest/openapi.h"
#include "apiserver/rest/watch.h"
#include "apiserver/simulator/workload_simulator.h"
#include "apiserver/storage/store.h"
#include "apiserver/system/clusterrole_aggregation_controller.h"
#include "apiserver/system/crd_controller.h"
#include "apiserver/system/gc_controller.h"
#include "apiserver/system/namespace_controller.h"
#include "apiserver/system/root_ca_publisher.h"
#include "apiserver/system/serviceaccount_controller.h"
#include "runtime/client/config.h"
#include "runtime/http/server.h"
#include "runtime/log/log.h"
#include "runtime/meta/time.h"
#include "runtime/pki/pki.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace capstan::apiserver {
namespace fs = std::filesystem;

struct ApiServer::Impl {
  ApiServerOptions opts;
  std::string ca_pem, ca_key_pem, admin_cert_pem, admin_key_pem;
  std::unique_ptr<storage::Store> store;
  std::unique_ptr<registry::Registry> registry;
  std::unique_ptr<rest::Service> service;
  std::unique_ptr<admission::WebhookConverter> converter;
  std::unique_ptr<admission::WebhookAdmission> admission;
  std::unique_ptr<rest::WatchHub> watches;
  std::unique_ptr<rest::OpenApi> openapi;
  rest::Faults faults;
  std::unique_ptr<auth::TokenIssuer> tokens;
  std::unique_ptr<auth::RbacIndex> rbac;  // after the store: it watches it
  std::unique_ptr<auth::Authorizer> authorizer;
  std::unique_ptr<auth::RequestAuthorizer> request_authorizer;
  std::unique_ptr<auth::EscalationGuard> escalation;
  std::unique_ptr<admission::ClaimResizeAdmission> claim_resize;
  std::unique_ptr<auth::Reviews> reviews;
  std::unique_ptr<rest::Handler> handler;
  std::unique_ptr<http::Server> http;
  std::unique_ptr<system::CrdController> crds;
  std::unique_ptr<system::ClusterRoleAggregationController> aggregation;
  std::unique_ptr<system::GcController> gc;
  std::unique_ptr<system::NamespaceController> namespaces;
  std::unique_ptr<system::ServiceAccountController> service_accounts;
  std::unique_ptr<system::RootCaPublisher> root_ca;
  std::unique_ptr<simulator::WorkloadSimulator> workloads;
  std::unique_ptr<aggregator::Backends> aggregated_backends;
  std::unique_ptr<aggregator::Proxy> aggregator_proxy;
  std::unique_ptr<aggregator::AvailabilityController> apiservice_availability;
  bool started = false;

  void load_pki();
  void bootstrap();
  std::optional<rest::User> authenticate(const http::Request& req) const;
  bool debug_route(const http::Request& req, const rest::User& user, http::Reply& reply);
  json::Value token_request(const json::Value& sa, const json::Value& req, const std::string& field_manager) const;
  void make_authorizer();
};

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_private(const fs::path& p, const std::string& text) {
  fs::path tmp = p;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("writing " + p.string() + ": cannot open file");
    out << text;
  }
  fs::permissions(tmp, fs::perms::owner_read | fs::perms::owner_write);
  fs::rename(tmp, p);
}

}  // namespace

void ApiServer::Impl::load_pki() {
  using namespace std::chrono;
  fs::path dir = opts.data_dir.empty() ? fs::path() : fs::path(opts.data_dir) / "pki";
  if (!dir.empty() && fs::exists(dir / "ca.crt") && fs::exists(dir / "ca.key")) {
    ca_pem = read_text(dir / "ca.crt");
    ca_key_pem = read_text(dir / "ca.key");
  } else {
    auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
    auto ca = pki::self_signed_ca("capstan-ca", hours(24 * 365 * 10), key);
    ca_pem = ca.to_pem();
    ca_key_pem = key.to_pem(pki::KeyEncoding::PKCS8);
    if (!dir.empty()) {
      fs::create_directories(dir);
      write_private(dir / "ca.key", ca_key_pem);
      write_private(dir / "ca.crt", ca_pem);
    }
  }
  auto ca = pki::Certificate::parse_pem(ca_pem);
  auto ca_key = pki::PrivateKey::from_pem(ca_key_pem);
  auto admin = pki::client_certificate("admin", {"system:masters"}, ca, ca_key, hours(24 * 365));
  admin_cert_pem = admin.certificate.to_pem();
  admin_key_pem = admin.key.to_pem(pki::KeyEncoding::PKCS8);
}

std::optional<rest::User> ApiServer::Impl::authenticate(const http::Request& req) const {
  if (req.peer_cn) {
    rest::User u{*req.peer_cn, "", req.peer_orgs};
    u.groups.push_back("system:authenticated");
    return u;
  }
  auto authz = req.headers.get("Authorization");
  if (authz && authz->substr(0, 7) == "Bearer ") {
    auto claims = tokens->verify(authz->substr(7));
    if (!claims) return std::nullopt;
    return auth::service_account_user(*claims);
  }
  return std::nullopt;
}

bool ApiServer::Impl::debug_route(const http::Request& req, const rest::User& user, http::Reply& reply) {
  std::string_view path = req.path();
  if (path.substr(0, 15) != "/debug/capstan/") return false;
  if (!user.in_group("system:masters")) throw forbidden(nullptr, "", "only system:masters may use " + std::string(path));
  if (req.method != "POST") throw method_not_allowed();
  if (path == "/debug/capstan/compact") {
    store->compact();
    rest::send_json(reply, 200, json::Object{{"compactedResourceVersion", store->current_rv()}});
    return true;
  }
  if (path == "/debug/capstan/faults") {
    json::Value body = req.body.empty() ? json::Value(json::Object{}) : json::parse(req.body, "fault settings");
    if (auto v = json::find(body, {"rate429"}); v && json::as_number(*v)) faults.rate_429 = *json::as_number(*v);
    if (auto v = json::find(body, {"rate500"}); v && json::as_number(*v)) faults.rate_500 = *json::as_number(*v);
    if (auto v = json::get_int(body, {"latencyMs"})) faults.latency_ms = *v;
    if (auto v = json::get_int(body, {"retryAfterSeconds"})) faults.retry_after_seconds = static_cast<int>(*v);
    if (auto v = json::get_int(body, {"dropWatchesMs"})) watches->set_drop_after(std::chrono::milliseconds(*v));
    if (auto v = json::get_int(body, {"watchHistory"})) store->set_history(static_cast<std::size_t>(*v));
    if (auto v = json::get_int(body, {"bookmarkIntervalMs"})) watches->set_bookmark_interval(std::chrono::milliseconds(*v));
    rest::send_json(reply, 200, json::Object{{"rate429", faults.rate_429.load()}, {"rate500", faults.rate_500.load()},
                                             {"latencyMs", faults.latency_ms.load()}});
    return true;
  }
  throw path_not_found();
}

json::Value ApiServer::Impl::token_request(const json::Value& sa, const json::Value& req, const std::string& field_manager) const {
  using namespace std::chrono;
  auth::TokenClaims c;
  c.ns = json::get_string(sa, {"metadata", "namespace"});
  c.service_account = json::get_string(sa, {"metadata", "name"});
  c.uid = json::get_string(sa, {"metadata", "uid"});
  if (const auto* aud = json::get_array(req, {"spec", "audiences"}))
    for (const auto& a : *aud)
      if (a.is_string()) c.audiences.emplace_back(a.get_string());
  if (c.audiences.empty()) c.audiences.emplace_back(auth::kServiceAccountIssuer);
  std::int64_t ttl = json::get_int(req, {"spec", "expirationSeconds"}).value_or(3600);
  // The request as decoded (expirationSeconds defaulted) is what the manager is recorded for.
  json::Value decoded = req.is_object() ? req : json::Value(json::Object{});
  json::ensure_object(decoded, {"spec"})["expirationSeconds"] = ttl;
  if (ttl < 600) {
    throw invalid(*registry->find_group_resource("serviceaccounts"), c.service_account,
                  {validation::field_invalid(validation::FieldPath("spec").child("expirationSeconds"), json::Value(ttl),
                                         "may not specify a duration less than 10 minutes")});
  }
  auto now = system_clock::now();
  c.issued_at = duration_cast<seconds>(now.time_since_epoch()).count();
  c.expires_at = c.issued_at + ttl;
  c.id = rest::new_uid();
  const std::string api_version = "authentication.k8s.io/v1";
  json::Value out = decoded;
  auto& o = out.as_object();
  o["apiVersion"] = api_version;
  o["kind"] = "TokenRequest";
  auto& md = json::ensure_object(out, {"metadata"});
  md["name"] = c.service_account;
  md["namespace"] = c.ns;
  md["uid"] = rest::new_uid();
  md["creationTimestamp"] = meta::format_rfc3339(now);
  // Recorded against the zero TokenRequest, as kube-apiserver's field manager does: its spec (a
  // struct held by value) exists there already, so only the fields the request set are the manager's.
  const json::Value zero = typed::zero_object(api_version, "TokenRequest");
  patch::set_managed_fields(out, patch::update(&zero, decoded, field_manager, "Update", "token", api_version, now,
                                               *patch::builtin_list_types(api_version, "TokenRequest")));
  auto& spec = json::ensure_object(out, {"spec"});
  json::Array aud;
  for (const auto& a : c.audiences) aud.emplace_back(a);
  spec["audiences"] = std::move(aud);
  if (!spec.contains("boundObjectRef")) spec["boundObjectRef"] = nullptr;
  o["status"] = json::Object{{"token", tokens->issue(c)}, {"expirationTimestamp", meta::format_rfc3339(now + seconds(ttl))}};
  return out;
}

void ApiServer::Impl::make_authorizer() {
  const std::string& mode = opts.authorization_mode;
  if (mode == "AlwaysAllow") {
    authorizer = std::make_unique<auth::AlwaysAllow>();
  } else if (mode == "RBAC" || mode == "Node,RBAC") {
    authorizer = std::make_unique<auth::RbacAuthorizer>(*rbac);
  } else {
    throw std::invalid_argument("authorization-mode \"" + mode + "\" is not supported (RBAC or AlwaysAllow)");
  }
  request_authorizer = std::make_unique<auth::RequestAuthorizer>(*authorizer);
  escalation = std::make_unique<auth::EscalationGuard>(*authorizer, *rbac);
  service->add_write_guard(escalation.get());
  reviews = std::make_unique<auth::Reviews>(*authorizer, *tokens);
}

void ApiServer::Impl::bootstrap() {
  auto ns_res = registry->find_group_resource("namespaces");
  for (auto ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    if (store->get("namespaces", "", ns)) continue;
    rest::WriteOptions o;
    o.field_manager = "capstan-apiserver";
    service->create(rest::Target{ns_res, "v1", "", "", ""},
                    json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", ns}}}}, o);
  }
  // kube-apiserver's RBAC bootstrap (its rbac/bootstrap-roles post-start hook).
  auth::reconcile_bootstrap_policy(*service);
}

ApiServer::ApiServer(ApiServerOptions options) : impl_(std::make_unique<Impl>()) { impl_->opts = std::move(options); }

ApiServer::~ApiServer() { stop(); }

void ApiServer::start() {
  auto& s = *impl_;
  if (s.started) return;
  s.load_pki();
  s.store = std::make_unique<storage::Store>(storage::StoreOptions{s.opts.data_dir, s.opts.watch_history});
  s.registry = std::make_unique<registry::Registry>();
  s.service = std::make_unique<rest::Service>(*s.store, *s.registry);
  s.converter = std::make_unique<admission::WebhookConverter>(*s.store);
  s.admission = std::make_unique<admission::WebhookAdmission>(*s.store, *s.registry);
  s.claim_resize = std::make_unique<admission::ClaimResizeAdmission>(*s.store);
  s.service->add_write_guard(s.claim_resize.get());
  s.admission->set_converter(s.converter.get());
  s.service->set_converter(s.converter.get());
  s.service->set_admission(s.admission.get());
  s.watches = std::make_unique<rest::WatchHub>(*s.service, s.opts.bookmark_interval);
  s.watches->set_drop_after(s.opts.fault_drop_watches);
  s.openapi = std::make_unique<rest::OpenApi>(*s.registry);
  s.tokens = std::make_unique<auth::TokenIssuer>(s.opts.data_dir);
  s.rbac = std::make_unique<auth::RbacIndex>(*s.store);
  s.make_authorizer();
  s.faults.rate_429 = s.opts.fault_429;
  s.faults.rate_500 = s.opts.fault_500;
  s.faults.latency_ms = s.opts.fault_latency.count();
  s.crds = std::make_unique<system::CrdController>(*s.service);
  s.crds->start();
  s.bootstrap();
  s.aggregation = std::make_unique<system::ClusterRoleAggregationController>(*s.service);
  s.aggregation->start();
  // The control loops a cluster's controller manager would run (after the CRDs are served).
  s.gc = std::make_unique<system::GcController>(*s.service);
  s.namespaces = std::make_unique<system::NamespaceController>(*s.service);
  s.service_accounts = std::make_unique<system::ServiceAccountController>(*s.service, *s.tokens, s.ca_pem);
  s.root_ca = std::make_unique<system::RootCaPublisher>(*s.service, s.ca_pem);
  s.gc->start();
  s.namespaces->start();
  s.service_accounts->start();
  s.root_ca->start();
  // The aggregation layer: a front-proxy CA of its own (made at each start; aggregated API
  // servers read it from kube-system/extension-apiserver-authentication) and its client
  // certificate, which the proxy presents.
  {
    auto fp_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
    auto fp_ca = pki::self_signed_ca("capstan-front-proxy-ca", std::chrono::hours(24 * 365), fp_key);
    auto front_proxy = pki::client_certificate(std::string(aggregator::kFrontProxyClientName), {}, fp_ca, fp_key,
                                               std::chrono::hours(24 * 365));
    aggregator::publish_authentication_config(*s.service, s.ca_pem, fp_ca.to_pem());
    aggregator::BackendOptions bo;
    bo.client_cert_pem = front_proxy.certificate.to_pem();
    bo.client_key_pem = front_proxy.key.to_pem(pki::KeyEncoding::PKCS8);
    s.aggregated_backends = std::make_unique<aggregator::Backends>(*s.store, std::move(bo));
  }
  s.aggregator_proxy = std::make_unique<aggregator::Proxy>(*s.store, *s.registry, *s.aggregated_backends);
  s.apiservice_availability = std::make_unique<aggregator::AvailabilityController>(*s.store, *s.aggregated_backends);
  s.apiservice_availability->start();

  s.handler = std::make_unique<rest::Handler>(*s.service, *s.watches, *s.openapi,
                                              [&s](const http::Request& r) { return s.authenticate(r); }, s.faults);
  s.handler->add_route([&s](const http::Request& r, const rest::User& u, http::Reply& reply) { return s.debug_route(r, u, reply); });
  s.handler->add_route([&s](const http::Request& r, const rest::User& u, http::Reply& reply) { return (*s.aggregator_proxy)(r, u, reply); });
  s.handler->set_group_list_extension([&s](json::Value& doc, bool aggregated) {
    if (!aggregated) return aggregator::add_aggregated_groups(*s.store, doc);
    aggregator::add_aggregated_discovery(
        *s.store, [&s](const std::string& name) { return s.apiservice_availability->resource_list(name); }, doc);
  });
  s.handler->set_token_request(
      [&s](const json::Value& sa, const json::Value& req, const std::string& manager) { return s.token_request(sa, req, manager); });
  s.handler->set_review([&s](const registry::ResourceInfo& r, std::string_view ns, const json::Value& req, const rest::User& u) {
    return s.reviews->answer(r, ns, req, u);
  });
  s.handler->set_authorizer([&s](const http::Request& r, rest::User& u) { (*s.request_authorizer)(r, u); });

  auto [host, port] = http::split_host_port(s.opts.listen);
  auto ca = pki::Certificate::parse_pem(s.ca_pem);
  auto ca_key = pki::PrivateKey::from_pem(s.ca_key_pem);
  std::vector<std::string> hosts = {"127.0.0.1", "::1", "localhost", "kubernetes", "kubernetes.default",
                                    "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"};
  if (!host.empty() && host != "0.0.0.0" && std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  auto serving = pki::serving_certificate(hosts, ca, ca_key, std::chrono::hours(24 * 365));
  http::ServerOptions ho;
  ho.name = "apiserver";
  ho.address = host.empty() ? "0.0.0.0" : host;
  ho.port = port;
  ho.handler_threads = s.opts.handler_threads;
  ho.io_threads = 1;  // one reactor thread: a second only contends on epoll; handlers run on the pool
  // kube-apiserver's --max-request-body-bytes (3 MiB): the handler answers 413 for a body over it.
  // As Go's server does, up to 256 KiB more are still read (so the client sees the answer
  // rather than a reset); past that the connection is answered and closed mid-body.
  ho.body_limit = rest::kMaxRequestBodyBytes + 256 * 1024;
  ho.body_too_large = http::Response(413, json::serialize(rest::request_too_large().status()), "application/json");
  http::ServerTls tls;
  tls.cert_pem = serving.certificate.to_pem();
  tls.key_pem = serving.key.to_pem(pki::KeyEncoding::PKCS8);
  tls.client_ca_pem = s.ca_pem;
  ho.tls = tls;
  s.http = std::make_unique<http::Server>(ho, [&s](http::Request& r, http::Reply& reply) { (*s.handler)(r, reply); });
  s.http->start();
  s.handler->set_server_address(s.http->address());
  s.started = true;
  if (!s.opts.kubeconfig_out.empty()) {
    fs::path p(s.opts.kubeconfig_out);
    if (p.has_parent_path()) fs::create_directories(p.parent_path());
    write_private(p, kubeconfig());
  }
  log::info("API server serving", {{"url", url()}, {"dataDir", s.opts.data_dir}, {"kubeconfig", s.opts.kubeconfig_out}});
  if (s.opts.simulate_workloads) {
    // The same client-based simulator `capstan simulate-workloads` runs, against our own URL
    // as admin.
    simulator::WorkloadOptions wo;
    wo.pod_ready_delay = s.opts.pod_ready_delay;
    s.workloads = std::make_unique<simulator::WorkloadSimulator>(client_config(), wo);
    s.workloads->start();
  }
}

void ApiServer::stop() {
  auto& s = *impl_;
  if (!s.started) return;
  s.started = false;
  if (s.workloads) s.workloads->stop();  // a client of ours: before the server goes
  if (s.watches) s.watches->stop();
  if (s.http) s.http->stop();
  if (s.root_ca) s.root_ca->stop();
  if (s.apiservice_availability) s.apiservice_availability->stop();
  if (s.service_accounts) s.service_accounts->stop();
  if (s.namespaces) s.namespaces->stop();
  if (s.gc) s.gc->stop();
  if (s.crds) s.crds->stop();
  if (s.aggregation) s.aggregation->stop();
  s.http.reset();
  s.handler.reset();
  s.workloads.reset();
  s.root_ca.reset();
  s.apiservice_availability.reset();
  s.aggregator_proxy.reset();
  s.aggregated_backends.reset();
  s.service_accounts.reset();
  s.namespaces.reset();
  s.gc.reset();
  s.crds.reset();
  s.aggregation.reset();
  s.watches.reset();
  if (s.service) s.service->clear_write_guards();
  s.reviews.reset();
  s.escalation.reset();
  s.request_authorizer.reset();
  s.authorizer.reset();
  s.rbac.reset();
}

std::string ApiServer::url() const { return "https://" + impl_->http->address(); }
std::uint16_t ApiServer::port() const { return impl_->http->port(); }
const std::string& ApiServer::ca_pem() const { return impl_->ca_pem; }
rest::Service& ApiServer::service() { return *impl_->service; }
rest::Faults& ApiServer::faults() { return impl_->faults; }

client::Config ApiServer::client_config() const {
  client::Config c;
  c.server = url();
  c.ca_pem = impl_->ca_pem;
  c.client_cert_pem = impl_->admin_cert_pem;
  c.client_key_pem = impl_->admin_key_pem;
  return c;
}

std::string ApiServer::kubeconfig(std::string_view context) const { return client::to_kubeconfig(client_config(), context); }

}  // namespace capstan::apiserver
