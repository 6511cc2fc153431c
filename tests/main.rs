//! The integration tests, built as one binary (one link, shared code generated
//! once): each module is one area, run alone with `cargo test --profile quick
//! --test integration <module>`.

mod common;

mod arena_adjudicate;
mod arena_cards;
mod arena_exits;
mod arena_export;
mod arena_faults;
mod arena_files;
mod arena_ggf_edax;
mod arena_match;
mod arena_merge;
mod arena_openings;
mod arena_pairs;
mod arena_record;
mod arena_recover;
mod arena_scores;
mod arena_shards;
mod arena_stats;
mod card_threads;
mod cards_sampler;
mod clock_rounding;
mod conformance;
mod engine_process;
mod game_extras;
mod gui_browser;
mod gui_replay;
mod gui_server;
mod gui_support;
mod hearts_hidden;
mod hearts_rules;
mod hearts_search;
mod human_seat;
mod iteration_cost;
mod layers;
mod multipv;
mod ninetynine_rules;
mod othello_perft;
mod othello_rules;
mod othello_solver;
mod protocol_cadence;
mod protocol_low;
mod protocol_props;
mod protocols;
mod quoridor_four;
mod quoridor_race;
mod quoridor_reference;
mod quoridor_rules;
mod robustness;
mod startup;
mod thread_determinism;
mod tool_args;
mod transcripts;
mod weight_files;
mod wizard_rules;
