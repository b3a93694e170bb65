#include "runtime/client/token_source.h"

#include "runtime/log/log.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace capstan::client {
namespace fs = std::filesystem;

TokenSource::TokenSource(std::string static_token, std::string file)
    : TokenSource(std::move(static_token), std::move(file), Options{}) {}

TokenSource::TokenSource(std::string static_token, std::string file, Options options)
    : static_token_(std::move(static_token)), file_(std::move(file)), options_(options), current_(static_token_) {}

std::string TokenSource::token() {
  if (file_.empty()) return static_token_;
  std::lock_guard<std::mutex> lock(mu_);
  auto now = std::chrono::steady_clock::now();
  if (!loaded_ || now - last_read_ >= options_.max_age) {
    reload(now);
  } else if (now - last_stat_ >= options_.stat_interval) {
    last_stat_ = now;
    std::error_code ec1, ec2;
    auto mtime = fs::last_write_time(file_, ec1);
    auto size = fs::file_size(file_, ec2);
    if (ec1 || ec2 || mtime != mtime_ || size != size_) reload(now);
  }
  return current_;
}

void TokenSource::reload(std::chrono::steady_clock::time_point now) {
  last_stat_ = now;
  last_read_ = now;
  std::error_code ec;
  auto mtime = fs::last_write_time(file_, ec);
  std::ifstream in(file_, std::ios::binary);
  if (ec || !in) {
    log::warn("cannot read the bearer token file; keeping the previous token", {{"path", file_}});
    loaded_ = true;
    return;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string t = ss.str();
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  t.erase(t.begin(), std::find_if(t.begin(), t.end(), not_space));
  t.erase(std::find_if(t.rbegin(), t.rend(), not_space).base(), t.end());
  std::error_code ec2;
  size_ = fs::file_size(file_, ec2);
  mtime_ = mtime;
  loaded_ = true;
  if (t.empty()) {
    log::warn("bearer token file is empty; keeping the previous token", {{"path", file_}});
    return;
  }
  if (t != current_ && !current_.empty() && current_ != static_token_)
    log::debug("bearer token file changed; using the new token", {{"path", file_}});
  current_ = std::move(t);
}

}  // namespace capstan::client
