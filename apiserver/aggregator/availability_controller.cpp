#include "apiserver/aggregator/availability_controller.h"

#include "runtime/meta/object.h"

namespace capstan::apiserver::aggregator {
namespace {

constexpr std::size_t kMaxMessage = 512;
constexpr std::size_t kMaxDiscoveryDocument = 1024 * 1024;

// Services and Endpoints are keyed as themselves; their reconcile fans out to the APIServices
// naming them (the map runs under the store lock and may not read the store).
std::vector<system::Key> keys_of(const storage::Event& e) {
  if (!e.object) return {};
  const json::Value& o = *e.object.value;
  return {system::Key{e.resource, std::string(json::get_string(o, {"metadata", "namespace"})),
                      std::string(json::get_string(o, {"metadata", "name"}))}};
}

meta::Condition condition(std::string status, std::string reason, std::string message) {
  if (message.size() > kMaxMessage) message = message.substr(0, kMaxMessage) + "...";
  return meta::Condition{"Available", std::move(status), std::move(reason), std::move(message), 0, ""};
}

}  // namespace

AvailabilityController::AvailabilityController(storage::Store& store, Backends& backends, AvailabilityOptions options)
    : store_(store),
      backends_(backends),
      options_(options),
      loop_("apiservice-availability", store, [this](const system::Key& k) { return reconcile(k); }) {}

void AvailabilityController::start() {
  loop_.watch(kApiServices, keys_of);
  loop_.watch("services", keys_of);
  loop_.watch("endpoints", keys_of);
  loop_.start();
}

std::chrono::milliseconds AvailabilityController::reconcile(const system::Key& k) {
  if (k.resource == kApiServices) return check(k.name);
  for (const auto& a : aggregated_api_services(store_))
    if (a.service->ns == k.ns && a.service->name == k.name) loop_.enqueue(system::Key{kApiServices, "", a.name});
  return {};
}

std::optional<json::Value> AvailabilityController::resource_list(const std::string& api_service) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = resource_lists_.find(api_service);
  if (it == resource_lists_.end()) return std::nullopt;
  return it->second;
}

std::chrono::milliseconds AvailabilityController::check(const std::string& name) {
  auto obj = store_.get(kApiServices, "", name);
  if (!obj) {
    std::lock_guard<std::mutex> l(mu_);
    resource_lists_.erase(name);
    return {};
  }
  ApiService a = parse_api_service(*obj);
  meta::Condition c;
  if (!a.service) {
    c = condition("True", "Local", "Local APIServices are always available");
    std::lock_guard<std::mutex> l(mu_);
    resource_lists_.erase(name);
  } else {
    try {
      http::Headers h{{"Accept", "application/json"}, {"X-Remote-User", "system:kube-aggregator"},
                      {"X-Remote-Group", "system:masters"}};
      auto r = backends_.send(a, "GET", "/apis/" + a.group + "/" + a.version, h, {}, options_.probe_timeout);
      if (r.status >= 200 && r.status < 300) {
        c = condition("True", "Passed", "all checks passed");
        auto doc = r.body.size() <= kMaxDiscoveryDocument ? json::try_parse(r.body) : std::nullopt;
        std::lock_guard<std::mutex> l(mu_);
        if (doc && doc->is_object()) resource_lists_[name] = std::move(*doc);
        else resource_lists_.erase(name);
      } else
        c = condition("False", "FailedDiscoveryCheck",
                      "failing or missing response from the service: GET /apis/" + a.group + "/" + a.version + " answered " +
                          std::to_string(r.status));
    } catch (const BackendError& e) {
      std::string what = e.what();
      std::string reason = what.find("not found") != std::string::npos      ? "ServiceNotFound"
                           : what.find("no endpoints") != std::string::npos ? "MissingEndpoints"
                                                                            : "FailedDiscoveryCheck";
      c = condition("False", reason, what);
    }
  }
  bool available = c.status == "True";
  store_.update(kApiServices, "", name, [&](const storage::Object& cur) -> std::optional<json::Value> {
    if (json::get_string(*cur, {"metadata", "uid"}) != json::get_string(*obj, {"metadata", "uid"})) return std::nullopt;
    json::Value v = *cur.value;
    if (!meta::set_condition(v, c)) return std::nullopt;
    return v;
  });
  if (!a.service) return {};
  return available ? options_.recheck_available : options_.recheck_unavailable;
}

}  // namespace capstan::apiserver::aggregator
