#include "controllers/gitops/source_tree.h"

#include "controllers/gitops/manifests.h"

#include <algorithm>

namespace capstan::gitops {

bool SourceTree::has(std::string_view path) const { return std::binary_search(paths_.begin(), paths_.end(), path); }

std::pair<SourceTree::Paths::const_iterator, SourceTree::Paths::const_iterator> SourceTree::under(std::string_view prefix) const {
  auto first = std::lower_bound(paths_.begin(), paths_.end(), prefix);
  auto last = first;
  while (last != paths_.end() && std::string_view(*last).substr(0, prefix.size()) == prefix) ++last;
  return {first, last};
}

MapTree::MapTree(const std::map<std::string, std::string>& files) : files_(files) {
  paths_.reserve(files.size());
  for (const auto& kv : files) paths_.push_back(kv.first);
}

const std::string& MapTree::read(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) throw BuildError(path + ": not found");
  return it->second;
}

}  // namespace capstan::gitops
