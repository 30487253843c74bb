//! Errors of parsing and validation: what is wrong and where.

use std::fmt;

/// Which kind of problem an input has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input is empty or holds no level.
    Empty,
    /// A character no format allows at that place.
    UnknownChar,
    /// The level has no player.
    NoPlayer,
    /// The level has more than one player.
    TwoPlayers,
    /// The level has no boxes.
    NoBoxes,
    /// The numbers of boxes and goals differ.
    BoxGoalMismatch,
    /// The player can walk off the board.
    Open,
    /// A box or goal lies where the player can never get.
    Outside,
    /// The level is larger than [`crate::MAX_COLS`] x [`crate::MAX_ROWS`].
    TooLarge,
    /// A URL or wrapper is malformed (missing parameter, bad size, bad encoding).
    BadUrl,
    /// A solution (LURD) is malformed.
    BadSolution,
    /// A move of a solution is not legal in the position it is played from.
    IllegalMove,
}

/// A parse or validation error with a message that says what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The kind of problem.
    pub kind: ErrorKind,
    /// A human-readable message, including the location.
    pub message: String,
}

impl Error {
    /// An error of a kind with a message.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into() }
    }

    /// The same error with a prefix such as `level 3 "Title": `.
    pub fn context(mut self, prefix: &str) -> Error {
        self.message = format!("{prefix}{}", self.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
