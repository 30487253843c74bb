//! What [`crate::Session`] (the forward game) and [`crate::PullSession`] (the reverse
//! game) share: both hold a [`sokoban_core::History`] in `game` and the box search of their
//! last drag in `drag`, so the calls that only pass through to those are written once here
//! ([`game_calls!`]), with the view both draw from ([`view`]).

use serde::Serialize;
use wasm_bindgen::JsValue;

use sokoban_core::{Board, Cell, History, Move, Position, Rules, Square};
use sokoban_path::{BoxSearch, PullSearch};

use crate::to_js;

/// The search behind a box drag: where the box on a square can be moved and how, pushed
/// ([`BoxSearch`]) or pulled ([`PullSearch`]). Both answer nothing for a square without a
/// box.
pub(crate) trait Drag {
    fn search(board: &Board, pos: &Position, box_sq: Square) -> Self;
    fn box_square(&self) -> Square;
    fn reachable(&self) -> Vec<Square>;
    fn path_to(&self, target: Square) -> Option<Vec<Move>>;
}

macro_rules! drag {
    ($search:ident) => {
        impl Drag for $search {
            fn search(board: &Board, pos: &Position, box_sq: Square) -> $search {
                $search::new(board, pos, box_sq)
            }
            fn box_square(&self) -> Square {
                $search::box_square(self)
            }
            fn reachable(&self) -> Vec<Square> {
                $search::reachable(self)
            }
            fn path_to(&self, target: Square) -> Option<Vec<Move>> {
                $search::path_to(self, target)
            }
        }
    };
}
drag!(BoxSearch);
drag!(PullSearch);

/// The squares the box on `square` can be moved to (its own included), keeping the search
/// in `drag` for the path asked next; empty, and `drag` untouched, without a box there.
pub(crate) fn box_reach<R: Rules, D: Drag>(
    game: &History<R>,
    drag: &mut Option<D>,
    square: usize,
) -> Vec<u32> {
    let (b, p) = (&game.level().board, game.position());
    if square >= b.len() || !p.has_box(square) {
        return Vec::new();
    }
    let s = D::search(b, p, square);
    let out = s.reachable().into_iter().map(|x| x as u32).collect();
    *drag = Some(s);
    out
}

/// The moves that leave the box on `from` on `to` (the search in `drag` when it is that
/// box's), or `None`.
pub(crate) fn box_path<R: Rules, D: Drag>(
    game: &History<R>,
    drag: &mut Option<D>,
    from: usize,
    to: usize,
) -> Option<String> {
    let (b, p) = (&game.level().board, game.position());
    if from >= b.len() || to >= b.len() || !p.has_box(from) {
        return None;
    }
    if drag.as_ref().is_none_or(|s| s.box_square() != from) {
        *drag = Some(D::search(b, p, from));
    }
    let moves = drag.as_ref()?.path_to(to)?;
    Some(crate::letters(&moves))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct View {
    width: usize,
    height: usize,
    /// Per square: 0 outside, 1 wall, 2 floor.
    cells: Vec<u8>,
    goals: Vec<u8>,
    boxes: Vec<u8>,
    player: usize,
    moves: usize,
    pushes: usize,
    boxes_on_goals: usize,
    box_count: usize,
    solved: bool,
    can_undo: bool,
    can_redo: bool,
}

/// Per square: 0 outside, 1 wall, 2 floor (the `cells` of a view).
fn cell_codes(b: &Board) -> Vec<u8> {
    b.cells()
        .iter()
        .map(|c| match c {
            Cell::Outside => 0,
            Cell::Wall => 1,
            Cell::Floor => 2,
        })
        .collect()
}

/// Everything the page draws the board and the counters from: `{width, height, cells,
/// goals, boxes, player, moves, pushes, boxesOnGoals, boxCount, solved, canUndo,
/// canRedo}`, with the goals, the boxes on them and `solved` as the game has them.
pub(crate) fn view<R: Rules>(
    game: &History<R>,
    goals: &[bool],
    boxes_on_goals: usize,
    solved: bool,
) -> JsValue {
    let l = game.level();
    let b = &l.board;
    let p = game.position();
    to_js(&View {
        width: b.width(),
        height: b.height(),
        cells: cell_codes(b),
        goals: goals.iter().map(|&g| g as u8).collect(),
        boxes: p.boxes.iter().map(|&x| x as u8).collect(),
        player: p.player,
        moves: game.moves(),
        pushes: game.pushes(),
        boxes_on_goals,
        box_count: l.box_count(),
        solved,
        can_undo: game.can_undo(),
        can_redo: game.can_redo(),
    })
}

/// The calls a session only passes through to its `game` (a [`History`]) and its `drag`
/// search: groups, undo and redo, restart, walks, box drags, the history as LURD, the
/// level and the position.
macro_rules! game_calls {
    ($session:ident) => {
        #[wasm_bindgen]
        impl $session {
            /// Start a group of moves (a walk, a box drag): until `endGroup`, moves are
            /// undone and redone together.
            #[wasm_bindgen(js_name = beginGroup)]
            pub fn begin_group(&mut self) {
                self.game.begin_group();
            }

            /// End the current group of moves.
            #[wasm_bindgen(js_name = endGroup)]
            pub fn end_group(&mut self) {
                self.game.end_group();
            }

            /// Undo one action (a move, a group of moves, or a restart); false when there
            /// is nothing to undo.
            pub fn undo(&mut self) -> bool {
                self.drag = None;
                self.game.undo()
            }

            /// Redo one move or group of moves; false when there is nothing to redo.
            pub fn redo(&mut self) -> bool {
                self.drag = None;
                self.game.redo()
            }

            /// Back to the start (undoable); false at the start already.
            pub fn restart(&mut self) -> bool {
                self.drag = None;
                self.game.restart()
            }

            /// Undo to the start of the current line; returns the number of moves undone.
            #[wasm_bindgen(js_name = undoAll)]
            pub fn undo_all(&mut self) -> usize {
                self.drag = None;
                self.game.undo_all()
            }

            /// Redo every move of the redo list; returns how many.
            #[wasm_bindgen(js_name = redoAll)]
            pub fn redo_all(&mut self) -> usize {
                self.drag = None;
                self.game.redo_all()
            }

            /// Shortest walk of the player to a square (LURD, lowercase), or `undefined`.
            #[wasm_bindgen(js_name = walkTo)]
            pub fn walk_to(&self, square: usize) -> Option<String> {
                let b = &self.game.level().board;
                if square >= b.len() {
                    return None;
                }
                let path = sokoban_path::walk_path(b, self.game.position(), square)?;
                Some(path.iter().map(|d| d.lurd()).collect())
            }

            /// Squares the box on `square` can be moved to (pushed, or pulled in pull
            /// mode), its own included, for highlighting while it is dragged. Empty when
            /// there is no box there.
            #[wasm_bindgen(js_name = boxReach)]
            pub fn box_reach(&mut self, square: usize) -> Vec<u32> {
                $crate::play::box_reach(&self.game, &mut self.drag, square)
            }

            /// Moves (LURD; uppercase letters push, or pull in pull mode) that move the box
            /// on `from` to `to` with the fewest pushes (pulls), then the fewest moves;
            /// `undefined` when it cannot get there.
            #[wasm_bindgen(js_name = boxPath)]
            pub fn box_path(&mut self, from: usize, to: usize) -> Option<String> {
                $crate::play::box_path(&self.game, &mut self.drag, from, to)
            }

            /// The moves from the start to here (LURD).
            #[wasm_bindgen(js_name = historyLurd)]
            pub fn history_lurd(&self) -> String {
                $crate::letters(self.game.line())
            }

            /// The moves redo would replay (LURD).
            #[wasm_bindgen(js_name = redoLurd)]
            pub fn redo_lurd(&self) -> String {
                $crate::letters(&self.game.redo_moves())
            }

            /// The level (its start position) as XSB.
            #[wasm_bindgen(js_name = levelXsb)]
            pub fn level_xsb(&self) -> String {
                sokoban_core::format::to_xsb(self.game.level())
            }

            /// Player square of the current position.
            pub fn player(&self) -> usize {
                self.game.position().player
            }

            /// Box squares of the current position.
            #[wasm_bindgen(js_name = boxSquares)]
            pub fn box_squares(&self) -> Vec<u32> {
                self.game.position().box_squares().into_iter().map(|s| s as u32).collect()
            }
        }
    };
}
pub(crate) use game_calls;
