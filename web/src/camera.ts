// Orbit camera: yaw/pitch/distance around a target. Knows nothing of input; ui/input.ts drives it.
// Whatever the input, the eye stays above the ground (by GROUND_MARGIN) and outside the obstacles
// (colliders as bounding spheres): every move ends in constrain(), which lifts the pitch, the target
// or the distance just enough. Zooming in also stops GROUND_MARGIN short of the cloth in front of the
// eye (`surface`, the core's raycast), so the wheel and a pinch never take the eye through it.
import type { Vec3 } from './core/world';
import {
  add,
  dot,
  invert,
  length,
  lookAt,
  multiply,
  normalize,
  perspective,
  scale,
  sub,
  transformPoint,
  vec3,
  type Mat4,
} from './render/math';

export interface CameraMatrices {
  view: Mat4;
  projection: Mat4;
  viewProjection: Mat4;
  eye: Vec3;
  /** The point looked at (the ground stays solid out to it: render/frame-uniforms.ts). */
  target: Vec3;
}

/** What the eye must stay out of: a sphere collider, or a mesh collider's bounding box. */
export type CameraObstacle = { center: Vec3; radius: number } | { min: Vec3; max: Vec3 };

/** How far above the ground (m) the eye stays; also the clearance from obstacles. */
export const GROUND_MARGIN = 0.05;
export const PITCH_LIMIT = 1.5;
export const DISTANCE_MIN = 0.3;
export const DISTANCE_MAX = 40;
/** A panel wider than this share of the view is not framed around (it covers most of a narrow one). */
export const MAX_VIEW_INSET = 0.4;

export class OrbitCamera {
  yaw = 0.55;
  pitch = 0.28;
  distance = 3.2;
  target: Vec3 = vec3(0, 0.9, 0);
  fovY = (45 * Math.PI) / 180;
  aspect = 1;
  /**
   * The share of the view's width on the right that the panel covers (0 to MAX_VIEW_INSET): the
   * projection is shifted so that the target sits in the middle of the rest, and frame() fits the
   * box in the rest. (The panel and the picture are side by side, not one over the other.)
   */
  inset = 0;
  /** Height of the ground plane (m), or null for none: the eye stays GROUND_MARGIN above it. */
  ground: number | null = null;
  /** Spheres the eye stays out of. */
  obstacles: CameraObstacle[] = [];
  /** Distance along a ray (unit direction) to the nearest cloth it hits, or null for none: zoom() stops short of it. */
  surface: ((origin: Vec3, direction: Vec3) => number | null) | null = null;

  get eye(): Vec3 {
    const cp = Math.cos(this.pitch);
    return add(
      this.target,
      vec3(Math.sin(this.yaw) * cp * this.distance, Math.sin(this.pitch) * this.distance, Math.cos(this.yaw) * cp * this.distance),
    );
  }

  /** The shape (width / height) of the part of the view the panel leaves free. */
  get freeAspect(): number {
    return this.aspect * (1 - this.inset);
  }

  matrices(): CameraMatrices {
    const eye = this.eye;
    const view = lookAt(eye, this.target, vec3(0, 1, 0));
    const projection = perspective(this.fovY, this.aspect, 0.02, 100);
    // x_ndc − inset: the line of sight lands in the middle of the free part (clip x += −inset · w).
    for (let column = 0; column < 4; column++) projection[column * 4] -= this.inset * projection[column * 4 + 3];
    return { view, projection, viewProjection: multiply(projection, view), eye, target: { ...this.target } };
  }

  rotate(dx: number, dy: number): void {
    this.yaw -= dx * 0.008;
    this.pitch += dy * 0.008;
    this.constrain();
  }

  zoom(factor: number): void {
    if (Number.isFinite(factor) && factor > 0) {
      let distance = this.distance * factor;
      // In: the eye moves at most to GROUND_MARGIN short of the cloth between it and the target
      // (one already closer stays where it is: zooming in never backs it off).
      const hit = factor < 1 ? this.surface?.(this.eye, this.forward()) : null;
      if (hit != null && hit < this.distance) distance = Math.max(distance, Math.min(this.distance, this.distance - hit + GROUND_MARGIN));
      this.distance = distance;
    }
    this.constrain();
  }

  /** Moves the target in the view plane by a drag of (dx, dy) CSS pixels on a viewport of `height`. */
  pan(dx: number, dy: number, height: number): void {
    const { view } = this.matrices();
    const right = vec3(view[0], view[4], view[8]);
    const up = vec3(view[1], view[5], view[9]);
    const metresPerPixel = (2 * this.distance * Math.tan(this.fovY / 2)) / Math.max(1, height);
    this.target = add(this.target, add(scale(right, -dx * metresPerPixel), scale(up, dy * metresPerPixel)));
    this.constrain();
  }

  /**
   * Looks at the box [min, max] (its centre, or `target` when given) from the given direction, at a
   * distance where the whole box fits the view; then constrains.
   */
  frame(min: Vec3, max: Vec3, options: { yaw?: number; pitch?: number; target?: Vec3 } = {}): void {
    const centre = options.target ?? scale(add(min, max), 0.5);
    // The bounding sphere of the box around the point we look at, fitted in the narrower field.
    let radius = 0;
    for (const x of [min.x, max.x])
      for (const y of [min.y, max.y]) for (const z of [min.z, max.z]) radius = Math.max(radius, length(sub(vec3(x, y, z), centre)));
    const halfFov = Math.min(this.fovY, 2 * Math.atan(Math.tan(this.fovY / 2) * this.freeAspect)) / 2;
    this.target = centre;
    this.yaw = options.yaw ?? this.yaw;
    this.pitch = options.pitch ?? this.pitch;
    this.distance = (Math.max(radius, 0.25) / Math.sin(halfFov)) * 1.05;
    this.constrain();
  }

  /** Brings every parameter into range: pitch and distance limits, eye above ground, outside obstacles. */
  constrain(): void {
    if (!Number.isFinite(this.yaw)) this.yaw = 0;
    this.yaw = ((((this.yaw + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) - Math.PI;
    if (!Number.isFinite(this.pitch)) this.pitch = 0;
    this.pitch = Math.min(PITCH_LIMIT, Math.max(-PITCH_LIMIT, this.pitch));
    if (!Number.isFinite(this.distance)) this.distance = 3;
    this.distance = Math.min(DISTANCE_MAX, Math.max(DISTANCE_MIN, this.distance));
    const t = this.target;
    if (![t.x, t.y, t.z].every(Number.isFinite)) this.target = vec3(0, 0.5, 0);
    this.aboveGround();
    for (const obstacle of this.obstacles) this.leave(obstacle);
    // A longer distance at a negative pitch lowers the eye again: the ground has the last word.
    this.aboveGround();
  }

  private aboveGround(): void {
    if (this.ground !== null) {
      const floor = this.ground + GROUND_MARGIN;
      // The target itself stays above the floor (a pan cannot drag the view under it) ...
      if (this.target.y < floor) this.target = { ...this.target, y: floor };
      // ... and the eye: the lowest pitch that keeps it there.
      const lowest = Math.asin(Math.min(1, Math.max(-1, (floor - this.target.y) / this.distance)));
      if (this.pitch < lowest) this.pitch = Math.min(PITCH_LIMIT, lowest);
    }
  }

  /** Moves the eye out of an obstacle along the line of sight (farther from the target). */
  private leave(obstacle: CameraObstacle): void {
    if ('min' in obstacle) return this.leaveBox(obstacle.min, obstacle.max);
    const { center, radius } = obstacle;
    const clearance = radius + GROUND_MARGIN;
    const eye = this.eye;
    if (length(sub(eye, center)) >= clearance) return;
    // The eye is target + d·u: the larger root of |target + d·u − centre| = clearance.
    const u = normalize(sub(eye, this.target));
    const w = sub(this.target, center);
    const b = dot(u, w);
    const c = dot(w, w) - clearance * clearance;
    const root = -b + Math.sqrt(Math.max(0, b * b - c));
    if (root > this.distance) this.distance = Math.min(DISTANCE_MAX, root);
  }

  private leaveBox(min: Vec3, max: Vec3): void {
    const m = GROUND_MARGIN;
    const eye = this.eye;
    const inside = (p: Vec3) =>
      p.x > min.x - m && p.x < max.x + m && p.y > min.y - m && p.y < max.y + m && p.z > min.z - m && p.z < max.z + m;
    if (!inside(eye)) return;
    // Where the line of sight from the target leaves the grown box (slabs), plus the margin.
    const u = normalize(sub(eye, this.target));
    let exit = Infinity;
    for (const k of ['x', 'y', 'z'] as const) {
      if (Math.abs(u[k]) < 1e-9) continue;
      const a = (min[k] - m - this.target[k]) / u[k],
        b = (max[k] + m - this.target[k]) / u[k];
      exit = Math.min(exit, Math.max(a, b));
    }
    if (Number.isFinite(exit) && exit > this.distance) this.distance = Math.min(DISTANCE_MAX, exit + 1e-4);
  }

  /** World-space ray through normalized device coordinates (x, y in [-1, 1], y up). */
  ray(ndcX: number, ndcY: number): { origin: Vec3; direction: Vec3 } {
    const inverse = invert(this.matrices().viewProjection);
    const near = transformPoint(inverse, ndcX, ndcY, 0);
    const far = transformPoint(inverse, ndcX, ndcY, 1);
    return { origin: near, direction: normalize(sub(far, near)) };
  }

  /** Unit vector the camera looks along. */
  forward(): Vec3 {
    return normalize(sub(this.target, this.eye));
  }
}
