// Byte layout of weft_constraint (include/weft/weft.h) as TypeScript and WGSL read it: the one copy
// (gpu/layout.ts generates the WGSL struct from it). The C side asserts the same numbers with
// _Static_assert (wasm/weft_wasm.c) and exports them; checkLayout() compares both at load time,
// tests/wasm/boundary.test.mjs checks it against the built module and tests/gpu/layout.test.ts
// against offsetof/sizeof from the C compiler, so a drift fails loudly.
export const CONSTRAINT_LAYOUT = {
  size: 16,
  /// Field offsets in bytes, named as the C fields (a and b u32, the others f32).
  offsets: { a: 0, b: 4, rest_length: 8, compliance: 12 },
} as const;

export type ConstraintField = keyof typeof CONSTRAINT_LAYOUT.offsets;

export interface LayoutExports {
  layout_constraint_size(): number;
  layout_constraint_offset_a(): number;
  layout_constraint_offset_b(): number;
  layout_constraint_offset_rest_length(): number;
  layout_constraint_offset_compliance(): number;
}

/** Throws if the module's weft_constraint differs from CONSTRAINT_LAYOUT. */
export function checkLayout(exports: LayoutExports): void {
  const expected: [string, number, number][] = [['size', exports.layout_constraint_size(), CONSTRAINT_LAYOUT.size]];
  for (const [field, offset] of Object.entries(CONSTRAINT_LAYOUT.offsets)) {
    expected.push([field, exports[`layout_constraint_offset_${field as ConstraintField}`](), offset]);
  }
  for (const [key, actual, mirror] of expected) {
    if (actual !== mirror) throw new Error(`weft_constraint layout mismatch: ${key} is ${actual} in C, ${mirror} in TS/WGSL`);
  }
}
