//! Pull mode for the page: [`PullSession`] wraps the core's reverse game
//! ([`sokoban_core::PullGame`]) and the path crate's pull search
//! ([`sokoban_path::PullSearch`]) with the same calls as [`crate::Session`], so the page
//! drives both alike. In its view the "goals" are the squares where the level starts its
//! boxes (where the pulled boxes must go) and `solved` means the reverse game has reached
//! the level's start.

use wasm_bindgen::prelude::*;

use sokoban_core::{format, lurd, Dir, PullGame};
use sokoban_path::PullSearch;

use crate::{cell_codes, js_error, letters, to_js, View};

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
        let l = self.game.level();
        let b = &l.board;
        let p = self.game.position();
        to_js(&View {
            width: b.width(),
            height: b.height(),
            cells: cell_codes(b),
            goals: l.start.boxes.iter().map(|&x| x as u8).collect(),
            boxes: p.boxes.iter().map(|&x| x as u8).collect(),
            player: p.player,
            moves: self.game.moves(),
            pushes: self.game.pulls(),
            boxes_on_goals: self.game.boxes_home(),
            box_count: l.box_count(),
            solved: self.game.is_done(),
            can_undo: self.game.can_undo(),
            can_redo: self.game.can_redo(),
        })
    }

    /// Step in a direction (0 up, 1 right, 2 down, 3 left), pulling the box behind the
    /// player unless `pull` is false. Returns the letter (uppercase for a pull), or
    /// `undefined` when blocked.
    pub fn step(&mut self, dir: u8, pull: Option<bool>) -> Option<String> {
        let m = self.game.step(Dir::from_index(dir as usize), pull.unwrap_or(true))?;
        self.drag = None;
        Some(m.lurd().to_string())
    }

    #[wasm_bindgen(js_name = beginGroup)]
    pub fn begin_group(&mut self) {
        self.game.begin_group();
    }

    #[wasm_bindgen(js_name = endGroup)]
    pub fn end_group(&mut self) {
        self.game.end_group();
    }

    pub fn undo(&mut self) -> bool {
        self.drag = None;
        self.game.undo()
    }

    pub fn redo(&mut self) -> bool {
        self.drag = None;
        self.game.redo()
    }

    pub fn restart(&mut self) -> bool {
        self.drag = None;
        self.game.restart()
    }

    #[wasm_bindgen(js_name = undoAll)]
    pub fn undo_all(&mut self) -> usize {
        self.drag = None;
        self.game.undo_all()
    }

    #[wasm_bindgen(js_name = redoAll)]
    pub fn redo_all(&mut self) -> usize {
        self.drag = None;
        self.game.redo_all()
    }

    /// Before the first move: start the player on another free square (true when done).
    #[wasm_bindgen(js_name = placePlayer)]
    pub fn place_player(&mut self, square: usize) -> bool {
        self.drag = None;
        self.game.place_player(square)
    }

    /// Shortest walk of the player to a square (lowercase LURD, no pulls), or `undefined`.
    #[wasm_bindgen(js_name = walkTo)]
    pub fn walk_to(&self, square: usize) -> Option<String> {
        let b = &self.game.level().board;
        if square >= b.len() {
            return None;
        }
        let path = sokoban_path::walk_path(b, self.game.position(), square)?;
        Some(path.iter().map(|d| d.lurd()).collect())
    }

    /// Squares the box on `square` can be pulled to (its own included).
    #[wasm_bindgen(js_name = boxReach)]
    pub fn box_reach(&mut self, square: usize) -> Vec<u32> {
        let s = PullSearch::new(&self.game.level().board, self.game.position(), square);
        let out = s.reachable().into_iter().map(|x| x as u32).collect();
        self.drag = Some(s);
        out
    }

    /// Moves (uppercase letters pull) that leave the box on `from` on `to` with the fewest
    /// pulls; `undefined` when it cannot get there.
    #[wasm_bindgen(js_name = boxPath)]
    pub fn box_path(&mut self, from: usize, to: usize) -> Option<String> {
        let reuse = self.drag.as_ref().is_some_and(|s| s.box_square() == from);
        if !reuse {
            self.drag = Some(PullSearch::new(&self.game.level().board, self.game.position(), from));
        }
        let moves = self.drag.as_ref()?.path_to(to)?;
        Some(letters(&moves))
    }

    /// Play reverse moves (uppercase letters pull), all or nothing, as one undo group.
    #[wasm_bindgen(js_name = playLurd)]
    pub fn play_lurd(&mut self, text: &str) -> Result<(), JsValue> {
        let moves = lurd::parse_lurd(text).map_err(|e| js_error(e.message))?;
        self.drag = None;
        self.game.play(&moves).map_err(|e| js_error(e.message))
    }

    /// The reverse moves from the reverse start (uppercase letters pull).
    #[wasm_bindgen(js_name = historyLurd)]
    pub fn history_lurd(&self) -> String {
        letters(self.game.line())
    }

    #[wasm_bindgen(js_name = redoLurd)]
    pub fn redo_lurd(&self) -> String {
        letters(&self.game.redo_moves())
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

    /// The level (its forward start) as XSB.
    #[wasm_bindgen(js_name = levelXsb)]
    pub fn level_xsb(&self) -> String {
        format::to_xsb(self.game.level())
    }

    pub fn player(&self) -> usize {
        self.game.position().player
    }

    #[wasm_bindgen(js_name = boxSquares)]
    pub fn box_squares(&self) -> Vec<u32> {
        self.game.position().box_squares().into_iter().map(|s| s as u32).collect()
    }
}
