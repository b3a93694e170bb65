#include "manager/install.h"

#include "runtime/client/client.h"
#include "runtime/log/log.h"
#include "runtime/meta/object.h"

#include <chrono>
#include <thread>

namespace capstan::manager {

void ensure_namespace(client::Client& c, const std::string& name, const std::string& field_manager) {
  json::Value ns = json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", name}}}};
  c.apply({"", "v1", "namespaces"}, "", ns, field_manager, true);
}

void install_crds(client::Client& c, const std::vector<const plugin::Plugin*>& controllers, const WebhookEndpoint& endpoint,
                  const std::string& field_manager) {
  const meta::GroupVersionResource crds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};
  std::vector<std::string> names;
  for (const auto* p : controllers) {
    for (const auto& crd : p->crds(endpoint)) {
      c.apply(crds, "", crd, field_manager, true);
      names.emplace_back(meta::name_of(crd));
    }
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (const auto& n : names) {
    while (true) {
      auto crd = c.get(crds, "", n);
      auto est = meta::find_condition(crd, "Established");
      if (est && est->status == "True") break;
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("CustomResourceDefinition " + n + " did not become Established within 30s");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  log::info("CRDs installed", {{"count", names.size()}});
}

void install_webhooks(client::Client& c, const std::vector<const plugin::Plugin*>& controllers, const WebhookEndpoint& endpoint,
                      const std::string& field_manager) {
  std::size_t n = 0;
  for (const auto* p : controllers) {
    for (const auto& cfg : p->webhook_configurations(endpoint)) {
      std::string_view kind = json::get_string(cfg, {"kind"});
      meta::GroupVersionResource gvr{"admissionregistration.k8s.io", "v1",
                                     kind == "MutatingWebhookConfiguration" ? "mutatingwebhookconfigurations"
                                                                            : "validatingwebhookconfigurations"};
      c.apply(gvr, "", cfg, field_manager, true);
      ++n;
    }
  }
  log::info("webhook configurations installed", {{"count", n}});
}

}  // namespace capstan::manager
