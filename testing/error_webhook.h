// Errors from the API server itself, on either backend: a validating admission webhook (HTTPS on
// a free loopback port, its own CA) registered for every write to the groups Capstan's
// controllers touch, answering a settable share of them with 429 (Too Many Requests) or 500.
// Both kube-apiserver and the embedded server turn such a denial into an answer with that code,
// so the writer (the manager, the workload simulator) meets it as any overloaded or failing API
// server's answer. The webhook's failurePolicy is Ignore: once it stops, writes go on as before.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace capstan::webhook {
class Server;
}

namespace capstan::e2e {

class Kubectl;
class TempDir;

class ErrorWebhook {
 public:
  // Starts the server and registers ValidatingWebhookConfiguration `name` through `kubectl`.
  ErrorWebhook(const TempDir& dir, Kubectl& kubectl, std::string name = "capstan-e2e-errors");
  ~ErrorWebhook();  // deletes the configuration, stops the server
  ErrorWebhook(const ErrorWebhook&) = delete;
  ErrorWebhook& operator=(const ErrorWebhook&) = delete;

  // Shares (0..1) of writes answered 429 and 500 from now on.
  void set_rates(double rate429, double rate500);
  std::uint64_t injected() const { return injected_.load(); }  // writes answered with an error
  std::uint64_t reviewed() const { return reviewed_.load(); }  // every write the webhook saw

 private:
  Kubectl& kubectl_;
  std::string name_;
  std::atomic<double> rate429_{0}, rate500_{0};
  std::atomic<std::uint64_t> injected_{0}, reviewed_{0};
  std::unique_ptr<webhook::Server> server_;
};

}  // namespace capstan::e2e
