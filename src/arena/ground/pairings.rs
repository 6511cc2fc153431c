//! Which engines meet: every pair once, in the one order the schedule
//! plays them, the merge checks them and the report's cross-table lists
//! them.

/// All pairings of `engines` engines, in order: (0,1), (0,2)... (1,2)...
pub fn pairings(engines: usize) -> Vec<(usize, usize)> {
    (0..engines)
        .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
        .collect()
}
