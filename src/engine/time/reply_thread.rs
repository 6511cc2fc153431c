//! The reply thread: a thread that answers `genmove` at its deadline
//! with the search's best move so far, when the search has not answered
//! by then.
//!
//! On a loaded machine a search's threads may wait milliseconds for a
//! core after their time is up, and more to be joined; a thread that
//! sleeps until the deadline gets a core at once when it wakes (more so
//! with the short time slices it asks for), so the reply leaves on time.
//! Whoever settles the [`Answer`] first sends it; the search then plays
//! the move that was sent.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::control::Answer;

/// How long after its deadline a search that has not answered is answered
/// for (from its best move so far): the search's own end comes first on
/// an idle machine, and the overhead setting (10 ms by default) keeps
/// both before the move time.
pub const ANSWER_GRACE: Duration = Duration::from_millis(2);
/// How often the reply thread looks at the stop flag.
const ANSWER_POLL: Duration = Duration::from_millis(1);

/// Runs `search` while a reply thread answers `answer` once `deadline`
/// (see [`super::reply_deadline`]) has passed or `stop` is raised, if the
/// search has published a move and not answered yet; returns what the
/// search returns.
pub fn answer_by_deadline<T>(
    deadline: Option<Instant>,
    stop: &AtomicBool,
    answer: &Answer,
    search: impl FnOnce() -> T,
) -> T {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            ask_for_short_slices();
            while !done.load(Ordering::Acquire) {
                let now = Instant::now();
                let due = stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| now >= d);
                if due && answer.answer_early() {
                    return;
                }
                let nap = match deadline {
                    Some(d) if d > now => ANSWER_POLL.min(d - now),
                    _ => ANSWER_POLL,
                };
                std::thread::park_timeout(nap);
            }
        });
        let decided = search();
        done.store(true, Ordering::Release);
        decided
    })
}

/// Asks the scheduler to give the calling thread short time slices. A
/// thread that sleeps almost always and wakes for a few microseconds (the
/// reply thread) then preempts a busy thread at once when it wakes, instead of
/// waiting out the busy thread's slice (Linux 6.12 and later: EEVDF's
/// custom slices, which any thread may ask for itself; elsewhere the
/// request fails and nothing changes). The protocol's line reader and
/// its pump ask for them too: a line that stops a search is read and
/// acted on at once, not after a busy thread's slice.
pub(crate) fn ask_for_short_slices() {
    #[cfg(target_os = "linux")]
    {
        // `sched_setattr` sets the nice value too. Nice 0 first (the
        // reply thread wakes for microseconds, so lifting it out of a `nice
        // tabula` costs nobody anything); without the privilege to lower
        // its nice value that is refused, and the thread's own value is
        // asked for instead, with the short slices.
        // On Linux the "process" none names the calling thread.
        let own = rustix::process::getpriority_process(None).unwrap_or(0);
        let mut refusal = None;
        for nice in [0, own] {
            let attr = libc::sched_attr {
                size: std::mem::size_of::<libc::sched_attr>() as u32,
                sched_policy: libc::SCHED_OTHER as u32,
                sched_flags: 0,
                sched_nice: nice,
                sched_priority: 0,
                // The shortest slice the kernel grants: 0.1 ms.
                sched_runtime: 100_000,
                sched_deadline: 0,
                sched_period: 0,
            };
            // SAFETY: `attr` is a valid, fully initialised `sched_attr`
            // that outlives the call, and its `size` tells the kernel how
            // much of it to read; pid 0 is the calling thread; a refusal
            // (an older kernel, no privilege) is an error code. A raw
            // syscall because neither std, rustix nor nix wraps
            // sched_setattr (glibc neither).
            let refused = unsafe {
                libc::syscall(
                    libc::SYS_sched_setattr,
                    0,
                    &attr as *const libc::sched_attr,
                    0,
                )
            };
            if refused == 0 {
                return;
            }
            refusal = Some(std::io::Error::last_os_error());
        }
        if let Some(e) = refusal {
            log::debug!("short time slices refused: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Progress;
    use crate::control::tests::said;
    use std::sync::Mutex;

    #[test]
    fn a_late_search_is_answered_at_the_deadline_with_its_latest_move() {
        let sent = Mutex::new(Vec::new());
        let send = |p: &Progress| sent.lock().unwrap().push((p.best.clone(), Instant::now()));
        let answer = Answer::new(&send);
        let stop = AtomicBool::new(false);
        let deadline = Instant::now() + Duration::from_millis(30);
        let played = answer_by_deadline(Some(deadline), &stop, &answer, || {
            answer.publish(&said("d3"));
            // A search that overruns its deadline by far.
            std::thread::sleep(Duration::from_millis(300));
            answer.settle(&said("f5")).map(|p| p.best)
        });
        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].0, "d3");
        assert!(sent[0].1 >= deadline, "not before the deadline");
        assert_eq!(
            played.as_deref(),
            Some("d3"),
            "the search plays what was sent"
        );
    }

    #[test]
    fn a_search_on_time_answers_itself_and_a_stop_is_answered_at_once() {
        let sent = Mutex::new(Vec::new());
        let send = |p: &Progress| sent.lock().unwrap().push(p.best.clone());
        let answer = Answer::new(&send);
        let stop = AtomicBool::new(false);
        let deadline = Instant::now() + Duration::from_secs(60);
        let own = answer_by_deadline(Some(deadline), &stop, &answer, || {
            answer.publish(&said("d3"));
            answer.settle(&said("f5")).map(|p| p.best)
        });
        assert_eq!(
            (own, &sent.lock().unwrap()[..]),
            (None, &["f5".to_string()][..])
        );
        // No deadline, but a stop: the reply thread answers with the latest move.
        let answer = Answer::new(&send);
        let started = Instant::now();
        let played = answer_by_deadline(None, &stop, &answer, || {
            answer.publish(&said("c4"));
            stop.store(true, Ordering::Relaxed);
            while !answer.is_settled() && started.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(1));
            }
            answer.settle(&said("e6")).map(|p| p.best)
        });
        assert_eq!(played.as_deref(), Some("c4"));
    }

    #[test]
    fn an_early_only_answer_sends_only_what_the_reply_thread_answers() {
        let sent = Mutex::new(Vec::new());
        let send = |p: &Progress| sent.lock().unwrap().push(p.best.clone());
        let stop = AtomicBool::new(false);
        // On time: the search settles and nothing is sent (its caller
        // replies with its last lines).
        let answer = Answer::early_only(&send);
        let far = Instant::now() + Duration::from_secs(60);
        let own = answer_by_deadline(Some(far), &stop, &answer, || {
            answer.publish(&said("d3"));
            answer.settle(&said("f5")).map(|p| p.best)
        });
        assert_eq!(own, None);
        assert!(answer.is_settled() && !answer.settled_early());
        assert!(sent.lock().unwrap().is_empty());
        // Late: the reply thread sends the latest move once, and it is played.
        let answer = Answer::early_only(&send);
        let near = Instant::now() + Duration::from_millis(30);
        let played = answer_by_deadline(Some(near), &stop, &answer, || {
            answer.publish(&said("c4"));
            std::thread::sleep(Duration::from_millis(300));
            answer.settle(&said("e6")).map(|p| p.best)
        });
        assert_eq!(played.as_deref(), Some("c4"));
        assert!(answer.settled_early());
        assert_eq!(&sent.lock().unwrap()[..], &["c4".to_string()][..]);
    }
}
