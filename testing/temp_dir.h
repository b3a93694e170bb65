// A fresh directory under the system temp dir for one test, removed with its contents on
// destruction (kept when CAPSTAN_KEEP_TEST_DIRS is set, to look at after a failure).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace capstan::e2e {

class TempDir {
 public:
  // "<tmp>/capstan-<tag>-<pid>-<n>-<random>".
  explicit TempDir(std::string_view tag = "test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // path()/name.
  std::string file(std::string_view name) const { return (path_ / name).string(); }
  // Writes `content` to file(name), creating parent directories, and returns that path. The
  // file is written aside and renamed into place, so a watcher never reads half of it.
  std::string write(std::string_view name, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

}  // namespace capstan::e2e
