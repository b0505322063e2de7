// The play API's JSON request bodies (services/gateway/bodies.h), as a client
// sends them. The first byte chooses the endpoint, the rest is the body (at
// most kMaxBodyBytes, as the server reads):
//
//   0  sign up and sign in: a string name and password, or a refusal
//   1  a practice game: 2 or 3 bots of a known strength, or a refusal
//   2  joining a queue: a string ladder, or a refusal
//   3  a seat's answer: a step, and an action code that decodes or an action
//      text that parses, exactly one of the two; or a refusal
//   4  a friends' table's settings: every value within its bounds, or a refusal
//   5  a rematch: a round of at least 1, or a refusal
//   6  a new password: two strings, or a refusal
//   7  a person's new bot, and a token for it: strings, or a refusal
//
// Every reader refuses with a 400 and a message, or accepts; none throws (the
// server would answer 500) or crashes, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/action.h"
#include "engine/fuzz/fuzz_check.h"
#include "services/gateway/bodies.h"

namespace metropolis::gateway {
namespace {

void CheckRefusal(const ApiError& error) {
  FUZZ_CHECK(error.http == 400, "a body refused with HTTP " + std::to_string(error.http));
  FUZZ_CHECK(!error.message.empty(), "a body refused without a message");
}

void FuzzBody(uint8_t endpoint, std::string_view body) {
  ApiError error;
  switch (endpoint % 8) {
    case 0: {
      std::string name, password;
      if (!ReadCredentials(body, &name, &password, &error)) CheckRefusal(error);
      break;
    }
    case 1: {
      int64_t bots = 0;
      std::string strength;
      if (!ReadPractice(body, &bots, &strength, &error)) {
        CheckRefusal(error);
        break;
      }
      FUZZ_CHECK(bots == 2 || bots == 3, "accepted " + std::to_string(bots) + " bots");
      bool known = false;
      for (const std::string& s : PracticeStrengths()) known = known || s == strength;
      FUZZ_CHECK(known, "accepted the strength '" + strength + "'");
      break;
    }
    case 2: {
      std::string ladder;
      if (!ReadQueueJoin(body, &ladder, &error)) CheckRefusal(error);
      break;
    }
    case 4: {
      v1::TableSettings settings;
      if (!ReadTableSettings(body, &settings, &error)) {
        CheckRefusal(error);
        break;
      }
      FUZZ_CHECK(settings.seats() == 0 || settings.seats() == 3 || settings.seats() == 4,
                 "accepted " + std::to_string(settings.seats()) + " seats");
      FUZZ_CHECK(settings.decision_ms() == 0 || (settings.decision_ms() >= 5'000 && settings.decision_ms() <= 600'000),
                 "accepted a decision of " + std::to_string(settings.decision_ms()) + " ms");
      FUZZ_CHECK(settings.time_bank_ms() <= 3'600'000 && settings.spectator_delay_ms() <= 3'600'000,
                 "accepted a bank or a delay over an hour");
      FUZZ_CHECK(settings.spectator_delay_ms() % 60'000 == 0, "accepted a delay of part of a minute");
      bool known = settings.bot().empty();
      for (const std::string& s : PracticeStrengths()) known = known || s == settings.bot();
      FUZZ_CHECK(known, "accepted the bot '" + settings.bot() + "'");
      break;
    }
    case 5: {
      uint32_t round = 0;
      if (!ReadRematch(body, &round, &error)) {
        CheckRefusal(error);
        break;
      }
      FUZZ_CHECK(round >= 1, "accepted round 0");
      break;
    }
    case 6: {
      std::string old_password, new_password;
      if (!ReadPasswordChange(body, &old_password, &new_password, &error)) CheckRefusal(error);
      break;
    }
    case 7: {
      std::string name, label;
      if (!ReadBotCreate(body, &name, &error)) CheckRefusal(error);
      ApiError token_error;
      if (!ReadBotTokenIssue(body, &label, &token_error)) CheckRefusal(token_error);
      break;
    }
    default: {
      v1::PlayAnswer answer;
      if (!ReadAnswer(body, &answer, &error)) {
        CheckRefusal(error);
        FUZZ_CHECK(answer.ByteSizeLong() == 0, "a refused answer changed the output");
        break;
      }
      const v1::Action& a = answer.action();
      FUZZ_CHECK(a.code() == 0 || a.text().empty(), "an answer with both a code and a text");
      if (!a.text().empty()) {
        std::string parse_error;
        FUZZ_CHECK(ParseAction(a.text(), &parse_error), "accepted the text '" + a.text() + "': " + parse_error);
      } else {
        FUZZ_CHECK(Decode(a.code()).has_value(), "accepted the code " + std::to_string(a.code()));
      }
      break;
    }
  }
}

}  // namespace
}  // namespace metropolis::gateway

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis::gateway;
  if (size == 0 || size - 1 > kMaxBodyBytes) return 0;
  FuzzBody(data[0], std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  return 0;
}
