// Playing and querying a superko proof (checker/certificate_play.hpp): gonu play --certificate
// FILE, where the certificate's strategy plays the winner against the user's defence with the
// full history and superko applied (every legal move of the loser allowed, undo to try another),
// and gonu query --certificate FILE [POSITION], the strategy's move at a state of the proof or
// the loser's legal replies, each with the strategy's answer (the answer itself is
// certificate_query.hpp's, which the explorer serves too).
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "checker/certificate_play.hpp"
#include "tools/julgonu/certificate_query.hpp"
#include "tools/cli/play_input.hpp"

namespace gonu::cli {

// `human`: the side the user plays (nullopt: both, the strategy's move then only shown).
void play_certificate(const CertificatePlayer& p, const std::string& path, const Game& g, std::optional<Side> human,
                      LineReader& in);

// gonu query --certificate's answer as text (--json: certificate_query_json).
void print_certificate_query(const CertificatePlayer& p, const std::string& path, const Game& g);

}  // namespace gonu::cli
