// Structured logging on spdlog: one line per record, text (logfmt-like) or JSON.
// Verbosity follows klog's -v: 0 = info and above, 1..3 = debug, >= 4 = trace.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::log {

enum class Format { Text, Json };
enum class Level { Trace, Debug, Info, Warn, Error };

struct Field {
  std::string key;
  std::string value;
  Field(std::string_view k, std::string_view v) : key(k), value(v) {}
  Field(std::string_view k, const char* v) : key(k), value(v) {}
  Field(std::string_view k, const std::string& v) : key(k), value(v) {}
  template <typename N, typename = std::enable_if_t<std::is_arithmetic_v<N>>>
  Field(std::string_view k, N n) : key(k), value(std::to_string(n)) {}
};
using Fields = std::vector<Field>;

// Configures the process-wide sink (stderr). Safe to call more than once.
void init(Format format, int verbosity);
Format parse_format(std::string_view name);  // "text" | "json"; throws std::invalid_argument
bool enabled(Level level);
// Drops every record from now on: fuzz targets feed millions of bad inputs on purpose, and the
// warnings they earn would drown libFuzzer's own output.
void silence();

// A logger carries fixed fields (controller, name, reconcileID, ...) added to every record.
class Logger {
 public:
  Logger() = default;
  explicit Logger(Fields fields) : fields_(std::move(fields)) {}
  Logger(std::initializer_list<Field> fields) : fields_(fields) {}
  Logger with(Fields more) const;

  void log(Level level, std::string_view msg, const Fields& fields = {}) const;
  void trace(std::string_view msg, const Fields& f = {}) const { log(Level::Trace, msg, f); }
  void debug(std::string_view msg, const Fields& f = {}) const { log(Level::Debug, msg, f); }
  void info(std::string_view msg, const Fields& f = {}) const { log(Level::Info, msg, f); }
  void warn(std::string_view msg, const Fields& f = {}) const { log(Level::Warn, msg, f); }
  void error(std::string_view msg, const Fields& f = {}) const { log(Level::Error, msg, f); }

 private:
  Fields fields_;
};

// The root logger, for code without a context of its own.
inline void trace(std::string_view msg, const Fields& f = {}) { Logger().trace(msg, f); }
inline void debug(std::string_view msg, const Fields& f = {}) { Logger().debug(msg, f); }
inline void info(std::string_view msg, const Fields& f = {}) { Logger().info(msg, f); }
inline void warn(std::string_view msg, const Fields& f = {}) { Logger().warn(msg, f); }
inline void error(std::string_view msg, const Fields& f = {}) { Logger().error(msg, f); }

}  // namespace capstan::log
