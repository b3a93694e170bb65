#include "runtime/webhook/metrics.h"

#include "runtime/metrics/registry.h"

#include <atomic>
#include <chrono>
#include <memory>

namespace capstan::webhook {

Handler instrument(const std::string& path, Handler handler, metrics::Registry* registry) {
  metrics::Registry& reg = registry ? *registry : metrics::Registry::global();
  auto& total = reg.counter("controller_runtime_webhook_requests_total",
                            "Total number of admission requests by HTTP status code.", {"webhook", "code"});
  auto& latency = reg.histogram("controller_runtime_webhook_latency_seconds",
                                "Histogram of the latency of processing admission requests", {"webhook"});
  auto& in_flight = reg.gauge("controller_runtime_webhook_requests_in_flight",
                              "Current number of admission requests being served.", {"webhook"});
  metrics::Histogram* lat = &latency.with({path});
  metrics::Gauge* flight = &in_flight.with({path});
  // Nearly every answer is a 200: its counter is looked up once (on the first 200, so that the
  // series appears when it has counted something, as controller-runtime's does).
  auto ok = std::make_shared<std::atomic<metrics::Counter*>>(nullptr);
  return [path, handler = std::move(handler), total = &total, lat, flight, ok](const http::Request& req) -> http::Response {
    flight->inc();
    auto start = std::chrono::steady_clock::now();
    http::Response resp;
    try {
      resp = handler(req);
    } catch (...) {
      flight->dec();
      lat->observe(std::chrono::steady_clock::now() - start);
      total->with({path, "500"}).inc();
      throw;
    }
    flight->dec();
    lat->observe(std::chrono::steady_clock::now() - start);
    if (resp.status != 200) {
      total->with({path, std::to_string(resp.status)}).inc();
    } else {
      metrics::Counter* c = ok->load(std::memory_order_acquire);
      if (!c) ok->store(c = &total->with({path, "200"}), std::memory_order_release);
      c->inc();
    }
    return resp;
  };
}

}  // namespace capstan::webhook
