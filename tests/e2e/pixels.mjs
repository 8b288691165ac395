// Pixel checks done inside the page (the browser decodes PNGs; Node needs no image library).

// Installs window.__weftDecodePng(url) → ImageData in the page, once: every check below decodes
// PNGs through it.
export async function installDecoder(page) {
  await page.evaluate(() => {
    if (window.__weftDecodePng) return;
    window.__weftDecodePng = async (url) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      return context.getImageData(0, 0, image.width, image.height);
    };
  });
}

/** Decodes a PNG data URL in the page and returns summary statistics of its pixels. */
export async function imageStats(page, dataUrl) {
  await installDecoder(page);
  return page.evaluate(async (url) => {
    const image = await window.__weftDecodePng(url);
    const { data } = image;
    const colours = new Set();
    let sum = 0,
      sumSq = 0,
      saturated = 0,
      reddish = 0;
    const n = data.length / 4;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i],
        g = data[i + 1],
        b = data[i + 2];
      colours.add(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3));
      const luma = 0.3 * r + 0.59 * g + 0.11 * b;
      sum += luma;
      sumSq += luma * luma;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) saturated++;
      if (r > g + 40 && r > b + 20) reddish++;
    }
    const mean = sum / n;
    return {
      width: image.width,
      height: image.height,
      distinctColours: colours.size,
      mean,
      stddev: Math.sqrt(sumSq / n - mean * mean),
      saturatedFraction: saturated / n,
      reddishFraction: reddish / n,
    };
  }, dataUrl);
}

/** Fraction of pixels whose colour differs by more than `threshold` (max channel) between two PNGs. */
export async function imageDifference(page, a, b, threshold = 24) {
  await installDecoder(page);
  return page.evaluate(
    async ([urlA, urlB, limit]) => {
      const [x, y] = (await Promise.all([window.__weftDecodePng(urlA), window.__weftDecodePng(urlB)])).map((i) => i.data);
      if (x.length !== y.length) return 1;
      let differing = 0;
      for (let i = 0; i < x.length; i += 4) {
        if (Math.max(Math.abs(x[i] - y[i]), Math.abs(x[i + 1] - y[i + 1]), Math.abs(x[i + 2] - y[i + 2])) > limit) differing++;
      }
      return differing / (x.length / 4);
    },
    [a, b, threshold],
  );
}

/** Box (fractions of the view, y down) of the strongly coloured pixels of a normals-mode capture. */
export async function clothBounds(page, dataUrl) {
  await installDecoder(page);
  return page.evaluate(async (url) => {
    const image = await window.__weftDecodePng(url);
    const { data } = image;
    let top = Infinity,
      bottom = -Infinity,
      rows = 0,
      sum = 0;
    for (let y = 0; y < image.height; y++) {
      let count = 0;
      for (let x = 0; x < image.width; x++) {
        const i = (y * image.width + x) * 4;
        if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 70) count++;
      }
      if (count > 0) ((top = Math.min(top, y)), (bottom = Math.max(bottom, y)));
      ((rows += count), (sum += count * y));
    }
    if (rows === 0) return null;
    return { top: top / image.height, bottom: (bottom + 1) / image.height, centreY: sum / rows / image.height };
  }, dataUrl);
}

/** Centre (CSS pixels) of the cloth in a normals-mode capture: the strongly coloured pixels. */
export async function clothCentre(page, dataUrl) {
  await installDecoder(page);
  return page.evaluate(async (url) => {
    const image = await window.__weftDecodePng(url);
    const { data } = image;
    const points = [];
    for (let y = 0; y < image.height; y += 2) {
      for (let x = 0; x < image.width; x += 2) {
        const i = (y * image.width + x) * 4;
        if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 70) points.push([x, y]);
      }
    }
    if (points.length === 0) return null;
    const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
    const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
    // The cloth pixel nearest the centroid (the centroid itself may fall in a fold's gap).
    let best = points[0],
      bestD = Infinity;
    for (const p of points) {
      const d = (p[0] - cx) ** 2 + (p[1] - cy) ** 2;
      if (d < bestD) ((bestD = d), (best = p));
    }
    const scale = image.width / window.innerWidth;
    return { x: best[0] / scale, y: best[1] / scale, count: points.length };
  }, dataUrl);
}

/**
 * Fraction of all pixels that differ between two PNGs (as imageDifference) AND are strongly
 * coloured in the first: where something colourful is drawn in `a` that is not in `b`. With
 * notGreen, pixels whose strongest channel is green do not count (in the normals mode that is
 * whatever faces up, e.g. a cloth lying flat).
 */
export async function colourfulDifference(page, a, b, { threshold = 24, notGreen = false } = {}) {
  await installDecoder(page);
  return page.evaluate(
    async ([urlA, urlB, limit, skipGreen]) => {
      const [x, y] = (await Promise.all([window.__weftDecodePng(urlA), window.__weftDecodePng(urlB)])).map((i) => i.data);
      if (x.length !== y.length) return 1;
      let count = 0;
      for (let i = 0; i < x.length; i += 4) {
        const differs = Math.max(Math.abs(x[i] - y[i]), Math.abs(x[i + 1] - y[i + 1]), Math.abs(x[i + 2] - y[i + 2])) > limit;
        const green = x[i + 1] >= x[i] && x[i + 1] >= x[i + 2];
        if (differs && Math.max(x[i], x[i + 1], x[i + 2]) - Math.min(x[i], x[i + 1], x[i + 2]) > 60 && !(skipGreen && green)) count++;
      }
      return count / (x.length / 4);
    },
    [a, b, threshold, notGreen],
  );
}

/** Mean colour of the strongly coloured pixels (the gold cloth; ground and sky are grey) and their share. */
export async function colourfulMean(page, dataUrl) {
  await installDecoder(page);
  return page.evaluate(async (url) => {
    const image = await window.__weftDecodePng(url);
    const { data } = image;
    let r = 0,
      g = 0,
      b = 0,
      count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) <= 40) continue;
      ((r += data[i]), (g += data[i + 1]), (b += data[i + 2]), count++);
    }
    return { r: r / count, g: g / count, b: b / count, fraction: count / (data.length / 4) };
  }, dataUrl);
}
