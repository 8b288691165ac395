// Statistics the Node benchmarks share.

/** The median of a list of numbers (the mean of the middle two for an even count). */
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
