//! Small protocol faults found by the outside attack on b28c4a8: a
//! 65,536-byte line refused for its CRLF, `+5 name` answered "empty
//! command", `-0` refused as a number, Ninety-Nine's seat-bound
//! `showboard` between hands showing the hand just over, and protocol.md
//! describing Wizard's led Jesters otherwise than the rules and the engine.

use std::io::Cursor;
use std::sync::mpsc::channel;
use std::time::Duration;

use tabula::engine::Engine;
use tabula::games::cards::Card;
use tabula::games::wizard::led_suit;

/// Runs a session in process on `input`; its replies.
fn replies(input: &[u8]) -> Vec<String> {
    let (tx, rx) = channel();
    let input = input.to_vec();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let engine = Engine::new(1).expect("engine");
        tabula::protocol::run(Cursor::new(input), &mut out, engine);
        let _ = tx.send(out);
    });
    let out = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the session ends");
    let out = String::from_utf8(out).expect("UTF-8");
    out.split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect()
}

/// `1 name` padded with spaces to `len` bytes of text, then `ending`.
fn padded_name(len: usize, ending: &str) -> Vec<u8> {
    let mut line = b"1 name".to_vec();
    line.resize(len, b' ');
    line.extend_from_slice(ending.as_bytes());
    line
}

#[test]
fn the_line_limit_is_on_the_text_with_lf_or_crlf() {
    for ending in ["\n", "\r\n"] {
        let mut input = padded_name(65_536, ending);
        input.extend(padded_name(65_537, ending));
        input.extend_from_slice(format!("2 name{ending}").as_bytes());
        let r = replies(&input);
        assert_eq!(
            r,
            [
                "=1 tabula",
                "?1 line too long (over 65536 bytes)",
                "=2 tabula"
            ],
            "{ending:?}"
        );
    }
}

#[test]
fn a_signed_number_before_a_command_is_answered_as_no_id() {
    let r = replies(b"+5 name\n-5 name\n+0\n5 +x\n7 name\n");
    for (reply, word) in r.iter().zip(["+5", "-5", "+0"]) {
        assert_eq!(
            reply,
            &format!("? '{word}' is not an id (an id is digits only, with no sign) nor a command")
        );
    }
    assert_eq!(r[3], "?5 unknown command '+x' (help lists the commands)");
    assert_eq!(r[4], "=7 tabula");
}

#[test]
fn negative_zero_is_zero() {
    let r = replies(
        b"time_settings 10 0 0\ntime_left black 5 -0\ntime_left black -0 0\n\
          time_left white -0.0 -00\ntime_settings 0 -0 -0\ntime_left black -1 0\n\
          time_left black 5 -1\n",
    );
    assert_eq!(&r[..5], ["= ", "= ", "= ", "= ", "= "], "{r:?}");
    assert!(r[5].starts_with("? "), "{r:?}");
    assert!(r[6].starts_with("? "), "{r:?}");
}

#[test]
fn ninety_nine_between_hands_shows_the_hand_to_come() {
    let r = replies(
        b"game ninetynine players=3 seat=0\ndeal 5C KC AH\nplay KC\ndeal 2D\n\
          play p1 lose\nshowboard\ndeal 3C 4D 5H\nshowboard\n",
    );
    let between = &r[5];
    assert!(
        between.contains("hand 2, dealer p0, total 0, direction clockwise, top -, stock 43"),
        "{between}"
    );
    assert!(
        !between.contains("5C") && !between.contains("KC"),
        "{between}"
    );
    assert_eq!(between.matches("to be dealt").count(), 3, "{between}");
    assert!(between.ends_with("to move: chance (deal)"), "{between}");
    let dealt = &r[7];
    assert!(
        dealt.contains("total 0") && dealt.contains("p0: 3C 4D 5H"),
        "{dealt}"
    );
}

#[test]
fn wizard_led_jesters_are_described_as_the_engine_plays_them() {
    let cards = |text: &str| -> Vec<Card> {
        text.split_whitespace()
            .map(|w| w.parse().expect("card"))
            .collect()
    };
    // The first non-Jester card sets the suit; a Wizard sets none.
    assert_eq!(
        led_suit(&cards("N1 N2 5H")),
        "5H".parse::<Card>().ok().and_then(|c| c.suit())
    );
    assert_eq!(led_suit(&cards("N1 Z1 5H")), None);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md");
    let words = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let wizard = &words[words.find("### Wizard").expect("Wizard section")..];
    let wizard = &wizard[..wizard.find("### Ninety-Nine").unwrap_or(wizard.len())];
    assert!(
        wizard.contains(
            "if a Jester leads, the first non-Jester card sets the suit to follow \
             (a Wizard: anything may follow)"
        ),
        "protocol.md's Wizard section"
    );
    assert!(!wizard.contains("the first normal card sets"));
}
