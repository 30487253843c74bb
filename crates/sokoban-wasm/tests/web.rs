//! Browser tests of the bindings (headless Chromium via wasm-bindgen-test-runner):
//! parsing, playing, box paths and the solver running inside wasm.

use sokoban_wasm::{parse, Session, SolverTask};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

const SOKOPLAYER: &str =
    "http://sokoban.ws/sokoplayer/?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH";

// Player (2,3); boxes (1,4) and (3,3); goals (1,1) and (3,4). Solved in 4 pushes.
const ROOM: &str = "#######\n#.  $ #\n# #@  #\n#  $. #\n#######";

#[wasm_bindgen_test]
fn version_is_set() {
    assert_eq!(sokoban_wasm::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn parses_a_sokoplayer_link() {
    let p = parse(SOKOPLAYER).expect("parses");
    assert_eq!(get(&p, "kind").as_string().unwrap(), "levels");
    let levels = js_sys::Array::from(&get(&p, "levels"));
    assert_eq!(levels.length(), 1);
    let l = levels.get(0);
    assert_eq!(get(&l, "width").as_f64(), Some(4.0));
    assert_eq!(get(&l, "height").as_f64(), Some(9.0));
    assert_eq!(get(&l, "boxes").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
fn bad_input_throws_a_message() {
    let err = parse("#####\n#@$.#\n##Q##").unwrap_err();
    let msg = js_sys::Error::from(err).message().as_string().unwrap();
    assert!(msg.contains("'Q'") && msg.contains("line 3"), "{msg}");
}

#[wasm_bindgen_test]
fn plays_and_solves_by_hand() {
    let mut s = Session::new(ROOM).expect("level");
    for d in [0u8, 3, 3, 2, 2, 1] {
        assert!(s.step(d).is_some());
    }
    assert_eq!(s.step(1).as_deref(), Some("R"));
    s.play_lurd("urruLLL").expect("legal");
    let v = s.view();
    assert_eq!(get(&v, "solved").as_bool(), Some(true));
    assert_eq!(get(&v, "moves").as_f64(), Some(14.0));
    assert_eq!(get(&v, "pushes").as_f64(), Some(4.0));
    assert!(s.undo());
    assert_eq!(get(&s.view(), "solved").as_bool(), Some(false));
}

#[wasm_bindgen_test]
fn box_drag_path() {
    let mut s = Session::new(ROOM).expect("level");
    // Box at (1,4) = square 11 to the goal at (1,1) = square 8.
    let reach = s.box_reach(11);
    assert!(reach.contains(&8));
    let path = s.box_path(11, 8).expect("reachable");
    assert_eq!(path.chars().filter(|c| c.is_uppercase()).count(), 3);
    s.play_lurd(&path).expect("legal");
    assert!(s.box_squares().contains(&8));
}

#[wasm_bindgen_test]
fn solver_runs_in_wasm() {
    let s = Session::new(ROOM).expect("level");
    let mut task =
        SolverTask::new(ROOM, s.player(), s.box_squares(), JsValue::UNDEFINED).expect("solver");
    let mut progress = 0;
    let msg = loop {
        let m = task.step(50.0);
        if get(&m, "type").as_string().unwrap() != "progress" {
            break m;
        }
        progress += 1;
        assert!(progress < 10_000, "solver did not finish");
    };
    assert_eq!(get(&msg, "type").as_string().unwrap(), "solved");
    assert_eq!(get(&msg, "pushes").as_f64(), Some(4.0));
    let lurd = get(&msg, "lurd").as_string().unwrap();
    let mut s = Session::new(ROOM).unwrap();
    s.play_lurd(&lurd).expect("solution replays");
    assert_eq!(get(&s.view(), "solved").as_bool(), Some(true));
}

#[wasm_bindgen_test]
fn solver_options_are_read_and_checked() {
    let s = Session::new(ROOM).expect("level");
    let opts = js_sys::JSON::parse(r#"{"tableMiB": 2, "nodeLimit": 1}"#).unwrap();
    let mut task = SolverTask::new(ROOM, s.player(), s.box_squares(), opts).expect("solver");
    let mut m = task.step(100.0);
    while get(&m, "type").as_string().unwrap() == "progress" {
        m = task.step(100.0);
    }
    assert_eq!(get(&m, "type").as_string().unwrap(), "limit");
    assert_eq!(get(&m, "limit").as_string().unwrap(), "nodes");
    // 2 MiB of 16-byte slots.
    assert_eq!(get(&m, "tableCapacity").as_f64(), Some(131072.0));
    // A misspelt option is an error, not silently ignored.
    let bad = js_sys::JSON::parse(r#"{"tableMib": 2}"#).unwrap();
    let err = SolverTask::new(ROOM, s.player(), s.box_squares(), bad).err().expect("rejected");
    let msg = js_sys::Error::from(err).message().as_string().unwrap();
    assert!(msg.contains("tableMib"), "{msg}");
}

#[wasm_bindgen_test]
fn solver_reports_unsolvable() {
    // The box is stuck in a corner that is not a goal.
    let text = "#####\n#$  #\n#  .#\n# @ #\n#####";
    let s = Session::new(text).expect("level");
    let mut task =
        SolverTask::new(text, s.player(), s.box_squares(), JsValue::UNDEFINED).expect("solver");
    let msg = task.step(1000.0);
    assert_eq!(get(&msg, "type").as_string().unwrap(), "unsolvable");
}

/// Box-path budget: one query on an 80x50 level in wasm. Prints the median (see the
/// benchmark notes) and fails only if it is far over the 1 ms budget.
#[wasm_bindgen_test]
fn box_path_query_on_80x50_is_fast() {
    let level = sokoban_path::fixtures::warehouse(80, 50, 1);
    let text = sokoban_core::format::to_xsb(&level);
    let perf = web_sys::window().unwrap().performance().unwrap();
    let boxes = level.start.box_squares();
    let mut times = Vec::new();
    for round in 0..5 {
        for &b in &boxes {
            let mut s = Session::new(&text).unwrap();
            let t0 = perf.now();
            let reach = s.box_reach(b);
            let far = *reach.last().unwrap() as usize;
            let _ = s.box_path(b, far);
            if round > 0 {
                times.push(perf.now() - t0);
            }
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = times[times.len() / 2];
    web_sys::console::log_1(
        &format!("box path 80x50 in wasm: median {median:.3} ms over {} queries", times.len())
            .into(),
    );
    assert!(median < 5.0, "median {median} ms");
}
