#include "services/accounts/convert.h"

namespace metropolis::accounts {

void IdentityToProto(const Identity& in, v1::Identity* out) {
  out->set_id(in.id);
  out->set_kind(in.kind);
  out->set_name(in.name);
  out->set_owner(in.owner_name);
  out->set_created_unix_ms(in.created_unix_ms);
}

void ApiTokenToProto(const TokenInfo& in, v1::ApiToken* out) {
  out->set_id(in.id);
  out->set_label(in.label);
  out->set_admin(in.admin);
  out->set_created_unix_ms(in.created_unix_ms);
  out->set_revoked_unix_ms(in.revoked_unix_ms);
}

void LadderToProto(const LadderInfo& in, v1::Ladder* out) {
  const LadderSpec& s = in.spec;
  out->set_id(s.id);
  out->set_title(s.title);
  out->set_ruleset(s.ruleset);
  out->set_options(s.options);
  out->set_seats(s.seats);
  out->set_placement_games(s.placement_games);
  out->set_mu(s.mu);
  out->set_sigma(s.sigma);
  out->set_beta(s.beta);
  out->set_kappa(s.kappa);
  out->set_tau(s.tau);
  out->set_allow_three_after_ms(s.allow_three_after_ms);
  out->set_bot_fill_after_ms(s.bot_fill_after_ms);
  out->set_decision_ms(s.decision_ms);
  out->set_time_bank_ms(s.time_bank_ms);
  out->set_created_unix_ms(in.created_unix_ms);
  out->set_season(uint32_t(in.season));
  out->set_season_started_unix_ms(in.season_started_unix_ms);
  out->set_latest_season(uint32_t(in.latest_season));
}

LadderUpdate LadderUpdateFromProto(const v1::LadderSettings& in) {
  LadderUpdate u;
  if (in.has_title()) u.title = in.title();
  if (in.has_ruleset()) u.ruleset = in.ruleset();
  if (in.has_options()) u.options = in.options();
  if (in.has_seats()) u.seats = in.seats();
  if (in.has_placement_games()) u.placement_games = in.placement_games();
  if (in.has_mu()) u.mu = in.mu();
  if (in.has_sigma()) u.sigma = in.sigma();
  if (in.has_beta()) u.beta = in.beta();
  if (in.has_kappa()) u.kappa = in.kappa();
  if (in.has_tau()) u.tau = in.tau();
  if (in.has_allow_three_after_ms()) u.allow_three_after_ms = in.allow_three_after_ms();
  if (in.has_bot_fill_after_ms()) u.bot_fill_after_ms = in.bot_fill_after_ms();
  if (in.has_decision_ms()) u.decision_ms = in.decision_ms();
  if (in.has_time_bank_ms()) u.time_bank_ms = in.time_bank_ms();
  return u;
}

}  // namespace metropolis::accounts
