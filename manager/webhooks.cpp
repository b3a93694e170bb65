#include "manager/webhooks.h"

#include "apis/gitops/v1/group.h"
#include "runtime/controller/manager.h"
#include "webhooks/certificates/webhooks.h"
#include "webhooks/gitops/webhooks.h"
#include "webhooks/kafka/webhooks.h"
#include "webhooks/monitoring/webhooks.h"

namespace capstan::manager {

void attach_webhooks(ControllerDescriptor& d) {
  if (d.name == "certificates") {
    d.webhook_configurations = [](const WebhookEndpoint& ep) { return webhooks::certificates::configurations(ep); };
    d.register_webhooks = [](controller::Manager&, webhook::Server& s, const Settings&) { webhooks::certificates::register_webhooks(s); };
  } else if (d.name == "monitoring") {
    d.webhook_configurations = [](const WebhookEndpoint& ep) { return webhooks::monitoring::configurations(ep); };
    d.register_webhooks = [](controller::Manager&, webhook::Server& s, const Settings&) { webhooks::monitoring::register_webhooks(s); };
  } else if (d.name == "kafka") {
    d.webhook_configurations = [](const WebhookEndpoint& ep) { return webhooks::kafka::configurations(ep); };
    d.register_webhooks = [](controller::Manager&, webhook::Server& s, const Settings&) { webhooks::kafka::register_webhooks(s); };
  } else if (d.name == "gitops") {
    d.webhook_configurations = [](const WebhookEndpoint& ep) { return webhooks::gitops::configurations(ep); };
    d.register_webhooks = [](controller::Manager& mgr, webhook::Server& s, const Settings& settings) {
      webhooks::gitops::Options o;
      o.url_schemes = settings.gitops_url_schemes;
      // The gitops controller's own (declared) informer: dependsOn cycles are looked up in it.
      o.kustomizations = &mgr.informer(apis::gitops::v1::kKustomizationType);
      webhooks::gitops::register_webhooks(s, o);
    };
  }
}

}  // namespace capstan::manager
