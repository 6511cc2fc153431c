//! Throwing large things away off the clock.
//!
//! Freeing a search tree of millions of nodes, or unmapping a table of
//! hundreds of MiB, takes milliseconds to tens of milliseconds: work that
//! must not sit between a search's decision and its reply. [`dispose`]
//! hands the value to a short-lived helper thread that drops it; where no
//! thread can be had, it is dropped at once.

/// Drops `value` on a helper thread (or here, if none can be started).
pub fn dispose<T: Send + 'static>(value: T) {
    let spare = std::sync::Arc::new(std::sync::Mutex::new(Some(value)));
    let theirs = spare.clone();
    let spawned = std::thread::Builder::new()
        .name("tabula-free".into())
        .spawn(move || {
            if let Ok(mut slot) = theirs.lock() {
                drop(slot.take());
            }
        });
    if spawned.is_err()
        && let Ok(mut slot) = spare.lock()
    {
        drop(slot.take());
    }
}

#[cfg(test)]
mod tests {
    use super::dispose;
    use std::sync::mpsc;

    /// Sends its thread's name when dropped.
    struct Witness(mpsc::Sender<Option<String>>);

    impl Drop for Witness {
        fn drop(&mut self) {
            let name = std::thread::current().name().map(str::to_string);
            let _ = self.0.send(name);
        }
    }

    #[test]
    fn the_value_is_dropped_on_the_helper_thread() {
        let (tx, rx) = mpsc::channel();
        dispose(Witness(tx));
        let name = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("dropped within 10 s");
        assert_eq!(name.as_deref(), Some("tabula-free"));
    }
}
