// Real-time stepping: simulated time follows wall time. Each rendered frame adds its wall time to an
// accumulator and takes as many fixed steps (the scene's frame time) as fit, at most MAX_STEPS_PER_FRAME;
// what a slow machine cannot catch up is dropped, and the ratio of wall time to simulated time is the
// slow-motion factor the HUD shows. Pure arithmetic (no DOM, no clock): app.ts feeds it times.

/** At most this many fixed steps per rendered frame (more would only slow the frames further). */
export const MAX_STEPS_PER_FRAME = 4;
/** A longer gap between two frames (a background tab, a debugger) counts as this much. */
export const MAX_FRAME_GAP_MS = 250;
/** Window (ms of wall time) over which the slow-motion factor and the step rate are measured ... */
export const RATE_WINDOW_MS = 1000;
/** ... widened until it holds this many steps (a slow GPU solver takes seconds for a few) ... */
export const RATE_WINDOW_STEPS = 8;
/** ... but never wider than this. */
export const RATE_WINDOW_MAX_MS = 10_000;
/** Below this factor the page calls it real time (frame jitter). */
export const SLOW_MOTION_THRESHOLD = 1.15;

export class RealTimeStepper {
  private accumulator = 0;
  private window: { wall: number; steps: number }[] = [];
  private windowWall = 0;
  private windowSteps = 0;
  /** Wall time / simulated time over the last RATE_WINDOW_MS (1 = real time, 2 = half speed). */
  slowMotion = 1;
  /** Fixed steps simulated per second of wall time over the same window. */
  stepsPerSecond = 0;

  /** stepMs: the fixed step (the scene's frame time) in ms. */
  constructor(public stepMs: number) {}

  /**
   * Adds `wallMs` of wall time; returns how many fixed steps to take now. `busy`: the previous steps
   * have not finished (its time still accumulates; the steps are taken when it is done).
   */
  advance(wallMs: number, busy = false): number {
    const dt = Math.min(Math.max(0, wallMs), MAX_FRAME_GAP_MS);
    this.accumulator += dt;
    let steps = 0;
    if (!busy) {
      steps = Math.min(MAX_STEPS_PER_FRAME, Math.floor(this.accumulator / this.stepMs));
      this.accumulator -= steps * this.stepMs;
      // More than a frame's worth of steps left over: the machine cannot keep up. Drop it (slow
      // motion) instead of owing it forever.
      const owed = MAX_STEPS_PER_FRAME * this.stepMs;
      if (this.accumulator > owed) this.accumulator = owed;
    }
    // The rates see the real gap (a frame that took 600 ms is 600 ms of wall time, though only
    // MAX_FRAME_GAP_MS of it buys steps); only a pause-like gap (a background tab) is cut short.
    this.record(Math.min(Math.max(0, wallMs), RATE_WINDOW_MAX_MS / 2), steps);
    return steps;
  }

  /** Paused: nothing accumulates, and the rates start over when it runs again. */
  pause(): void {
    this.accumulator = 0;
    this.window = [];
    this.windowWall = this.windowSteps = 0;
    this.slowMotion = 1;
    this.stepsPerSecond = 0;
  }

  private record(wall: number, steps: number): void {
    this.window.push({ wall, steps });
    this.windowWall += wall;
    this.windowSteps += steps;
    const droppable = () => {
      const old = this.window[0];
      if (this.window.length <= 1 || this.windowWall - old.wall < RATE_WINDOW_MS) return false;
      return this.windowSteps - old.steps >= RATE_WINDOW_STEPS || this.windowWall > RATE_WINDOW_MAX_MS;
    };
    while (droppable()) {
      const old = this.window.shift()!;
      this.windowWall -= old.wall;
      this.windowSteps -= old.steps;
    }
    if (this.windowWall <= 0) return;
    this.stepsPerSecond = (this.windowSteps * 1000) / this.windowWall;
    // Too early to judge until a few steps' worth of wall time has passed.
    if (this.windowWall < 4 * this.stepMs) return;
    const simulated = this.windowSteps * this.stepMs;
    this.slowMotion = simulated > 0 ? Math.max(1, this.windowWall / simulated) : this.windowWall / this.stepMs;
  }
}
