//! The node store of MCTS, shared by its search threads.
//!
//! The store is one block of slots, reserved once up to the memory cap.
//! The system backs its pages only as nodes are written, so a small tree
//! costs little, and the block never moves: any number of threads can hold
//! references into it while others add nodes. A thread claims free slots
//! (by chunks when threads share the tree, so that they seldom meet on the
//! store's length), writes the children of a node there, and publishes them
//! by storing their first index in the parent (release); readers load that
//! index with acquire, so a published node is always fully written. The
//! root is an index too, so that keeping a subtree across moves can slide
//! it down in place whatever order its nodes were claimed in.
//!
//! Slots past the written ones are uninitialised, so an index is never
//! handed out bare: a [`NodeRef`] is made by the tree alone, for the root
//! or a published child, and is stamped with the tree's shape (a number no
//! other tree and no other shape of this one ever has, renewed whenever
//! the tree is cleared, rerooted or compacted). [`Tree::node`] checks the
//! stamp, so safe code can only ever read written slots; a stale or
//! foreign reference is a panic, never undefined behaviour.
//!
//! Statistics are atomics. With one thread they are read and written with
//! plain loads and stores. With several, each node's visit count doubles as
//! a spin lock (its top bit), so that the visit count and the mean move
//! together; a descent may count its visit on the way down as a loss (a
//! virtual loss) that the backup then turns into the real reward, which
//! steers the other threads away from the line being played out; and a
//! [`Batch`] holds back a thread's playouts through the busiest nodes.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};

/// `first_child` of a node whose children do not exist yet.
const UNEXPANDED: u32 = u32::MAX;
/// `first_child` of a node whose children a thread is writing now.
const EXPANDING: u32 = u32::MAX - 1;
/// The lock bit of `visits`.
const LOCK: u32 = 1 << 31;
/// Most visits a node may count (below the lock bit); a search stops when
/// its root gets there.
pub const MAX_VISITS: u32 = LOCK - 1;

/// A node: the move into it, its children, and the statistics of the seat
/// that made that move. 20 bytes for a one-byte move, so that the children
/// a selection scans share as few cache lines as possible (the tree
/// outgrows the caches within a second, and those misses are most of the
/// search's cost).
pub struct Node<M> {
    first_child: AtomicU32,
    /// Visits, counted when a descent passes (shared) or backs up (alone).
    visits: AtomicU32,
    /// The mean reward (`f32` bits) and `1 / sqrt(visits)`, both kept up to
    /// date at every update so that selection costs a multiply-add per
    /// child, not a division and a square root.
    mean: AtomicU32,
    inv_sqrt: AtomicU32,
    num_children: AtomicU16,
    mv: Option<M>,
}

/// A node's statistics as plain values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Playouts through the node (and visits under way, with threads).
    pub visits: u32,
    /// Their mean reward for the seat that moved into the node.
    pub mean: f32,
    /// `1 / sqrt(visits)`, 0 before the first.
    pub inv_sqrt: f32,
}

impl<M: Copy> Node<M> {
    fn fresh(mv: Option<M>) -> Node<M> {
        Node {
            first_child: AtomicU32::new(UNEXPANDED),
            visits: AtomicU32::new(0),
            mean: AtomicU32::new(0),
            inv_sqrt: AtomicU32::new(0),
            num_children: AtomicU16::new(0),
            mv,
        }
    }

    /// A copy, for moving nodes while no search runs.
    fn copy(&self) -> Node<M> {
        Node {
            first_child: AtomicU32::new(self.first_child.load(Ordering::Relaxed)),
            visits: AtomicU32::new(self.visits.load(Ordering::Relaxed)),
            mean: AtomicU32::new(self.mean.load(Ordering::Relaxed)),
            inv_sqrt: AtomicU32::new(self.inv_sqrt.load(Ordering::Relaxed)),
            num_children: AtomicU16::new(self.num_children.load(Ordering::Relaxed)),
            mv: self.mv,
        }
    }

    /// The move that leads here (`None` at the root).
    pub fn mv(&self) -> Option<M> {
        self.mv
    }

    /// Visits so far (a visit under way included, with several threads).
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Ordering::Relaxed) & !LOCK
    }

    /// The statistics; with several threads they may be a moment old.
    #[inline]
    pub fn stats(&self) -> Stats {
        Stats {
            visits: self.visits(),
            mean: self.mean(),
            inv_sqrt: f32::from_bits(self.inv_sqrt.load(Ordering::Relaxed)),
        }
    }

    #[inline]
    fn mean(&self) -> f32 {
        f32::from_bits(self.mean.load(Ordering::Relaxed))
    }

    /// Whether the children are written (or being written).
    pub fn is_expanded(&self) -> bool {
        self.first_child.load(Ordering::Relaxed) != UNEXPANDED
    }

    /// The indices of the published children (empty if none).
    #[inline]
    fn children(&self) -> std::ops::Range<u32> {
        let first = self.first_child.load(Ordering::Acquire);
        if first >= EXPANDING {
            return 0..0;
        }
        first..first + u32::from(self.num_children.load(Ordering::Relaxed))
    }

    fn store(&self, visits: u32, mean: f32) {
        self.mean.store(mean.to_bits(), Ordering::Relaxed);
        let inv_sqrt = if visits == 0 {
            0.0
        } else {
            1.0 / (visits as f32).sqrt()
        };
        self.inv_sqrt.store(inv_sqrt.to_bits(), Ordering::Relaxed);
        self.visits.store(visits, Ordering::Release);
    }

    /// Merges `visits` playouts of mean reward `mean` into the node, which
    /// had `before` visits (and releases the lock, if it was held).
    fn merge(&self, before: u32, mean: f32, visits: u32) {
        let old = self.mean();
        let n = before.saturating_add(visits).min(MAX_VISITS);
        self.store(n, old + (mean - old) * (visits as f32 / n as f32));
    }

    /// Adds `visits` playouts of this mean reward (one thread only: the
    /// read and the write are not one step).
    pub fn add(&self, mean: f32, visits: u32) {
        if visits > 0 {
            self.merge(self.visits(), mean, visits);
        }
    }

    /// Takes the node's lock; returns the visits.
    fn lock(&self) -> u32 {
        loop {
            let v = self.visits.fetch_or(LOCK, Ordering::Acquire);
            if v & LOCK == 0 {
                return v;
            }
            while self.visits.load(Ordering::Relaxed) & LOCK != 0 {
                std::hint::spin_loop();
            }
        }
    }

    /// Counts a visit under way as a loss (several threads); returns the
    /// visits before it.
    pub fn visit_shared(&self) -> u32 {
        let v = self.lock();
        let n = (v + 1).min(MAX_VISITS);
        // The store of the visits releases the lock.
        self.store(n, self.mean() * (v as f32 / n as f32));
        v
    }

    /// Adds `visits` playouts of this mean reward (several threads).
    pub fn add_shared(&self, mean: f32, visits: u32) {
        if visits > 0 {
            let v = self.lock();
            self.merge(v, mean, visits);
        }
    }

    /// Takes back the visit counted by [`Node::visit_shared`], for a
    /// playout that was cut short: the visits lose one, the reward sum
    /// (which the loss did not add to) stays.
    pub fn cancel_shared(&self) {
        let v = self.lock();
        let n = v.saturating_sub(1);
        let mean = if n == 0 {
            0.0
        } else {
            self.mean() * (v as f32 / n as f32)
        };
        self.store(n, mean);
    }

    /// Turns the loss counted by [`Node::visit_shared`] into `reward`.
    pub fn reward_shared(&self, reward: f32) {
        let v = self.lock();
        self.store(v, self.mean() + reward / v.max(1) as f32);
    }
}

/// Playouts through well-visited nodes, held back by one search thread
/// and added a few at a time.
///
/// Every thread passes the top of a shared tree at every iteration, and
/// each write there takes the cache line from the other threads' caches,
/// where the next selection needs it. A node with many visits hardly
/// changes its choice over a few more, so holding back a few playouts there
/// (up to sixteen, one per 64 visits) costs nothing in play and saves most
/// of the writes.
#[derive(Clone, Debug)]
pub struct Batch {
    /// Direct-mapped by node: `(node, playouts, reward sum)`.
    entries: [(NodeRef, u32, f32); BATCH_ENTRIES],
}

const BATCH_ENTRIES: usize = 64;
/// Playouts held back per node at most.
const BATCH_SIZE: u32 = 16;

impl Default for Batch {
    fn default() -> Batch {
        Batch {
            entries: [(NodeRef::NONE, 0, 0.0); BATCH_ENTRIES],
        }
    }
}

impl Batch {
    /// Holds back a playout of `reward` through `node`, which has `visits`
    /// visits, writing the node's batch when it is full (or when another
    /// node needs its entry). A node's batch holds at most one playout per
    /// 64 visits, so the thread's view of it is never more than 1.6% old;
    /// below 128 visits the playout is written at once.
    pub fn add<M: Copy + PartialEq>(
        &mut self,
        tree: &Tree<M>,
        node: NodeRef,
        visits: u32,
        reward: f32,
    ) {
        let size = (visits / 64).min(BATCH_SIZE);
        if size < 2 {
            tree.node(node).add_shared(reward, 1);
            return;
        }
        let k = (node.index.wrapping_mul(0x9E37_79B9) >> 26) as usize % BATCH_ENTRIES;
        let e = &mut self.entries[k];
        if e.0 != node {
            Self::write(tree, e);
            e.0 = node;
        }
        e.1 += 1;
        e.2 += reward;
        if e.1 >= size {
            Self::write(tree, e);
        }
    }

    /// Writes every held-back playout.
    pub fn flush<M: Copy + PartialEq>(&mut self, tree: &Tree<M>) {
        for e in &mut self.entries {
            Self::write(tree, e);
        }
    }

    fn write<M: Copy + PartialEq>(tree: &Tree<M>, e: &mut (NodeRef, u32, f32)) {
        if e.1 > 0 {
            tree.node(e.0).add_shared(e.2 / e.1 as f32, e.1);
        }
        e.1 = 0;
        e.2 = 0.0;
    }
}

/// A slot of the store: written once by the thread that claimed it, read
/// by every thread after the write was published.
struct Slot<M>(UnsafeCell<MaybeUninit<Node<M>>>);

// SAFETY: a slot is written only by the one thread that claimed it, before
// it is published (see `Tree::expand`); after that it is only read, and its
// mutable parts are atomics.
unsafe impl<M: Send + Sync> Sync for Slot<M> {}

/// What [`Tree::expand`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// The children are published.
    Done,
    /// Another thread expanded it, or is expanding it now.
    Taken,
    /// No room under the memory cap (or too many moves for a node).
    Full,
}

/// The node store: children of a node side by side.
pub struct Tree<M> {
    slots: Box<[Slot<M>]>,
    /// Slots written or claimed. Only grows while threads share the tree.
    len: AtomicU32,
    root: u32,
    /// The stamp of this shape of the tree (see [`NodeRef`]).
    shape: u64,
    /// Nodes outside the root's subtree are in the store (after
    /// [`Tree::reroot`], until [`Tree::compact`]).
    garbage: bool,
}

/// Slots a search thread claims at a time when threads share the tree, so
/// that they do not contend for the store's length at every expansion.
const CHUNK: u32 = 1024;

/// A search thread's claimed slots not used yet.
#[derive(Clone, Copy, Debug, Default)]
pub struct Claim {
    next: u32,
    end: u32,
    /// Slots to claim at a time (0: just what an expansion needs).
    chunk: u32,
    /// The shape of the tree the slots were claimed in: claimed slots are
    /// only this claim's while the tree keeps that shape.
    shape: u64,
}

/// A node of a [`Tree`], handed out by the tree: its root, or a child of a
/// node it published. Valid for that tree until it next changes shape
/// ([`Tree::clear`], [`Tree::reroot`], [`Tree::compact`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeRef {
    index: u32,
    shape: u64,
}

impl NodeRef {
    /// Refers to nothing (no tree has shape 0).
    const NONE: NodeRef = NodeRef {
        index: u32::MAX,
        shape: 0,
    };
}

/// The last shape stamp handed out, by any tree.
static SHAPES: AtomicU64 = AtomicU64::new(0);

/// A stamp no tree shape had before.
fn new_shape() -> u64 {
    SHAPES.fetch_add(1, Ordering::Relaxed) + 1
}

/// The published children of a node, with their references.
pub struct Children<'t, M> {
    slots: &'t [Slot<M>],
    next: u32,
    end: u32,
    shape: u64,
}

impl<'t, M> Iterator for Children<'t, M> {
    type Item = (NodeRef, &'t Node<M>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let index = self.next;
        self.next += 1;
        let slot = self.slots.get(index as usize)?;
        // SAFETY: the range is the children of a node published in this
        // shape of the tree, read with acquire: they were written first.
        let node = unsafe { (*slot.0.get()).assume_init_ref() };
        Some((
            NodeRef {
                index,
                shape: self.shape,
            },
            node,
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize;
        (n, Some(n))
    }
}

impl<M> DoubleEndedIterator for Children<'_, M> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        let slot = self.slots.get(self.end as usize)?;
        // SAFETY: as in `next`.
        let node = unsafe { (*slot.0.get()).assume_init_ref() };
        Some((
            NodeRef {
                index: self.end,
                shape: self.shape,
            },
            node,
        ))
    }
}

impl Claim {
    /// For a thread alone on its tree: slots are claimed as needed.
    pub fn exact() -> Claim {
        Claim::default()
    }

    /// For one of several threads on a tree: slots are claimed by chunks.
    pub fn chunked() -> Claim {
        Claim {
            chunk: CHUNK,
            ..Claim::default()
        }
    }
}

/// Most children a node may have (the width of `num_children`); a wider
/// node is left unexpanded and played out from.
pub const MAX_CHILDREN: usize = u16::MAX as usize;

impl<M: Copy + PartialEq> Tree<M> {
    /// A store of up to `max_nodes` nodes (at least 2), reserved but not
    /// touched; halved until the system grants the reservation. It starts
    /// with a root.
    pub fn new(max_nodes: usize) -> Tree<M> {
        let mut want = max_nodes.clamp(2, EXPANDING as usize - 1);
        let mut slots: Vec<Slot<M>> = Vec::new();
        while slots.try_reserve_exact(want).is_err() && want > 2 {
            want /= 2;
        }
        // Uninitialised slots are not written: the pages stay untouched.
        slots.resize_with(want, || Slot(UnsafeCell::new(MaybeUninit::uninit())));
        let mut tree = Tree {
            slots: slots.into_boxed_slice(),
            len: AtomicU32::new(0),
            root: 0,
            shape: 0,
            garbage: false,
        };
        tree.clear();
        tree
    }

    /// Nodes the store has room for.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        self.len.load(Ordering::Acquire) as usize
    }

    /// The root.
    pub fn root(&self) -> NodeRef {
        NodeRef {
            index: self.root,
            shape: self.shape,
        }
    }

    /// Drops every node but a fresh root.
    pub fn clear(&mut self) {
        *self.len.get_mut() = 0;
        self.write(0, Node::fresh(None));
        *self.len.get_mut() = 1;
        self.root = 0;
        self.garbage = false;
        self.shape = new_shape();
    }

    fn write(&self, index: u32, node: Node<M>) {
        // SAFETY: `index` was claimed by this thread alone (or the tree is
        // held exclusively), and nobody reads it before it is published.
        unsafe { (*self.slots[index as usize].0.get()).write(node) };
    }

    /// The node `r` refers to.
    ///
    /// # Panics
    ///
    /// If `r` comes from another tree, or from this one before it last
    /// changed shape.
    #[inline]
    pub fn node(&self, r: NodeRef) -> &Node<M> {
        assert!(r.shape == self.shape, "a node of another tree shape");
        // SAFETY: a reference of this shape is the root or a child
        // published in this shape (see `NodeRef`), written before that.
        unsafe { self.written(r.index) }
    }

    /// The node at `index`, which must be written: the root, or a child
    /// (found with acquire) of a node that may be read.
    ///
    /// # Safety
    ///
    /// `index` is below the capacity and its slot was written before (in
    /// this thread, or published to it).
    #[inline]
    unsafe fn written(&self, index: u32) -> &Node<M> {
        // SAFETY: the caller's promise.
        unsafe { (*self.slots.get_unchecked(index as usize).0.get()).assume_init_ref() }
    }

    /// The child of `parent` reached by `mv`, if it has one.
    pub fn child_for(&self, parent: NodeRef, mv: M) -> Option<NodeRef> {
        self.children(parent)
            .find(|(_, n)| n.mv == Some(mv))
            .map(|(r, _)| r)
    }

    /// The published children of `parent`, with their references.
    #[inline]
    pub fn children(&self, parent: NodeRef) -> Children<'_, M> {
        let range = self.node(parent).children();
        Children {
            slots: &self.slots,
            next: range.start,
            end: range.end,
            shape: self.shape,
        }
    }

    /// Gives `parent` a child per move, in slots taken from `claim`,
    /// unless another thread is at it or there is no room.
    pub fn expand(&self, parent: NodeRef, moves: &[M], claim: &mut Claim) -> Expansion {
        let p = self.node(parent);
        if moves.len() > MAX_CHILDREN || moves.len() > self.capacity() {
            return Expansion::Full;
        }
        if p.first_child
            .compare_exchange(UNEXPANDED, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return Expansion::Taken;
        }
        let Some(first) = self.take(claim, moves.len() as u32) else {
            p.first_child.store(UNEXPANDED, Ordering::Release);
            return Expansion::Full;
        };
        for (i, &mv) in moves.iter().enumerate() {
            self.write(first + i as u32, Node::fresh(Some(mv)));
        }
        p.num_children.store(moves.len() as u16, Ordering::Relaxed);
        p.first_child.store(first, Ordering::Release);
        Expansion::Done
    }

    /// `k` free slots in a row, from the claim or from a new claim.
    fn take(&self, claim: &mut Claim, k: u32) -> Option<u32> {
        if claim.shape != self.shape {
            // Claimed in another tree, or before this one changed shape:
            // those slots may be anyone's now.
            *claim = Claim {
                chunk: claim.chunk,
                shape: self.shape,
                ..Claim::default()
            };
        }
        if claim.end - claim.next >= k {
            claim.next += k;
            return Some(claim.next - k);
        }
        let mut first = self.len.load(Ordering::Relaxed);
        loop {
            let room = (self.capacity() as u32).saturating_sub(first);
            if room < k {
                return None;
            }
            let n = k.max(claim.chunk).min(room);
            match self.len.compare_exchange_weak(
                first,
                first + n,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    claim.next = first + k;
                    claim.end = first + n;
                    return Some(first);
                }
                Err(now) => first = now,
            }
        }
    }

    /// Keeps only the subtree below the root's child for `mv`, which
    /// becomes the root; `false` (and a fresh root) if there is no such
    /// child. [`Tree::reroot`] then [`Tree::compact`].
    pub fn keep_subtree(&mut self, mv: M) -> bool {
        let kept = self.reroot(mv);
        self.compact(&AtomicBool::new(false));
        kept
    }

    /// Makes the root's child for `mv` the root, in constant time: the
    /// rest of the tree stays in the store as garbage until
    /// [`Tree::compact`]. `false` (and a fresh root) if there is no such
    /// child.
    pub fn reroot(&mut self, mv: M) -> bool {
        let Some(start) = self.child_for(self.root(), mv) else {
            self.clear();
            return false;
        };
        let mut n = self.node(start).copy();
        n.mv = None;
        self.write(start.index, n);
        self.root = start.index;
        self.garbage = true;
        self.shape = new_shape();
        true
    }

    /// Whether the store holds nodes outside the root's subtree.
    pub fn has_garbage(&self) -> bool {
        self.garbage
    }

    /// Slides the root's subtree down over the rest of the store, in
    /// place: no second store, so the memory cap holds across moves. Live
    /// nodes keep their order, so each moves to a slot at or below its
    /// own, which is free or already moved by then, and blocks of children
    /// stay whole.
    ///
    /// Polls `abort` every few thousand nodes; an aborted compaction
    /// leaves a fresh root (the tree is cleared) and returns `false`. This
    /// is what lets the engine compact after its reply, on another thread,
    /// and still start the next search at once.
    pub fn compact(&mut self, abort: &AtomicBool) -> bool {
        const POLL: usize = 4096;
        if !self.has_garbage() {
            return true;
        }
        let start = self.root;
        let len = self.size();
        let mut live = vec![0u64; len.div_ceil(64)];
        live[start as usize / 64] |= 1 << (start % 64);
        let mut stack = vec![start];
        let mut seen = 0usize;
        while let Some(i) = stack.pop() {
            seen += 1;
            if seen.is_multiple_of(POLL) && abort.load(Ordering::Relaxed) {
                self.clear();
                return false;
            }
            // SAFETY: `i` is the root or a published child of a live node.
            for c in unsafe { self.written(i) }.children() {
                live[c as usize / 64] |= 1 << (c % 64);
                stack.push(c);
            }
        }
        let mut before = Vec::with_capacity(live.len());
        let mut kept = 0u32;
        for word in &live {
            before.push(kept);
            kept += word.count_ones();
        }
        let new_index =
            |i: usize| before[i / 64] + (live[i / 64] & ((1u64 << (i % 64)) - 1)).count_ones();
        for (w, &word) in live.iter().enumerate() {
            if w.is_multiple_of(POLL / 64) && abort.load(Ordering::Relaxed) {
                // Half moved: nothing of it can be trusted any more.
                self.clear();
                return false;
            }
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // SAFETY: `i` is live: the root or a published child.
                let mut n = unsafe { self.written(i as u32) }.copy();
                let first = *n.first_child.get_mut();
                if first < EXPANDING {
                    *n.first_child.get_mut() = new_index(first as usize);
                }
                self.write(new_index(i), n);
            }
        }
        *self.len.get_mut() = kept;
        self.root = new_index(start as usize);
        self.garbage = false;
        self.shape = new_shape();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The written node at `index`, as the tree would hand it out.
    fn at<M: Copy + PartialEq>(tree: &Tree<M>, index: u32) -> NodeRef {
        assert!((index as usize) < tree.size());
        NodeRef {
            index,
            shape: tree.shape,
        }
    }

    #[test]
    fn shared_updates_from_two_threads_lose_nothing() {
        let tree = Tree::<u8>::new(16);
        let node = tree.node(at(&tree, 0));
        std::thread::scope(|scope| {
            for reward in [1.0f32, 0.0] {
                scope.spawn(move || {
                    for _ in 0..200_000 {
                        node.visit_shared();
                        node.reward_shared(reward);
                        node.add_shared(reward, 1);
                    }
                });
            }
        });
        let s = node.stats();
        assert_eq!(s.visits, 800_000);
        // Every virtual loss was turned into its reward: half the playouts
        // won.
        assert!((s.mean - 0.5).abs() < 1e-3, "{}", s.mean);
        assert!((s.inv_sqrt - 1.0 / 800_000f32.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn a_cancelled_visit_leaves_the_node_as_it_was() {
        let tree = Tree::<u8>::new(16);
        let node = tree.node(tree.root());
        node.add(0.5, 4);
        node.visit_shared();
        node.cancel_shared();
        assert_eq!(node.stats().visits, 4);
        assert!((node.stats().mean - 0.5).abs() < 1e-6);
        node.visit_shared();
        node.add_shared(1.0, 1);
        node.cancel_shared();
        assert_eq!(node.stats().visits, 5);
        assert!((node.stats().mean - 0.6).abs() < 1e-6);
    }

    #[test]
    fn references_are_handed_out_for_written_nodes_only() {
        let mut tree = Tree::<u8>::new(64);
        let mut claim = Claim::exact();
        tree.expand(tree.root(), &[1, 2], &mut claim);
        let kids: Vec<NodeRef> = tree.children(tree.root()).map(|(r, _)| r).collect();
        assert_eq!(kids.len(), 2);
        // An unexpanded node has no children to refer to.
        assert_eq!(tree.children(kids[0]).count(), 0);
        assert_eq!(tree.child_for(tree.root(), 2), Some(kids[1]));
        assert_eq!(tree.child_for(tree.root(), 3), None);
        // A claim made before the tree was cleared is dropped, not written
        // through: its slots are free again, for any thread to claim.
        let mut stale = Claim {
            chunk: 8,
            ..Claim::default()
        };
        tree.expand(kids[0], &[5], &mut stale);
        assert_eq!((tree.size(), stale.next, stale.end), (11, 4, 11));
        tree.clear();
        let root = tree.root();
        assert_eq!(tree.expand(root, &[7], &mut stale), Expansion::Done);
        let (seven, _) = tree.children(root).next().unwrap();
        assert_eq!((seven.index, tree.size()), (1, 9));
    }

    #[test]
    #[should_panic(expected = "another tree shape")]
    fn a_reference_from_before_a_clear_is_refused() {
        let mut tree = Tree::<u8>::new(64);
        tree.expand(tree.root(), &[1, 2], &mut Claim::exact());
        let (kid, _) = tree.children(tree.root()).next().unwrap();
        tree.clear();
        tree.node(kid);
    }

    #[test]
    #[should_panic(expected = "another tree shape")]
    fn a_reference_into_another_tree_is_refused() {
        let big = Tree::<u8>::new(64);
        big.expand(big.root(), &[1, 2, 3], &mut Claim::exact());
        let (kid, _) = big.children(big.root()).last().unwrap();
        // The same index in a tree of the same size holds nothing.
        let other = Tree::<u8>::new(64);
        other.node(kid);
    }

    #[test]
    fn a_visit_under_way_counts_as_a_loss() {
        let tree = Tree::<u8>::new(16);
        let node = tree.node(at(&tree, 0));
        node.add(1.0, 3);
        assert_eq!(node.visit_shared(), 3);
        assert_eq!(node.stats().visits, 4);
        assert!((node.stats().mean - 0.75).abs() < 1e-6);
        node.reward_shared(1.0);
        assert!((node.stats().mean - 1.0).abs() < 1e-6);
    }

    #[test]
    fn one_thread_expands_a_node_and_the_store_keeps_its_cap() {
        let tree = Tree::<u8>::new(8);
        let outcomes: Vec<Expansion> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|_| scope.spawn(|| tree.expand(at(&tree, 0), &[1, 2, 3], &mut Claim::exact())))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(
            outcomes.iter().filter(|&&e| e == Expansion::Done).count(),
            1
        );
        assert!(outcomes.contains(&Expansion::Taken));
        let moves: Vec<Option<u8>> = tree.children(at(&tree, 0)).map(|(_, n)| n.mv()).collect();
        assert_eq!(moves, vec![Some(1), Some(2), Some(3)]);
        assert_eq!(tree.size(), 4);
        // Four more would pass the cap of eight: refused, and the node can
        // be expanded later.
        let mut claim = Claim::exact();
        assert_eq!(
            tree.expand(at(&tree, 1), &[1, 2, 3, 4, 5], &mut claim),
            Expansion::Full
        );
        assert!(!tree.node(at(&tree, 1)).is_expanded());
        assert_eq!(
            tree.expand(at(&tree, 1), &[1, 2, 3, 4], &mut claim),
            Expansion::Done
        );
        assert_eq!(tree.size(), 8);
    }

    #[test]
    fn a_batch_holds_playouts_back_until_full_or_flushed() {
        let tree = Tree::<u8>::new(16);
        tree.expand(at(&tree, 0), &[1, 2], &mut Claim::exact());
        let mut batch = Batch::default();
        // Seen as a well-visited node: up to sixteen playouts held back.
        let many = 64 * BATCH_SIZE;
        for _ in 0..BATCH_SIZE - 1 {
            batch.add(&tree, at(&tree, 1), many, 1.0);
        }
        assert_eq!(tree.node(at(&tree, 1)).visits(), 0);
        batch.add(&tree, at(&tree, 1), many, 1.0);
        assert_eq!(tree.node(at(&tree, 1)).stats().visits, BATCH_SIZE);
        assert_eq!(tree.node(at(&tree, 1)).stats().mean, 1.0);
        batch.add(&tree, at(&tree, 1), many, 0.0);
        // Seen with 200 visits: a batch of three at most.
        batch.add(&tree, at(&tree, 2), 200, 0.5);
        batch.add(&tree, at(&tree, 2), 200, 0.5);
        assert_eq!(tree.node(at(&tree, 2)).visits(), 0);
        batch.add(&tree, at(&tree, 2), 200, 0.5);
        assert_eq!(tree.node(at(&tree, 2)).stats().visits, 3);
        // Below 128 visits, written at once.
        batch.add(&tree, at(&tree, 2), 100, 1.0);
        assert_eq!(tree.node(at(&tree, 2)).stats().visits, 4);
        batch.flush(&tree);
        let one = tree.node(at(&tree, 1)).stats();
        assert_eq!(one.visits, BATCH_SIZE + 1);
        assert!((one.mean - BATCH_SIZE as f32 / (BATCH_SIZE + 1) as f32).abs() < 1e-6);
        assert!((tree.node(at(&tree, 2)).stats().mean - 0.625).abs() < 1e-6);
        // Flushed playouts are written once: a second flush adds nothing.
        batch.flush(&tree);
        assert_eq!(tree.node(at(&tree, 1)).visits(), BATCH_SIZE + 1);
    }

    #[test]
    fn a_thread_claims_slots_by_chunks() {
        let tree = Tree::<u8>::new(3000);
        let (mut a, mut b) = (Claim::chunked(), Claim::chunked());
        assert_eq!(tree.expand(at(&tree, 0), &[1, 2], &mut a), Expansion::Done);
        assert_eq!(tree.size(), 1 + CHUNK as usize);
        assert_eq!(tree.expand(at(&tree, 1), &[3, 4], &mut b), Expansion::Done);
        assert_eq!(tree.size(), 1 + 2 * CHUNK as usize);
        // The next expansion of the first thread comes from its own chunk.
        assert_eq!(tree.expand(at(&tree, 2), &[5], &mut a), Expansion::Done);
        assert_eq!(tree.node(at(&tree, 2)).children(), 3..4);
        assert_eq!(tree.size(), 1 + 2 * CHUNK as usize);
        // The last claim is cut to the room left, and then there is none.
        let mut c = Claim::chunked();
        assert_eq!(tree.expand(at(&tree, 3), &[6], &mut c), Expansion::Done);
        assert_eq!(tree.size(), 3000);
        let mut d = Claim::chunked();
        assert_eq!(tree.expand(at(&tree, 1025), &[7], &mut d), Expansion::Full);
    }

    #[test]
    fn keeping_a_subtree_makes_its_root_the_tree_root() {
        let mut tree = Tree::<u8>::new(64);
        let mut claim = Claim::exact();
        tree.expand(at(&tree, 0), &[1, 2], &mut claim);
        tree.expand(at(&tree, 2), &[3, 4], &mut claim); // below move 2
        tree.expand(at(&tree, 1), &[5, 6, 7], &mut claim); // below move 1
        tree.node(at(&tree, 1)).add(1.0, 5);
        tree.node(at(&tree, 5)).add(0.5, 2);
        assert!(tree.keep_subtree(1));
        assert_eq!(tree.size(), 4);
        let root = tree.root();
        assert_eq!(tree.node(root).mv(), None);
        assert_eq!(tree.node(root).visits(), 5);
        let below: Vec<(Option<u8>, u32)> = tree
            .children(root)
            .map(|(_, n)| (n.mv(), n.visits()))
            .collect();
        assert_eq!(below, vec![(Some(5), 2), (Some(6), 0), (Some(7), 0)]);
        assert!(!tree.keep_subtree(9));
        assert_eq!((tree.size(), tree.root()), (1, at(&tree, 0)));
    }

    #[test]
    fn a_subtree_allocated_before_its_root_is_kept_whole() {
        // Threads claim chunks, so a child block can sit below its parent.
        let mut tree = Tree::<u8>::new(64);
        let (mut a, mut b) = (
            Claim {
                chunk: 4,
                ..Claim::default()
            },
            Claim {
                chunk: 4,
                ..Claim::default()
            },
        );
        tree.expand(at(&tree, 0), &[1, 2], &mut a); // slots 1, 2 of a's 1..5
        tree.expand(at(&tree, 2), &[3, 4], &mut b); // slots 5, 6 of b's 5..9
        tree.expand(at(&tree, 6), &[5, 6], &mut a); // slots 3, 4: below their parent
        tree.node(at(&tree, 4)).add(1.0, 3);
        assert!(tree.keep_subtree(2));
        let root = tree.root();
        let below: Vec<Option<u8>> = tree.children(root).map(|(_, n)| n.mv()).collect();
        assert_eq!(below, vec![Some(3), Some(4)]);
        let four = tree.children(root).nth(1).unwrap().0;
        let deeper: Vec<(Option<u8>, u32)> = tree
            .children(four)
            .map(|(_, n)| (n.mv(), n.visits()))
            .collect();
        assert_eq!(deeper, vec![(Some(5), 0), (Some(6), 3)]);
        assert_eq!(tree.size(), 5);
    }
}
