// Which files of a source revision the GitOps controllers read, as Flux's source-controller
// decides what goes into an artifact (.gitignore syntax, with go-git's matching rules):
//   1. the defaults, always: VCS files (.git/, .gitignore, .gitmodules, .gitattributes), images
//      and archives (*.jpg, *.jpeg, *.gif, *.png, *.wmv, *.flv, *.tar.gz, *.zip), CI configs
//      (.github/, .circleci/, .travis.yml, .gitlab-ci.yml, appveyor.yml, .drone.yml,
//      cloudbuild.yaml, codeship-services.yml, codeship-steps.yml) and tool configs
//      (.goreleaser.yml, .sops.yaml, .flux.yaml at any depth);
//   2. every `.sourceignore` file of the revision, its patterns scoped to its directory;
//   3. GitRepository.spec.ignore, scoped to the repository root.
// The last pattern that matches decides; `!pattern` includes again. A pattern with a '/' other
// than a trailing one is anchored to its directory, one without matches a name at any depth, a
// trailing '/' matches directories only, '**' spans directories. An excluded directory is not
// read at all (its files do not count against the limits).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::gitops::git {

inline constexpr std::string_view kSourceIgnoreFile = ".sourceignore";
// Bound on the patterns one revision may bring (defaults, .sourceignore files, spec.ignore).
inline constexpr std::size_t kMaxIgnorePatterns = 10000;

class SourceIgnore {
 public:
  // The defaults and `spec_ignore` (GitRepository.spec.ignore; nullopt: none).
  explicit SourceIgnore(const std::optional<std::string>& spec_ignore = std::nullopt);

  // A `.sourceignore` file of directory `dir` ("" = the root, else "a/b").
  void add_file(std::string_view text, std::string_view dir);
  // Whether the repository path (relative to the root, '/'-separated) is excluded.
  bool excluded(std::string_view path, bool is_dir) const;

 private:
  struct Pattern {
    std::vector<std::string> domain;  // the directory whose rules it is
    std::vector<std::string> parts;   // the pattern split at '/'
    bool include = false, dir_only = false, anchored = false;
    bool matches(const std::vector<std::string>& path, bool is_dir) const;
  };
  void add(std::string_view text, std::string_view dir, std::vector<Pattern>& into);
  std::size_t count() const { return defaults_.size() + files_.size() + spec_.size(); }

  std::vector<Pattern> defaults_, files_, spec_;
};

}  // namespace capstan::gitops::git
