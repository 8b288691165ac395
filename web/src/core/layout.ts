// Byte layout of weft_constraint as TypeScript and WGSL read it. The C side asserts the same numbers
// with _Static_assert (wasm/weft_wasm.c) and exports them; checkLayout() compares both at load time
// and tests/wasm/layout.test.mjs checks it against the built module, so a drift fails loudly.
export const CONSTRAINT_LAYOUT = {
  size: 16,
  a: 0,
  b: 4,
  restLength: 8,
  compliance: 12,
} as const;

export interface LayoutExports {
  layout_constraint_size(): number;
  layout_constraint_offset_a(): number;
  layout_constraint_offset_b(): number;
  layout_constraint_offset_rest_length(): number;
  layout_constraint_offset_compliance(): number;
}

/** Throws if the module's weft_constraint differs from CONSTRAINT_LAYOUT. */
export function checkLayout(exports: LayoutExports): void {
  const actual = {
    size: exports.layout_constraint_size(),
    a: exports.layout_constraint_offset_a(),
    b: exports.layout_constraint_offset_b(),
    restLength: exports.layout_constraint_offset_rest_length(),
    compliance: exports.layout_constraint_offset_compliance(),
  };
  for (const key of Object.keys(CONSTRAINT_LAYOUT) as (keyof typeof CONSTRAINT_LAYOUT)[]) {
    if (actual[key] !== CONSTRAINT_LAYOUT[key]) {
      throw new Error(`weft_constraint layout mismatch: ${key} is ${actual[key]} in C, ${CONSTRAINT_LAYOUT[key]} in TS/WGSL`);
    }
  }
}
