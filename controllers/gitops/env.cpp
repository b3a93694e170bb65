#include "controllers/gitops/env.h"

#include "runtime/events/recorder.h"

namespace capstan::gitops {

Env::Env(client::Client& c, cache::Informer& repos, cache::Informer& ks, GitopsOptions o)
    : client(c), repositories(repos), kustomizations(ks), options(std::move(o)), mirrors(options.storage_path) {}

Env::~Env() = default;

void Env::event(const json::Value& target, std::string_view type, std::string_view reason, std::string_view message) const {
  if (recorder) recorder->event(target, type, reason, message);
}

}  // namespace capstan::gitops
