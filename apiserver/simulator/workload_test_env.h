// The workload tests' world: an in-process API server on 127.0.0.1:0 (memory store, its own
// GC, namespace and service-account loops) and the client-based WorkloadSimulator connected
// to it over HTTPS as admin. Helpers write and read objects through the server's
// rest::Service and store, as a user would (YAML in, conflicts retried); bounded waits; an
// event recorder for asserting on the order in which things happened.
#pragma once

#include "apiserver/registry/resource.h"
#include "apiserver/rest/service.h"
#include "apiserver/simulator/workload_simulator.h"
#include "apiserver/storage/store.h"
#include "testing/eventually.h"
#include "testing/test_cluster.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/object.h"
#include "runtime/meta/pod.h"

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace capstan::simulator::testing {

namespace rest = apiserver::rest;
namespace storage = apiserver::storage;
using apiserver::ApiError;

using namespace std::chrono_literals;

// The bounded wait of every test (testing/eventually.h).
using e2e::eventually;

// Holds for the whole of `span` (checked every 5 ms).
inline bool stays(const std::function<bool()>& ok, std::chrono::milliseconds span) {
  auto deadline = std::chrono::steady_clock::now() + span;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!ok()) return false;
    std::this_thread::sleep_for(5ms);
  }
  return ok();
}

// Records store events of one resource (called under the store lock: only copies).
class Recorder : public storage::Watcher {
 public:
  void on_event(const storage::Event& e) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back(e);
  }
  std::vector<storage::Event> events() const {
    std::lock_guard<std::mutex> l(mu_);
    return events_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<storage::Event> events_;
};

struct Env {
  integration::TestCluster cluster;
  rest::Service& service = cluster.server().service();
  storage::Store& store = service.store();
  std::unique_ptr<WorkloadSimulator> sim;

  explicit Env(std::chrono::milliseconds ready_delay = 50ms, bool start = true) {
    create("namespaces", "", json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", "other"}}}});
    WorkloadOptions o;
    o.pod_ready_delay = ready_delay;
    sim = std::make_unique<WorkloadSimulator>(cluster.config(), o);
    if (start) sim->start();
  }
  ~Env() {
    if (sim) sim->stop();
  }

  rest::Target target(const std::string& gr, const std::string& ns, const std::string& name = "",
                      const std::string& sub = "") {
    auto r = service.registry().find_group_resource(gr);
    if (!r) throw std::invalid_argument("no resource " + gr);
    return rest::Target{r, r->storage_version().name, r->namespaced ? ns : "", name, sub};
  }
  json::Value create(const std::string& gr, const std::string& ns, json::Value obj) {
    rest::WriteOptions o;
    o.field_manager = "kubectl";
    return service.create(target(gr, ns), std::move(obj), o).object;
  }
  json::Value create_yaml(const std::string& gr, const std::string& yaml, const std::string& ns = "default") {
    return create(gr, ns, json::from_yaml(yaml));
  }
  // Read-modify-write as a user (main resource, or status with sub = "status").
  void modify(const std::string& gr, const std::string& ns, const std::string& name,
              const std::function<void(json::Value&)>& fn, const std::string& sub = "") {
    for (int i = 0; i < 20; ++i) {
      auto cur = store.get(gr, ns, name);
      if (!cur) throw std::runtime_error(gr + " " + ns + "/" + name + " not found");
      json::Value v = *cur.value;
      fn(v);
      rest::WriteOptions o;
      o.field_manager = "kubectl";
      try {
        service.update(target(gr, ns, name, sub), std::move(v), o);
        return;
      } catch (const ApiError& e) {
        if (e.code != 409) throw;
      }
    }
    throw std::runtime_error("too many conflicts updating " + name);
  }
  void remove(const std::string& gr, const std::string& ns, const std::string& name) {
    service.remove(target(gr, ns, name), rest::DeleteOptions{});
  }
  json::Value get(const std::string& gr, const std::string& ns, const std::string& name) const {
    auto o = store.get(gr, ns, name);
    return o ? *o.value : json::Value();
  }
  bool exists(const std::string& gr, const std::string& ns, const std::string& name) const {
    return static_cast<bool>(store.get(gr, ns, name));
  }
  std::vector<json::Value> list(const std::string& gr, const std::string& ns,
                                const std::function<bool(const json::Value&)>& keep = {}) const {
    std::vector<json::Value> out;
    for (const auto& o : store.list(gr, ns, "", 0).items)
      if (!keep || keep(*o.value)) out.push_back(*o.value);
    return out;
  }
  std::vector<json::Value> pods_with(const std::string& label, const std::string& value, const std::string& ns = "default") const {
    return list("pods", ns, [&](const json::Value& p) { return meta::label(p, label) == value; });
  }
  std::shared_ptr<Recorder> record(const std::string& gr) {
    auto r = std::make_shared<Recorder>();
    store.watch(gr, -1, r);
    return r;
  }
};

inline std::int64_t num(const json::Value& v, json::Path p) { return json::get_int(v, p).value_or(0); }
inline std::string str(const json::Value& v, json::Path p) { return std::string(json::get_string(v, p)); }

}  // namespace capstan::simulator::testing
