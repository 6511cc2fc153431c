//! The integration tests, built as one binary (one link, shared code generated
//! once): each module is one area, run alone with `cargo test --profile quick
//! --test integration <module>`.

mod common;

mod arena_cards;
mod arena_faults;
mod arena_match;
mod arena_record;
mod arena_shards;
mod arena_stats;
mod card_threads;
mod cards_sampler;
mod conformance;
mod engine_process;
mod gui_browser;
mod gui_server;
mod gui_support;
mod hearts_hidden;
mod hearts_rules;
mod hearts_search;
mod ninetynine_rules;
mod othello_perft;
mod othello_rules;
mod othello_solver;
mod protocol_props;
mod quoridor_four;
mod quoridor_race;
mod quoridor_reference;
mod quoridor_rules;
mod robustness;
mod transcripts;
mod wizard_rules;
