// replay.js — plays a LURD move list onto the Session one move at a time on a timer:
// short animations (a walk, a box drag) and the user-controlled replay of a solution
// (speed, pause/resume, step forward = one more move, step back = undo). It never
// decides legality: `step(dir)` is Session.step and reports a blocked move.

const DIR_OF = { u: 0, r: 1, d: 2, l: 3 };

export class Playback {
  /**
   * `step(dir, letter)` plays a move and returns its letter (or undefined when blocked),
   * `undo()` takes one back, `onChange()` redraws after moves, `onEnd(reason)` is called
   * when the list is played out ('end') or a move is blocked ('blocked').
   */
  constructor({ step, undo, onChange, onEnd = () => {} }) {
    Object.assign(this, { stepFn: step, undoFn: undo, onChange, onEnd });
    this.moves = '';
    this.pos = 0;
    this.delay = 25;
    this.timer = 0;
    this.running = false;
  }

  /** Take a new move list (plain LURD); nothing is played yet. */
  load(lurd, delay = this.delay) {
    this.stop();
    this.moves = lurd;
    this.pos = 0;
    this.delay = delay;
  }

  get active() { return this.pos < this.moves.length; }
  get playing() { return this.running; }
  get length() { return this.moves.length; }
  /** The moves not played yet. */
  remaining() { return this.moves.slice(this.pos); }

  play() {
    if (this.running || this.pos >= this.moves.length) return;
    this.running = true;
    const tick = () => {
      this.timer = 0;
      const last = this.pos + 1 >= this.moves.length;
      if (last) this.running = false;
      if (!this.forward()) return;
      if (last) this.onEnd('end');
      else this.timer = setTimeout(tick, this.delay);
    };
    this.timer = setTimeout(tick, this.delay);
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.running = false;
  }

  setDelay(ms) {
    this.delay = ms;
    if (this.running) {
      this.pause();
      this.play();
    }
  }

  /** One move forward; false at the end or when the move is blocked. */
  forward() {
    if (!this.apply()) return false;
    this.onChange();
    return true;
  }

  apply() {
    if (this.pos >= this.moves.length) return false;
    const letter = this.moves[this.pos];
    if (this.stepFn(DIR_OF[letter.toLowerCase()], letter) === undefined) {
      this.pause();
      this.onEnd('blocked', this.pos);
      return false;
    }
    this.pos++;
    return true;
  }

  /** One move back (undo); false at the start of the list. */
  back() {
    if (this.pos === 0) return false;
    this.pause();
    if (!this.undoFn()) return false;
    this.pos--;
    this.onChange();
    return true;
  }

  /** Play every remaining move at once. */
  finish() {
    this.pause();
    const before = this.pos;
    while (this.pos < this.moves.length && this.apply());
    if (this.pos !== before) this.onChange();
    if (this.pos >= this.moves.length && this.moves.length) this.onEnd('end');
  }

  /** Drop the list where it is. */
  stop() {
    this.pause();
    this.moves = '';
    this.pos = 0;
  }
}
