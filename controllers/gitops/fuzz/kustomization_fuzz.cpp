// The manifest build of a Kustomization from a Git revision's files (whoever can push to the
// repository writes them): kustomization.yaml, its resources and plain YAML/JSON manifests.
// The input is a small file tree: text before the first "==> path <==" line is
// kustomization.yaml, each such line starts another file. The build runs with the tree's root
// and with "deploy" as the Kustomization's path. The documented failure is BuildError (bad
// YAML included: a ParseError escaping would be a finding). Invariant: every object built has
// apiVersion, kind and metadata.name, and carries the ownership labels.
#include "controllers/gitops/manifests.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;

namespace {

std::map<std::string, std::string> tree(std::string_view in) {
  std::map<std::string, std::string> files;
  std::string name = "kustomization.yaml";
  std::string content;
  std::size_t pos = 0;
  while (pos <= in.size()) {
    std::size_t eol = in.find('\n', pos);
    std::string_view line = in.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    if (line.starts_with("==> ") && line.ends_with(" <==") && line.size() >= 8) {
      files[name] += content;
      name = std::string(line.substr(4, line.size() - 8));
      content.clear();
    } else {
      content.append(line);
      content.push_back('\n');
    }
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  files[name] += content;
  return files;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto files = tree(std::string_view(reinterpret_cast<const char*>(data), size));
  for (const auto& [path, content] : files) {
    try {
      (void)gitops::clean_path(path);
    } catch (const gitops::BuildError&) {
    }
  }
  for (const char* root : {"", "deploy"}) {
    gitops::BuildOptions opts;
    opts.path = root;
    opts.name_prefix = "p-";
    opts.labels = {{"gitops.capstan.dev/name", "apps"}, {"gitops.capstan.dev/namespace", "flux-system"}};
    try {
      for (const auto& obj : gitops::build_manifests(files, opts)) {
        if (json::get_string(obj, {"apiVersion"}).empty() || json::get_string(obj, {"kind"}).empty() ||
            json::get_string(obj, {"metadata", "name"}).empty() ||
            json::get_string(obj, {"metadata", "labels", "gitops.capstan.dev/name"}) != "apps")
          std::abort();
      }
    } catch (const gitops::BuildError&) {
    }
  }
  return 0;
}
