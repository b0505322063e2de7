#include "services/gateway/bodies.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <initializer_list>
#include <nlohmann/json.hpp>

#include "engine/action.h"

namespace metropolis::gateway {
namespace {

using Json = nlohmann::json;

bool Fail(ApiError* error, ApiError e) {
  *error = std::move(e);
  return false;
}

bool ParseBody(std::string_view body, std::initializer_list<std::string_view> allowed, Json* out, ApiError* error) {
  Json parsed = Json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object())
    return Fail(error, MakeError(400, "INVALID_ARGUMENT", "the body must be a JSON object"));
  for (const auto& [key, value] : parsed.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      return Fail(error, BadParameter(key, "unknown field"));
  *out = std::move(parsed);
  return true;
}

bool StringField(const Json& body, const std::string& name, std::string* out, ApiError* error) {
  auto it = body.find(name);
  if (it == body.end()) return Fail(error, BadParameter(name, "required"));
  if (!it->is_string()) return Fail(error, BadParameter(name, "must be a string"));
  *out = it->get<std::string>();
  return true;
}

bool IntField(const Json& body, const std::string& name, int64_t min, int64_t max, int64_t* out, ApiError* error) {
  auto it = body.find(name);
  if (it == body.end()) return Fail(error, BadParameter(name, "required"));
  if (!it->is_number_integer())
    return Fail(error, BadParameter(name, "must be an integer in " + std::to_string(min) + ".." + std::to_string(max)));
  const int64_t v =
      it->is_number_unsigned() && it->get<uint64_t>() > uint64_t(INT64_MAX) ? INT64_MAX : it->get<int64_t>();
  if (v < min || v > max)
    return Fail(error, BadParameter(
                           name, std::to_string(v) + " is not in " + std::to_string(min) + ".." + std::to_string(max)));
  *out = v;
  return true;
}

}  // namespace

const std::vector<std::string>& PracticeStrengths() {
  static const std::vector<std::string> kStrengths = {"random", "heuristic", "search"};
  return kStrengths;
}

bool ReadCredentials(std::string_view body, std::string* name, std::string* password, ApiError* error) {
  Json json;
  return ParseBody(body, {"name", "password"}, &json, error) && StringField(json, "name", name, error) &&
         StringField(json, "password", password, error);
}

bool ReadPractice(std::string_view body, int64_t* bots, std::string* strength, ApiError* error) {
  Json json;
  if (!ParseBody(body, {"bots", "strength"}, &json, error) || !IntField(json, "bots", 2, 3, bots, error) ||
      !StringField(json, "strength", strength, error))
    return false;
  const auto& strengths = PracticeStrengths();
  if (std::find(strengths.begin(), strengths.end(), *strength) == strengths.end())
    return Fail(error,
                BadParameter("strength", "'" + strength->substr(0, 40) + "' is not random, heuristic or search"));
  return true;
}

bool ReadQueueJoin(std::string_view body, std::string* ladder, ApiError* error) {
  Json json;
  return ParseBody(body, {"ladder"}, &json, error) && StringField(json, "ladder", ladder, error);
}

bool ReadBotCreate(std::string_view body, std::string* name, ApiError* error) {
  Json json;
  return ParseBody(body, {"name"}, &json, error) && StringField(json, "name", name, error);
}

bool ReadBotTokenIssue(std::string_view body, std::string* label, ApiError* error) {
  Json json;
  if (!ParseBody(body.empty() ? std::string_view("{}") : body, {"label"}, &json, error)) return false;
  label->clear();
  return !json.contains("label") || StringField(json, "label", label, error);
}

bool ReadTableSettings(std::string_view body, v1::TableSettings* out, ApiError* error) {
  Json json;
  if (!ParseBody(body.empty() ? std::string_view("{}") : body,
                 {"ruleset", "options", "seats", "bot", "decision_ms", "time_bank_ms", "ladder", "spectator_delay_ms"},
                 &json, error))
    return false;
  out->Clear();
  out->set_time_bank_ms(300'000);
  std::string text;
  int64_t n = 0;
  const auto string_field = [&](const char* name, void (v1::TableSettings::*set)(const std::string&)) {
    if (!json.contains(name)) return true;
    if (!StringField(json, name, &text, error)) return false;
    if (text.size() > 200) return Fail(error, BadParameter(name, "at most 200 characters"));
    (out->*set)(text);
    return true;
  };
  const auto int_field = [&](const char* name, int64_t min, int64_t max, void (v1::TableSettings::*set)(uint32_t)) {
    if (!json.contains(name)) return true;
    if (!IntField(json, name, min, max, &n, error)) return false;
    (out->*set)(uint32_t(n));
    return true;
  };
  if (!string_field("ruleset", &v1::TableSettings::set_ruleset) ||
      !string_field("options", &v1::TableSettings::set_options) ||
      !string_field("ladder", &v1::TableSettings::set_ladder) || !string_field("bot", &v1::TableSettings::set_bot) ||
      !int_field("seats", 3, 4, &v1::TableSettings::set_seats) ||
      !int_field("decision_ms", 5'000, 600'000, &v1::TableSettings::set_decision_ms) ||
      !int_field("time_bank_ms", 0, 3'600'000, &v1::TableSettings::set_time_bank_ms) ||
      !int_field("spectator_delay_ms", 0, 3'600'000, &v1::TableSettings::set_spectator_delay_ms))
    return false;
  if (out->spectator_delay_ms() % 60'000 != 0)
    return Fail(error,
                BadParameter("spectator_delay_ms", std::to_string(out->spectator_delay_ms()) +
                                                       " is not a whole number of minutes (60000, 120000, ...)"));
  const auto& strengths = PracticeStrengths();
  if (!out->bot().empty() && std::find(strengths.begin(), strengths.end(), out->bot()) == strengths.end())
    return Fail(error, BadParameter("bot", "'" + out->bot().substr(0, 40) + "' is not random, heuristic or search"));
  return true;
}

bool ReadRematch(std::string_view body, uint32_t* round, ApiError* error) {
  Json json;
  int64_t n = 0;
  if (!ParseBody(body, {"round"}, &json, error) || !IntField(json, "round", 1, UINT32_MAX, &n, error)) return false;
  *round = uint32_t(n);
  return true;
}

bool ReadPasswordChange(std::string_view body, std::string* old_password, std::string* new_password, ApiError* error) {
  Json json;
  return ParseBody(body, {"old_password", "new_password"}, &json, error) &&
         StringField(json, "old_password", old_password, error) &&
         StringField(json, "new_password", new_password, error);
}

bool ReadAnswer(std::string_view body, v1::PlayAnswer* out, ApiError* error) {
  Json json;
  int64_t step = 0;
  if (!ParseBody(body, {"step", "code", "text"}, &json, error) || !IntField(json, "step", 0, UINT32_MAX, &step, error))
    return false;
  const bool has_code = json.contains("code"), has_text = json.contains("text");
  if (has_code == has_text) return Fail(error, BadParameter("code", "give exactly one of code and text"));
  v1::PlayAnswer answer;
  answer.set_step(uint32_t(step));
  if (has_code) {
    std::string code;
    if (!StringField(json, "code", &code, error)) return false;
    uint64_t value = 0;
    const auto [end, parse_error] = std::from_chars(code.data(), code.data() + code.size(), value);
    const bool number = !code.empty() && parse_error == std::errc() && end == code.data() + code.size();
    if (!number || !metropolis::Decode(value))
      return Fail(error, BadParameter("code", "'" + code.substr(0, 40) + "' is not an action code (a decimal string)"));
    answer.mutable_action()->set_code(value);
  } else {
    std::string text, parse_error;
    if (!StringField(json, "text", &text, error)) return false;
    if (!metropolis::ParseAction(text, &parse_error))
      return Fail(error, BadParameter("text", "'" + text.substr(0, 80) + "': " + parse_error));
    answer.mutable_action()->set_text(text);
  }
  *out = std::move(answer);
  return true;
}

bool ReadNothing(std::string_view body, ApiError* error) {
  if (body.empty()) return true;
  Json json;
  return ParseBody(body, {}, &json, error);
}

}  // namespace metropolis::gateway
