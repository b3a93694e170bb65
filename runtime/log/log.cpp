#include "runtime/log/log.h"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <mutex>
#include <stdexcept>

namespace capstan::log {
namespace {

std::atomic<Format> g_format{Format::Text};
std::atomic<int> g_min_level{static_cast<int>(Level::Info)};

std::shared_ptr<spdlog::logger> sink() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = spdlog::stderr_logger_mt("capstan");
    l->set_pattern("%v");
    l->set_level(spdlog::level::trace);
    l->flush_on(spdlog::level::trace);
    return l;
  }();
  return logger;
}

const char* level_name(Level l) {
  switch (l) {
    case Level::Trace: return "trace";
    case Level::Debug: return "debug";
    case Level::Info: return "info";
    case Level::Warn: return "warn";
    case Level::Error: return "error";
  }
  return "info";
}

std::string timestamp() {
  auto now = std::chrono::system_clock::now();
  auto secs = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

bool needs_quotes(std::string_view v) {
  if (v.empty()) return true;
  for (unsigned char c : v)
    if (c <= ' ' || c == '"' || c == '=' || c == 0x7f) return true;
  return false;
}

void append_text_value(std::string& out, std::string_view v) {
  if (!needs_quotes(v)) {
    out += v;
    return;
  }
  out += boost::json::serialize(boost::json::value(boost::json::string(v)));
}

spdlog::level::level_enum to_spd(Level l) {
  switch (l) {
    case Level::Trace: return spdlog::level::trace;
    case Level::Debug: return spdlog::level::debug;
    case Level::Info: return spdlog::level::info;
    case Level::Warn: return spdlog::level::warn;
    case Level::Error: return spdlog::level::err;
  }
  return spdlog::level::info;
}

}  // namespace

void init(Format format, int verbosity) {
  g_format = format;
  Level min = verbosity >= 4 ? Level::Trace : verbosity >= 1 ? Level::Debug : Level::Info;
  g_min_level = static_cast<int>(min);
  sink();
}

Format parse_format(std::string_view name) {
  if (name == "text") return Format::Text;
  if (name == "json") return Format::Json;
  throw std::invalid_argument("unknown log format \"" + std::string(name) + "\" (known: text, json)");
}

void silence() { g_min_level = static_cast<int>(Level::Error) + 1; }

bool enabled(Level level) { return static_cast<int>(level) >= g_min_level.load(std::memory_order_relaxed); }

Logger Logger::with(Fields more) const {
  Fields all = fields_;
  for (auto& f : more) all.push_back(std::move(f));
  return Logger(std::move(all));
}

void Logger::log(Level level, std::string_view msg, const Fields& fields) const {
  if (!enabled(level)) return;
  std::string line;
  if (g_format.load(std::memory_order_relaxed) == Format::Json) {
    boost::json::object o;
    o["ts"] = timestamp();
    o["level"] = level_name(level);
    o["msg"] = msg;
    for (const auto& f : fields_) o[f.key] = f.value;
    for (const auto& f : fields) o[f.key] = f.value;
    line = boost::json::serialize(o);
  } else {
    line = timestamp();
    line += ' ';
    line += level_name(level);
    line += ' ';
    append_text_value(line, msg);
    for (const auto* set : {&fields_, &fields}) {
      for (const auto& f : *set) {
        line += ' ';
        line += f.key;
        line += '=';
        append_text_value(line, f.value);
      }
    }
  }
  sink()->log(to_spd(level), line);
}

}  // namespace capstan::log
