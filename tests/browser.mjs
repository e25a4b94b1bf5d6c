// Headless Chromium for the project's browser tests (the deck's and the HTML report's): Debian's
// chromium (CHROME_PATH), driven by the puppeteer-core that ships with marp-cli in slides/.
import path from 'node:path';
import { createRequire } from 'node:module';

const chrome = process.env.CHROME_PATH || '/usr/bin/chromium';

export async function launchChromium(root) {
  const require = createRequire(path.join(root, 'slides/package.json'));
  const puppeteer = require('puppeteer-core');
  return puppeteer.launch({ executablePath: chrome, headless: true, protocolTimeout: 60000, args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
}

// Collects what a page reports as wrong: console errors, page errors, failed requests.
export function watchProblems(page) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url().slice(0, 80)}`));
  return problems;
}

// The share of each rect's pixels unlike that rect's most common colour (0: blank), in a screenshot:
// rects are {x, y, width, height} in the page's CSS pixels from its top left (default: the whole
// image), so one capture of a whole page and one decode serve all its pictures. Decoded in the
// page itself: a second tab would put this one in the background, where Chromium stops painting.
export function inkedShares(page, pngBase64, rects = null) {
  return page.evaluate(async (b64, boxes) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return (boxes ?? [{ x: 0, y: 0, width: img.width, height: img.height }]).map((r) => {
      const w = Math.max(1, Math.round(r.width)), h = Math.max(1, Math.round(r.height));
      const d = ctx.getImageData(Math.round(r.x), Math.round(r.y), w, h).data;
      const counts = new Map();
      for (let p = 0; p < d.length; p += 4) { const k = (d[p] << 16) | (d[p + 1] << 8) | d[p + 2]; counts.set(k, (counts.get(k) || 0) + 1); }
      return 1 - Math.max(...counts.values()) / (d.length / 4);
    });
  }, pngBase64, rects);
}

// The same for a whole screenshot.
export async function inkedShare(page, pngBase64) {
  return (await inkedShares(page, pngBase64))[0];
}
