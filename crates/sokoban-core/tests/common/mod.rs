//! Shared by this crate's integration tests.

/// A tiny deterministic PRNG (xorshift64) for property tests.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    #[allow(dead_code)] // not every test file draws bounded numbers
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
