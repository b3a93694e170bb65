#include "webhooks/gitops/webhooks.h"

#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/validation.h"
#include "runtime/cache/informer.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"

namespace capstan::webhooks::gitops {
namespace {

namespace v1 = apis::gitops::v1;

}  // namespace

const std::vector<webhook::Hook>& hooks() {
  static const std::vector<webhook::Hook> all = {webhook::kind_hook(v1::kGitRepositoryType),
                                                 webhook::kind_hook(v1::kKustomizationType)};
  return all;
}

webhook::Handler git_repository_validating_handler(const Options& options) {
  v1::ValidationOptions vo;
  if (!options.url_schemes.empty()) vo.url_schemes = options.url_schemes;
  return webhook::validating_handler([vo](const json::Value& obj, const json::Value*) { return v1::validate_git_repository(obj, vo); },
                                     &v1::git_repository_warnings);
}

webhook::Handler kustomization_validating_handler(const Options& options) {
  const cache::Informer* informer = options.kustomizations;
  return webhook::validating_handler([informer](const json::Value& obj, const json::Value*) {
    if (!informer) return v1::validate_kustomization(obj);
    v1::DependsOnLookup lookup = [informer](const std::string& ns,
                                            const std::string& name) -> std::optional<std::vector<v1::DependencyReference>> {
      auto cached = informer->get(ns, name);
      if (!cached) return std::nullopt;
      try {
        return v1::Kustomization::from_json(cached->value()).spec.depends_on;
      } catch (const apis::codec::DecodeError&) {
        return std::vector<v1::DependencyReference>{};  // its own reconcile says why it cannot be read
      }
    };
    return v1::validate_kustomization(obj, &lookup);
  });
}

void register_webhooks(webhook::Server& server, const Options& options) {
  server.register_path(hooks()[0].path, git_repository_validating_handler(options));
  server.register_path(hooks()[1].path, kustomization_validating_handler(options));
}

std::vector<json::Value> configurations(const webhook::Endpoint& endpoint) {
  return webhook::configurations("capstan-gitops", "gitops", hooks(), endpoint);
}

}  // namespace capstan::webhooks::gitops
