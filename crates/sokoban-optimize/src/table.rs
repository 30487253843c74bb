//! Open-addressing tables keyed by 64-bit Zobrist keys: a set of box placements and a map
//! from search positions to node numbers. They grow by doubling up to a capacity fixed at
//! creation (the memory budget), so a small level takes little memory and a large one
//! never more than its share.

/// The empty slot. A key that is 0 is stored as 1 (a collision of two keys in 2^64).
const EMPTY: u64 = 0;

#[inline(always)]
fn fix(key: u64) -> u64 {
    if key == EMPTY {
        1
    } else {
        key
    }
}

/// The slot of `key` (already [`fix`]ed) in `keys`, or the empty slot where it would go.
#[inline(always)]
fn probe(keys: &[u64], key: u64) -> usize {
    let mask = keys.len() - 1;
    let mut i = (key as usize) & mask;
    while keys[i] != EMPTY && keys[i] != key {
        i = (i + 1) & mask;
    }
    i
}

/// The largest power of two not above `x` (at least 16).
fn floor_pow2(x: usize) -> usize {
    let x = x.max(16);
    1 << (usize::BITS - 1 - x.leading_zeros())
}

/// A set of keys, at most half full.
pub struct KeySet {
    keys: Vec<u64>,
    len: usize,
    max_slots: usize,
}

impl KeySet {
    /// An empty set that may grow to `max_bytes`.
    pub fn new(max_bytes: usize) -> KeySet {
        let max_slots = floor_pow2(max_bytes / 8);
        KeySet { keys: vec![EMPTY; 1024.min(max_slots)], len: 0, max_slots }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = EMPTY);
        self.len = 0;
    }

    /// Bytes in use.
    pub fn bytes(&self) -> usize {
        self.keys.len() * 8
    }

    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.keys[probe(&self.keys, fix(key))] != EMPTY
    }

    /// Insert; false when the set is full (then nothing changes).
    pub fn insert(&mut self, key: u64) -> bool {
        if (self.len + 1) * 2 > self.keys.len() {
            if self.keys.len() * 2 > self.max_slots {
                return self.contains(key);
            }
            self.grow();
        }
        let key = fix(key);
        let i = probe(&self.keys, key);
        if self.keys[i] == EMPTY {
            self.keys[i] = key;
            self.len += 1;
        }
        true
    }

    fn grow(&mut self) {
        let n = self.keys.len() * 2;
        let old = std::mem::replace(&mut self.keys, vec![EMPTY; n]);
        self.len = 0;
        for k in old.into_iter().filter(|&k| k != EMPTY) {
            self.insert(k);
        }
    }
}

/// A map from keys to node numbers, at most half full.
pub struct KeyMap {
    keys: Vec<u64>,
    vals: Vec<u32>,
    len: usize,
    max_slots: usize,
}

/// What [`KeyMap::entry`] found.
pub enum Entry {
    /// The key was there, with this value.
    Found(u32),
    /// The key is now there, with the value given.
    Inserted,
    /// The map is full.
    Full,
}

impl KeyMap {
    /// An empty map that may grow to `max_bytes`.
    pub fn new(max_bytes: usize) -> KeyMap {
        let max_slots = floor_pow2(max_bytes / 12);
        let n = 1024.min(max_slots);
        KeyMap { keys: vec![EMPTY; n], vals: vec![0; n], len: 0, max_slots }
    }

    pub fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = EMPTY);
        self.len = 0;
    }

    /// Bytes in use.
    pub fn bytes(&self) -> usize {
        self.keys.len() * 12
    }

    /// The value of `key`, or insert `val` for it.
    #[inline]
    pub fn entry(&mut self, key: u64, val: u32) -> Entry {
        if (self.len + 1) * 2 > self.keys.len() {
            if self.keys.len() * 2 > self.max_slots {
                return match self.get(key) {
                    Some(v) => Entry::Found(v),
                    None => Entry::Full,
                };
            }
            self.grow();
        }
        let key = fix(key);
        let i = probe(&self.keys, key);
        if self.keys[i] != EMPTY {
            return Entry::Found(self.vals[i]);
        }
        self.keys[i] = key;
        self.vals[i] = val;
        self.len += 1;
        Entry::Inserted
    }

    fn get(&self, key: u64) -> Option<u32> {
        let i = probe(&self.keys, fix(key));
        (self.keys[i] != EMPTY).then(|| self.vals[i])
    }

    fn grow(&mut self) {
        let n = self.keys.len() * 2;
        let keys = std::mem::replace(&mut self.keys, vec![EMPTY; n]);
        let vals = std::mem::replace(&mut self.vals, vec![0; n]);
        self.len = 0;
        for (k, v) in keys.into_iter().zip(vals).filter(|&(k, _)| k != EMPTY) {
            self.entry(k, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_map_grow_to_their_budget_and_no_further() {
        let mut s = KeySet::new(64 * 1024);
        let mut inserted = 0;
        for k in 0..100_000u64 {
            if s.insert(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) {
                inserted += 1;
            }
        }
        assert!(s.bytes() <= 64 * 1024 && inserted == s.len() && inserted >= 2048);
        assert!((0..inserted as u64).all(|k| s.contains(k.wrapping_mul(0x9E37_79B9_7F4A_7C15))));
        let mut m = KeyMap::new(12 * 4096);
        let mut n = 0u32;
        for k in 1..10_000u64 {
            match m.entry(k, n) {
                Entry::Inserted => n += 1,
                Entry::Found(_) => unreachable!(),
                Entry::Full => break,
            }
        }
        assert_eq!(n, 2048);
        assert!(matches!(m.entry(5, 0), Entry::Found(4)));
    }
}
