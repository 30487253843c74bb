//! Transposition table of bounded size: 64-bit keys (boxes + normalized player square),
//! the depth a position was last searched at in which iteration, and the lower bounds on
//! its remaining pushes learned so far (kept across iterations).
//!
//! A bound learned during an iteration is kept apart (`h_new`) until that iteration ends:
//! it may count a repetition of a position on the search path as "more than the
//! threshold", which is only proven once the iteration finishes without a solution.
//! Cut-offs inside an iteration use only `h`, the bound valid when the iteration began.

/// Bound meaning "no solution from here" (proved).
pub const DEAD: u16 = u16::MAX;

/// One slot (16 bytes).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct Entry {
    /// Full key; 0 marks an empty slot (a real key of 0 is remapped to 1 << 32).
    pub key: u64,
    /// Pushes from the root when last entered; the top bit marks "on the current path".
    g_flag: u16,
    /// Lower bound on the pushes still needed, valid since before iteration `iter`.
    pub h: u16,
    /// Lower bound learned during iteration `iter` (valid once it ends).
    pub h_new: u16,
    /// Iteration of the last visit.
    pub iter: u16,
}

const ON_PATH: u16 = 0x8000;

impl Entry {
    /// Pushes from the root when last entered.
    #[inline]
    pub fn g(&self) -> u16 {
        self.g_flag & !ON_PATH
    }

    /// True while the position is on the current search path.
    #[inline]
    pub fn on_path(&self) -> bool {
        self.g_flag & ON_PATH != 0
    }

    /// Clear the on-path mark.
    #[inline]
    pub fn leave_path(&mut self) {
        self.g_flag &= !ON_PATH;
    }

    /// The best bound known, valid once the entry's iteration has ended.
    #[inline]
    pub fn best(&self) -> u16 {
        self.h.max(self.h_new)
    }

    /// Mark the entry as entered in iteration `iter` at `g` pushes (on the path), keeping
    /// what it learned before (unless its iteration was abandoned: see
    /// [`Table::abandon_iteration`]).
    #[inline]
    fn enter(&mut self, g: u16, iter: u16, abandoned: bool) {
        if self.iter != iter {
            if !abandoned {
                self.h = self.h.max(self.h_new);
            }
            self.h_new = 0;
            self.iter = iter;
        }
        self.g_flag = g.min(!ON_PATH) | ON_PATH;
    }
}

/// `n` empty entries in memory obtained already zeroed, which the system hands out without
/// touching it (pages are zeroed when first used): a 1 GiB table costs nothing up front,
/// where filling it entry by entry takes most of a second.
fn zeroed_entries(n: usize) -> Vec<Entry> {
    if n == 0 || std::mem::size_of::<Entry>() == 0 {
        return Vec::new();
    }
    let layout = std::alloc::Layout::array::<Entry>(n).expect("table size overflows");
    // SAFETY: `layout` has a non-zero size; the memory is allocated by the global allocator
    // with `Entry`'s layout for exactly `n` entries, and all-zero bytes are a valid `Entry`
    // (plain integers, `repr(C)`) equal to `Entry::default()`.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        advise_huge_pages(ptr as *mut u8, layout.size());
        Vec::from_raw_parts(ptr, n, n)
    }
}

/// Ask Linux to back a large table with transparent huge pages (2 MiB): every node reads a
/// random bucket, and with 4 KiB pages most reads also miss the TLB (a page walk). Where
/// the kernel leaves huge pages to the program's choice (`madvise` mode, Debian's default)
/// this is what turns them on; elsewhere it does nothing.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
    }
    if len < HUGE {
        return;
    }
    // madvise takes page-aligned ranges: the whole pages inside the allocation.
    let start = (ptr as usize).next_multiple_of(4096);
    let end = (ptr as usize + len) & !4095;
    if end > start {
        // SAFETY: the range lies inside one live allocation of ours; MADV_HUGEPAGE changes
        // how it is backed, never its contents. A failure (e.g. an old kernel) is harmless.
        unsafe {
            madvise(start as *mut u8, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// Slots per bucket (linear probing within a bucket).
const WAYS: usize = 4;
/// Slots a table starts with (1 MiB); it grows fourfold when half full, up to its size.
const INITIAL_SLOTS: usize = 1 << 16;

/// The table.
pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
    used: usize,
    /// Slots the table may grow to.
    max_slots: usize,
    /// One bit per iteration number: set when the iteration was abandoned before it ended
    /// (its `h_new` bounds are not proven).
    abandoned: Vec<u64>,
}

impl Table {
    /// A table using at most `bytes` of memory (at least one bucket).
    pub fn with_bytes(bytes: usize) -> Table {
        let want = (bytes / std::mem::size_of::<Entry>()).max(WAYS);
        let mut max_slots = WAYS;
        while max_slots * 2 <= want {
            max_slots *= 2;
        }
        let cap = max_slots.min(INITIAL_SLOTS);
        Table {
            slots: zeroed_entries(cap),
            mask: cap - 1,
            used: 0,
            max_slots,
            abandoned: vec![0; (u16::MAX as usize + 1) / 64],
        }
    }

    /// Forget everything (used when the 16-bit iteration counter would wrap around).
    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
        self.used = 0;
        self.abandoned.fill(0);
    }

    /// Iteration `iter` stopped before its end (a solution was found, or the search was
    /// given up): the bounds it learned are not proven and must never be used.
    pub fn abandon_iteration(&mut self, iter: u16) {
        self.abandoned[iter as usize / 64] |= 1 << (iter % 64);
    }

    #[inline]
    fn is_abandoned(&self, iter: u16) -> bool {
        self.abandoned[iter as usize / 64] & (1 << (iter % 64)) != 0
    }

    /// The bound of the entry in `slot` that may be used for cut-offs in iteration `iter`.
    #[inline]
    pub fn bound_for(&self, slot: usize, iter: u16) -> u16 {
        let e = &self.slots[slot];
        if e.iter == iter || self.is_abandoned(e.iter) {
            e.h
        } else {
            e.h.max(e.h_new)
        }
    }

    /// Mark the entry in `slot` as entered in iteration `iter` at `g` pushes (on the path).
    #[inline]
    pub fn enter(&mut self, slot: usize, g: u16, iter: u16) {
        let abandoned = self.is_abandoned(self.slots[slot].iter);
        self.slots[slot].enter(g, iter, abandoned);
    }

    /// True when the table is more than half full and may still grow.
    #[inline]
    pub fn crowded(&self) -> bool {
        self.used * 2 > self.slots.len() && self.slots.len() < self.max_slots
    }

    /// Grow the table fourfold (within its size), moving every entry by its key, whose low
    /// half is its bucket hash. Slot indices change: find them again with
    /// [`Table::slot_of`]. Entries on the current path move first, so that a full bucket
    /// (rare at a quarter of the fill) drops other entries rather than those.
    pub fn grow(&mut self) {
        let new_cap = (self.slots.len() * 4).min(self.max_slots);
        let old = std::mem::replace(&mut self.slots, zeroed_entries(new_cap));
        self.mask = new_cap - 1;
        self.used = 0;
        for on_path in [true, false] {
            for e in old.iter().filter(|e| e.key != 0 && e.on_path() == on_path) {
                let base = self.base(e.key);
                if let Some(i) = (base..base + WAYS).find(|&i| self.slots[i].key == 0) {
                    self.slots[i] = *e;
                    self.used += 1;
                }
            }
        }
    }

    /// The slot holding `key` (as stored: see [`Table::holds`]), found by the key alone.
    pub fn slot_of(&self, key: u64) -> Option<usize> {
        let key = Self::fix(key);
        self.find(key, key)
    }

    /// Number of slots the table may grow to (its memory budget).
    pub fn capacity(&self) -> usize {
        self.max_slots
    }

    /// Number of slots allocated so far.
    #[cfg(test)]
    pub fn allocated(&self) -> usize {
        self.slots.len()
    }

    /// Number of occupied slots.
    pub fn used(&self) -> usize {
        self.used
    }

    #[inline]
    fn fix(key: u64) -> u64 {
        if key == 0 {
            1 << 32 // keeps the low half, the bucket's
        } else {
            key
        }
    }

    /// The first slot of the bucket for a bucket hash. Positions with the same boxes share a
    /// bucket (the hash of the boxes picks it), so it can be fetched before the player's
    /// area is known. Keys carry the low half of their bucket hash (see `Engine::key`), so
    /// `base(key)` is the same slot.
    #[inline]
    fn base(&self, bucket: u64) -> usize {
        (bucket as usize) & self.mask & !(WAYS - 1)
    }

    /// Start loading a bucket into the cache, ahead of its lookup. On x86-64 a prefetch
    /// instruction; elsewhere (wasm has no prefetch) a real load of the bucket's first key
    /// whose value is dropped: the out-of-order core goes on with the work after it while
    /// the line arrives, which hides part of the miss.
    #[inline]
    pub fn prefetch(&self, bucket: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots.as_ptr().wrapping_add(self.base(bucket)) as *const i8;
            // SAFETY: prefetching never faults, whatever the address.
            #[allow(unused_unsafe)]
            unsafe {
                core::arch::x86_64::_mm_prefetch(p, core::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            // A volatile read, so that it is neither dropped nor moved to the lookup.
            let e: *const u64 = &self.slots[self.base(bucket)].key;
            // SAFETY: `e` points to a live, initialised entry of the table (bounds-checked
            // index above).
            let _ = unsafe { core::ptr::read_volatile(e) };
        }
    }

    /// Find a key in its bucket; returns the slot index.
    #[inline]
    pub fn find(&self, bucket: u64, key: u64) -> Option<usize> {
        let key = Self::fix(key);
        let base = self.base(bucket);
        (base..base + WAYS).find(|&i| self.slots[i].key == key)
    }

    /// The entry in a slot.
    #[inline]
    pub fn get(&self, slot: usize) -> &Entry {
        &self.slots[slot]
    }

    /// Mutable entry in a slot.
    #[inline]
    pub fn get_mut(&mut self, slot: usize) -> &mut Entry {
        &mut self.slots[slot]
    }

    /// True when `slot` still holds `key` (false for a slot past the end).
    #[inline]
    pub fn holds(&self, slot: usize, key: u64) -> bool {
        self.slots.get(slot).is_some_and(|e| e.key == Self::fix(key))
    }

    /// Insert a new key entered at `g` in iteration `iter` with bound `h` (marked as on the
    /// current path), replacing the least useful slot of its bucket: an empty one, else
    /// one from an older iteration, else the deepest. Returns the slot.
    pub fn insert(&mut self, bucket: u64, key: u64, g: u16, h: u16, iter: u16) -> usize {
        let key = Self::fix(key);
        let base = self.base(bucket);
        let mut best = base;
        let mut best_score = i64::MIN;
        for i in base..base + WAYS {
            let e = &self.slots[i];
            let score = if e.key == key || e.key == 0 {
                i64::MAX
            } else if e.on_path() && e.iter == iter {
                i64::MIN + 1 // keep the current path for cycle detection
            } else if e.iter != iter {
                (1 << 40) + e.g() as i64
            } else {
                e.g() as i64
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        if self.slots[best].key == 0 {
            self.used += 1;
        }
        self.slots[best] = Entry { key, g_flag: g.min(!ON_PATH) | ON_PATH, h, h_new: 0, iter };
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys as the engine makes them: the low half is the bucket hash's.
    fn key_of(bucket: u64, salt: u64) -> u64 {
        let k = bucket ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (k & !0xFFFF_FFFF) | (bucket & 0xFFFF_FFFF)
    }

    #[test]
    fn growing_keeps_entries_findable_and_their_bounds() {
        let mut t = Table::with_bytes(64 << 20);
        assert_eq!(t.allocated(), INITIAL_SLOTS);
        assert_eq!(t.capacity(), 4 << 20);
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        let mut kept = Vec::new();
        let mut grew = 0;
        for i in 0..200_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (bucket, key) = (x, key_of(x, i));
            if t.crowded() {
                let on_path: Vec<u64> = kept.iter().rev().take(50).map(|&(_, k, _)| k).collect();
                t.grow();
                grew += 1;
                // Recently inserted entries are on the path: all must be found again.
                for k in on_path {
                    assert!(t.slot_of(k).is_some(), "an entry on the path was lost");
                }
            }
            let slot = t.insert(bucket, key, (i % 1000) as u16, (i % 500) as u16, 1);
            kept.push((bucket, key, (i % 500) as u16));
            assert!(t.holds(slot, key));
        }
        assert_eq!(grew, 2, "64K -> 256K -> 1M slots");
        // Every entry still there is found through its bucket and by its key, with its bound.
        let found = kept.iter().filter(|&&(b, k, _)| t.find(b, k).is_some()).count();
        assert!(found * 10 >= kept.len() * 9, "found {found} of {}", kept.len());
        for &(b, k, h) in &kept {
            if let Some(s) = t.find(b, k) {
                assert_eq!(t.slot_of(k), Some(s));
                assert_eq!(t.get(s).h, h);
            }
        }
        assert!(!t.holds(usize::MAX, kept[0].1));
    }
}
