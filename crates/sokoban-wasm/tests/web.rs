use wasm_bindgen_test::*;
wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn version_is_set() {
    assert_eq!(sokoban_wasm::version(), "0.1.0");
}
