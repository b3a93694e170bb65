#include "controllers/gitops/git/source_ignore.h"

#include "controllers/gitops/git/mirrors.h"

#include <fnmatch.h>

namespace capstan::gitops::git {
namespace {

constexpr std::string_view kDefaults =
    ".git/\n.gitignore\n.gitmodules\n.gitattributes\n"
    "*.jpg\n*.jpeg\n*.gif\n*.png\n*.wmv\n*.flv\n*.tar.gz\n*.zip\n"
    ".github/\n.circleci/\n.travis.yml\n.gitlab-ci.yml\nappveyor.yml\n.drone.yml\ncloudbuild.yaml\n"
    "codeship-services.yml\ncodeship-steps.yml\n"
    "**/.goreleaser.yml\n**/.sops.yaml\n**/.flux.yaml\n";

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = s.find('/', start);
    out.emplace_back(s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}

// Go's filepath.Match on one path element (no '/' on either side).
bool element_matches(const std::string& pattern, const std::string& name) {
  return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

}  // namespace

// go-git's pattern.Match: the domain is a prefix of the path; then a name pattern matches any
// element of the rest, an anchored one matches from its start ('**' spanning elements), and what
// is left of the path after a match is inside what matched.
bool SourceIgnore::Pattern::matches(const std::vector<std::string>& path, bool is_dir) const {
  if (path.size() <= domain.size()) return false;
  for (std::size_t i = 0; i < domain.size(); ++i)
    if (path[i] != domain[i]) return false;
  const std::size_t start = domain.size();
  if (!anchored) {
    for (std::size_t i = start; i < path.size(); ++i) {
      if (!element_matches(parts[0], path[i])) continue;
      return !(dir_only && !is_dir && i == path.size() - 1);
    }
    return false;
  }
  std::size_t at = start;
  bool matched = false, traverse = false;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const std::string& part = parts[p];
    if (part.empty()) {
      traverse = false;
      continue;
    }
    if (part == "**") {
      if (p == parts.size() - 1) break;
      traverse = true;
      continue;
    }
    if (part.find("**") != std::string::npos) return false;
    if (at == path.size()) return false;
    if (traverse) {
      traverse = false;
      matched = false;
      while (at < path.size()) {
        if (element_matches(part, path[at++])) {
          matched = true;
          break;
        }
      }
      if (!matched) return false;
    } else {
      if (!element_matches(part, path[at])) return false;
      matched = true;
      ++at;
    }
  }
  if (matched && dir_only && !is_dir && at == path.size()) return false;
  return matched;
}

SourceIgnore::SourceIgnore(const std::optional<std::string>& spec_ignore) {
  add(kDefaults, "", defaults_);
  if (spec_ignore) add(*spec_ignore, "", spec_);
}

void SourceIgnore::add_file(std::string_view text, std::string_view dir) { add(text, dir, files_); }

void SourceIgnore::add(std::string_view text, std::string_view dir, std::vector<Pattern>& into) {
  const std::vector<std::string> domain = split(dir);
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string line(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#' || line.find_first_not_of(" \t") == std::string::npos) continue;
    if (count() >= kMaxIgnorePatterns)
      throw GitError("more than " + std::to_string(kMaxIgnorePatterns) + " ignore patterns (spec.ignore and .sourceignore files)");
    Pattern p;
    p.domain = domain;
    if (line.front() == '!') {
      p.include = true;
      line.erase(0, 1);
    }
    if (!line.ends_with("\\ "))
      while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.ends_with("/")) {
      p.dir_only = true;
      line.pop_back();
    }
    p.anchored = line.find('/') != std::string::npos;
    p.parts = split(line);
    if (p.parts.empty()) continue;
    into.push_back(std::move(p));
  }
}

bool SourceIgnore::excluded(std::string_view path, bool is_dir) const {
  const std::vector<std::string> parts = split(path);
  for (const auto* list : {&spec_, &files_, &defaults_})
    for (auto it = list->rbegin(); it != list->rend(); ++it)
      if (it->matches(parts, is_dir)) return !it->include;
  return false;
}

}  // namespace capstan::gitops::git
