//! The one clock every search and optimizer reads: milliseconds from a fixed origin, so that
//! native code passes [`StdClock`] and the browser's worker passes `performance.now()`.

/// A source of milliseconds (monotonic). Any `Fn() -> f64` is a clock.
pub trait Clock {
    /// Milliseconds since some fixed origin.
    fn now_ms(&self) -> f64;
}

impl<F: Fn() -> f64> Clock for F {
    fn now_ms(&self) -> f64 {
        self()
    }
}

/// [`Clock`] over `std::time::Instant` (not available in wasm32-unknown-unknown).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub struct StdClock(std::time::Instant);

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl StdClock {
    /// A clock starting now.
    pub fn new() -> Self {
        StdClock(std::time::Instant::now())
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl Default for StdClock {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl Clock for StdClock {
    fn now_ms(&self) -> f64 {
        self.0.elapsed().as_secs_f64() * 1000.0
    }
}
