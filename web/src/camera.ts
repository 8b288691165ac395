// Orbit camera: yaw/pitch/distance around a target. Knows nothing of input; ui/input.ts drives it.
import type { Vec3 } from './core/world';
import { add, invert, lookAt, multiply, normalize, perspective, scale, sub, transformPoint, vec3, type Mat4 } from './render/math';

export interface CameraMatrices {
  view: Mat4;
  projection: Mat4;
  viewProjection: Mat4;
  eye: Vec3;
}

export class OrbitCamera {
  yaw = 0.55;
  pitch = 0.28;
  distance = 3.2;
  target: Vec3 = vec3(0, 0.9, 0);
  fovY = (45 * Math.PI) / 180;
  aspect = 1;

  get eye(): Vec3 {
    const cp = Math.cos(this.pitch);
    return add(
      this.target,
      vec3(Math.sin(this.yaw) * cp * this.distance, Math.sin(this.pitch) * this.distance, Math.cos(this.yaw) * cp * this.distance),
    );
  }

  matrices(): CameraMatrices {
    const eye = this.eye;
    const view = lookAt(eye, this.target, vec3(0, 1, 0));
    const projection = perspective(this.fovY, this.aspect, 0.02, 100);
    return { view, projection, viewProjection: multiply(projection, view), eye };
  }

  rotate(dx: number, dy: number): void {
    this.yaw -= dx * 0.008;
    this.pitch = Math.min(1.5, Math.max(-1.5, this.pitch + dy * 0.008));
  }

  zoom(factor: number): void {
    this.distance = Math.min(40, Math.max(0.3, this.distance * factor));
  }

  /** Moves the target in the view plane by a drag of (dx, dy) CSS pixels on a viewport of `height`. */
  pan(dx: number, dy: number, height: number): void {
    const { view } = this.matrices();
    const right = vec3(view[0], view[4], view[8]);
    const up = vec3(view[1], view[5], view[9]);
    const metresPerPixel = (2 * this.distance * Math.tan(this.fovY / 2)) / Math.max(1, height);
    this.target = add(this.target, add(scale(right, -dx * metresPerPixel), scale(up, dy * metresPerPixel)));
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
