// The scripted sphere motion of src/spheres.c on the host side of the GPU solver: the kernels get
// each substep's sphere centres (and the previous ones, for friction that knows the sphere moves)
// in their per-dispatch record. float32 arithmetic is reproduced with Math.fround so the path
// matches the C core's bit for bit where C uses float.

import type { Vec3 } from '../core/world';

/// weft_sphere_def as the GPU solver needs it.
export interface SphereDef {
  center: Vec3;
  radius: number;
  amplitude: Vec3;
  frequency: number; // Hz
  moving: boolean;
  startTime?: number; // s of motion already run (a solver taking over mid-motion), default 0
  movingNow?: boolean; // whether the motion is on now (default: moving, the state at start/reset)
}

const f = Math.fround;

/// deterministic_math.c: weft_sin (range reduction in double, odd polynomial in float).
export function weftSin(x: number): number {
  const pi = f(3.14159265358979);
  const twoPi = f(6.28318530717959);
  const turns = x / twoPi;
  const whole = Math.trunc(turns + (turns >= 0 ? 0.5 : -0.5));
  let r = f(x - whole * twoPi);
  if (r > f(pi * 0.5)) r = f(pi - r);
  else if (r < f(-pi * 0.5)) r = f(-pi - r);
  const r2 = f(r * r);
  let p = f(-2.5052108e-8);
  p = f(f(p * r2) + f(2.7557319e-6));
  p = f(f(p * r2) - f(1.984127e-4));
  p = f(f(p * r2) + f(8.3333333e-3));
  p = f(f(p * r2) - f(1.6666667e-1));
  return f(r + f(f(r * r2) * p));
}

export class SphereMotion {
  center: Vec3;
  previous: Vec3;
  time = 0; // s of motion so far (double, as in C)
  moving: boolean;

  constructor(readonly def: SphereDef) {
    this.time = def.startTime ?? 0;
    this.center = this.place();
    this.previous = { ...this.center };
    this.moving = def.movingNow ?? def.moving;
  }

  /// spheres.c: weft_sphere_place, the centre at this.time.
  private place(): Vec3 {
    const s = weftSin(f(f(f(6.28318530717959) * f(this.def.frequency)) * f(this.time)));
    const d = this.def;
    return {
      x: f(d.center.x + f(d.amplitude.x * s)),
      y: f(d.center.y + f(d.amplitude.y * s)),
      z: f(d.center.z + f(d.amplitude.z * s)),
    };
  }

  /// spheres.c: weft_spheres_advance for one substep of h seconds.
  advance(h: number): void {
    this.previous = { ...this.center };
    if (!this.moving) return;
    this.time += f(h);
    this.center = this.place();
  }

  reset(): void {
    this.center = { ...this.def.center };
    this.previous = { ...this.def.center };
    this.time = 0;
    this.moving = this.def.moving;
  }
}
