// board.js — draws a level on a canvas: crisp at any devicePixelRatio, fitted to the
// canvas's CSS box, and maps pointer positions to squares. It knows nothing about the
// rules; it draws a `view` from Session.view() plus overlays (box reach, selection, a box
// being dragged, deadlocked boxes). It zooms (about a point) and pans: the level fits the
// canvas by default, zoomed in it scrolls and follows the player. Test hooks: the canvas
// carries data-cols, data-rows, data-cell-size, data-offset-x and data-offset-y (CSS
// pixels; the offset is negative when the level is scrolled) and data-zoom (1 = fit),
// updated on every layout, zoom and pan.

const STANDARD = {
  floor: '#efe6d2',
  floorLine: 'rgba(120, 95, 60, 0.10)',
  wall: '#5a6577',
  wallLight: '#7d889b',
  wallDark: '#434c5b',
  goal: '#d64550',
  goalSoft: 'rgba(214, 69, 80, 0.22)',
  box: ['#f2b661', '#d98a2b'],
  boxEdge: '#99591a',
  boxOn: ['#74d197', '#3a9d5d'],
  boxOnEdge: '#22653a',
  player: ['#6d9cf5', '#2f5fc4'],
  playerEdge: '#1f3f85',
  reach: 'rgba(16, 150, 128, 0.16)',
  reachDot: 'rgba(16, 130, 112, 0.65)',
  target: 'rgba(16, 150, 128, 0.38)',
  select: '#2563eb',
  dead: '#e0243a',
  blank: 'rgba(128, 128, 128, 0.28)',
  boxMark: null, // a mark drawn on a box on a goal (high contrast only)
};

// High contrast and colour-blind safe (Okabe–Ito colours, told apart by lightness too):
// black walls on white floor, boxes orange, boxes on goals dark blue with a white tick,
// goals a black ring, the player vermilion.
const CONTRAST = {
  ...STANDARD,
  floor: '#ffffff',
  floorLine: 'rgba(0, 0, 0, 0.25)',
  wall: '#000000',
  wallLight: '#000000',
  wallDark: '#000000',
  goal: '#000000',
  goalSoft: 'rgba(0, 0, 0, 0.18)',
  box: ['#f5b93a', '#e69f00'],
  boxEdge: '#000000',
  boxOn: ['#1a7fc4', '#0072b2'],
  boxOnEdge: '#000000',
  player: ['#f07a3a', '#d55e00'],
  playerEdge: '#000000',
  reach: 'rgba(0, 158, 115, 0.25)',
  reachDot: '#009e73',
  target: 'rgba(0, 158, 115, 0.5)',
  select: '#0072b2',
  dead: '#d55e00',
  blank: 'rgba(0, 0, 0, 0.3)',
  boxMark: '#ffffff',
};

let C = STANDARD;

/** Choose the board's colours: 'standard' or 'contrast'. */
export function setPalette(name) {
  C = name === 'contrast' ? CONTRAST : STANDARD;
}

const DIRS = [[0, -1], [1, 0], [0, 1], [-1, 0]]; // up, right, down, left as [dx, dy]

/**
 * Size a canvas's backing store to its CSS box at the device pixel ratio (crisp at any
 * zoom). Returns the store's size `w` x `h`, the ratio, and the CSS box.
 */
export function fitCanvas(canvas) {
  const rect = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(rect.width * dpr));
  const h = Math.max(1, Math.round(rect.height * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  return { w, h, dpr, rect };
}

const MAX_CELL = 128; // CSS pixels: the largest square zooming in reaches
const FOLLOW_MARGIN = 2; // squares kept between the player and the edge of the view

export class Board {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.cols = 0;
    this.rows = 0;
    this.dpr = 1;
    this.cell = 0; // device pixels
    this.ox = 0; // device pixels
    this.oy = 0;
    this.w = 1; // backing store size, device pixels
    this.h = 1;
    this.fitCell = 0; // the square size that fits the whole level (device pixels)
    this.zoom = 1; // cell / fitCell; 1 = fit to the window
    this.followed = -1; // the square the view last followed
  }

  /**
   * Size the backing store to the canvas's CSS box and fit `cols` x `rows` squares in it.
   * A new size of level starts fitted; the same level keeps its zoom and the square at the
   * middle of the view (a resize, a rotated phone).
   */
  layout(cols, rows) {
    const canvas = this.canvas;
    const oldW = this.w, oldH = this.h, oldCell = this.cell;
    const { w, h, dpr } = fitCanvas(canvas);
    const same = cols === this.cols && rows === this.rows && oldCell > 0;
    const mid = same ? [(oldW / 2 - this.ox) / oldCell, (oldH / 2 - this.oy) / oldCell] : null;
    this.dpr = dpr;
    this.w = w;
    this.h = h;
    this.cols = cols;
    this.rows = rows;
    this.fitCell = Math.max(2, Math.floor(Math.min(w / cols, h / rows, 72 * dpr)));
    if (!same) {
      this.zoom = 1;
      this.followed = -1;
    }
    this.cell = this.cellFor(this.zoom);
    if (mid) {
      this.ox = w / 2 - mid[0] * this.cell;
      this.oy = h / 2 - mid[1] * this.cell;
    }
    this.clamp();
  }

  /** The square size for a zoom factor, within fit .. MAX_CELL (device pixels, whole). */
  cellFor(zoom) {
    const max = Math.max(this.fitCell, Math.round(MAX_CELL * this.dpr));
    return Math.max(this.fitCell, Math.min(max, Math.round(this.fitCell * zoom)));
  }

  /** True when zoomed in beyond fitting the whole level. */
  get zoomed() {
    return this.cell > this.fitCell;
  }

  /**
   * Keep the board in view: centred along an axis where it is smaller than the canvas,
   * else covering the canvas (no empty band on one side). Then publish the test hooks.
   */
  clamp() {
    const fix = (o, size, room) => (size <= room ? Math.floor((room - size) / 2) : Math.min(0, Math.max(room - size, o)));
    this.ox = fix(this.ox, this.cell * this.cols, this.w);
    this.oy = fix(this.oy, this.cell * this.rows, this.h);
    const d = this.canvas.dataset;
    const dpr = this.dpr;
    d.cols = this.cols;
    d.rows = this.rows;
    d.cellSize = round3(this.cell / dpr);
    d.offsetX = round3(this.ox / dpr);
    d.offsetY = round3(this.oy / dpr);
    d.zoom = round3(this.cell / this.fitCell);
  }

  /**
   * Zoom by `factor` about a point (client coordinates; the middle of the canvas when
   * omitted): the square under it stays under it. Returns true when the size changed.
   */
  zoomBy(factor, clientX, clientY) {
    if (!this.cols) return false;
    const p = clientX === undefined ? { x: this.w / 2, y: this.h / 2 } : this.toDevice(clientX, clientY);
    const u = (p.x - this.ox) / this.cell, v = (p.y - this.oy) / this.cell;
    let cell = this.cellFor((this.cell / this.fitCell) * factor);
    // A small factor still moves at least one device pixel.
    if (cell === this.cell && factor !== 1) cell = this.cellFor((this.cell + Math.sign(factor - 1)) / this.fitCell);
    if (cell === this.cell) return false;
    this.cell = cell;
    this.zoom = cell / this.fitCell;
    this.ox = p.x - u * cell;
    this.oy = p.y - v * cell;
    this.clamp();
    return true;
  }

  /** Back to the whole level in the window. */
  fit() {
    this.zoom = 1;
    this.cell = this.fitCell;
    this.clamp();
  }

  /** Move the view by a pointer's travel (client pixels). */
  panBy(dx, dy) {
    const rect = this.canvas.getBoundingClientRect();
    const s = this.canvas.width / Math.max(1, rect.width);
    this.ox += dx * s;
    this.oy += dy * s;
    this.clamp();
  }

  /**
   * Keep `square` (the player) in view: when it has moved since the last call and is within
   * FOLLOW_MARGIN squares of an edge of the view (or outside it), scroll just enough.
   */
  follow(square) {
    if (square < 0 || square === this.followed || !this.cols) return;
    this.followed = square;
    if (!this.zoomed) return;
    const c = this.cell;
    const m = Math.min(FOLLOW_MARGIN * c, Math.max(0, (Math.min(this.w, this.h) - c) / 2));
    const x = this.ox + (square % this.cols) * c, y = this.oy + Math.floor(square / this.cols) * c;
    if (x < m) this.ox += m - x;
    else if (x + c > this.w - m) this.ox -= x + c - (this.w - m);
    if (y < m) this.oy += m - y;
    else if (y + c > this.h - m) this.oy -= y + c - (this.h - m);
    this.clamp();
  }

  /** The square under a pointer (client coordinates), or -1 off the board. */
  squareAt(clientX, clientY) {
    const p = this.toDevice(clientX, clientY);
    if (p.x < 0 || p.y < 0 || p.x >= this.w || p.y >= this.h) return -1; // outside the view
    const col = Math.floor((p.x - this.ox) / this.cell);
    const row = Math.floor((p.y - this.oy) / this.cell);
    if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) return -1;
    return row * this.cols + col;
  }

  /** Client coordinates to device pixels of the backing store. */
  toDevice(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    return {
      x: (clientX - rect.left) * (this.canvas.width / Math.max(1, rect.width)),
      y: (clientY - rect.top) * (this.canvas.height / Math.max(1, rect.height)),
    };
  }

  /**
   * Draw the view. `ov`: {reach: Set of squares, target: square under a dragged box,
   * selected: square, drag: {from, clientX, clientY}, dead: Map square -> kind, facing,
   * blank: mark the outside squares (the editor), cursor: a square to outline}. A view
   * with player -1 has no player (a level being drawn).
   */
  draw(view, ov = {}) {
    if (view.width !== this.cols || view.height !== this.rows) this.layout(view.width, view.height);
    const { ctx, cell: c } = this;
    const W = view.width;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    // Offsets may be fractional while panning; squares are drawn on whole pixels.
    const ox = Math.round(this.ox), oy = Math.round(this.oy);
    const at = (sq) => [ox + (sq % W) * c, oy + Math.floor(sq / W) * c];
    // Zoomed in, only the squares in view are drawn (a 100x100 level stays quick).
    const cw = this.canvas.width, ch = this.canvas.height;
    const off = (sq) => {
      const x = ox + (sq % W) * c, y = oy + Math.floor(sq / W) * c;
      return x + c < 0 || y + c < 0 || x > cw || y > ch;
    };
    const isWall = (r, col) =>
      r >= 0 && col >= 0 && r < view.height && col < W && view.cells[r * W + col] === 1;

    if (ov.blank) {
      ctx.strokeStyle = C.blank;
      ctx.lineWidth = 1;
      for (let sq = 0; sq < view.cells.length; sq++) {
        if (view.cells[sq] !== 0 || off(sq)) continue;
        const [x, y] = at(sq);
        ctx.strokeRect(x + 0.5, y + 0.5, c - 1, c - 1);
      }
    }
    // Floor and goals first, then walls with a bevel on their open sides.
    for (let sq = 0; sq < view.cells.length; sq++) {
      if (view.cells[sq] !== 2 || off(sq)) continue;
      const [x, y] = at(sq);
      ctx.fillStyle = C.floor;
      ctx.fillRect(x, y, c, c);
      ctx.strokeStyle = C.floorLine;
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 0.5, c - 1, c - 1);
      if (view.goals[sq]) this.goal(x, y, c);
    }
    // Walls: one flat shape with rounded outer corners and a light top edge.
    const rad = c * 0.22;
    const edge = Math.max(1, Math.round(c * 0.07));
    for (let sq = 0; sq < view.cells.length; sq++) {
      if (view.cells[sq] !== 1 || off(sq)) continue;
      const [x, y] = at(sq);
      const r = Math.floor(sq / W), col = sq % W;
      const up = isWall(r - 1, col), down = isWall(r + 1, col);
      const left = isWall(r, col - 1), right = isWall(r, col + 1);
      const corners = [!up && !left, !up && !right, !down && !right, !down && !left].map((round) => (round ? rad : 0));
      ctx.fillStyle = C.wall;
      ctx.beginPath();
      ctx.roundRect(x, y, c, c, corners);
      ctx.fill();
      if (!up) {
        ctx.save();
        ctx.clip();
        ctx.fillStyle = C.wallLight;
        ctx.fillRect(x, y, c, edge);
        ctx.restore();
      }
      if (!down) {
        ctx.save();
        ctx.clip();
        ctx.fillStyle = C.wallDark;
        ctx.fillRect(x, y + c - edge, c, edge);
        ctx.restore();
      }
    }

    // Where the selected or dragged box can go.
    if (ov.reach) {
      for (const sq of ov.reach) {
        const [x, y] = at(sq);
        ctx.fillStyle = sq === ov.target ? C.target : C.reach;
        ctx.fillRect(x, y, c, c);
        if (!view.boxes[sq]) {
          ctx.fillStyle = C.reachDot;
          circle(ctx, x + c / 2, y + c / 2, Math.max(1.5, c * 0.09));
          ctx.fill();
        }
      }
    }

    const dragFrom = ov.drag ? ov.drag.from : -1;
    for (let sq = 0; sq < view.boxes.length; sq++) {
      if (!view.boxes[sq] || off(sq)) continue;
      const [x, y] = at(sq);
      ctx.globalAlpha = sq === dragFrom ? 0.3 : 1;
      this.box(x, y, c, !!view.goals[sq]);
      ctx.globalAlpha = 1;
      const kind = ov.dead && ov.dead.get(sq);
      if (kind && sq !== dragFrom) this.outline(x, y, c, C.dead, kind === 'frozen' ? [] : [c * 0.12, c * 0.08]);
      if (sq === ov.selected) this.outline(x, y, c, C.select, []);
    }

    if (view.player >= 0) {
      const [px, py] = at(view.player);
      if (view.goals[view.player]) {
        // Keep the goal visible around the player standing on it.
        ctx.strokeStyle = C.goal;
        ctx.lineWidth = Math.max(1.5, c * 0.07);
        circle(ctx, px + c / 2, py + c / 2, c * 0.42);
        ctx.stroke();
      }
      this.player(px, py, c, ov.facing ?? 2);
    }
    if (ov.cursor >= 0) {
      const [x, y] = at(ov.cursor);
      this.outline(x, y, c, C.select, [c * 0.12, c * 0.08]);
    }

    if (ov.drag) {
      const p = this.toDevice(ov.drag.clientX, ov.drag.clientY);
      ctx.save();
      ctx.shadowColor = 'rgba(0, 0, 0, 0.35)';
      ctx.shadowBlur = c * 0.25;
      ctx.shadowOffsetY = c * 0.08;
      this.box(p.x - c / 2, p.y - c / 2, c, ov.target >= 0 && !!view.goals[ov.target]);
      ctx.restore();
    }
  }

  goal(x, y, c) {
    const ctx = this.ctx;
    ctx.fillStyle = C.goalSoft;
    circle(ctx, x + c / 2, y + c / 2, c * 0.24);
    ctx.fill();
    ctx.fillStyle = C.goal;
    circle(ctx, x + c / 2, y + c / 2, Math.max(1.5, c * 0.1));
    ctx.fill();
  }

  box(x, y, c, onGoal) {
    const ctx = this.ctx;
    const [top, bottom] = onGoal ? C.boxOn : C.box;
    const inset = c * 0.08;
    const g = ctx.createLinearGradient(0, y + inset, 0, y + c - inset);
    g.addColorStop(0, top);
    g.addColorStop(1, bottom);
    ctx.fillStyle = g;
    roundRect(ctx, x + inset, y + inset, c - 2 * inset, c - 2 * inset, c * 0.14);
    ctx.fill();
    ctx.lineWidth = Math.max(1, c * 0.045);
    ctx.strokeStyle = onGoal ? C.boxOnEdge : C.boxEdge;
    ctx.stroke();
    // An inner panel gives the crate some depth.
    ctx.lineWidth = Math.max(1, c * 0.03);
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.35)';
    roundRect(ctx, x + c * 0.22, y + c * 0.22, c * 0.56, c * 0.56, c * 0.08);
    ctx.stroke();
    if (onGoal && C.boxMark) {
      // A tick: a box on a goal is told apart by shape, not only by colour.
      ctx.strokeStyle = C.boxMark;
      ctx.lineWidth = Math.max(2, c * 0.09);
      ctx.beginPath();
      ctx.moveTo(x + c * 0.3, y + c * 0.52);
      ctx.lineTo(x + c * 0.45, y + c * 0.66);
      ctx.lineTo(x + c * 0.7, y + c * 0.36);
      ctx.stroke();
    }
  }

  player(x, y, c, facing) {
    const ctx = this.ctx;
    const cx = x + c / 2, cy = y + c / 2, r = c * 0.3;
    const g = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.35, r * 0.1, cx, cy, r);
    g.addColorStop(0, C.player[0]);
    g.addColorStop(1, C.player[1]);
    ctx.fillStyle = g;
    circle(ctx, cx, cy, r);
    ctx.fill();
    ctx.lineWidth = Math.max(1, c * 0.04);
    ctx.strokeStyle = C.playerEdge;
    ctx.stroke();
    // Eyes look where the player last moved.
    const [dx, dy] = DIRS[facing] ?? DIRS[2];
    const ex = cx + dx * r * 0.35, ey = cy + dy * r * 0.35;
    const sx = -dy * r * 0.38, sy = dx * r * 0.38;
    for (const s of [-1, 1]) {
      ctx.fillStyle = '#fff';
      circle(ctx, ex + s * sx, ey + s * sy, r * 0.22);
      ctx.fill();
      ctx.fillStyle = '#1b2440';
      circle(ctx, ex + s * sx + dx * r * 0.08, ey + s * sy + dy * r * 0.08, r * 0.11);
      ctx.fill();
    }
  }

  outline(x, y, c, color, dash) {
    const ctx = this.ctx;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(2, c * 0.08);
    ctx.setLineDash(dash);
    roundRect(ctx, x + c * 0.04, y + c * 0.04, c * 0.92, c * 0.92, c * 0.16);
    ctx.stroke();
    ctx.restore();
  }
}

function circle(ctx, x, y, r) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

function round3(v) {
  return String(Math.round(v * 1000) / 1000);
}
