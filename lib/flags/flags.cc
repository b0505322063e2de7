#include "lib/flags/flags.h"

#include <charconv>
#include <utility>

namespace metropolis::cli {

Flags::Flags(std::string command, std::string synopsis, std::string summary)
    : command_(std::move(command)), synopsis_(std::move(synopsis)), summary_(std::move(summary)) {
  Add({.name = "help", .value_name = "", .help = "show this help and exit"});
}

void Flags::Add(FlagSpec spec) { specs_.push_back(std::move(spec)); }

const FlagSpec* Flags::Find(std::string_view name) const {
  for (const FlagSpec& s : specs_)
    if (s.name == name) return &s;
  return nullptr;
}

bool Flags::Parse(const std::vector<std::string>& args, std::string* error) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg == "--") {
      if (!allow_positionals_ && i + 1 < args.size()) {
        *error = "unexpected argument '" + args[i + 1] + "'";
        return false;
      }
      positionals_.insert(positionals_.end(), args.begin() + i + 1, args.end());
      return true;
    }
    if (arg.size() < 3 || arg.substr(0, 2) != "--") {
      if (!allow_positionals_) {
        *error = "unexpected argument '" + std::string(arg) + "'";
        return false;
      }
      positionals_.emplace_back(arg);
      continue;
    }
    std::string_view body = arg.substr(2);
    size_t eq = body.find('=');
    std::string_view name = body.substr(0, eq);
    const FlagSpec* spec = Find(name);
    if (!spec) {
      *error = "unknown flag '--" + std::string(name) + "'";
      return false;
    }
    std::string value;
    if (spec->value_name.empty()) {
      if (eq != std::string_view::npos) {
        *error = "flag '--" + spec->name + "' takes no value";
        return false;
      }
    } else if (eq != std::string_view::npos) {
      value = std::string(body.substr(eq + 1));
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      *error = "flag '--" + spec->name + "' needs a value (" + spec->value_name + ")";
      return false;
    }
    auto& slot = values_[spec->name];
    if (!slot.empty() && !spec->repeatable) {
      *error = "flag '--" + spec->name + "' given more than once";
      return false;
    }
    slot.push_back(std::move(value));
  }
  return true;
}

bool Flags::Has(std::string_view name) const { return values_.find(name) != values_.end(); }

std::string Flags::Get(std::string_view name, std::string fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second.back();
}

std::vector<std::string> Flags::GetAll(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

bool Flags::GetInt(std::string_view name, int64_t min, int64_t max, int64_t* out, std::string* error) const {
  std::string v = Get(name);
  if (!ParseInt(v, min, max, out)) {
    *error = "flag '--" + std::string(name) + "': '" + v + "' is not an integer in [" + std::to_string(min) + ", " +
             std::to_string(max) + "]";
    return false;
  }
  return true;
}

bool Flags::GetUint64(std::string_view name, uint64_t* out, std::string* error) const {
  std::string v = Get(name);
  if (!ParseUint64(v, out)) {
    *error = "flag '--" + std::string(name) + "': '" + v + "' is not an unsigned 64-bit integer";
    return false;
  }
  return true;
}

std::string Flags::Usage() const {
  std::string out = "usage: " + program_ + (command_.empty() ? "" : " " + command_) + " " + synopsis_ + "\n\n" +
                    summary_ + "\n\nflags:\n";
  std::vector<std::string> left;
  size_t width = 0;
  for (const FlagSpec& s : specs_) {
    std::string l = "  --" + s.name;
    if (!s.value_name.empty()) l += " " + s.value_name;
    width = std::max(width, l.size());
    left.push_back(std::move(l));
  }
  for (size_t i = 0; i < specs_.size(); ++i) {
    out += left[i] + std::string(width - left[i].size() + 2, ' ') + specs_[i].help;
    if (specs_[i].repeatable) out += " (repeatable)";
    out += "\n";
  }
  return out;
}

bool ParseInt(std::string_view text, int64_t min, int64_t max, int64_t* out) {
  int64_t v;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || v < min || v > max) return false;
  *out = v;
  return true;
}

bool ParseUint64(std::string_view text, uint64_t* out) {
  uint64_t v;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return false;
  *out = v;
  return true;
}

std::vector<std::string> SplitCommas(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    out.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

}  // namespace metropolis::cli
