// state.js — the one state of the Sokoban page: every value that changes while the page
// runs lives here, and nowhere else (the job modules keep none of their own). The game is
// changed only through `page.act` (play.js: finish what runs, change, redraw and save);
// the moves a walk or a replay plays step by step are redrawn through the same `render`.
// Squares are the wasm's indices: row * width + column.

/** A fresh state: no level yet; main.js and the modules fill in the rest at start. */
export function createState() {
  return {
    // ------------------------------------------------ the level on the board
    session: null, // the wasm Session (a PullSession in pull mode): the game and its rules
    view: null, // session.view() as of the last render: board, boxes, player, counters
    title: '', // the level's title
    key: '', // the level's key (progress.js keeps what was achieved under it)
    wasSolved: false, // the level was solved at the last render (a solve is announced once)
    facing: 2, // the way the player looks (0 up, 1 right, 2 down, 3 left)
    dead: new Map(), // boxes in a deadlock: square -> 'dead-square' | 'frozen'
    collection: null, // {title, levels: [{number, title, xsb, error, key, ...}], index, mine (My levels)}
    dropDepth: 0, // a file dragged over the page: dragenter minus dragleave (the drop hint shows)

    // ------------------------------------------------ choosing and dragging boxes
    selected: -1, // box chosen by a click, or by the keyboard in box mode
    reach: null, // Set of squares the selected or dragged box can be pushed to
    drag: null, // a box being dragged: {from, clientX, clientY}
    target: -1, // reachable square under the dragged box, or the keyboard's target
    cursor: -1, // box mode (a box chosen by the keyboard): the target cursor's square

    // ------------------------------------------------ pull mode (pull-mode.js)
    pull: null, // {forward, start, announced}: the forward Session, kept while the
    //             PullSession plays; the player's start square; the end was announced

    // ------------------------------------------------ the solver (solve.js)
    plan: null, // the last solution found, for Hint: {session, moves, points} (see keepSolution)
    offer: null, // the solution the panel's Replay button plays: {session, history, moves, what}
    searches: 0, // searches started (a Hint along a kept solution starts none)

    // ------------------------------------------------ messages (messages.js)
    statusTimer: 0, // the timer that clears a plain status message
    saidFirst: '', // said before the counters when the next action ends (a keyboard push)

    // ------------------------------------------------ My levels (my-levels.js)
    undoDelete: null, // the level of My levels deleted last: {entry, index, name}

    // ------------------------------------------------ what runs, made once at start
    board: null, // the Board that draws the canvas (board.js), made by main.js
    panel: null, // the SolverPanel, the solver's read-out and chart (solve.js)
    walk: null, // the Playback of a walk or a box drag, one undo group (play.js)
    replay: null, // the Playback of a solution replay, with its controls (play.js)
    solvers: null, // {pool, single, optimal}: the fast portfolio, its lane-0 worker alone,
    //                the IDA*'s worker (solve.js)
    memory: null, // the default budgets in MiB, {fastMiB, tableMiB}: the wasm's pageMemory()
  };
}
