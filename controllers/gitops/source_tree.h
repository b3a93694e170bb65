// The files a build reads (manifests.h): every path is known up front, a file's content is read
// when the build first needs it. A Kustomization's build so reads its path and what that path
// refers to (a base, a component, a generator's source), never the rest of the repository.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::gitops {

class SourceTree {
 public:
  using Paths = std::vector<std::string>;
  virtual ~SourceTree() = default;

  bool has(std::string_view path) const;
  // The paths starting with `prefix` ("" = every path), in order.
  std::pair<Paths::const_iterator, Paths::const_iterator> under(std::string_view prefix) const;
  // The content of `path` (which has() must know). Throws BuildError naming the file when it
  // cannot be read or a limit is exceeded.
  virtual const std::string& read(const std::string& path) = 0;

 protected:
  Paths paths_;  // sorted
};

// Files already in memory (tests, and builds from a map).
class MapTree : public SourceTree {
 public:
  explicit MapTree(const std::map<std::string, std::string>& files);
  const std::string& read(const std::string& path) override;

 private:
  const std::map<std::string, std::string>& files_;
};

}  // namespace capstan::gitops
