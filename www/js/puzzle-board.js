// puzzle-board.js — draws a sliding-tile position on a canvas, in the Sokoban board's
// colours: the frame is a wall, the cells floor, a tile a crate (green on its goal cell)
// with its number. A tile that just slid is drawn gliding from its old cell. Crisp at any
// devicePixelRatio; maps pointer positions to cells. No rules here: it draws a view from
// PuzzleSession.view(). Test hooks on the canvas: data-cols, data-rows, data-cell-size,
// data-offset-x, data-offset-y (CSS pixels), like the Sokoban board.
import { fitCanvas } from './board.js';

const C = {
  wall: '#5a6577',
  wallLight: '#7d889b',
  floor: '#efe6d2',
  floorLine: 'rgba(120, 95, 60, 0.10)',
  tile: ['#f2b661', '#d98a2b'],
  tileEdge: '#99591a',
  tileOn: ['#74d197', '#3a9d5d'],
  tileOnEdge: '#22653a',
  text: '#3b2508',
  textOn: '#0f3a1f',
};

const GLIDE_MS = 90;

export class PuzzleBoard {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.cols = 0;
    this.rows = 0;
    this.cell = 0; // device pixels
    this.ox = 0;
    this.oy = 0;
    this.glide = null; // {tile, from, to, t0, ms}
    this.view = null;
    this.frame = 0;
  }

  layout(cols, rows) {
    const { w, h, dpr } = fitCanvas(this.canvas);
    this.cols = cols;
    this.rows = rows;
    // Room for the frame: a third of a cell on each side.
    const cell = Math.max(4, Math.floor(Math.min(w / (cols + 0.7), h / (rows + 0.7), 110 * dpr)));
    this.cell = cell;
    this.ox = Math.floor((w - cell * cols) / 2);
    this.oy = Math.floor((h - cell * rows) / 2);
    const d = this.canvas.dataset;
    d.cols = cols;
    d.rows = rows;
    d.cellSize = round3(cell / dpr);
    d.offsetX = round3(this.ox / dpr);
    d.offsetY = round3(this.oy / dpr);
  }

  /** The cell under a pointer (client coordinates), or -1. */
  cellAt(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    const x = (clientX - rect.left) * (this.canvas.width / Math.max(1, rect.width));
    const y = (clientY - rect.top) * (this.canvas.height / Math.max(1, rect.height));
    const col = Math.floor((x - this.ox) / this.cell);
    const row = Math.floor((y - this.oy) / this.cell);
    if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) return -1;
    return row * this.cols + col;
  }

  /** Draw `view`; `moved` ({tile, from, to}) makes that tile glide into place. */
  draw(view, moved = null, ms = GLIDE_MS) {
    this.view = view;
    if (moved && ms > 0) this.glide = { ...moved, t0: performance.now(), ms };
    else this.glide = null;
    cancelAnimationFrame(this.frame);
    this.paint();
  }

  paint() {
    const view = this.view;
    if (!view) return;
    if (view.width !== this.cols || view.height !== this.rows) this.layout(view.width, view.height);
    const { ctx, cell: c } = this;
    const W = view.width;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    // Frame (a wall round the board) and floor.
    const m = Math.round(c * 0.3);
    ctx.fillStyle = C.wall;
    ctx.beginPath();
    ctx.roundRect(this.ox - m, this.oy - m, c * W + 2 * m, c * view.height + 2 * m, m);
    ctx.fill();
    // A light top edge, as the walls have.
    ctx.save();
    ctx.clip();
    ctx.fillStyle = C.wallLight;
    ctx.fillRect(this.ox - m, this.oy - m, c * W + 2 * m, Math.max(1, Math.round(c * 0.05)));
    ctx.restore();
    ctx.fillStyle = C.floor;
    ctx.fillRect(this.ox, this.oy, c * W, c * view.height);
    ctx.strokeStyle = C.floorLine;
    ctx.lineWidth = 1;
    for (let sq = 0; sq < view.tiles.length; sq++) {
      const [x, y] = this.at(sq, W);
      ctx.strokeRect(x + 0.5, y + 0.5, c - 1, c - 1);
    }
    let glide = this.glide;
    let t = 1;
    if (glide) {
      t = Math.min(1, (performance.now() - glide.t0) / glide.ms);
      if (t >= 1) glide = this.glide = null;
    }
    for (let sq = 0; sq < view.tiles.length; sq++) {
      const tile = view.tiles[sq];
      if (!tile) continue;
      let [x, y] = this.at(sq, W);
      if (glide && glide.tile === tile && glide.to === sq) {
        const [fx, fy] = this.at(glide.from, W);
        const e = 1 - (1 - t) * (1 - t);
        x = fx + (x - fx) * e;
        y = fy + (y - fy) * e;
      }
      this.tile(x, y, c, tile, view.goal[sq] === tile);
    }
    if (glide) this.frame = requestAnimationFrame(() => this.paint());
  }

  at(sq, W) {
    return [this.ox + (sq % W) * this.cell, this.oy + Math.floor(sq / W) * this.cell];
  }

  tile(x, y, c, n, home) {
    const ctx = this.ctx;
    const [top, bottom] = home ? C.tileOn : C.tile;
    const inset = c * 0.05;
    const g = ctx.createLinearGradient(0, y + inset, 0, y + c - inset);
    g.addColorStop(0, top);
    g.addColorStop(1, bottom);
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.roundRect(x + inset, y + inset, c - 2 * inset, c - 2 * inset, c * 0.12);
    ctx.fill();
    ctx.lineWidth = Math.max(1, c * 0.035);
    ctx.strokeStyle = home ? C.tileOnEdge : C.tileEdge;
    ctx.stroke();
    ctx.lineWidth = Math.max(1, c * 0.025);
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.35)';
    ctx.beginPath();
    ctx.roundRect(x + c * 0.14, y + c * 0.14, c * 0.72, c * 0.72, c * 0.08);
    ctx.stroke();
    ctx.fillStyle = home ? C.textOn : C.text;
    ctx.font = `650 ${Math.round(c * (n >= 10 ? 0.38 : 0.42))}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(n), x + c / 2, y + c / 2 + c * 0.02);
  }
}

function round3(v) {
  return String(Math.round(v * 1000) / 1000);
}
