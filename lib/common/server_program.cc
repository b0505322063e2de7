#include "lib/common/server_program.h"

#include <prometheus/registry.h>

#include <cctype>
#include <iostream>
#include <utility>

namespace metropolis::services {

int FailStartup(std::string_view program, std::string_view message) {
  std::cerr << program << ": " << message << "\n";
  return kExitBadSettings;
}

std::string ProgramInfo::program() const { return "metropolis-" + service; }

std::string ProgramInfo::env_prefix() const {
  std::string prefix = "METROPOLIS_";
  for (char c : service) prefix.push_back(char(std::toupper(static_cast<unsigned char>(c))));
  return prefix + "_";
}

Settings MakeSettings(const ProgramInfo& info) { return Settings(info.program(), info.summary, info.env_prefix()); }

void AddListenSetting(Settings* settings, const ListenSetting& listen) {
  settings->Add("listen", listen.value_name, listen.address, listen.help);
}

void AddMaxCallsSetting(Settings* settings, const MaxCallsSetting& max_calls) {
  settings->Add("max-calls", "N", std::to_string(max_calls.calls), max_calls.help);
}

bool ReadMaxCallsSetting(const Settings& settings, int* out, std::string* error) {
  int64_t calls = 0;
  if (!settings.GetInt("max-calls", 1, 100'000, &calls, error)) return false;
  *out = int(calls);
  return true;
}

std::string MissingSettings(const Settings& settings, const std::vector<std::string>& names, MissingWording wording) {
  bool missing = false;
  for (const std::string& name : names) {
    if (!settings.Get(name).empty()) continue;
    if (wording == MissingWording::kFirst) return "--" + name + " is required";
    if (wording == MissingWording::kFirstWithEnv)
      return "--" + name + " (or " + settings.EnvName(name) + ") is required";
    missing = true;
  }
  if (!missing) return "";
  std::string list;
  for (size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("--" + names[i]);
  return list + (names.size() == 1 ? " is required" : " are required");
}

ServerProgram::ServerProgram(ServerProgramOptions options)
    : options_(std::move(options)),
      settings_(MakeSettings(options_.info)),
      registry_(std::make_shared<prometheus::Registry>()),
      metrics_(registry_.get()) {
  AddListenSetting(&settings_, options_.listen);
}

ServerProgram::~ServerProgram() = default;

bool ServerProgram::Refuse(std::string_view message) {
  exit_code_ = FailStartup(options_.info.program(), message);
  return false;
}

bool ServerProgram::Parse(int argc, char** argv) {
  AddTrailingSettings(&settings_);
  if (options_.max_calls) AddMaxCallsSetting(&settings_, *options_.max_calls);
  AddSecuritySettings(&settings_, options_.max_message_bytes);
  if (options_.rate_limit) AddRateLimitSettings(&settings_, options_.rate_limit->defaults, options_.rate_limit->per);
  if (options_.metrics) AddMetricsSetting(&settings_);
  AddLogLevelSetting(&settings_);
  if (!settings_.Parse(argc, argv, &exit_code_)) return false;
  std::string error;
  return SetUpLogs(settings_, options_.info.service, &error) || Refuse(error);
}

bool ServerProgram::Check() {
  serve_ = {.program = options_.info.program(),
            .listen = settings_.Get("listen"),
            .quota_name = options_.info.service,
            .metrics = &metrics_};
  std::string error;
  if (!ReadSettings(settings_, &error) ||
      (options_.max_calls && !ReadMaxCallsSetting(settings_, &serve_.max_calls, &error)))
    return Refuse(error);
  if (std::string missing = MissingSettings(settings_, options_.required, options_.wording); !missing.empty())
    return Refuse(missing);
  if (!CheckSettings(settings_, &error) || !ReadSecuritySettings(settings_, &serve_, &error) ||
      (options_.rate_limit && !ReadRateLimitSettings(settings_, &rate_limit_, &error)))
    return Refuse(error);
  return true;
}

bool ServerProgram::Start() {
  signals_.emplace();
  std::string error;
  if (!endpoint_.Start(settings_.Get("metrics-listen"), registry_, &error) || !Open(&error)) return Refuse(error);
  return true;
}

int ServerProgram::Serve(const std::vector<Component*>& components) {
  return services::Serve(serve_, components, &*signals_);
}

}  // namespace metropolis::services
