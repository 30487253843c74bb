//! The level generator for the page: [`GeneratorTask`] runs [`sokoban_gen::Generator`] in
//! slices inside the solver worker, like [`crate::SolverTask`], so the page shows progress
//! and can cancel.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use sokoban_gen::{GenProgress, GenStep, Generator, Request};

use crate::{js_error, to_js, JsClock};

/// A level being generated.
#[wasm_bindgen]
pub struct GeneratorTask {
    gen: Generator,
    clock: JsClock,
    cancelled: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GenMessage {
    r#type: &'static str,
    attempts: usize,
    proved: usize,
    wanted: usize,
    best_pushes: Option<usize>,
    nodes: u64,
    elapsed_ms: f64,
    spec: String,
    xsb: Option<String>,
    lurd: Option<String>,
    pushes: Option<usize>,
    moves: Option<usize>,
    optimal: Option<bool>,
    solver_nodes: Option<u64>,
    message: Option<String>,
}

/// The limits of a request, for the page's form: `{minSize, maxSize, maxBoxes}` where
/// `maxBoxes` is for the given size (0 when the size is out of range).
#[wasm_bindgen(js_name = generatorLimits)]
pub fn generator_limits(width: usize, height: usize) -> JsValue {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Limits {
        min_size: usize,
        max_size: usize,
        max_boxes: usize,
    }
    to_js(&Limits {
        min_size: sokoban_gen::MIN_SIZE,
        max_size: sokoban_gen::MAX_SIZE,
        max_boxes: sokoban_gen::max_boxes(width, height),
    })
}

/// Read a request `WxH-BOXES-SEED` (the page's `?gen=` parameter) and check it: returns
/// `{width, height, boxes, seed}` (the seed as text) or throws an `Error` saying what is
/// wrong.
#[wasm_bindgen(js_name = parseGenSpec)]
pub fn parse_gen_spec(spec: &str) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Spec {
        width: usize,
        height: usize,
        boxes: usize,
        seed: String,
    }
    let r = sokoban_gen::parse_spec(spec).map_err(|e| js_error(e.0))?;
    Ok(to_js(&Spec { width: r.width, height: r.height, boxes: r.boxes, seed: r.seed.to_string() }))
}

#[wasm_bindgen]
impl GeneratorTask {
    /// Prepare: `width` and `height` walls included, `boxes`, and `seed` as text (a decimal
    /// number is itself, other text is hashed). Throws an `Error` with a clear message for a
    /// bad request (sizes out of range, more boxes than fit).
    #[wasm_bindgen(constructor)]
    pub fn new(
        width: usize,
        height: usize,
        boxes: usize,
        seed: &str,
    ) -> Result<GeneratorTask, JsValue> {
        let request = Request { width, height, boxes, seed: sokoban_gen::seed_from_text(seed) };
        let gen = Generator::new(request).map_err(|e| js_error(e.0))?;
        Ok(GeneratorTask { gen, clock: JsClock::new(), cancelled: false })
    }

    /// Work for about `slice_ms` milliseconds. Returns `{type: "progress", attempts,
    /// proved, wanted, bestPushes, nodes, elapsedMs, spec}`, or the final "generated" (with
    /// `xsb`, `lurd`, `pushes`, `moves`, `optimal`, `solverNodes`), "error" (with
    /// `message`) or "cancelled".
    pub fn step(&mut self, slice_ms: f64) -> JsValue {
        if self.cancelled {
            return self.cancel();
        }
        match self.gen.step(&self.clock, slice_ms) {
            GenStep::Running(p) => to_js(&self.message("progress", &p)),
            GenStep::Done(Ok(g)) => {
                let p = self.gen.progress(&self.clock);
                let mut m = self.message("generated", &p);
                m.xsb = Some(g.xsb.clone());
                m.lurd = Some(g.solution.lurd());
                m.pushes = Some(g.difficulty.pushes);
                m.moves = Some(g.difficulty.moves);
                m.optimal = Some(g.difficulty.optimal);
                m.solver_nodes = Some(g.difficulty.nodes);
                to_js(&m)
            }
            GenStep::Done(Err(e)) => {
                let p = self.gen.progress(&self.clock);
                let mut m = self.message("error", &p);
                m.message = Some(e.0);
                to_js(&m)
            }
        }
    }

    /// Stop; returns the final "cancelled" message.
    pub fn cancel(&mut self) -> JsValue {
        self.cancelled = true;
        let p = self.gen.progress(&self.clock);
        to_js(&self.message("cancelled", &p))
    }
}

impl GeneratorTask {
    fn message(&self, kind: &'static str, p: &GenProgress) -> GenMessage {
        GenMessage {
            r#type: kind,
            attempts: p.attempts,
            proved: p.proved,
            wanted: p.wanted,
            best_pushes: p.best_pushes,
            nodes: p.nodes,
            elapsed_ms: p.elapsed_ms,
            spec: self.gen.request().spec(),
            xsb: None,
            lurd: None,
            pushes: None,
            moves: None,
            optimal: None,
            solver_nodes: None,
            message: None,
        }
    }
}
