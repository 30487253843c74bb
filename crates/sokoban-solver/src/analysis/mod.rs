//! The analysis every search shares, and the optimizer beside them: the problem in compact
//! square indices ([`problem`]), the player's area a row of bits at a time ([`bits`]),
//! deadlock tests of every kind ([`deadlock`]), corrals (`corral`), matching and
//! assignment of boxes to goals (`matching`, `assign`), boxes frozen on goals that cut
//! off empty goals (`fixed`) and which goals a box can still reach (`goal_reach`).

pub(crate) mod assign;
pub mod bits;
pub(crate) mod corral;
pub mod deadlock;
pub(crate) mod fixed;
pub(crate) mod goal_reach;
pub(crate) mod matching;
pub mod problem;
