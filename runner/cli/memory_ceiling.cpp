#include "runner/cli/memory_ceiling.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace review::cli {
namespace {

// A number of bytes from a cgroup limit file; nullopt for "max", a missing file or junk.
std::optional<std::size_t> read_limit(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || !std::all_of(word.begin(), word.end(), ::isdigit)) return std::nullopt;
  try {
    return static_cast<std::size_t>(std::stoull(word));
  } catch (...) {
    return std::nullopt;
  }
}

// The lowest memory limit on the way from the process's cgroup up to the root.
std::optional<std::size_t> cgroup_limit() {
  std::ifstream in("/proc/self/cgroup");
  std::optional<std::size_t> best;
  auto take = [&](std::optional<std::size_t> v) {
    // cgroup v1 writes "no limit" as a huge number (PAGE_COUNTER_MAX pages).
    if (v && *v > 0 && *v < (std::size_t{1} << 60) && (!best || *v < *best)) best = v;
  };
  for (std::string line; std::getline(in, line);) {
    // "hierarchy-ID:controller-list:cgroup-path"
    auto a = line.find(':'), b = line.find(':', a == std::string::npos ? a : a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    bool v2 = line.compare(0, a, "0") == 0 && controllers.empty();
    bool v1 = (',' + controllers + ',').find(",memory,") != std::string::npos;
    if (!v1 && !v2) continue;
    std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    const char* file = v2 ? "/memory.max" : "/memory.limit_in_bytes";
    for (std::string p = path;; p = p.substr(0, p.rfind('/'))) {
      if (p.find("..") != std::string::npos) break;
      take(read_limit(root + p + file));
      if (p.empty() || p == "/") break;
      if (p.rfind('/') == std::string::npos) break;
    }
  }
  return best;
}

std::size_t status_field_kib(const char* name) {
  std::ifstream in("/proc/self/status");
  std::string n = name;
  for (std::string line; std::getline(in, line);)
    if (line.rfind(n, 0) == 0) {
      std::istringstream s(line.substr(n.size()));
      std::size_t kib = 0;
      s >> kib;
      return kib * 1024;
    }
  return 0;
}

}  // namespace

std::size_t machine_memory_bytes() {
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  std::size_t phys = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
  std::optional<std::size_t> cg = cgroup_limit();
  if (cg && (phys == 0 || *cg < phys)) return *cg;
  return phys;
}

std::size_t default_memory_ceiling() { return machine_memory_bytes() / 2; }

std::optional<std::size_t> parse_memory_size(std::string_view text, std::string& error) {
  auto fail = [&](const std::string& why) -> std::optional<std::size_t> {
    error = "--max-memory must be a size such as 512M, 2G or 50% (of the machine's memory); " + why;
    return std::nullopt;
  };
  std::string t(text);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  size_t i = 0;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
  if (i == 0) return fail("got \"" + t + "\"");
  double number = 0;
  try {
    size_t used = 0;
    number = std::stod(t.substr(0, i), &used);
    if (used != i) return fail("got \"" + t + "\"");
  } catch (...) {
    return fail("got \"" + t + "\"");
  }
  std::string unit = t.substr(i);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(unit.begin());
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double bytes = 0;
  if (unit == "%") {
    std::size_t machine = machine_memory_bytes();
    if (machine == 0) return fail("the machine's memory is unknown, so a percentage means nothing");
    if (number > 100) return fail("got " + t + ", more than the machine has");
    bytes = static_cast<double>(machine) * number / 100;
  } else {
    double scale = 0;
    if (unit.empty() || unit == "B") scale = 1;
    else if (unit == "K" || unit == "KB" || unit == "KIB") scale = 1024.0;
    else if (unit == "M" || unit == "MB" || unit == "MIB") scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "GB" || unit == "GIB") scale = 1024.0 * 1024 * 1024;
    else if (unit == "T" || unit == "TB" || unit == "TIB") scale = 1024.0 * 1024 * 1024 * 1024;
    else return fail("unknown unit \"" + t.substr(i) + "\"");
    bytes = number * scale;
  }
  if (!(bytes >= 1) || bytes > 1.8e19) return fail("got \"" + t + "\"");
  return static_cast<std::size_t>(std::llround(bytes));
}

std::string format_bytes(std::size_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[48];
  if (u == 0) std::snprintf(buf, sizeof buf, "%zu bytes", bytes);
  else if (v == std::floor(v) || v >= 100) std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::size_t resident_bytes() {
  // The descriptor stays open: reading statm again from offset 0 is one pread(2).
  static FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  char buf[128];
  ssize_t n = ::pread(::fileno(f), buf, sizeof buf - 1, 0);
  if (n <= 0) return 0;
  buf[n] = '\0';
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(buf, "%llu %llu", &size, &resident) != 2) return 0;
  long page = ::sysconf(_SC_PAGE_SIZE);
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(page > 0 ? page : 4096);
}

std::size_t peak_resident_bytes() { return status_field_kib("VmHWM:"); }

MemoryWatch::MemoryWatch(std::size_t limit, std::chrono::milliseconds period) : limit_(limit) {
  if (limit_ == 0) return;
  // Looked at once here, so a ceiling already passed is seen before the first rule runs, however
  // late the watcher thread is scheduled on a loaded machine.
  if (std::size_t rss = resident_bytes(); rss > limit_) {
    seen_at_ = rss;
    exceeded_ = true;
    return;
  }
  thread_ = std::thread([this, period] { run(period); });
}

MemoryWatch::~MemoryWatch() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

std::chrono::milliseconds watch_wait(std::size_t rss, std::size_t limit, std::chrono::milliseconds period) {
  if (rss >= limit) return period;
  const double ms = static_cast<double>(limit - rss) * 1000.0 / static_cast<double>(kFastestGrowthPerSecond);
  if (ms >= static_cast<double>(kLongestWatchWait.count())) return std::max(period, kLongestWatchWait);
  return std::max(period, std::chrono::milliseconds(static_cast<long long>(ms)));
}

void MemoryWatch::run(std::chrono::milliseconds period) {
  std::unique_lock lock(mu_);
  while (!stop_) {
    std::size_t rss = resident_bytes();
    if (rss > limit_) {
      seen_at_ = rss;
      exceeded_ = true;
      return;  // the flag is never cleared: nothing more to watch
    }
    cv_.wait_for(lock, watch_wait(rss, limit_, period), [this] { return stop_; });
  }
}

}  // namespace review::cli
