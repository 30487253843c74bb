//! Sokoban rules and formats: the board and position model, legal moves and pushes,
//! game history (undo, redo, restart), and every level and solution format the product
//! reads and writes (XSB, run-length, MF8 / SokoPlayer URLs, SokobanScript URLs,
//! collections, LURD), and the clock the searches read. Plain Rust: no browser or wasm dependency.

pub mod board;
pub mod clock;
pub mod error;
pub mod format;
pub mod game;
pub mod grid;
pub mod history;
pub mod key;
pub mod lurd;
pub mod pull;

pub use board::{Board, Cell, Dir, Level, Move, Position, Square, MAX_COLS, MAX_ROWS};
pub use error::{Error, ErrorKind, Result};
pub use game::{Forward, Game};
pub use grid::{Grid, Tile};
pub use history::{History, Rules};
pub use key::{level_key, normalized_xsb};
pub use pull::{PullGame, Reverse};
