//! Browser tests of the optimizer binding (headless Chromium via wasm-bindgen-test-runner):
//! a wasteful solution made shorter in slices for either metric, the result replayed by a
//! Session, cancel with the best so far, and errors that name the failing move.

use sokoban_wasm::{check_solution, OptimizerTask, Session};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

fn text(v: &JsValue, key: &str) -> String {
    get(v, key).as_string().unwrap_or_else(|| panic!("{key} is not a string"))
}

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key).as_f64().unwrap_or_else(|| panic!("{key} is not a number"))
}

/// Player (2,3); boxes (1,4) and (3,3); goals (1,1) and (3,4): 14 moves and 4 pushes at
/// best (the e2e tests' ROOM).
const ROOM: &str = "#######\n#.  $ #\n# #@  #\n#  $. #\n#######";

/// The best solution with detours: steps back and forth, a box pushed away and back.
/// 40 moves, 6 pushes: the upper box pushed off its way and back.
const WASTEFUL: &str = "rlrludullddrRlrurrduuLrldldlluurRdrruLLL";

/// Two boxes, where two pushes more save four moves (the optimizer crate's case): 22
/// moves and 9 pushes for fewest moves, 24 and 7 for fewest pushes.
const TRADE: &str = "#######\n#.    #\n#   . #\n# $$@ #\n#  ## #\n#######";

/// Run a task to its end; returns the progress messages and the final one.
fn run(task: &mut OptimizerTask) -> (Vec<JsValue>, JsValue) {
    let mut progress = Vec::new();
    let mut m = task.step(0.0);
    while text(&m, "type") == "progress" {
        progress.push(m);
        assert!(progress.len() < 10_000, "the optimizer did not finish");
        m = task.step(50.0);
    }
    (progress, m)
}

/// The moves solve the level; their (moves, pushes).
fn replays(level: &str, lurd: &str) -> (f64, f64) {
    let mut s = Session::new(level).expect("level");
    s.play_lurd(lurd).expect("the result replays");
    let v = s.view();
    assert_eq!(get(&v, "solved").as_bool(), Some(true), "the result solves the level");
    (num(&v, "moves"), num(&v, "pushes"))
}

#[wasm_bindgen_test]
fn a_wasteful_solution_gets_shorter() {
    let before = check_solution(ROOM, WASTEFUL).expect("a solution");
    let mut task = OptimizerTask::new(ROOM, WASTEFUL, "moves", 16.0, None).expect("optimizer");
    let (progress, m) = run(&mut task);
    assert_eq!(text(&m, "type"), "finished");
    assert_eq!(text(&m, "metric"), "moves");
    assert_eq!(num(&m, "startMoves"), num(&before, "moves"));
    assert_eq!(num(&m, "startPushes"), num(&before, "pushes"));
    assert_eq!((num(&m, "moves"), num(&m, "pushes")), (14.0, 4.0));
    // The tie-breakers, before and after.
    assert_eq!((num(&m, "startBoxLines"), num(&m, "startBoxChanges")), (4.0, 2.0));
    assert_eq!((num(&m, "boxLines"), num(&m, "boxChanges")), (2.0, 2.0));
    assert!(num(&m, "gains") >= 1.0);
    assert_eq!(num(&m, "done"), 1.0);
    assert_eq!(num(&m, "memoryLimit"), 16.0 * 1024.0 * 1024.0);
    assert_eq!(get(&m, "memoryFull").as_bool(), Some(false));
    let lurd = text(&m, "lurd");
    assert_eq!(replays(ROOM, &lurd), (14.0, 4.0));
    assert_eq!(task.best(), lurd);
    // The read-out: the first message has the input's counts and its moves.
    let first = progress.first().expect("a progress message");
    assert_eq!(num(first, "moves"), num(&before, "moves"));
    assert_eq!(text(first, "lurd"), text(&before, "lurd"));
    for p in &progress {
        let method = text(p, "method");
        assert!(method == "vicinity-build" || method == "vicinity-search", "{method}");
        assert!((0.0..=1.0).contains(&num(p, "done")));
        assert!(num(p, "moves") <= num(&before, "moves"), "never longer");
        for key in ["placements", "nodes", "memoryBytes", "elapsedMs", "gains"] {
            assert!(num(p, key) >= 0.0, "{key}");
        }
    }
    // Stepping a finished task gives the same ending.
    assert_eq!(text(&task.step(50.0), "type"), "finished");
}

#[wasm_bindgen_test]
fn either_metric_and_cancel_keep_the_best() {
    // 32 moves, 7 pushes: steps up and down first, then the fewest pushes.
    let s = "ududulllddrUUruLrrddLullddrUluRR";
    let start = check_solution(TRADE, s).expect("a solution");
    let moves = |metric: &str| {
        let mut t = OptimizerTask::new(TRADE, s, metric, 0.0, None).expect("optimizer");
        let (_, m) = run(&mut t);
        assert_eq!(text(&m, "type"), "finished");
        assert_eq!(num(&m, "memoryLimit"), 256.0 * 1024.0 * 1024.0, "the default budget");
        assert_eq!(replays(TRADE, &text(&m, "lurd")), (num(&m, "moves"), num(&m, "pushes")));
        (num(&m, "moves"), num(&m, "pushes"))
    };
    assert_eq!(moves("moves"), (22.0, 9.0));
    assert_eq!(moves("pushes"), (24.0, 7.0));
    // Cancelled at once: the input itself, which solves the level.
    let mut t = OptimizerTask::new(TRADE, s, "pushes", 8.0, None).expect("optimizer");
    let m = t.cancel();
    assert_eq!(text(&m, "type"), "cancelled");
    assert_eq!(num(&m, "moves"), num(&start, "moves"));
    assert_eq!(text(&m, "lurd"), text(&start, "lurd"));
    assert_eq!(text(&t.step(50.0), "type"), "cancelled", "stays cancelled");
}

#[wasm_bindgen_test]
fn a_wrong_solution_names_the_move() {
    let error = |lurd: &str| {
        let e = OptimizerTask::new(ROOM, lurd, "moves", 0.0, None).err().expect("rejected");
        let step = get(&e, "step").as_f64();
        (js_sys::Error::from(e).message().as_string().unwrap(), step)
    };
    // Move 5 walks into the room's inner wall.
    let (msg, step) = error("ulldlddrRurruLLL");
    assert_eq!(step, Some(5.0), "{msg}");
    assert!(msg.contains("move 5 ('l')") && msg.contains("a wall"), "{msg}");
    let (msg, step) = error("ullddrR");
    assert_eq!(step, None);
    assert!(msg.contains("do not solve"), "{msg}");
    let (msg, _) = error("ul2(");
    assert!(!msg.is_empty());
    let e = OptimizerTask::new(ROOM, "ullddrRurruLLL", "boxes", 0.0, None).err().unwrap();
    assert!(js_sys::Error::from(e).message().as_string().unwrap().contains("metric"));
    assert!(OptimizerTask::new("#@#", "u", "moves", 0.0, None).is_err());
}

#[wasm_bindgen_test]
fn a_time_limit_stops_with_the_best() {
    let mut t = OptimizerTask::new(ROOM, WASTEFUL, "moves", 0.0, Some(1e-9)).expect("optimizer");
    let (_, m) = run(&mut t);
    let kind = text(&m, "type");
    assert!(kind == "limit" || kind == "finished", "{kind}");
    if kind == "limit" {
        assert_eq!(text(&m, "limit"), "time");
    }
    let (moves, _) = replays(ROOM, &text(&m, "lurd"));
    assert_eq!(moves, num(&m, "moves"));
}
