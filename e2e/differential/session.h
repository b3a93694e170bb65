// The differential suite's driver: a case sends a request (or runs kubectl) once, the session
// sends it to the embedded server and to kube-apiserver, compares the two answers after
// masking what legitimately differs, and records the comparison. Values that differ by server
// (a resourceVersion, a token) live in per-server variables that requests name as {var}.
//
//   DIFF_CASE(crud, CreateWithoutApiVersionAndKind) {
//     s.send("create", {.method = "POST", .path = "/api/v1/namespaces/{ns}/configmaps",
//                       .body = R"({"metadata":{"name":"bare"}})"});
//   }
#pragma once

#include "e2e/differential/normalize.h"
#include "e2e/differential/target.h"
#include "testing/kubectl.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace capstan::e2e::diff {

struct Compare {
  Masks masks;
  bool body = true;                  // compare bodies, not only status codes
  std::vector<std::string> headers;  // response headers compared too (e.g. "Warning")
};

// One comparison: a request (or kubectl run) on both servers.
struct Result {
  std::string id;  // group/case/label
  int embedded_status = 0, kube_status = 0;
  std::vector<std::string> differences;  // empty: the same
  std::string allowed_because;           // set when every difference is on the allowlist
  std::string error;                     // the case failed before comparing (an exception)
  std::string embedded_body, kube_body;  // as answered (kept for divergences, for the full report)
};

struct Answer {
  int embedded_status = 0, kube_status = 0;
  std::optional<json::Value> embedded, kube;  // the bodies, when JSON
  std::string embedded_text, kube_text;
};

class Session {
 public:
  Session(Target& embedded, Target& kube, const TempDir& dir);

  // Starts a case: a fresh namespace on both servers, available as {ns}, once both have
  // published kube-root-ca.crt in it.
  void begin(const std::string& group, const std::string& name);
  void fail(const std::string& error);  // the case threw

  // On both servers; compared. Returns both answers.
  Answer send(const std::string& label, Request r, const Compare& c = {});
  // A watch on both servers for `max` (or until the server ends it): the event lines
  // compared one by one (each event normalized).
  Answer watch(const std::string& label, Request r, std::chrono::milliseconds max, const Compare& c = {});
  // kubectl with these arguments ({var} substituted) on both servers: exit code, stdout and
  // stderr compared after normalize_text.
  Answer kubectl(const std::string& label, std::vector<std::string> args, const std::string& stdin_text = {}, const Compare& c = {});
  // Setup both servers need, not compared; throws when either answers >= 400.
  Answer setup(Request r);
  // Polls GET `path` on both servers until each answers 200 or `timeout` passes (what a
  // server's own control loops create a moment later); not compared.
  void wait_for(const std::string& path, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Records an already computed comparison (cases that reshape answers before comparing).
  void record(const std::string& label, int embedded_status, int kube_status, json::Value embedded, json::Value kube,
              const Compare& c = {});

  // Per-server variables.
  void set(const std::string& var, std::string embedded_value, std::string kube_value);
  void set_both(const std::string& var, const std::string& value) { set(var, value, value); }
  // Takes the string at `path` of each server's answer.
  void capture(const std::string& var, const Answer& a, json::Path path);
  std::string subst(const std::string& text, int target) const;

  // Compacts both servers' history (set by the test: the embedded server's debug endpoint,
  // etcd's compaction behind kube-apiserver).
  void set_compactor(std::function<void()> fn) { compact_ = std::move(fn); }
  void compact() {
    if (compact_) compact_();
  }

  Target& target(int i) { return i == 0 ? embedded_ : kube_; }
  const std::vector<Result>& results() const { return results_; }

 private:
  void add(Result r);

  Target& embedded_;
  Target& kube_;
  std::unique_ptr<Kubectl> kubectl_[2];
  std::map<std::string, std::string> vars_[2];
  std::string case_id_;
  int namespaces_ = 0;
  std::vector<Result> results_;
  std::function<void()> compact_;
};

// The cases, registered by DIFF_CASE from the cases_*.cpp files.
struct Case {
  std::string group, name;
  void (*fn)(Session&);
};
std::vector<Case>& cases();
struct RegisterCase {
  RegisterCase(const char* group, const char* name, void (*fn)(Session&));
};

}  // namespace capstan::e2e::diff

#define DIFF_CASE(group, name)                                                                                    \
  static void diff_case_##group##_##name(::capstan::e2e::diff::Session& s);                                       \
  static ::capstan::e2e::diff::RegisterCase diff_register_##group##_##name(#group, #name, diff_case_##group##_##name); \
  static void diff_case_##group##_##name(::capstan::e2e::diff::Session& s)
