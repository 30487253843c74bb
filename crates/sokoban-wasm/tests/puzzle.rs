//! Browser tests of the sliding-tile bindings (headless Chromium via
//! wasm-bindgen-test-runner): playing, scrambles, errors, and the solver in slices with its
//! pattern databases kept between solves.

use sokoban_wasm::{puzzle_cache_bytes, PuzzleSession, PuzzleTask};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

fn text(v: &JsValue, key: &str) -> String {
    get(v, key).as_string().unwrap_or_default()
}

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key).as_f64().unwrap_or(f64::NAN)
}

fn error_of(e: JsValue) -> String {
    js_sys::Error::from(e).message().as_string().unwrap()
}

/// Run a task to its end; returns the last message and how many progress messages came.
fn run(task: &mut PuzzleTask, slice: f64) -> (JsValue, usize) {
    let mut progress = 0;
    loop {
        let m = task.step(slice);
        if text(&m, "type") != "progress" {
            return (m, progress);
        }
        progress += 1;
        assert!(progress < 100_000, "the solver did not finish");
    }
}

#[wasm_bindgen_test]
fn plays_undoes_and_slides_rows() {
    let mut s = PuzzleSession::new("1 2 3 4 5 6 0 7 8", 0, 0, "blank-last").expect("position");
    let v = s.view();
    assert_eq!(num(&v, "width"), 3.0);
    assert_eq!(num(&v, "inPlace"), 6.0);
    assert_eq!(get(&v, "solvable").as_bool(), Some(true));
    assert_eq!(s.step(3), None, "the blank is on the left edge");
    assert_eq!(s.slide_to(8).as_deref(), Some("RR"));
    assert_eq!(get(&s.view(), "solved").as_bool(), Some(true));
    assert_eq!(num(&s.view(), "moves"), 2.0);
    assert!(s.undo());
    assert_eq!(s.tiles_text(), "1 2 3 4 5 6 0 7 8");
    assert!(s.redo());
    assert!(s.restart());
    assert_eq!(s.tiles_text(), s.start_text());
    assert!(s.undo(), "restart is undoable");
    assert_eq!(get(&s.view(), "solved").as_bool(), Some(true));
    assert_eq!(s.history_moves(), "RR");
    let r = PuzzleSession::restore("1 2 3 4 5 6 0 7 8", 0, 0, "blank-last", "R", "R").unwrap();
    assert_eq!(r.redo_moves(), "R");
    assert!(error_of(s.check_moves("R").unwrap_err()).contains("off the board"));
}

#[wasm_bindgen_test]
fn bad_positions_and_goals_throw_messages() {
    let e = error_of(PuzzleSession::new("1 2 3 4 5 6 7 8 8", 0, 0, "blank-last").err().unwrap());
    assert!(e.contains("twice"), "{e}");
    let e = error_of(PuzzleSession::new("1 2 3 4 5 0", 0, 0, "blank-last").err().unwrap());
    assert!(e.contains("square"), "{e}");
    let e = error_of(PuzzleSession::new("1 2 3 0", 0, 0, "sideways").err().unwrap());
    assert!(e.contains("goal"), "{e}");
    let s = PuzzleSession::new("1 2 3 4 5 0", 3, 2, "blank-last").expect("3x2");
    assert_eq!(get(&s.view(), "solved").as_bool(), Some(true));
    let bad = js_sys::JSON::parse(r#"{"heuristc": "lc"}"#).unwrap();
    let e = error_of(PuzzleTask::new("1 2 3 0", 0, 0, "blank-last", bad).err().unwrap());
    assert!(e.contains("heuristc"), "{e}");
}

#[wasm_bindgen_test]
fn scrambles_reach_the_goal() {
    for (w, h, moves) in [(3, 3, 0), (4, 4, 0), (5, 5, 0), (4, 4, 20)] {
        let s = PuzzleSession::scramble(w, h, "blank-first", moves, 42.0).expect("scramble");
        assert_eq!(get(&s.view(), "solvable").as_bool(), Some(true));
        assert_eq!(num(&s.view(), "width"), w as f64);
    }
    let a = PuzzleSession::scramble(4, 4, "blank-last", 0, 1.0).unwrap().tiles_text();
    let b = PuzzleSession::scramble(4, 4, "blank-last", 0, 2.0).unwrap().tiles_text();
    assert_ne!(a, b);
}

#[wasm_bindgen_test]
fn the_8_puzzle_is_solved_at_once_and_unsolvable_is_said() {
    let mut t =
        PuzzleTask::new("8 6 7 2 5 4 3 0 1", 0, 0, "blank-last", JsValue::UNDEFINED).unwrap();
    let (m, _) = run(&mut t, 50.0);
    assert_eq!(text(&m, "type"), "solved");
    assert_eq!(text(&m, "mode"), "puzzle");
    assert_eq!(text(&m, "algorithm"), "A*");
    assert_eq!(num(&m, "length"), 31.0);
    let mut s = PuzzleSession::new("8 6 7 2 5 4 3 0 1", 0, 0, "blank-last").unwrap();
    s.play_moves(&text(&m, "solution")).expect("replays");
    assert_eq!(get(&s.view(), "solved").as_bool(), Some(true));
    let mut t =
        PuzzleTask::new("2 1 3 4 5 6 7 8 0", 0, 0, "blank-last", JsValue::UNDEFINED).unwrap();
    let m = t.step(50.0);
    assert_eq!(text(&m, "type"), "unsolvable");
    assert_eq!(num(&m, "nodes"), 0.0);
}

#[wasm_bindgen_test]
fn the_15_puzzle_builds_its_databases_once_and_streams_progress() {
    // 40 random moves from the goal (a position written by the scramble, fixed seed).
    let s = PuzzleSession::scramble(4, 4, "blank-first", 40, 7.0).unwrap();
    let tiles = s.tiles_text();
    let mut t = PuzzleTask::new(&tiles, 0, 0, "blank-first", JsValue::UNDEFINED).unwrap();
    let first = t.step(0.0);
    assert_eq!(text(&first, "phase"), "building");
    assert_eq!(text(&first, "dbPartition"), "6-6-3");
    let (m, progress) = run(&mut t, 50.0);
    assert_eq!(text(&m, "type"), "solved", "{:?}", text(&m, "message"));
    assert!(progress >= 2, "progress while the databases are built");
    assert_eq!(num(&m, "dbReady"), 3.0);
    assert_eq!(get(&m, "dbMirrored").as_bool(), Some(true));
    assert!(num(&m, "dbBuildMs") > 0.0);
    let n = num(&m, "length");
    assert!(n > 0.0 && n <= 40.0 && n % 2.0 == 0.0);
    let mut play = PuzzleSession::new(&tiles, 0, 0, "blank-first").unwrap();
    play.play_moves(&text(&m, "solution")).unwrap();
    assert_eq!(get(&play.view(), "solved").as_bool(), Some(true));
    assert!(puzzle_cache_bytes() >= 16.0 * 1024.0 * 1024.0);
    // Again, with linear conflicts instead: the same length; then the databases again,
    // from the cache this time.
    let lc = js_sys::JSON::parse(r#"{"heuristic": "lc"}"#).unwrap();
    let (m2, _) = run(&mut PuzzleTask::new(&tiles, 0, 0, "blank-first", lc).unwrap(), 50.0);
    assert_eq!(num(&m2, "length"), n);
    let mut t = PuzzleTask::new(&tiles, 0, 0, "blank-first", JsValue::UNDEFINED).unwrap();
    let (m3, _) = run(&mut t, 50.0);
    assert_eq!(num(&m3, "dbCached"), 3.0);
    assert_eq!(num(&m3, "length"), n);
}

#[wasm_bindgen_test]
fn cancel_and_limits() {
    let s = PuzzleSession::scramble(4, 4, "blank-last", 0, 3.0).unwrap();
    let tiles = s.tiles_text();
    let mut t = PuzzleTask::new(&tiles, 0, 0, "blank-last", JsValue::UNDEFINED).unwrap();
    t.step(10.0);
    let m = t.cancel();
    assert_eq!(text(&m, "type"), "cancelled");
    let opts = js_sys::JSON::parse(r#"{"nodeLimit": 100, "heuristic": "manhattan"}"#).unwrap();
    let (m, _) = run(&mut PuzzleTask::new(&tiles, 0, 0, "blank-last", opts).unwrap(), 50.0);
    assert_eq!(text(&m, "type"), "limit");
    assert_eq!(text(&m, "limit"), "nodes");
}
