#include "testing/temp_dir.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>

namespace capstan::e2e {

namespace fs = std::filesystem;

TempDir::TempDir(std::string_view tag) {
  static std::atomic<int> counter{0};
  std::random_device rd;
  const auto base = fs::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto p = base / ("capstan-" + std::string(tag) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
                     std::to_string(rd() % 100000));
    std::error_code ec;
    if (fs::create_directories(p, ec)) {
      path_ = std::move(p);
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory under " + base.string());
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!std::getenv("CAPSTAN_KEEP_TEST_DIRS")) fs::remove_all(path_, ec);
}

std::string TempDir::write(std::string_view name, const std::string& content) const {
  const auto p = path_ / name;
  fs::create_directories(p.parent_path());
  auto aside = p;
  aside += ".tmp";
  {
    std::ofstream out(aside, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out) throw std::runtime_error("cannot write " + aside.string());
  }
  fs::rename(aside, p);
  return p.string();
}

}  // namespace capstan::e2e
