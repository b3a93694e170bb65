#include "controllers/monitoring/env.h"

#include "controllers/monitoring/references.h"

#include "runtime/events/recorder.h"

namespace capstan::monitoring {

Env::Env(client::Client& c, cache::Informer& p, cache::Informer& agents, cache::Informer& sm, cache::Informer& pm, cache::Informer& r, cache::Informer& ns,
         Scrapes scrapes, Owned owned, Alerting alerting, MonitoringOptions o)
    : client(c),
      prometheuses(p),
      prometheus_agents(agents),
      service_monitors(sm),
      pod_monitors(pm),
      probes(scrapes.probes),
      scrape_configs(scrapes.scrape_configs),
      rules(r),
      namespaces(ns),
      statefulsets(owned.statefulsets),
      configmaps(owned.configmaps),
      secrets(owned.secrets),
      services(owned.services),
      alertmanagers(alerting.alertmanagers),
      alertmanager_configs(alerting.configs),
      options(o) {}

Env::~Env() = default;

void Env::record_reads(const std::string& name, const controller::Request& request, const std::vector<std::string>& ids) const {
  if (references) references->record(name, request, ids);
}

void Env::event(const json::Value& target, std::string_view type, std::string_view reason, std::string_view message) const {
  if (recorder) recorder->event(target, type, reason, message);
}

}  // namespace capstan::monitoring
