//! Limits that protect the page, in the browser (headless Chromium via
//! wasm-bindgen-test-runner): a run-length count of 10^12, an empty group with a huge count,
//! a 255 x 255 level through the Session's calls and a LURD of a million moves, each
//! answered within a second. (10 MB inputs are tested natively: crates/sokoban-fuzz/tests/
//! limits.rs.)

use sokoban_wasm::{normalize_lurd, parse, Session};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

fn message(e: JsValue) -> String {
    js_sys::Error::from(e).message().as_string().unwrap_or_default()
}

/// Run `f` and check it took less than a second.
fn within<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = js_sys::Date::now();
    let r = f();
    let ms = js_sys::Date::now() - t;
    assert!(ms < 1000.0, "{what} took {ms} ms");
    r
}

#[wasm_bindgen_test]
fn huge_run_length_counts_are_answered_at_once() {
    let e = within("10^12 moves", || normalize_lurd("1000000000000l")).unwrap_err();
    assert!(message(e).contains("too many moves"));
    let e = within("10^12 squares", || parse("1000000000000#")).unwrap_err();
    assert!(message(e).contains("too"));
    let m = within("an empty group 10^12 times", || normalize_lurd("1111111111111132()l2u"));
    assert_eq!(m.unwrap(), "luu");
}

/// A 255 x 255 room in run-length notation (the native tests' room: walls round an open
/// floor, the player in the top left corner, a box on every sixth square of every sixth row,
/// a goal diagonally below each; 1,764 boxes).
const BIG_ROOM: &str = "255#|#@252-#|#253-#|41(#42(2-$3-)-#|#42(3-.2-)-#|4(#253-#|))\
                        #42(2-$3-)-#|#42(3-.2-)-#|3(#253-#|)255#";

#[wasm_bindgen_test]
fn a_255_by_255_level_plays() {
    let mut s = within("Session::new 255x255", || Session::new(BIG_ROOM)).expect("valid");
    let v = s.view();
    assert_eq!(get(&v, "width").as_f64(), Some(255.0));
    assert_eq!(get(&v, "height").as_f64(), Some(255.0));
    assert_eq!(s.box_squares().len(), 1764);
    let far = 253 * 255 + 253;
    let walk = within("walkTo across", || s.walk_to(far)).expect("reachable");
    assert!(walk.len() > 400);
    within("play the walk", || s.play_lurd(&walk)).expect("legal");
    let b = 3 * 255 + 3;
    let reach = within("boxReach", || s.box_reach(b));
    assert!(reach.len() > 10_000);
    let to = 250 * 255 + 250;
    let path = within("boxPath", || s.box_path(b, to)).expect("a path");
    within("play the box path", || s.play_lurd(&path)).expect("legal");
    assert!(s.box_squares().contains(&(to as u32)));
    within("undo, redo", || {
        assert!(s.undo());
        assert!(s.redo());
    });
}

#[wasm_bindgen_test]
fn a_lurd_of_a_million_moves_replays() {
    let mut s = Session::new("#######\n#@   .#\n#  $  #\n#######").expect("level");
    let plain = "rl".repeat(500_000);
    within("check a million moves", || s.check_lurd(&plain)).expect("legal");
    within("play a million moves", || s.play_lurd("500000(rl)")).expect("legal");
    assert_eq!(get(&s.view(), "moves").as_f64(), Some(1_000_000.0));
    let h = within("history", || s.history_lurd());
    assert_eq!(h.len(), 1_000_000);
    let e = within("a blocked million", || s.play_lurd("1000000l")).unwrap_err();
    assert!(message(e).contains("blocked"));
}
