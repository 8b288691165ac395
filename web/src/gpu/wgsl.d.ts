// WGSL sources are imported as strings (`./x.wgsl?raw`): Vite's raw import in the app, the same
// meaning through tests/gpu/build.mjs's plugin in Node bundles.
declare module '*.wgsl?raw' {
  const source: string;
  export default source;
}
