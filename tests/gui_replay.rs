//! The GUI's replay of a `tabula match` record: every step of a game, the
//! whole table shown (a record is public once played).

use crate::common::{self, scratch, words};
use crate::gui_support::Json;

#[test]
fn gui_replay_steps_through_a_recorded_hearts_hand_with_every_hand_shown() {
    let dir = scratch("gui_replay");
    let path = dir.join("hearts.txt");
    let cmd = format!("cmd={}", env!("CARGO_BIN_EXE_tabula"));
    let args = words(&[
        "--game",
        "hearts",
        "-o",
        "hands=single",
        "--engine",
        &cmd,
        "name=rules",
        "set.search=rules",
        "--engine",
        &cmd,
        "name=random",
        "set.search=random",
        "--games",
        "4",
        "--concurrency",
        "1",
        "--seed",
        "11",
        "--quiet",
        "--record",
        &path.display().to_string(),
    ]);
    let report = tabula::arena::run(&common::parse(&args)).expect("match runs");
    let text = std::fs::read_to_string(&path).expect("record");
    for number in 1..=4 {
        let game = report
            .record
            .games
            .iter()
            .find(|g| g.number == number)
            .expect("every game recorded");
        let reply = tabula::gui::replay::replay_json(&text, number).expect("replays");
        let json = Json::parse(&reply).expect("JSON");
        assert_eq!(json.get("games").arr().len(), 4);
        assert_eq!(json.get("number").num(), Some(number as f64));
        // One step for the start and one for each deal or move.
        let told = game
            .transcript
            .iter()
            .filter(|l| l.starts_with("play ") || l.starts_with("deal "))
            .count();
        let steps = json.get("steps").arr();
        assert_eq!(steps.len(), told + 1, "game {number}");
        let last = game
            .transcript
            .iter()
            .rev()
            .find(|l| l.starts_with("play ") || l.starts_with("deal "));
        assert_eq!(
            steps.last().and_then(|s| s.get("line").str()),
            last.map(String::as_str)
        );
        // Right after the deal, the whole table is face up: all 52 cards.
        let dealt = steps
            .iter()
            .position(|s| s.get("line").text().contains("deal"))
            .expect("a deal step");
        let view = steps[dealt].get("view").text();
        for suit in ['C', 'D', 'H', 'S'] {
            for rank in [
                '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
            ] {
                let card = format!("{rank}{suit}");
                assert!(
                    view.contains(&card),
                    "game {number}: {card} not shown after the deal"
                );
            }
        }
    }
    // A file that is no record is refused with a reason, not replayed.
    let bad = tabula::gui::replay::replay_json("# tabula-match 2\nplay south 2C\n", 1);
    assert!(bad.is_err());
}
