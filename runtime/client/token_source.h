// Bearer tokens: a fixed token, or a token file re-read as it rotates (projected service
// account tokens are replaced about hourly by the kubelet).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

namespace capstan::client {

class TokenSource {
 public:
  struct Options {
    // How often the file's mtime and size are checked; a change triggers a re-read.
    std::chrono::milliseconds stat_interval{1000};
    // The file is re-read at least this often even when it looks unchanged.
    std::chrono::milliseconds max_age{60000};
  };

  // `file` empty = always `static_token`. Otherwise the file's trimmed content wins, and
  // `static_token` is only the fallback while the file cannot be read.
  TokenSource(std::string static_token, std::string file);
  TokenSource(std::string static_token, std::string file, Options options);

  // The current token ("" = none). Thread-safe. A read failure is logged (never the token)
  // and the last good token is kept.
  std::string token();
  bool empty() const { return static_token_.empty() && file_.empty(); }

 private:
  void reload(std::chrono::steady_clock::time_point now);

  const std::string static_token_;
  const std::string file_;
  const Options options_;
  std::mutex mu_;
  std::string current_;
  bool loaded_ = false;
  std::chrono::steady_clock::time_point last_stat_{};
  std::chrono::steady_clock::time_point last_read_{};
  std::filesystem::file_time_type mtime_{};
  std::uintmax_t size_ = 0;
};

}  // namespace capstan::client
