//! Pull mode for the page: [`PullSession`] wraps the core's reverse game
//! ([`sokoban_core::PullGame`]) and the path crate's pull search
//! ([`sokoban_path::PullSearch`]) with the same calls as [`crate::Session`], so the page
//! drives both alike. In its view the "goals" are the squares where the level starts its
//! boxes (where the pulled boxes must go) and `solved` means the reverse game has reached
//! the level's start.

use wasm_bindgen::prelude::*;

use sokoban_core::{format, lurd, Dir, PullGame};
use sokoban_path::PullSearch;

use crate::{js_error, letters, play, to_js};

/// A level played backwards: boxes start on the goals, the player pulls them.
#[wasm_bindgen]
pub struct PullSession {
    game: PullGame,
    drag: Option<PullSearch>,
}

#[wasm_bindgen]
impl PullSession {
    /// The reverse game of a level given in any level format.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Result<PullSession, JsValue> {
        let level = format::parse_level(text).map_err(|e| js_error(e.message))?;
        let game = PullGame::new(level).map_err(|e| js_error(e.message))?;
        Ok(PullSession { game, drag: None })
    }

    /// The board as `Session.view()` has it; `goals` are the start squares of the boxes,
    /// `pushes` counts pulls, `boxesOnGoals` the boxes back on their start squares and
    /// `solved` says the reverse game has reached the level's start.
    pub fn view(&self) -> JsValue {
        let g = &self.game;
        play::view(g, &g.level().start.boxes, g.boxes_home(), g.is_done())
    }

    /// Step in a direction (0 up, 1 right, 2 down, 3 left), pulling the box behind the
    /// player unless `pull` is false. Returns the letter (uppercase for a pull), or
    /// `undefined` when blocked.
    pub fn step(&mut self, dir: u8, pull: Option<bool>) -> Option<String> {
        let m = self.game.step(Dir::from_index(dir as usize), pull.unwrap_or(true))?;
        self.drag = None;
        Some(m.lurd().to_string())
    }

    /// Before the first move: start the player on another free square (true when done).
    #[wasm_bindgen(js_name = placePlayer)]
    pub fn place_player(&mut self, square: usize) -> bool {
        self.drag = None;
        self.game.place_player(square)
    }

    /// Play reverse moves (uppercase letters pull), all or nothing, as one undo group.
    #[wasm_bindgen(js_name = playLurd)]
    pub fn play_lurd(&mut self, text: &str) -> Result<(), JsValue> {
        let moves = lurd::parse_lurd(text).map_err(|e| js_error(e.message))?;
        self.drag = None;
        self.game.play(&moves).map_err(|e| js_error(e.message))
    }

    /// The forward solution (LURD) once the reverse game has reached the level's start,
    /// replayed by the rules engine; `undefined` before.
    #[wasm_bindgen(js_name = forwardLurd)]
    pub fn forward_lurd(&self) -> Option<String> {
        self.game.forward_solution().map(|m| letters(&m))
    }

    /// No deadlock marks in pull mode (the page asks every session the same).
    pub fn deadlocks(&self) -> JsValue {
        to_js(&Vec::<u8>::new())
    }
}

play::game_calls!(PullSession);
